"""Timed-out players are placed automatically as docs/rules.md R8 says, and marked."""

from __future__ import annotations

from functools import cache

import polars as pl
import pyarrow as pa
import pytest

from pipeline.simulator import simulate, timeouts

CAPACITY = {"top": 3, "middle": 5, "bottom": 5}


@cache
def run(preset: str, players: int) -> dict[str, pl.DataFrame]:
    batches = [b.as_dict() for b in simulate(preset, players, 600, seed=21)]
    return {k: pl.from_arrow(pa.concat_tables([b[k] for b in batches])) for k in batches[0]}


@pytest.fixture(autouse=True)
def frequent_timeouts(monkeypatch):
    monkeypatch.setattr(timeouts, "TIMEOUT_RATE", 0.08)


@pytest.mark.parametrize(
    "preset,players", [("pineapple-1-6-american", 3), ("classic-1-6-american", 2)]
)
def test_auto_placement_fills_bottom_then_middle_then_top(preset, players):
    tables = run(preset, players)
    moves = tables["placements"].with_row_index("order")
    auto_streets = 0
    for (_hand, _seat), group in moves.group_by("hand_id", "seat", maintain_order=True):
        room = dict(CAPACITY)
        for (street,), cards in group.sort("order").group_by("street", maintain_order=True):
            rows = cards["row"].to_list()
            if cards["auto"].all():
                auto_streets += 1
                placed = len(cards) if street <= 1 else len(cards) - (preset.startswith("pine"))
                placed = min(placed, 13) if street == 0 else placed
                expected = []
                for _ in range(placed):
                    row = next(r for r in ("bottom", "middle", "top") if room[r] > 0)
                    room[row] -= 1
                    expected.append(row)
                expected += ["discard"] * (len(cards) - placed)
                assert rows == expected, (street, rows)
            else:
                assert not cards["auto"].any()
                for row in rows:
                    if row != "discard":
                        room[row] -= 1
    assert auto_streets > 0


def test_timed_out_marks_exactly_the_players_with_auto_placements():
    tables = run("pineapple-1-6-american", 3)
    auto = tables["placements"].group_by("hand_id", "seat").agg(pl.col("auto").any())
    joined = tables["player_hands"].join(auto, on=["hand_id", "seat"])
    assert joined.height == tables["player_hands"].height
    assert (joined["timed_out"] == joined["auto"]).all()
    assert joined["timed_out"].sum() > 0
