"""A player against the population in the view: ``pipeline.report.audit`` on the view's players.

A variant alone is read from ``player_metrics``; with a ruleset, dates or
stakes every player's statistics count only the view's hands, summed from
``player_days``. The opponent filter does not apply: the player is compared
with everybody in the view.
"""

from __future__ import annotations

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, day_scope
from pipeline.load.metrics.days import summed
from pipeline.load.metrics.definitions import METRICS, Metric, stat_columns
from pipeline.report.audit import Audit, audit
from pipeline.report.audit import by_variant as stats_by_variant

_SUMMARISED = "SELECT * FROM player_metrics WHERE variant = ?"

_DAILY = """
SELECT d.player, {variant} {sums}
FROM player_days d
WHERE {where}
GROUP BY ALL
"""


def players_stats(
    filters: Filters, metrics: tuple[Metric, ...] = METRICS, by_variant: bool = False
) -> tuple[str, list[object]]:
    """SQL and parameters of every player's statistics in the view (hero and opponent
    ignored): those of ``metrics`` at least; one row per player, or with ``by_variant``
    per player and variant (with a ``variant`` column)."""
    view = filters.population()
    if view.summarised and not by_variant:
        return _SUMMARISED, [view.variant_key]
    if view.summarised:
        return stats_by_variant(view.variant_key)
    where = day_scope(view)  # the population has no opponent: player_days answers
    sums = summed(["hands", *stat_columns(metrics)])
    variant = "d.variant," if by_variant else ""
    return _DAILY.format(variant=variant, sums=sums, where=where.sql), list(where.params)


def profile(db: Database, filters: Filters) -> Audit | None:
    """The audit of ``filters.hero`` in the view; None without a hero or hands."""
    if not filters.hero:
        return None
    sql, params = players_stats(filters, by_variant=True)
    return audit(db, filters.hero, sql, params)
