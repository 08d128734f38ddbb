"""The one interval module (pipeline/load/metrics/intervals.py) against independent
computations: Student's t from its density, Wilson's formula written out."""

from __future__ import annotations

import math

import polars as pl
import pytest

from pipeline.load.metrics import intervals
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
