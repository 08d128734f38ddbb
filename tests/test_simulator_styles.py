"""Bot styles differ as promised (docs/simulator.md): aggressive fouls more and reaches
Fantasyland more than tight (and often), and tight fouls in under 15% of its hands in
every variant.

Smaller samples than the documented 20,000 hands, with statistical margins.
"""

from __future__ import annotations

import math
from functools import cache

import pyarrow as pa
import pytest

from pipeline.simulator import simulate
from pipeline.simulator.measure import ROSTER, style_rates

HANDS = 3000  # 2000 left the Fantasyland entry bound within one sigma of chance
OTHER_HANDS = 1000


@cache
def rates() -> dict[str, dict]:
    batches = list(simulate("pineapple-1-6-american", 2, HANDS, seed=2026, bots=ROSTER))
    table = style_rates(pa.concat_tables([b.player_hands for b in batches]))
    return {row["player"]: row for row in table.iter_rows(named=True)}


def _z(p1: float, n1: int, p2: float, n2: int) -> float:
    """Two-proportion z statistic of p1 > p2."""
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    return (p1 - p2) / math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


def test_aggressive_fouls_more_than_tight():
    r = rates()
    assert _z(r["Aggro"]["foul_rate"], HANDS, r["Tight"]["foul_rate"], HANDS) > 3


def test_aggressive_enters_fantasyland_more_than_tight():
    r = rates()
    agg, tight = r["Aggro"], r["Tight"]
    assert (
        _z(agg["entry_rate"], agg["live_regular"], tight["entry_rate"], tight["live_regular"]) > 2.5
    )


def test_tight_fouls_under_15_percent():
    foul = rates()["Tight"]["foul_rate"]
    assert foul + 3 * math.sqrt(foul * (1 - foul) / HANDS) < 0.15


def test_aggressive_reaches_fantasyland_often():
    """Aggressive plays QQ+ on top to reach Fantasyland (R6): well above a few percent."""
    agg = rates()["Aggro"]
    p, n = agg["entry_rate"], agg["live_regular"]
    assert p - 3 * math.sqrt(p * (1 - p) / n) > 0.04


@cache
def other_variant_rates(preset: str) -> dict[str, dict]:
    batches = list(simulate(preset, 2, OTHER_HANDS, seed=2027, bots=ROSTER))
    table = style_rates(pa.concat_tables([b.player_hands for b in batches]))
    return {row["player"]: row for row in table.iter_rows(named=True)}


@pytest.mark.parametrize("preset", ["classic-1-6-american", "turbo-1-6-american", "pineapple-27"])
def test_tight_fouls_under_15_percent_in_every_variant(preset):
    r = other_variant_rates(preset)
    foul = r["Tight"]["foul_rate"]
    assert foul + 3 * math.sqrt(foul * (1 - foul) / OTHER_HANDS) < 0.15
    assert r["Aggro"]["foul_rate"] > foul
