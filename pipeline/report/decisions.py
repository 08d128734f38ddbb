"""The report's Decisions section: value a player gave up against the best play (``ofc review``).

The same figures as the dashboard's Decisions page: EV lost per 100 hands
with a 95% interval over the player's reviewed hands, the mean loss per
decision by kind and street, and the costliest mistakes (a loss beyond two
standard errors) with the chosen and the best placement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import duckdb
import polars as pl

Z = 1.96
MISTAKES = 10

_HANDS = """
SELECT count(*) AS n, avg(loss) AS mean, coalesce(stddev_samp(loss), 0) AS sd FROM (
    SELECT hand_id, sum(ev_loss) AS loss FROM decisions WHERE player = $player GROUP BY hand_id
)
"""
_BY_KIND = """
SELECT kind, street, count(*) AS decisions, avg(ev_loss) AS mean,
    coalesce(stddev_samp(ev_loss), 0) AS sd,
    count(*) FILTER (WHERE ev_loss > 2 * se_loss) AS mistakes
FROM decisions WHERE player = $player GROUP BY kind, street ORDER BY street
"""
_COSTLIEST = """
SELECT hand_id, street, kind, chosen, best, ev_chosen, ev_best, ev_loss, se_loss
FROM decisions WHERE player = $player AND ev_loss > 2 * se_loss
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


def decision_review(con: duckdb.DuckDBPyConnection, player: str) -> DecisionReview:
    """The player's review figures (empty when ``ofc review`` has not run for them)."""
    has_table = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'decisions'"
    ).fetchall()[0][0]
    if not has_table:
        return DecisionReview(0, None, None, None, pl.DataFrame(), pl.DataFrame())
    args = {"player": player}
    n, mean, sd = con.execute(_HANDS, args).fetchall()[0]
    half = Z * sd / math.sqrt(n) if n else None
    return DecisionReview(
        hands=n,
        per_100=None if not n else 100 * mean,
        low=None if not n else 100 * (mean - half),
        high=None if not n else 100 * (mean + half),
        by_kind=con.sql(_BY_KIND, params=args).pl(),
        costliest=con.sql(_COSTLIEST, params={**args, "limit": MISTAKES}).pl(),
    )
