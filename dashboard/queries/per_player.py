"""Every player's figures in a narrowed view, computed from ``player_hands``.

``player_summary`` holds each player's figures per variant over all dates and
stakes. When a ruleset, dates or stakes narrow the view, the same columns are
summed here from the view's rows of ``player_days``; with an opponent, computed
from the view's player-hands, every rate and mean by its one definition
(``pipeline/load/metrics/definitions.py``), and for the table the view's rows
of ``audit_mismatches``.

The rows are those of ``scope`` without a hero: with an opponent, the hands
the opponent played, and everybody else's figures in them.

>>> sql, params = table(Filters(stakes="play", opponent="Bo"), search="an")
>>> params
['Bo', 'Bo', 'an', 'Bo']
>>> sql.count("?") == len(params)
True
"""

from __future__ import annotations

from dashboard.queries.filters import Filters, Where, day_scope, hand_scope, played_by, scope
from pipeline.load.metrics.days import summed
from pipeline.load.metrics.definitions import RESULTS, stat_columns, stats

_SQL = f"""
WITH hand_stats AS (
    SELECT
        p.player,
        count(*) AS hands,
        sum(p.points) AS points,
        min(p.played_at) AS first_played_at,
        max(p.played_at) AS last_played_at,
        CASE WHEN count(DISTINCT p.currency) = 1 THEN sum(p.money) END AS money,
        string_agg(DISTINCT p.currency, ',' ORDER BY p.currency) AS currencies,
        {stats("p", RESULTS)}
    FROM player_hands p
    WHERE {{rows}}
    GROUP BY p.player
),
mismatch_stats AS (
    SELECT a.player, count(*) AS mismatches
    FROM audit_mismatches a
    WHERE a.hand_id IN (SELECT h.hand_id FROM hands h WHERE {{hands}})
    GROUP BY a.player
)
SELECT
    hs.player,
    hs.hands,
    hs.points,
    hs.money,
    hs.currencies,
    {", ".join(f"hs.{c}" for c in stat_columns(RESULTS))},
    coalesce(ms.mismatches, 0) AS mismatches,
    hs.first_played_at,
    hs.last_played_at
FROM hand_stats hs
LEFT JOIN mismatch_stats ms USING (player)
"""


_DAILY = f"""
SELECT
    d.player,
    {summed(["hands", "points"])},
    CASE WHEN count(DISTINCT d.currency) = 1 THEN sum(d.money) END AS money,
    string_agg(DISTINCT d.currency, ',' ORDER BY d.currency) AS currencies,
    {summed(stat_columns(RESULTS))},
    {summed(["mismatches"])},
    min(d.first_played_at) AS first_played_at,
    max(d.last_played_at) AS last_played_at
FROM player_days d
WHERE {{rows}}
GROUP BY d.player
"""


def _hands(filters: Filters) -> Where:
    """Conditions on ``hands`` (``h``) that keep the view's hands (the opponent's, with one)."""
    where = hand_scope(filters)
    return played_by(where, filters.opponent, "h") if filters.opponent else where


def _named(where: Where, search: str, alias: str = "p") -> Where:
    """``where`` plus: the player's name (``{alias}.player``) contains ``search`` (any
    case); unchanged if empty.

    >>> _named(Where(), "an").sql
    'contains(lower(p.player), lower(?))'
    """
    if not search:
        return where
    return where.also(f"contains(lower({alias}.player), lower(?))", search)


def table(filters: Filters, search: str = "") -> tuple[str, list[object]]:
    """SQL and parameters of the view's players whose name contains ``search`` (the hero
    is ignored): counts, money and every metric's statistics (``definitions``), from
    which ``definitions.with_figures`` makes the ``player_summary`` columns."""
    everybody = filters.with_hero(None)
    if everybody.daily:
        rows = _named(day_scope(everybody), search, "d")
        return _DAILY.format(rows=rows.sql), list(rows.params)
    rows = _named(scope(everybody), search)
    hands = _hands(everybody)
    sql = _SQL.format(rows=rows.sql, hands=hands.sql)
    return sql, [*rows.params, *hands.params]
