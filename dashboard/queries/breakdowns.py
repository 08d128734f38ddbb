"""Results broken down the way trackers do: by stakes, ruleset, month or day; by table
session; against each opponent. Every points-per-hand figure has its n and 95% t
interval (``pipeline/load/metrics/intervals.py``); money stays per currency.

A session is the hero's run of hands at one table with no pause longer than
``SESSION_GAP_MINUTES`` between two hands.
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, hand_scope, scope
from pipeline.load.metrics import intervals

SESSION_GAP_MINUTES = 30
SESSION_ROWS = 200

#: The breakdowns by a column of the hero's player-hands: label → SQL key.
KEYS = {
    "Stakes": (
        "CASE WHEN p.point_value IS NULL THEN 'play'"
        " ELSE concat_ws(' ', p.point_value::DECIMAL(10, 2)::VARCHAR, p.currency) END"
    ),
    "Ruleset": "p.ruleset",
    "Month": "strftime(p.played_at, '%Y-%m')",
    "Day": "strftime(p.played_at, '%Y-%m-%d')",
}

_FIGURES = f"""
    {intervals.mean("points", "hands")} AS points_per_hand,
    {intervals.mean_low("points", "squares", "hands")} AS points_per_hand_low,
    {intervals.mean_high("points", "squares", "hands")} AS points_per_hand_high"""

_BY = f"""
WITH counted AS (
    SELECT
        {{key}} AS "group",
        count(*) AS hands,
        sum(p.points) AS points,
        sum(p.points * p.points) AS squares,
        count(*) FILTER (WHERE p.foul) AS fouls,
        CASE WHEN count(DISTINCT p.currency) = 1 THEN sum(p.money) END AS money,
        string_agg(DISTINCT p.currency, ',') AS currency
    FROM player_hands p
    WHERE {{where}}
    GROUP BY 1
)
SELECT "group", hands, points, {_FIGURES},
    fouls / hands AS foul_rate,
    {intervals.wilson_low("fouls", "hands")} AS foul_rate_low,
    {intervals.wilson_high("fouls", "hands")} AS foul_rate_high,
    money, currency
FROM counted
ORDER BY "group" DESC
"""


def by(db: Database, filters: Filters, key: str) -> pl.DataFrame:
    """The view's results (the hero's, or everybody's) per group of ``KEYS[key]``: hands,
    points, points per hand and foul rate with their intervals, money when the group
    holds one currency."""
    where = scope(filters)
    return db.frame(_BY.format(key=KEYS[key], where=where.sql), list(where.params))


_SESSIONS = f"""
WITH mine AS (
    SELECT p.played_at, p.points, p.money, p.currency, h.table_name,
        CASE WHEN lag(p.played_at) OVER w IS NULL
            OR p.played_at - lag(p.played_at) OVER w > INTERVAL {SESSION_GAP_MINUTES} MINUTE
            THEN 1 ELSE 0 END AS starts
    FROM player_hands p JOIN hands h USING (hand_id)
    WHERE {{where}}
    WINDOW w AS (PARTITION BY h.table_name ORDER BY p.played_at, p.hand_id)
),
numbered AS (
    SELECT *, sum(starts) OVER (
        PARTITION BY table_name ORDER BY played_at ROWS UNBOUNDED PRECEDING
    ) AS session
    FROM mine
),
counted AS (
    SELECT table_name, session, min(played_at) AS started_at, max(played_at) AS ended_at,
        count(*) AS hands, sum(points) AS points, sum(points * points) AS squares,
        CASE WHEN count(DISTINCT currency) = 1 THEN sum(money) END AS money,
        any_value(currency) AS currency
    FROM numbered
    GROUP BY table_name, session
)
SELECT started_at, ended_at, table_name,
    date_diff('minute', started_at, ended_at) AS minutes,
    hands, points, {_FIGURES}, money, currency
FROM counted
ORDER BY started_at DESC
LIMIT ?
"""


def sessions(db: Database, filters: Filters) -> pl.DataFrame:
    """The hero's latest table sessions in the view, newest first: start, end, table,
    minutes, hands, points, points per hand with its interval, money and currency."""
    where = scope(filters)
    return db.frame(_SESSIONS.format(where=where.sql), [*where.params, SESSION_ROWS])


_OPPONENTS = f"""
WITH met AS (
    SELECT
        CASE WHEN w.player_a = ? THEN w.player_b ELSE w.player_a END AS opponent,
        CASE WHEN w.player_a = ? THEN w.points_a ELSE -w.points_a END AS points
    FROM pairwise w JOIN hands h USING (hand_id)
    WHERE (w.player_a = ? OR w.player_b = ?) AND {{where}}
),
counted AS (
    SELECT opponent, count(*) AS hands, sum(points) AS points, sum(points * points) AS squares
    FROM met GROUP BY opponent
)
SELECT opponent, hands, points, {_FIGURES}
FROM counted
ORDER BY hands DESC, opponent
LIMIT ?
"""


def opponents(db: Database, filters: Filters, limit: int = 200) -> pl.DataFrame:
    """The hero's results against each opponent met in the view (their own pairwise
    settlements), most hands first: points and points per hand with its interval."""
    where = hand_scope(filters)
    hero = filters.hero
    return db.frame(
        _OPPONENTS.format(where=where.sql), [hero, hero, hero, hero, *where.params, limit]
    )
