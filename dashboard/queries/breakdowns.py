"""Results broken down the way trackers do: by stakes, ruleset, month or day; by table
session; against each opponent. Every points-per-hand figure has its n and 95% t
interval (``pipeline/load/metrics/intervals.py``); money stays per currency.

Views without an opponent are summed from ``player_days`` (per player, UTC day,
variant, ruleset and stake) and ``pair_days``; with an opponent, the breakdowns
by a column read the view's ``player_hands``.

A session is the hero's run of hands at one table with no pause longer than
``SESSION_GAP_MINUTES`` between two hands; sessions are found among the view's
latest ``SESSION_HANDS`` hands (the oldest session of each table there may have
begun earlier: it is left out).
"""

from __future__ import annotations

import polars as pl

from dashboard.queries import hands
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, day_scope, scope
from pipeline.load.metrics import intervals

SESSION_GAP_MINUTES = 30
SESSION_ROWS = 200
SESSION_HANDS = 20_000

#: The breakdowns by a column of the hero's player-hands: label → (the columns grouped,
#: the group's name from them). Rows are grouped by raw columns first and the few
#: groups named after: formatting a name for each of a million player-hands is slow.
#: ``p.day`` is the UTC day (``player_days``; ``played_at::DATE`` in the dashboard's UTC).
KEYS = {
    "Stakes": (
        "p.point_value, p.currency",
        "CASE WHEN point_value IS NULL THEN 'play'"
        " ELSE concat_ws(' ', printf('%g', point_value), currency) END",  # as stakes_key
    ),
    "Ruleset": ("p.ruleset", "ruleset"),
    "Month": ("p.day AS start", "strftime(start, '%Y-%m')"),  # days, then months
    "Day": ("p.day AS start", "strftime(start, '%Y-%m-%d')"),
}

#: What the page breaks results down by, one at a time; it opens on the first.
CHOICES = (*KEYS, "Session", "Opponent")

#: The sums ``_BY`` groups: from ``player_hands`` (``p``), or from ``player_days`` rows.
_HAND_SUMS = """count(*) AS hands,
        sum(p.points) AS points,
        sum(p.points * p.points) AS squares,
        count_if(p.foul) AS fouls,
        sum(p.money) AS money"""
_DAY_SUMS = """sum(p.hands) AS hands,
        sum(p.points) AS points,
        sum(p.squares) AS squares,
        sum(p.fouls) AS fouls,
        sum(p.money) AS money"""

_BY = """
WITH grouped AS (
    SELECT
        {columns},
        {sums},
        min(p.currency) AS first_currency,
        max(p.currency) AS last_currency
    FROM {rows}
    WHERE {where}
    GROUP BY ALL
)
SELECT
    {name} AS "group",
    sum(hands)::BIGINT AS hands,
    sum(points) AS points,
    sum(squares) AS squares,
    sum(fouls)::BIGINT AS fouls,
    CASE WHEN min(first_currency) = max(last_currency) THEN sum(money) END AS money,
    CASE WHEN min(first_currency) = max(last_currency) THEN min(first_currency) END AS currency
FROM grouped
GROUP BY 1
ORDER BY 1 DESC
"""


#: ``player_hands`` with each hand's ``day`` (in the dashboard's UTC), as ``p``.
_HANDS_WITH_DAYS = "(SELECT *, played_at::DATE AS day FROM player_hands) p"


def _points(frame: pl.DataFrame) -> pl.DataFrame:
    return intervals.with_mean(frame, "points_per_hand", "points", "squares", "hands")


def by(db: Database, filters: Filters, key: str) -> pl.DataFrame:
    """The view's results (the hero's, or everybody's) per group of ``KEYS[key]``: hands,
    points, points per hand and foul rate with their intervals, money when the group
    holds one currency."""
    columns, name = KEYS[key]
    if filters.daily:
        where, rows, sums = day_scope(filters, "p"), "player_days p", _DAY_SUMS
    else:
        where, rows, sums = scope(filters), _HANDS_WITH_DAYS, _HAND_SUMS
    sql = _BY.format(columns=columns, name=name, sums=sums, rows=rows, where=where.sql)
    found = db.frame(sql, list(where.params))
    return intervals.with_rate(_points(found), "foul_rate", "fouls", "hands")


_SESSIONS = f"""
WITH latest AS (
    SELECT p.hand_id, p.played_at, p.points, p.money, p.currency, p.table_name
    FROM player_hands p
    WHERE {{where}}
    ORDER BY p.played_at DESC, p.hand_id DESC
    LIMIT ?
),
mine AS (
    SELECT *,
        CASE WHEN lag(played_at) OVER w IS NULL
            OR played_at - lag(played_at) OVER w > INTERVAL {SESSION_GAP_MINUTES} MINUTE
            THEN 1 ELSE 0 END AS starts
    FROM latest
    WINDOW w AS (PARTITION BY table_name ORDER BY played_at, hand_id)
),
numbered AS (
    SELECT *,
        sum(starts) OVER (PARTITION BY table_name ORDER BY played_at, hand_id
            ROWS UNBOUNDED PRECEDING) AS session,
        count(*) OVER () = ? AS cut
    FROM mine
)
SELECT table_name, min(played_at) AS started_at, max(played_at) AS ended_at,
    date_diff('minute', min(played_at), max(played_at)) AS minutes,
    count(*) AS hands, sum(points) AS points, sum(points * points) AS squares,
    CASE WHEN min(currency) = max(currency) THEN sum(money) END AS money,
    CASE WHEN min(currency) = max(currency) THEN min(currency) END AS currency
FROM numbered
WHERE NOT (cut AND session = 1)
GROUP BY table_name, session
ORDER BY started_at DESC
LIMIT ?
"""


def sessions(db: Database, filters: Filters) -> pl.DataFrame:
    """The hero's latest table sessions in the view, newest first: start, end, table,
    minutes, hands, points, points per hand with its interval, money and currency.
    The latest hands are looked for only in the days that hold them (``player_days``)."""
    latest = hands.within_days(db, filters, hands.HandFilters(), hands.NEWEST, SESSION_HANDS)
    where = scope(filters).and_(latest)
    params = [*where.params, SESSION_HANDS, SESSION_HANDS, SESSION_ROWS]
    return _points(db.frame(_SESSIONS.format(where=where.sql), params))


_OPPONENTS = """
SELECT d.opponent, sum(d.hands)::BIGINT AS hands, sum(d.points) AS points,
    sum(d.squares) AS squares
FROM pair_days d
WHERE {where}
GROUP BY d.opponent
ORDER BY hands DESC, d.opponent
LIMIT ?
"""


_OPPONENTS_SUMMARISED = """
SELECT opponent, hands, points, squares
FROM player_pairs
WHERE player = ? AND variant = ?
ORDER BY hands DESC, opponent
LIMIT ?
"""


def opponents(db: Database, filters: Filters, limit: int = 200) -> pl.DataFrame:
    """The hero's results against each opponent met in the view (their own pairwise
    settlements), most hands first: points and points per hand with its interval.
    A variant alone is read from ``player_pairs``, views narrowed by dates, stakes or a
    ruleset from ``pair_days``, and a view with an opponent (only the hands that opponent
    played) from ``pairwise``."""
    if filters.summarised:
        params = [filters.hero, filters.variant_key, limit]
        return _points(db.frame(_OPPONENTS_SUMMARISED, params))
    if not filters.daily:
        where = scope(filters)
        sql = _OPPONENTS_IN_HANDS.format(where=where.sql)
        return _points(db.frame(sql, [*where.params, limit]))
    where = day_scope(filters)
    return _points(db.frame(_OPPONENTS.format(where=where.sql), [*where.params, limit]))


_OPPONENTS_IN_HANDS = """
SELECT
    CASE WHEN w.player_a = p.player THEN w.player_b ELSE w.player_a END AS opponent,
    count(*)::BIGINT AS hands,
    sum(CASE WHEN w.player_a = p.player THEN w.points_a ELSE -w.points_a END) AS points,
    sum(w.points_a * w.points_a) AS squares
FROM player_hands p
JOIN pairwise w ON w.hand_id = p.hand_id AND p.player IN (w.player_a, w.player_b)
WHERE {where}
GROUP BY 1
ORDER BY hands DESC, opponent
LIMIT ?
"""
