"""docs/rules.md R6 and R10: Fantasyland entry, cards dealt, stay and repeat limits."""

import pytest

from tests.hands import player, score

MIDDLE = "2h 2d 5c 8h Js"  # a pair of deuces: below every top pair QQ+
BOTTOM = "Ts Td Tc 3s 3d"  # full house
STRONG_MIDDLE = "8s 8d 8h 4c 5c"  # trips: above every pair on top
TOPS = {"Jh Jc 2c": None, "Qh Qc 2c": "QQ", "Kh Kc 2c": "KK", "Ah Ac 2c": "AA", "Qh Qc Qd": "trips"}
PRESET_CARDS = {
    "classic-1-6-american": {"QQ": 13, "KK": 13, "AA": 13, "trips": 13},
    "turbo-1-6-american": {"QQ": 13, "KK": 13, "AA": 13, "trips": 13},
    "pineapple-1-6-american": {"QQ": 14, "KK": 14, "AA": 14, "trips": 14},
    "pineapple-progressive-american": {"QQ": 14, "KK": 15, "AA": 16, "trips": 17},
    "pineapple-2-4-pokerbet": {"QQ": 14, "KK": 15, "AA": 16, "trips": 17},
    "pineapple-2-4-pokerdom": {"QQ": 14, "KK": 14, "AA": 14, "trips": 14},
    "classic-stars-2013": {"QQ": 0, "KK": 0, "AA": 0, "trips": 0},
}


def outcome(ruleset: str, top: str, middle: str = STRONG_MIDDLE, bottom: str = BOTTOM, **extra):
    row = score(ruleset, player(top, middle, bottom, **extra)).player_hands.row(0, named=True)
    return row["fantasyland_next"], row["fantasyland_next_cards"], row["fantasyland_stay"]


@pytest.mark.parametrize("ruleset", list(PRESET_CARDS))
@pytest.mark.parametrize("top", list(TOPS))
def test_r6_r10_entry_and_cards_per_preset(ruleset, top):
    level = TOPS[top]
    expected = 0 if level is None else PRESET_CARDS[ruleset][level]
    middle = "As Ad Ac 4c 5c" if level == "trips" else STRONG_MIDDLE
    bottom = "Ks Kd Kc 3s 3d" if level == "trips" else BOTTOM
    assert outcome(ruleset, top, middle, bottom)[:2] == (expected > 0, expected)


def test_r6_a_fouled_hand_never_enters():
    assert outcome("pineapple-1-6-american", "Ah Ac 2c", MIDDLE) == (False, 0, False)


def test_r6_pineapple_stays_with_trips_on_top_and_is_dealt_the_base_count():
    assert outcome(
        "pineapple-progressive-american",
        "Qh Qc Qd",
        "As Ad Ac 4c 5c",
        "Ks Kd Kc 3s 3d",
        in_fantasyland=True,
    ) == (True, 14, True)


def test_r6_pineapple_stays_with_quads_on_the_bottom():
    assert outcome(
        "pineapple-1-6-american", "2c 3c 4d", MIDDLE, "9s 9d 9c 9h 3d", in_fantasyland=True
    ) == (True, 14, True)


def test_r6_pineapple_does_not_stay_with_a_full_house_in_the_middle():
    assert outcome(
        "pineapple-1-6-american",
        "Ah Ac 2c",
        "9s 9d 9c 4s 4d",
        "Ks Kd Kc Kh 3d",
        in_fantasyland=True,
    ) == (True, 14, True)  # quads bottom: stays
    assert outcome(
        "pineapple-1-6-american",
        "Ah Ac 2c",
        "9s 9d 9c 4s 4d",
        "Js Jd Jc 3h 3d",
        in_fantasyland=True,
    ) == (False, 0, False)  # AA on top does not re-enter


def test_r6_classic_stays_with_a_full_house_in_the_middle():
    assert outcome(
        "classic-1-6-american", "2c 3c 5d", "9s 9d 9c 4s 4d", "Js Jd Jc 3h 3d", in_fantasyland=True
    ) == (True, 13, True)


def test_r6_pokerbet_allows_one_repeat_only():
    hand = ("Qh Qc Qd", "As Ad Ac 4c 5c", "Ks Kd Kc 3s 3d")
    assert outcome("pineapple-2-4-pokerbet", *hand, in_fantasyland=True)[2]
    assert not outcome("pineapple-2-4-pokerbet", *hand, in_fantasyland=True, fantasyland_repeats=1)[
        2
    ]
    assert outcome(
        "pineapple-progressive-american", *hand, in_fantasyland=True, fantasyland_repeats=5
    )[2]


def test_r6_fouled_fantasyland_hand_does_not_stay():
    assert outcome(
        "pineapple-1-6-american",
        "Qh Qc Qd",
        "2s 3d 5c 7h 9d",
        "Ts Tc Th Td 3h",
        in_fantasyland=True,
    ) == (False, 0, False)


KK_ROOM = """
[rulesets.kk-room]
extends = "pineapple-1-6-american"
[rulesets.kk-room.fantasyland]
entry = { "KK" = 14 }
stay = [{ row = "top", at_least = "trips" }, { any_row_royalty_at_least = 10 }]
stay_cards = 14
"""


def test_r6_rooms_with_kk_entry_and_royalty_10_stay(tmp_path):
    rules = tmp_path / "kk.toml"
    rules.write_text(KK_ROOM)

    def go(*rows, **extra):
        result = score("kk-room", player(*rows, **extra), rules_file=str(rules)).player_hands
        return result.row(0, named=True)["fantasyland_next_cards"]

    assert go("Qh Qc 2c", STRONG_MIDDLE, BOTTOM) == 0
    assert go("Kh Kc 2c", STRONG_MIDDLE, BOTTOM) == 14
    assert go("Ah Ac 2c", STRONG_MIDDLE, BOTTOM) == 14  # levels above KK take KK's count
    # a middle full house pays 12 >= 10: stays in this room, not in the preset
    assert go("2c 3c 5d", "9s 9d 9c 4s 4d", "Js Jd Jc 3h 3d", in_fantasyland=True) == 14
