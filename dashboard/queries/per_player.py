"""Every player's figures in a narrowed view, computed from ``player_hands``.

``player_summary`` and ``style_metrics`` hold each player's figures per
variant over all dates and stakes. When a ruleset, dates, stakes or an
opponent narrow the view, the same columns are computed here with the same
formulas (``pipeline/load/metrics/player_summary.sql``, ``style_metrics.sql``,
docs/metrics.md) from the view's player-hands, which count their pairwise
settlements (``pairings``, ``scoops``, ``rows_won``), and for the table the
view's rows of ``audit_mismatches``.

The rows are those of ``scope`` without a hero: with an opponent, the hands
the opponent played, and everybody else's figures in them.

>>> sql, params = table(Filters(stakes="play", opponent="Bo"), search="an")
>>> params
['Bo', 'Bo', 'an', 'Bo']
>>> sql.count("?") == len(params)
True
"""

from __future__ import annotations

from dashboard.queries.filters import Filters, Where, hand_scope, played_by, scope

#: Counts and means per player over the view's player-hands (``p``), as in
#: ``player_summary.sql``: what both the table and the profile need.
_COUNTS = """
    count(*) AS hands,
    sum(p.points) AS points,
    avg(p.points) AS points_per_hand,
    count(*) FILTER (WHERE p.foul) AS fouls,
    avg(p.royalties) AS royalties_per_hand,
    count(*) FILTER (WHERE NOT p.foul AND NOT p.in_fantasyland) AS live_non_fantasyland_hands,
    count(*) FILTER (
        WHERE NOT p.foul AND NOT p.in_fantasyland AND p.fantasyland_next
    ) AS fantasyland_entries,
    count(*) FILTER (WHERE p.in_fantasyland) AS fantasyland_hands,
    count(*) FILTER (WHERE p.in_fantasyland AND p.fantasyland_stay) AS fantasyland_stays,
    avg(p.points) FILTER (WHERE p.in_fantasyland) AS points_per_fantasyland_hand,
    sum(p.pairings) AS pairings,
    sum(p.scoops) AS scoops,
    sum(p.rows_won) AS rows_won"""

#: The table's further figures: dates, spread of points, money and its currencies.
_TABLE_COUNTS = """,
    min(p.played_at) AS first_played_at,
    max(p.played_at) AS last_played_at,
    stddev_samp(p.points) AS points_per_hand_sd,
    CASE WHEN count(DISTINCT p.currency) = 1 THEN sum(p.money) END AS money,
    string_agg(DISTINCT p.currency, ',' ORDER BY p.currency) AS currencies"""

#: Style counts (hands not played in Fantasyland), as in ``style_metrics.sql``.
_STYLE_COUNTS = """,
    count(*) FILTER (WHERE NOT p.in_fantasyland AND NOT p.timed_out) AS style_hands,
    count(*) FILTER (WHERE NOT p.in_fantasyland AND NOT p.timed_out AND p.foul) AS style_fouls,
    count(p.first_street_bottom) FILTER (WHERE NOT p.in_fantasyland) AS first_street_hands,
    count(*) FILTER (
        WHERE NOT p.in_fantasyland AND p.first_street_bottom = 'pair_or_better'
    ) AS first_street_pairs,
    count(p.top_qq_plus_by_street2) FILTER (WHERE NOT p.in_fantasyland) AS street2_hands,
    count(*) FILTER (WHERE NOT p.in_fantasyland AND p.top_qq_plus_by_street2) AS qq_top,
    count(*) FILTER (
        WHERE NOT p.in_fantasyland AND NOT p.timed_out
            AND p.first_street_bottom IN ('flush_draw', 'straight_draw')
    ) AS drawing_hands,
    count(*) FILTER (
        WHERE NOT p.in_fantasyland AND NOT p.timed_out AND p.foul
            AND p.first_street_bottom IN ('flush_draw', 'straight_draw')
    ) AS drawing_fouls"""

#: Rates of ``player_summary`` from the counts (``hs``).
_RATES = """
    hs.player,
    hs.hands,
    hs.points,
    hs.points_per_hand,
    hs.fouls / hs.hands AS foul_rate,
    hs.scoops / nullif(hs.pairings, 0) AS scoop_rate,
    hs.rows_won / nullif(3 * hs.pairings, 0) AS rows_won_per_row,
    hs.royalties_per_hand,
    hs.fantasyland_entries / nullif(hs.live_non_fantasyland_hands, 0) AS fantasyland_entry_rate,
    hs.fantasyland_stays / nullif(hs.fantasyland_hands, 0) AS fantasyland_stay_rate,
    hs.fantasyland_hands / hs.hands AS fantasyland_share,
    hs.points_per_fantasyland_hand"""

#: The table's further columns of ``player_summary`` (``ms``: the audit's rows).
_TABLE = """,
    hs.first_played_at,
    hs.last_played_at,
    hs.points_per_hand - 1.959964 * hs.points_per_hand_sd / sqrt(hs.hands) AS points_per_hand_ci_low,
    hs.points_per_hand + 1.959964 * hs.points_per_hand_sd / sqrt(hs.hands) AS points_per_hand_ci_high,
    hs.money,
    hs.currencies,
    coalesce(ms.mismatches, 0) AS mismatches"""

#: The ``style_metrics`` rates the profile ranks (``foul_rate`` as ``style_foul_rate``).
_STYLE = """,
    hs.style_fouls / nullif(hs.style_hands, 0) AS style_foul_rate,
    (hs.first_street_hands - hs.first_street_pairs) / nullif(hs.first_street_hands, 0)
        AS bottom_aggression,
    hs.drawing_fouls / nullif(hs.drawing_hands, 0) AS foul_rate_drawing,
    hs.qq_top / nullif(hs.street2_hands, 0) AS top_qq_plus_by_street2_share"""

#: The view's player-hands, per player (``hand_stats``).
_SQL = """
WITH hand_stats AS (
    SELECT p.player, {counts}
    FROM player_hands p
    WHERE {rows}
    GROUP BY p.player
){more}
SELECT {columns}
FROM hand_stats hs
{joins}
"""

#: The table's mismatches: the audit's rows of the view's hands, per player.
_MISMATCHES = """,
mismatch_stats AS (
    SELECT a.player, count(*) AS mismatches
    FROM audit_mismatches a
    WHERE a.hand_id IN (SELECT h.hand_id FROM hands h WHERE {hands})
    GROUP BY a.player
)"""


def _hands(filters: Filters) -> Where:
    """Conditions on ``hands`` (``h``) that keep the view's hands (the opponent's, with one)."""
    where = hand_scope(filters)
    return played_by(where, filters.opponent, "h") if filters.opponent else where


def _named(where: Where, search: str) -> Where:
    """``where`` plus: the player's name (``p.player``) contains ``search`` (any case);
    unchanged if empty.

    >>> _named(Where(), "an").sql
    'contains(lower(p.player), lower(?))'
    """
    return where.also("contains(lower(p.player), lower(?))", search) if search else where


def _figures(filters: Filters, search: str, table_columns: bool) -> tuple[str, list[object]]:
    """SQL and parameters of one row per player of the view whose name contains ``search``
    (``filters.hero`` is ignored): the table's columns, or the profile's."""
    everybody = filters.with_hero(None)
    rows = _named(scope(everybody), search)
    hands = _hands(everybody) if table_columns else Where()
    sql = _SQL.format(
        counts=_COUNTS + (_TABLE_COUNTS if table_columns else _STYLE_COUNTS),
        rows=rows.sql,
        more=_MISMATCHES.format(hands=hands.sql) if table_columns else "",
        columns=_RATES + (_TABLE if table_columns else _STYLE),
        joins="LEFT JOIN mismatch_stats ms USING (player)" if table_columns else "",
    )
    return sql, [*rows.params, *hands.params]


def table(filters: Filters, search: str = "") -> tuple[str, list[object]]:
    """SQL and parameters of the view's players whose name contains ``search``, with the
    ``player_summary`` columns of the Players table."""
    return _figures(filters, search, table_columns=True)


def profile(filters: Filters) -> tuple[str, list[object]]:
    """SQL and parameters of the view's players with ``hands`` and the metrics the
    profile ranks: rates of ``player_summary`` and of ``style_metrics``
    (``style_foul_rate`` for the latter's ``foul_rate``)."""
    return _figures(filters, "", table_columns=False)
