"""Fantasyland repeats come from the whole match, even when it arrives in pieces (docs/rules.md R6).

Under ``pineapple-2-4-pokerbet`` (one repeat only) a player enters
Fantasyland, stays once, and then qualifies again, which the repeat limit
forbids. The third hand only knows it is a second stay once the earlier hands
of its match are in the database, whichever order the files come in.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from parsers.jsonl import jsonl_bytes
from tests.hand_builder import Hand, Player, build
from tests.import_support import UNLIKE_SETTLEMENTS, UNNUMBERED, ofc_import, query

RULESET = "pineapple-2-4-pokerbet"
START = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)

ENTERS = Player(
    1,
    "Fay",
    (
        ("Qs", "Ks Kh", "As Ah", ""),
        ("Qh", "", "Ac", "2h"),
        ("3c", "4c", "", "3h"),
        ("", "4d 9s", "", "5h"),
        ("", "", "7d 8d", "6h"),
    ),
)
OPPONENT_FIRST = Player(
    2,
    "Gus",
    (
        ("2c", "Tc Jc", "7c 7s", ""),
        ("5d", "8h", "", "2s"),
        ("6c", "9h", "", "3s"),
        ("", "2d", "Th", "4s"),
        ("", "", "Td Jd", "5s"),
    ),
)
# Trips on top: qualifies to stay (Stay B), 14 cards with one discarded.
IN_FANTASYLAND = Player(
    1, "Fay", (("2s 2h 2d", "3s 3h 3d 4c 4d", "5s 5h 5d 5c 6h", "7h"),), fantasyland_cards=14
)
OPPONENT = Player(
    2,
    "Gus",
    (
        ("Jc", "Qc Qd", "As Ah", ""),
        ("Tc", "", "Ad", "2c"),
        ("9c", "8s", "", "3c"),
        ("", "7s 6s", "", "4h"),
        ("", "", "Kd Ks", "8d"),
    ),
)


def hand(number: int, players: tuple[Player, ...], continuation: bool) -> Hand:
    return Hand(
        room_hand_id=f"77{number}",
        players=players,
        button_seat=2,
        ruleset=RULESET,
        played_at=START + dt.timedelta(minutes=2 * number),
        max_players=2,
        match_id="M1",
        match_hand=None if continuation else number,
        match_hands=None if continuation else 2,
        continuation=continuation,
        source_format="jsonl",
    )


HANDS = [
    hand(1, (ENTERS, OPPONENT_FIRST), continuation=False),
    hand(2, (IN_FANTASYLAND, OPPONENT), continuation=True),
    hand(3, (IN_FANTASYLAND, OPPONENT), continuation=True),
]


def write(path: Path, hands: list[Hand]) -> Path:
    path.write_bytes(jsonl_bytes(*build(hands)))
    return path


FAY = (
    "SELECT room_hand_id, fantasyland_repeats, fantasyland_next, fantasyland_stay "
    "FROM player_hands AS ph JOIN hands AS h USING (hand_id) WHERE player = 'Fay' ORDER BY h.played_at"
)
EXPECTED = [("771", 0, True, False), ("772", 0, True, True), ("773", 1, False, False)]
STAKES = (
    "SELECT ph.point_value, ph.currency, count(*) FROM player_hands AS ph JOIN hands AS h "
    "USING (hand_id) WHERE ph.point_value = h.point_value AND ph.currency = h.currency GROUP BY ALL"
)


def test_whole_match_in_one_file(tmp_path: Path) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(write(tmp_path / "all.jsonl", HANDS), "--db", db) == 0
    assert query(db, FAY) == EXPECTED


@pytest.mark.parametrize("order", ["earlier first", "later first"])
def test_match_split_between_imports(tmp_path: Path, order: str) -> None:
    earlier = write(tmp_path / "earlier.jsonl", HANDS[:2])
    later = write(tmp_path / "later.jsonl", HANDS[2:])
    db = tmp_path / "ofc.duckdb"
    for file in (earlier, later) if order == "earlier first" else (later, earlier):
        assert ofc_import(file, "--db", db) == 0
    assert query(db, FAY) == EXPECTED
    assert query(db, "SELECT count(*) FROM pairwise") == [(3,)]
    assert query(db, STAKES) == [(0.5, "USD", 6)]  # re-scored rows keep their hand's stake
    assert query(db, UNLIKE_SETTLEMENTS) == [(0,)]  # and count their new settlements
    assert query(db, UNNUMBERED) == [(0,)]  # and keep their hand's number
