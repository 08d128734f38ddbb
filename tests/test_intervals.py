"""The one interval module (pipeline/load/metrics/intervals.py) against independent
computations: Student's t from its density, Wilson's formula written out."""

from __future__ import annotations

import math

import polars as pl
import pytest

from pipeline.load.metrics import intervals
from pipeline.load.metrics.definitions import ROYALTIES_PER_HAND, with_figures
from pipeline.report.decisions import with_mean_interval
from tests.t_quantile import t_quantile


def value(expression: pl.Expr) -> float | None:
    return pl.select(expression).item()


@pytest.mark.parametrize("df", [1, 2, 5, 10, 29, 30, 31, 45, 100, 1000, 100_000])
def test_t_quantile_matches_the_density(df: int) -> None:
    assert value(intervals.t95(pl.lit(df))) == pytest.approx(t_quantile(0.975, df), abs=2e-6)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (194, 1000), (1, 3)])
def test_wilson_interval(k: int, n: int) -> None:
    z, p = intervals.Z95, k / n
    centre, spread = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = value(intervals.wilson_low(pl.lit(float(k)), pl.lit(float(n))))
    high = value(intervals.wilson_high(pl.lit(float(k)), pl.lit(float(n))))
    assert low == pytest.approx((centre - spread) / (1 + z * z / n))
    assert high == pytest.approx((centre + spread) / (1 + z * z / n))
    assert -1e-12 <= low <= p + 1e-12 and p - 1e-12 <= high <= 1 + 1e-12
    assert value(intervals.wilson_low(pl.lit(0.0), pl.lit(0.0))) is None


def test_mean_interval_from_sums() -> None:
    values = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0]
    n, total, squares = len(values), sum(values), sum(v * v for v in values)
    mean = total / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    low = value(intervals.mean_low(pl.lit(total), pl.lit(squares), pl.lit(n)))
    high = value(intervals.mean_high(pl.lit(total), pl.lit(squares), pl.lit(n)))
    assert (low, high) == pytest.approx((mean - half, mean + half), abs=1e-5)
    assert value(intervals.mean_low(pl.lit(2.0), pl.lit(4.0), pl.lit(1))) is None  # one value


@pytest.mark.parametrize("values", [[0.0] * 179, [0.1] * 3, [7.0] * 40, [-2.5] * 2])
def test_values_that_do_not_differ_have_no_interval(values: list[float]) -> None:
    """No spread in the sample: a t interval of no width would claim an exact mean."""
    n, total, squares = len(values), sum(values), sum(v * v for v in values)
    args = (pl.lit(total), pl.lit(squares), pl.lit(n))
    assert value(intervals.sd(*args)) == 0.0
    assert value(intervals.mean_low(*args)) is None
    assert value(intervals.mean_high(*args)) is None


@pytest.mark.parametrize("n", [1, 7, 112, 5411, 123_457])
def test_wilson_ends_at_no_success_or_all_successes_are_exact(n: int) -> None:
    """0 of n: the lower end is 0, not a rounding hair above the figure (4e-17)."""
    n_ = pl.lit(float(n))
    assert value(intervals.wilson_low(pl.lit(0.0), n_)) == 0.0
    assert value(intervals.wilson_high(pl.lit(float(n)), n_)) == 1.0
    assert 0.0 < value(intervals.wilson_high(pl.lit(0.0), n_)) < 1.0


def test_royalties_and_ev_lost_are_never_below_zero() -> None:
    """A mean near 0 of values that are 0 or more: its t interval would reach below 0."""
    royalties = [0.0] * 97 + [1.0, 2.0, 0.0]  # mostly no royalty
    stats = pl.DataFrame(
        {
            "royalties_per_hand__n": [len(royalties)],
            "royalties_per_hand__sum": [sum(royalties)],
            "royalties_per_hand__sumsq": [sum(v * v for v in royalties)],
        }
    )
    found = with_figures(stats, (ROYALTIES_PER_HAND,)).row(0, named=True)
    assert found["royalties_per_hand_low"] == 0.0
    assert found["royalties_per_hand_high"] > found["royalties_per_hand"] > 0
    losses = pl.DataFrame({"n": [4], "mean": [0.239], "sd": [0.4]})
    low, high = with_mean_interval(losses).row(0)[-2:]
    assert low == 0.0 and high == pytest.approx(0.239 + t_quantile(0.975, 3) * 0.4 / 2, abs=1e-5)
