"""Results and rates of one player, or of everybody, in the current view: in all and per variant.

Every figure comes with its n and 95% interval, by the metric's one definition
(``pipeline/load/metrics/definitions.py``). When the view is a player and a
variant only, the statistics are read from the pre-aggregated
``player_metrics``; with dates, stakes or a ruleset they are summed from the
view's rows of ``player_days``, with an opponent from the view's
``player_hands``. Everybody's figures are pooled: the statistics of every
player-hand of the view summed (docs/metrics.md).
"""

from __future__ import annotations

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, sourced
from pipeline.load.metrics import intervals
from pipeline.load.metrics.days import summed
from pipeline.load.metrics.definitions import RESULTS, pooled, stat_columns, stats, with_figures
from pipeline.report.population import Pooled, like_for_like

ALL = "all"

_PLAYER = """
SELECT s.*, ps.points
FROM player_metrics s JOIN player_summary ps USING (player, variant)
WHERE s.player = ?
"""

_EVERYBODY = f"""
WITH pooled AS (
    SELECT variant, sum(m.hands)::BIGINT AS hands, sum(ps.points) AS points, {pooled(RESULTS)}
    FROM player_metrics m JOIN player_summary ps USING (player, variant)
    GROUP BY variant
)
SELECT * FROM pooled
"""

_COMPUTED = f"""
WITH counted AS (
    SELECT
        CASE WHEN grouping(p.variant) = 1 THEN '{ALL}' ELSE p.variant END AS variant,
        count(*) AS hands,
        sum(p.points) AS points,
        {stats("p", RESULTS)}
    FROM player_hands p
    WHERE {{where}}
    GROUP BY GROUPING SETS ((p.variant), ())
)
SELECT * FROM counted WHERE hands > 0
"""

_DAILY = f"""
WITH counted AS (
    SELECT
        CASE WHEN grouping(d.variant) = 1 THEN '{ALL}' ELSE d.variant END AS variant,
        {summed(["hands", "points", *stat_columns(RESULTS)])}
    FROM player_days d
    WHERE {{where}}
    GROUP BY GROUPING SETS ((d.variant), ())
)
SELECT * FROM counted WHERE hands > 0
"""


def _rows(db: Database, sql: str, params: list[object]) -> dict[str, dict[str, object]]:
    frame = with_figures(db.frame(sql, params), RESULTS)
    return {row["variant"]: row for row in frame.iter_rows(named=True)}


def summaries(db: Database, filters: Filters) -> dict[str, dict[str, object]]:
    """The figures of ``filters.hero`` (or everybody, pooled, without a hero) under the
    key ``all`` and under each variant; empty when there is no hand in the view.

    Each holds ``hands``, ``points`` and, per metric of results and Fantasyland
    (``RESULTS``), ``<name>``, ``<name>_n``, ``<name>_low`` and ``<name>_high``.
    """
    if filters.summarised:
        sql, params = (_PLAYER, [filters.hero]) if filters.hero else (_EVERYBODY, [])
        found = _rows(db, sql, params)
        if filters.variant:
            chosen = found.get(filters.variant)
            return {ALL: chosen, filters.variant: chosen} if chosen else {}
        return found
    sql, where = sourced(filters, _DAILY, _COMPUTED)
    return _rows(db, sql.format(where=where.sql), list(where.params))


_MONEY = """
SELECT p.currency, count(*) AS hands, sum(p.points) AS points, sum(p.money) AS money,
    sum(p.money * p.money) AS squares
FROM player_hands p
WHERE p.money IS NOT NULL AND {where}
GROUP BY p.currency
ORDER BY p.currency
"""

#: Money is points times the stake's point value, so a row of ``player_days`` with a
#: point value holds money for each of its hands that has points (``money_hands``).
_MONEY_DAILY = """
SELECT d.currency, sum(d.money_hands)::BIGINT AS hands, sum(d.points) AS points,
    sum(d.money) AS money, sum(d.money_squares) AS squares
FROM player_days d
WHERE d.money_hands > 0 AND {where}
GROUP BY d.currency
ORDER BY d.currency
"""


def money(db: Database, filters: Filters) -> list[dict[str, object]]:
    """Money won in each currency in the view (the hero's, or everybody's), one row per
    currency, never summed across currencies: ``currency``, ``hands``, ``points``,
    ``money``, ``money_per_hand`` and its 95% interval. Empty for play money."""
    sql, where = sourced(filters, _MONEY_DAILY, _MONEY)
    frame = db.frame(sql.format(where=where.sql), list(where.params))
    return intervals.with_mean(frame, "money_per_hand", "money", "squares", "hands").to_dicts()


def against(mine: dict[str, dict], everybody: dict[str, dict]) -> dict[str, Pooled | None]:
    """The population's figure of each metric of ``RESULTS`` that the hero's figure over
    the view is held against, with its n and 95% interval: everybody's pooled per variant,
    in the hero's mix of variants (``population.like_for_like``); ``mine`` and
    ``everybody`` as ``summaries`` gives them."""
    return {m.name: like_for_like(m, mine, everybody) for m in RESULTS}
