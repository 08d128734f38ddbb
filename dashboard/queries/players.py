"""The Players page: every player's figures in the view, and head-to-head results from ``pairwise``."""

from __future__ import annotations

import polars as pl

from dashboard.queries import per_player
from dashboard.queries.dates import shown
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, hand_scope
from dashboard.queries.options import PICKER_PLAYERS
from pipeline.load.metrics import intervals
from pipeline.load.metrics.definitions import RESULTS, with_figures

#: Most rows the players table shows (the most played first); search narrows it.
TABLE_ROWS = 2000

TABLE_COLUMNS = (
    "player",
    "hands",
    "points",
    "points_per_hand",
    "points_per_hand_ci_low",
    "points_per_hand_ci_high",
    "money",
    "currencies",
    "foul_rate",
    "scoop_rate",
    "rows_won_per_row",
    "royalties_per_hand",
    "fantasyland_entry_rate",
    "fantasyland_stay_rate",
    "fantasyland_share",
    "mismatches",
    "first_played_at",
    "last_played_at",
)


_COLUMNS = ", ".join(shown(c, c) if c.endswith("played_at") else c for c in TABLE_COLUMNS)


def players_table(db: Database, filters: Filters, search: str = "") -> pl.DataFrame:
    """The players of the view whose name contains ``search``, most hands first
    (at most ``TABLE_ROWS``), with the ``player_summary`` columns ``TABLE_COLUMNS``.

    The hero does not narrow the table. A variant alone is read from
    ``player_summary``; a ruleset, dates or stakes make every figure count only
    the view's hands (``per_player``). An opponent keeps the players who
    sat at a table with the opponent, each with their figures in those hands
    only (the opponent is left out): who does well at that opponent's tables.
    """
    if filters.summarised:
        return db.frame(
            f"SELECT {_COLUMNS} FROM player_summary"
            " WHERE variant = ? AND contains(lower(player), lower(?))"
            " ORDER BY hands DESC, player LIMIT ?",
            [filters.variant_key, search, TABLE_ROWS],
        )
    sql, params = per_player.table(filters, search)
    dates = ", ".join(shown(c, c) for c in ("first_played_at", "last_played_at"))
    found = with_figures(
        db.frame(
            f"SELECT * REPLACE ({dates}) FROM ({sql}) ORDER BY hands DESC, player LIMIT ?",
            [*params, TABLE_ROWS],
        ),
        RESULTS,
    )
    return found.rename(
        {
            "points_per_hand_low": "points_per_hand_ci_low",
            "points_per_hand_high": "points_per_hand_ci_high",
        }
    ).select(TABLE_COLUMNS)


_HEAD_TO_HEAD = """
WITH met AS (
    SELECT
        w.hand_id,
        CASE WHEN w.player_a = ? THEN w.points_a ELSE -w.points_a END AS points,
        CASE WHEN w.player_a = ? THEN w.rows_a ELSE w.rows_b END AS rows_won,
        CASE WHEN w.player_a = ? THEN w.rows_b ELSE w.rows_a END AS rows_lost
    FROM pairwise w
    WHERE ((w.player_a = ? AND w.player_b = ?) OR (w.player_a = ? AND w.player_b = ?))
),
scoped AS (
    SELECT h.variant, h.played_at, met.*
    FROM met JOIN hands h USING (hand_id)
    WHERE {where}
),
counted AS (
    SELECT
        CASE WHEN grouping(variant) = 1 THEN 'all' ELSE variant END AS variant,
        grouping(variant) AS everything,
        count(*) AS hands,
        sum(points) AS points,
        sum(points * points) AS squares,
        count(*) FILTER (WHERE rows_won = 3) AS scoops,
        count(*) FILTER (WHERE rows_lost = 3) AS scooped,
        sum(rows_won)::BIGINT AS rows_won,
        sum(rows_lost)::BIGINT AS rows_lost,
        min(played_at) AS first_played_at,
        max(played_at) AS last_played_at
    FROM scoped
    GROUP BY GROUPING SETS ((variant), ())
)
SELECT * REPLACE ({first}, {last}) FROM counted WHERE hands > 0
ORDER BY everything DESC, hands DESC
"""


#: Head to head over all dates and stakes, from the pre-aggregated pairs.
_HEAD_TO_HEAD_SUMMARISED = """
SELECT variant, (variant = 'all')::INTEGER AS everything, hands, points, squares, scoops,
    scooped, rows_won, rows_lost, {first}, {last}
FROM player_pairs
WHERE player = ? AND opponent = ?
ORDER BY everything DESC, hands DESC
"""


def _one_variant(found: pl.DataFrame, variant: str) -> pl.DataFrame:
    """The pre-aggregated rows of ``variant`` alone: its row, and the same row as 'all'."""
    row = found.filter(pl.col("variant") == variant)
    return pl.concat([row.with_columns(variant=pl.lit("all"), everything=pl.lit(1)), row])


def head_to_head(db: Database, first: str, second: str, filters: Filters) -> pl.DataFrame:
    """``first``'s results against ``second`` (points from ``first``'s side), per variant
    and all, with the 95% intervals of points per hand and of the share of rows won;
    empty when they never met in the view.

    Only the settlements between the two count (each pair of players settles
    separately), after table-stakes caps (``points_a``). A variant alone is read
    from ``player_pairs``; dates, stakes or a ruleset sum the view's settlements.
    """
    days = {"first": shown("first_played_at", "first_played_at")}
    days["last"] = shown("last_played_at", "last_played_at")
    if filters.summarised:
        sql = _HEAD_TO_HEAD_SUMMARISED.format(**days)
        found = db.frame(sql, [first, second])
        found = _one_variant(found, filters.variant) if filters.variant else found
    else:
        where = hand_scope(filters)
        params = [first, first, first, first, second, second, first, *where.params]
        found = db.frame(_HEAD_TO_HEAD.format(where=where.sql, **days), params)
    found = intervals.with_mean(found, "points_per_hand", "points", "squares", "hands")
    return intervals.with_rate(
        found.with_columns(rows=3 * pl.col("hands")), "rows_won_share", "rows_won", "rows"
    )


#: Hands met per opponent from the metric table ``player_pairs`` (its hands are the
#: pairwise settlements of the two), not from ``pairwise``: the picker opens every page.
_OPPONENTS = """
SELECT opponent FROM (
    SELECT opponent, row_number() OVER (ORDER BY hands DESC, opponent) AS rank
    FROM player_pairs
    WHERE player = ? AND variant = 'all'
)
WHERE rank <= ? OR opponent = ?
ORDER BY rank
"""


def opponents(
    db: Database, player: str, limit: int = PICKER_PLAYERS, keep: str | None = None
) -> list[str]:
    """The ``limit`` players ``player`` met most often (then by name), and ``keep``
    last when ``player`` met them but they are not among those (the opponent a link names)."""
    return [r[0] for r in db.rows(_OPPONENTS, [player, limit, keep])]
