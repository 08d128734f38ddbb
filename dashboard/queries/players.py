"""The Players page: every player's figures in the view, and head-to-head results from ``pairwise``."""

from __future__ import annotations

import polars as pl

from dashboard.queries import per_player
from dashboard.queries.dates import shown
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, day_scope, sourced
from dashboard.queries.options import PICKER_PLAYERS
from pipeline.load.metrics import intervals
from pipeline.load.metrics.definitions import RESULTS, stat_columns, with_figures

#: Most rows the players table shows (the most played first); search narrows it.
TABLE_ROWS = 2000

#: The figures the table shows, each with its n and 95% interval (``<name>_n``,
#: ``_low``, ``_high``): every figure a user sees carries them (docs/metrics.md).
FIGURES = (
    "points_per_hand",
    "foul_rate",
    "scoop_rate",
    "rows_won_per_row",
    "royalties_per_hand",
    "fantasyland_entry_rate",
    "fantasyland_stay_rate",
    "fantasyland_share",
)

TABLE_COLUMNS = (
    "player",
    "hands",
    "points",
    *(f"{name}{part}" for name in FIGURES for part in ("", "_low", "_high", "_n")),
    "money",
    "currencies",
    "mismatches",
    "first_played_at",
    "last_played_at",
)

#: The ``player_summary`` columns that are counts, not figures of a metric.
_COUNTS = ("player", "hands", "points", "money", "currencies", "mismatches")


def players_table(db: Database, filters: Filters, search: str = "") -> pl.DataFrame:
    """The players of the view whose name contains ``search``, most hands first
    (at most ``TABLE_ROWS``), with the columns ``TABLE_COLUMNS``.

    The hero does not narrow the table. A variant alone reads each player's
    statistics from ``player_metrics`` (and counts from ``player_summary``); a
    ruleset, dates or stakes make every figure count only the view's hands
    (``per_player``). An opponent keeps the players who sat at a table with the
    opponent, each with their figures in those hands only (the opponent is left
    out): who does well at that opponent's tables. Either way the figures and
    their intervals come from the statistics by ``with_figures``.
    """
    dates = ", ".join(shown(c, c) for c in ("first_played_at", "last_played_at"))
    if filters.summarised:
        counts = ", ".join(f"s.{c}" for c in _COUNTS)
        sql = (
            f"SELECT {counts}, s.first_played_at, s.last_played_at,"
            f" {', '.join(f'm.{c}' for c in stat_columns(RESULTS))}"
            " FROM player_summary s JOIN player_metrics m USING (player, variant)"
            " WHERE s.variant = ? AND contains(lower(s.player), lower(?))"
        )
        params: list[object] = [filters.variant_key, search]
    else:
        sql, params = per_player.table(filters, search)
    found = db.frame(
        f"SELECT * REPLACE ({dates}) FROM ({sql}) ORDER BY hands DESC, player LIMIT ?",
        [*params, TABLE_ROWS],
    )
    return with_figures(found, RESULTS).select(TABLE_COLUMNS)


#: Money per player and currency in a view, from ``player_days`` (alias ``d``) or, with
#: an opponent, ``player_hands`` (``p``); play money has no currency.
_MONEY = """
SELECT {a}.player, {a}.currency, sum({a}.money) AS money
FROM {table} {a}
WHERE {where}
GROUP BY {a}.player, {a}.currency
ORDER BY {a}.player, {a}.currency
"""
_TABLES = {"d": "player_days", "p": "player_hands"}


def money_by_currency(
    db: Database, filters: Filters, names: list[str]
) -> dict[str, list[tuple[str, float]]]:
    """The money each of ``names`` won or lost in the view, per currency (amounts in
    different currencies are never added up); a player of play money alone is left out."""
    a, where = sourced(filters.with_hero(None), "d", "p")
    where = where.also(f"{a}.currency IS NOT NULL").also(f"list_contains(?, {a}.player)", names)
    found: dict[str, list[tuple[str, float]]] = {}
    sql = _MONEY.format(a=a, table=_TABLES[a], where=where.sql)
    for player, currency, money in db.rows(sql, list(where.params)):
        found.setdefault(player, []).append((currency, money))
    return found


#: Head to head in a view narrowed by dates, stakes or a ruleset, from ``pair_days``.
_HEAD_TO_HEAD = """
WITH counted AS (
    SELECT
        CASE WHEN grouping(d.variant) = 1 THEN 'all' ELSE d.variant END AS variant,
        grouping(d.variant) AS everything,
        sum(d.hands)::BIGINT AS hands,
        sum(d.points) AS points,
        sum(d.squares) AS squares,
        sum(d.scoops)::BIGINT AS scoops,
        sum(d.scooped)::BIGINT AS scooped,
        sum(d.rows_won)::BIGINT AS rows_won,
        sum(d.rows_lost)::BIGINT AS rows_lost,
        min(d.first_played_at) AS first_played_at,
        max(d.last_played_at) AS last_played_at
    FROM pair_days d
    WHERE d.opponent = ? AND {where}
    GROUP BY GROUPING SETS ((d.variant), ())
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
    from ``player_pairs``; dates, stakes or a ruleset sum the view's ``pair_days``.
    """
    days = {"first": shown("first_played_at", "first_played_at")}
    days["last"] = shown("last_played_at", "last_played_at")
    if filters.summarised:
        sql = _HEAD_TO_HEAD_SUMMARISED.format(**days)
        found = db.frame(sql, [first, second])
        found = _one_variant(found, filters.variant) if filters.variant else found
    else:
        where = day_scope(filters.with_hero(first))
        found = db.frame(_HEAD_TO_HEAD.format(where=where.sql, **days), [second, *where.params])
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
