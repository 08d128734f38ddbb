"""A hand's fingerprint (``pipeline.load.fingerprint``) is a stored contract.

Databases keep the fingerprints of the hands they hold and compare a new
copy's with them (``docs/schema.md``), so ``fingerprints`` must give, byte for
byte, the md5 of the text the module docstring defines: here that text is
built plainly, hand by hand, from the parsed sample archive.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from parsers.detect import detect
from pipeline.load.fingerprint import (
    _NULL,
    _RECORD,
    NOT_IN_FINGERPRINT,
    _as_text,
    fingerprints,
    splitmix64,
)
from pipeline.load.parsing import parse_bytes
from pipeline.load.placement_enums import ROW_ENUM
from pipeline.rules.rows import CARD_ENUM

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    data = gzip.decompress(path.read_bytes())
    fmt = "jsonl" if ".jsonl" in path.name else detect(data[:100_000].decode(errors="ignore"))
    tables, _ = parse_bytes(data, 1, path.name, fmt, "utf-8", None)
    assert tables["hands"].height > 0 and tables["placements"].height > 0, path.name
    return tables


def _plain_placements(rows: pl.DataFrame) -> str:
    """The multiset digest of one hand's placements, one placement at a time."""
    total = 0
    for r in rows.iter_rows(named=True):
        card = CARD_ENUM.categories.to_list().index(r["card"]) if r["card"] is not None else 63
        row = ROW_ENUM.categories.to_list().index(r["row"]) if r["row"] is not None else 15
        code = (r["seat"] << 24) | (r["street"] << 16) | (card << 8) | (row << 1) | int(r["auto"])
        total += int(splitmix64(np.array([code], dtype=np.uint64))[0])
    return format(total % 2**64, "016x")


def _plain(tables: dict[str, pl.DataFrame]) -> list[str]:
    """Each hand's md5, its text joined hand by hand."""
    hands, players, placements = tables["hands"], tables["player_hands"], tables["placements"]
    hand_text = hands.select(
        _as_text(hands, [c for c in hands.columns if c not in NOT_IN_FINGERPRINT])
    )
    player_text = players.select("hand_id", "seat", t=_as_text(players, players.columns))
    digests = []
    for hand_id, text in zip(hands["hand_id"], hand_text.to_series(), strict=True):
        mine = player_text.filter(pl.col("hand_id") == hand_id).sort("seat")["t"].to_list()
        placed = placements.filter(pl.col("hand_id") == hand_id)
        parts = (
            text,
            _RECORD.join(mine) if mine else _NULL,
            _plain_placements(placed) if placed.height else _NULL,
        )
        digests.append(hashlib.md5(_RECORD.join(parts).encode()).hexdigest())
    return digests


@pytest.mark.parametrize("folder", ["en", "ru", "jsonl"])
def test_fingerprints_are_the_md5_of_the_documented_text(folder: str) -> None:
    files = sorted((SAMPLE / folder).glob("*.*"))
    assert files
    for path in files[:2]:
        tables = _tables(path)
        found = fingerprints(tables["hands"], tables["player_hands"], tables["placements"])
        assert found.to_list() == _plain(tables), path.name


def test_a_hand_without_players_or_placements_still_has_its_fingerprint() -> None:
    tables = _tables(sorted((SAMPLE / "en").glob("*.*"))[0])
    hands = tables["hands"].head(3)
    alone = fingerprints(hands, tables["player_hands"].clear(), tables["placements"].clear())
    assert alone.to_list() == _plain(
        {
            **tables,
            "hands": hands,
            "player_hands": tables["player_hands"].clear(),
            "placements": tables["placements"].clear(),
        }
    )


def test_hands_without_players_among_hands_with_them() -> None:
    tables = _tables(sorted((SAMPLE / "ru").glob("*.*"))[0])
    hands = tables["hands"].head(4)
    lonely = hands["hand_id"][1]
    players = tables["player_hands"].filter(pl.col("hand_id") != lonely)
    found = fingerprints(hands, players, tables["placements"])
    assert found.to_list() == _plain({**tables, "hands": hands, "player_hands": players})
