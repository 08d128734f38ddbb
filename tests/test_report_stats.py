"""Every figure ``ofc report`` shows has its n and the one 95% interval of
``pipeline.load.metrics.intervals`` (Wilson for rates, t for means)."""

from __future__ import annotations

import math

import duckdb
import polars as pl
import pytest

from dashboard.queries import decisions as dashboard_decisions
from pipeline.load.metrics.intervals import T_TABLE
from pipeline.report.decisions import decision_review

LOSSES = {1: [1.2, 0.5], 2: [3.0], 3: [0.0, 0.4], 4: [5.1], 5: [2.2, 0.3], 6: [4.0]}


def _decisions() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE decisions (player VARCHAR, hand_id BIGINT, street INT, kind VARCHAR, "
        "ev_loss DOUBLE, se_loss DOUBLE, chosen VARCHAR, best VARCHAR, "
        "ev_chosen DOUBLE, ev_best DOUBLE)"
    )
    for hand, losses in LOSSES.items():
        for street, loss in enumerate(losses, 1):
            con.execute(
                "INSERT INTO decisions VALUES ('Anna', ?, ?, 'set', ?, 10, NULL, NULL, 0, 0)",
                [hand, street, loss],
            )
    return con


def _t_interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T_TABLE[n - 2] * sd / math.sqrt(n)
    return mean - half, mean + half


def test_ev_lost_per_100_hands_uses_the_t_interval() -> None:
    review = decision_review(_decisions(), "Anna")
    low, high = _t_interval([sum(v) for v in LOSSES.values()])
    assert review.hands == 6
    assert review.low == pytest.approx(100 * low)
    assert review.high == pytest.approx(100 * high)


def test_loss_per_decision_by_street_has_a_t_interval() -> None:
    by_kind = decision_review(_decisions(), "Anna").by_kind
    first = by_kind.filter(pl.col("street") == 1).row(0, named=True)
    low, high = _t_interval([v[0] for v in LOSSES.values()])
    assert (first["low"], first["high"]) == (pytest.approx(low), pytest.approx(high))


def test_the_dashboard_shares_the_interval() -> None:
    frame = pl.DataFrame({"n": [6], "mean": [3.126], "sd": [1.422389]})
    row = dashboard_decisions.per_100(frame).row(0, named=True)
    assert (round(row["low"], 1), round(row["high"], 1)) == (163.3, 461.9)
