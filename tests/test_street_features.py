"""The street features of the style metrics (``pipeline.load.street_features``, docs/metrics.md).

``street_features`` computes them for every player-hand of a piece at once;
here they are worked out one player-hand at a time, as the module docstring
states them, on the parsed sample archive and on hands made for the edge cases.
"""

from __future__ import annotations

import gzip
from collections import defaultdict
from pathlib import Path

import polars as pl
import pytest

from ofc_core.cards import RANKS
from parsers.detect import detect
from parsers.schema import PLACEMENTS
from pipeline.load.parsing import parse_bytes
from pipeline.load.street_features import street_features

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


def _setup(cards: list[str]) -> str:
    """The setup of the bottom cards placed on street 1 (first match wins)."""
    ranks = [RANKS.index(c[0]) for c in cards]
    low = [-1 if r == RANKS.index("A") else r for r in ranks]
    if len(set(ranks)) < len(ranks):
        return "pair_or_better"
    if len(cards) >= 2 and len({c[1] for c in cards}) == 1:
        return "flush_draw"
    if len(cards) >= 2 and min(max(ranks) - min(ranks), max(low) - min(low)) <= 4:
        return "straight_draw"
    return "high_cards"


def _top_qq_plus(cards: list[str]) -> bool:
    ranks = [c[0] for c in cards]
    return any(ranks.count(r) >= 2 for r in "QKA")


def _plain(placements: pl.DataFrame, player_hands: pl.DataFrame) -> list[tuple]:
    """Each player-hand's features, worked out from its own rows."""
    rows = defaultdict(list)
    for row in placements.iter_rows(named=True):
        rows[row["hand_id"], row["seat"]].append(row)
    found = []
    for player in player_hands.iter_rows(named=True):
        mine = rows[player["hand_id"], player["seat"]]
        street = {s: [r for r in mine if r["street"] == s] for s in (1, 2)}
        ok = {s: street[s] and not any(r["auto"] for r in street[s]) for s in (1, 2)}
        first = not player["in_fantasyland"] and ok[1]
        second = first and ok[2]
        bottom = [r["card"] for r in street[1] if r["row"] == "bottom" and r["card"]]
        top = [r["card"] for r in street[1] + street[2] if r["row"] == "top" and r["card"]]
        found.append(
            (
                player["hand_id"],
                player["seat"],
                _setup(bottom) if first else None,
                _top_qq_plus(top) if second else None,
            )
        )
    return found


def _computed(placements: pl.DataFrame, player_hands: pl.DataFrame) -> list[tuple]:
    return street_features(placements, player_hands).rows()


@pytest.mark.parametrize("folder", ["en", "ru", "jsonl"])
def test_the_features_of_every_player_hand_of_the_sample_archive(folder: str) -> None:
    for path in sorted((SAMPLE / folder).glob("*.*"))[:2]:
        data = gzip.decompress(path.read_bytes())
        fmt = "jsonl" if folder == "jsonl" else detect(data[:100_000].decode(errors="ignore"))
        tables, _ = parse_bytes(data, 1, path.name, fmt, "utf-8", None)
        placements, players = tables["placements"], tables["player_hands"]
        assert players.height > 100, path.name
        assert _computed(placements, players) == _plain(placements, players), path.name


def _hand(rows: list[tuple]) -> pl.DataFrame:
    """``placements`` rows (``parsers.schema.PLACEMENTS``) from tuples."""
    return pl.DataFrame(rows, schema=pl.from_arrow(PLACEMENTS.empty_table()).schema, orient="row")


def test_edge_cases_one_player_hand_at_a_time() -> None:
    """Ace-low draws, pairs on top, timed-out streets, Fantasyland, hidden cards, a hand
    whose rows come in two runs, rows of a seat with no player-hand, a seat twice."""
    placements = _hand(
        [
            ("a", 1, 1, "Ah", "bottom", False),  # ace-low straight draw
            ("a", 1, 1, "4d", "bottom", False),
            ("a", 1, 1, "Qs", "top", False),
            ("a", 1, 2, "Qc", "top", False),
            ("a", 2, 1, "Kh", "bottom", False),  # flush draw, then a timed-out street 2
            ("a", 2, 1, "2h", "bottom", False),
            ("a", 2, 2, "Kd", "top", True),
            ("b", 1, 1, "9s", "bottom", False),  # a pair; its hand's rows in two runs
            ("b", 1, 1, "9d", "bottom", False),
            ("a", 3, 1, None, "discard", False),  # a hidden card only
            ("b", 1, 2, None, "discard", False),
            ("b", 1, 2, "Ac", "top", False),
            ("b", 1, 1, "Ad", "top", False),
            ("b", 2, 1, "Ts", "bottom", True),  # street 1 timed out
            ("c", 1, 0, "As", "top", False),  # Fantasyland: street 0 only
            ("c", 9, 1, "Js", "bottom", False),  # no such player-hand
            ("d", 1, 1, "Jh", "bottom", False),  # one card: high cards
            ("d", 1, 1, "3c", "middle", False),
        ]
    )
    players = pl.DataFrame(
        {
            "hand_id": ["a", "a", "a", "b", "b", "c", "d", "d", "e"],
            "seat": [1, 2, 3, 1, 2, 1, 1, 1, 1],
            "in_fantasyland": [False, False, False, False, False, True, False, False, None],
        },
        schema_overrides={"seat": pl.Int8},
    )
    expected = _plain(placements, players)
    assert _computed(placements, players) == expected
    assert expected[:4] == [
        ("a", 1, "straight_draw", True),
        ("a", 2, "flush_draw", None),
        ("a", 3, "high_cards", None),
        ("b", 1, "pair_or_better", True),
    ]


def test_no_placements() -> None:
    players = pl.DataFrame(
        {"hand_id": ["a"], "seat": [1], "in_fantasyland": [False]},
        schema_overrides={"seat": pl.Int8},
    )
    assert _computed(_hand([]), players) == [("a", 1, None, None)]
