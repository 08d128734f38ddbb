"""docs/rules.md R5 (royalty tables) and R9 (2-7 middle royalties), row by row."""

import numpy as np
import pytest

from ofc_core.cards import parse_cards
from ofc_core.rulesets import load_ruleset
from pipeline.rules.rows import Rows
from pipeline.rules.royalties import row_royalties
from tests.hands import player, score

FIVE_CARD = {
    "high card": "2s 5d 8c Jh Kd",
    "pair": "2s 2d 8c Jh Kd",
    "two pair": "2s 2d 8c 8h Kd",
    "trips": "2s 2d 2c Jh Kd",
    "straight": "9s Td Jc Qh Kd",
    "flush": "2h 5h 8h Jh Kh",
    "full house": "2s 2d 2c Kh Kd",
    "quads": "2s 2d 2c 2h Kd",
    "straight flush": "9h Th Jh Qh Kh",
    "royal flush": "Th Jh Qh Kh Ah",
}
# (table, row): royalties in the order of FIVE_CARD, from the R5 table.
EXPECTED = {
    ("american", "middle"): [0, 0, 0, 2, 4, 8, 12, 20, 30, 50],
    ("russian", "middle"): [0, 0, 0, 2, 4, 8, 12, 16, 20, 30],
    ("stars-2013", "middle"): [0, 0, 0, 0, 4, 8, 12, 20, 30, 50],
    ("american", "bottom"): [0, 0, 0, 0, 2, 4, 6, 10, 15, 25],
    ("russian", "bottom"): [0, 0, 0, 0, 2, 4, 6, 8, 10, 15],
    ("stars-2013", "bottom"): [0, 0, 0, 0, 2, 4, 6, 10, 15, 25],
}
RULESET_OF_TABLE = {
    "american": "classic-1-6-american",
    "russian": "pineapple-2-4-pokerdom",
    "stars-2013": "classic-stars-2013",
}
TOPS = {
    "5s 5d Ac": 0,
    "6s 6d 2c": 1,
    "Ts Td 2c": 5,
    "Qs Qd 2c": 7,
    "As Ad Kc": 9,
    "2s 2d 2c": 10,
    "3s 3d 3c": 11,
    "As Ad Ac": 22,
    "Ks Qd Jc": 0,
}


def _royalties(ruleset: str, top: str, middle: str, bottom: str):
    rows = Rows.from_codes(*(np.array([parse_cards(t)]) for t in (top, middle, bottom)))
    rs = load_ruleset(ruleset)
    return row_royalties(rows, rs.royalties, rs.lowball_middle)


@pytest.mark.parametrize(("table", "row"), list(EXPECTED))
def test_r5_five_card_rows_pay_the_table(table, row):
    got = []
    for hand in FIVE_CARD.values():
        r = _royalties(RULESET_OF_TABLE[table], "2c 3c 4d", hand, hand)
        got.append(int((r.middle if row == "middle" else r.bottom)[0]))
    assert got == EXPECTED[(table, row)]


@pytest.mark.parametrize("table", list(RULESET_OF_TABLE))
@pytest.mark.parametrize(("top", "expected"), list(TOPS.items()))
def test_r5_top_royalties_are_the_same_in_all_tables(table, top, expected):
    assert (
        _royalties(RULESET_OF_TABLE[table], top, "2h 3h 4h 5h 7d", "2h 3h 4h 5h 7d").top[0]
        == expected
    )


@pytest.mark.parametrize(
    ("middle", "expected"),
    [
        ("Ts 8d 6c 4h 2d", 1),
        ("9s 8d 6c 4h 2d", 2),
        ("8s 7d 6c 4h 2d", 3),
        ("7s 6d 5c 4h 2d", 4),
        ("7s 5d 4c 3h 2d", 6),
        ("Js 8d 6c 4h 2d", 0),
        ("7s 5s 4s 3s 2s", 0),
        ("8s 8d 6c 4h 2d", 0),
    ],
)
def test_r9_lowball_middle_royalties(middle, expected):
    assert _royalties("pineapple-27", "2c 3c 4d", middle, "As Ad Ac Kd Kc").middle[0] == expected


def test_r5_a_fouled_hand_earns_no_royalties():
    fouled = player("Ks Kd Kc", "Qs Qh Jd Jc 2h", "9s 9h 9d 9c 3s")  # trips top above two pair
    result = score("classic-1-6-american", fouled).player_hands.row(0, named=True)
    assert result["foul"]
    assert (result["royalties_top"], result["royalties_bottom"], result["royalties"]) == (0, 0, 0)


DEUCE_RULES = """
[rulesets.finnish]
extends = "classic-1-6-american"
deuce_of_spades = true
"""


def test_r5_finnish_deuce_doubles_the_row_exchange_a_pair_with_2s_against_full_house_pays_12(
    tmp_path,
):
    rules = tmp_path / "rules.toml"
    rules.write_text(DEUCE_RULES)
    a = player("3h 4d 6c", "8s 9d Tc Qh Kd", "2s 2d 5c 7h Jd")  # bottom pair of deuces with 2♠
    b = player("3c 4h 7c", "8h 9c Td Qs Kc", "As Ac Ad Ks Kh")  # bottom full house: 6
    pair = score("finnish", a, b, rules_file=str(rules)).pairwise.row(0, named=True)
    assert pair["royalties_a"] == -12
    plain = score("classic-1-6-american", a, b).pairwise.row(0, named=True)
    assert plain["royalties_a"] == -6
