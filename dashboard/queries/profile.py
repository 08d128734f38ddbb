"""A player against the population in the view: ``pipeline.report.audit`` on the view's players.

A variant alone is read from ``player_metrics``; with a ruleset, dates or
stakes every player's statistics count only the view's hands. The opponent
filter does not apply: the player is compared with everybody in the view.
"""

from __future__ import annotations

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, scope
from pipeline.load.metrics.definitions import METRICS, Metric, stats
from pipeline.report.audit import Audit, audit

_SUMMARISED = "SELECT * FROM player_metrics WHERE variant = ?"

_COMPUTED = """
SELECT p.player, count(*) AS hands, {stats}
FROM player_hands p
WHERE {where}
GROUP BY p.player
"""


def players_stats(
    filters: Filters, metrics: tuple[Metric, ...] = METRICS
) -> tuple[str, list[object]]:
    """SQL and parameters of every player's statistics in the view (hero and opponent
    ignored): those of ``metrics`` at least."""
    view = filters.population()
    if view.summarised:
        return _SUMMARISED, [view.variant_key]
    where = scope(view)
    sql = _COMPUTED.format(stats=stats("p", metrics), where=where.sql)
    return sql, list(where.params)


def profile(db: Database, filters: Filters) -> Audit | None:
    """The audit of ``filters.hero`` in the view; None without a hero or hands."""
    if not filters.hero:
        return None
    sql, params = players_stats(filters)
    return audit(db, filters.hero, sql, params)
