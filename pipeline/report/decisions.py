"""The report's Decisions section: value a player gave up against the best play (``ofc review``).

The same figures as the dashboard's Decisions page: EV lost per 100 hands
with a 95% interval over the player's reviewed hands, the mean loss per
decision by kind and street with its interval, and the costliest mistakes (a
loss beyond two standard errors) with the chosen and the best placement. Both
intervals are the t interval of a mean (``intervals.t95``; docs/metrics.md),
defined once here for the report and the dashboard.

>>> frame = pl.DataFrame({"n": [6], "mean": [3.126], "sd": [1.422389]})
>>> per_100(frame).select(pl.col("low", "high").round(1)).rows()
[(163.3, 461.9)]
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import polars as pl

from pipeline.load.metrics import intervals

MISTAKES = 10
#: Keeps the decisions that had a choice: a database reviewed before forced streets were
#: skipped (``pipeline.review.value.has_choice``) holds them, each losing 0.
A_CHOICE = "(candidates IS NULL OR candidates > 1)"
#: Keeps the rows of hands of the variant ``$variant``.
OF_VARIANT = "hand_id IN (SELECT hand_id FROM hands WHERE variant = $variant)"

_HANDS = """
SELECT count(*) AS n, avg(loss) AS mean, coalesce(stddev_samp(loss), 0) AS sd FROM (
    SELECT hand_id, sum(ev_loss) AS loss FROM decisions WHERE player = $player AND {scope}
    GROUP BY hand_id
)
"""
_BY_KIND = f"""
SELECT kind, street, count(*) AS decisions, avg(ev_loss) AS mean,
    coalesce(stddev_samp(ev_loss), 0) AS sd,
    count(*) FILTER (WHERE ev_loss > 2 * se_loss) AS mistakes
FROM decisions WHERE player = $player AND {A_CHOICE} AND {{scope}}
GROUP BY kind, street ORDER BY street
"""
_COSTLIEST = """
SELECT hand_id, street, kind, chosen, best, ev_chosen, ev_best, ev_loss, se_loss
FROM decisions WHERE player = $player AND ev_loss > 2 * se_loss AND {scope}
ORDER BY ev_loss DESC, hand_id, street LIMIT $limit
"""


@dataclass(frozen=True)
class DecisionReview:
    """A player's reviewed decisions, summarised."""

    hands: int
    per_100: float | None
    low: float | None
    high: float | None
    by_kind: pl.DataFrame
    costliest: pl.DataFrame


def with_mean_interval(frame: pl.DataFrame, n: str = "n") -> pl.DataFrame:
    """``frame`` (``n``, ``mean``, ``sd`` of losses) with the 95% t interval of the mean
    (``low``, ``high``; null below two values or when they are all the same), never below
    0: a loss against the best placement is 0 or more."""
    count = pl.col(n)
    half = intervals.t_half("sd", count)
    return frame.with_columns(
        low=pl.when(count > 1).then(intervals.at_least(pl.col("mean") - half, 0.0)),
        high=pl.when(count > 1).then(pl.col("mean") + half),
    )


def per_100(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (``n``, ``mean``, ``sd`` of the loss per player-hand) with the loss per 100
    hands and its 95% t interval (``per_100``, ``low``, ``high``)."""
    return with_mean_interval(frame).with_columns(
        per_100=100 * pl.col("mean"), low=100 * pl.col("low"), high=100 * pl.col("high")
    )


def decision_review(
    con: duckdb.DuckDBPyConnection, player: str, variant: str = "all"
) -> DecisionReview:
    """The player's review figures in ``variant`` (``all``: every one; empty when ``ofc
    review`` has not run for them)."""
    has_table = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'decisions'"
    ).fetchall()[0][0]
    if not has_table:
        return DecisionReview(0, None, None, None, pl.DataFrame(), pl.DataFrame())
    args: dict[str, object] = {"player": player}
    scope = "TRUE"
    if variant != "all":
        args["variant"], scope = variant, OF_VARIANT
    hands = per_100(con.sql(_HANDS.format(scope=scope), params=args).pl()).row(0, named=True)
    n = hands["n"]
    return DecisionReview(
        hands=n,
        per_100=hands["per_100"] if n else None,
        low=hands["low"] if n else None,
        high=hands["high"] if n else None,
        by_kind=with_mean_interval(
            con.sql(_BY_KIND.format(scope=scope), params=args).pl(), "decisions"
        ),
        costliest=con.sql(_COSTLIEST.format(scope=scope), params={**args, "limit": MISTAKES}).pl(),
    )
