"""The hero's cumulative points (over all hands and per variant) and money (per currency,
never summed across currencies), drawn with at most ~400 points a line.

Up to ``EXACT_HANDS`` hands, every hand is numbered in time order and every
k-th is kept (exact). Beyond, the running totals at the end of each UTC hour
(``player_hours``) are thinned the same way when the view holds hands in at
least ``MIN_HOURS`` hours (and has no opponent); otherwise hands are first
summed into ``BUCKETS`` time buckets (a cheap aggregate, where numbering a
million hands would need a sort). Either way each point is exact: the hands
and points up to the end of its hour or bucket.
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, Where, day_scope, scope

STEPS = 400
EXACT_HANDS = 20_000
BUCKETS = 20_000
#: Fewest hours for a line of hour ends (fewer: time buckets, finer than hours).
MIN_HOURS = STEPS
ALL = "all variants"

_EXACT = f"""
WITH numbered AS (
    SELECT
        variant,
        played_at,
        row_number() OVER everything AS n,
        count(*) OVER () AS total,
        sum(points) OVER everything AS cumulative,
        row_number() OVER per_variant AS n_variant,
        count(*) OVER (PARTITION BY variant) AS total_variant,
        sum(points) OVER per_variant AS cumulative_variant
    FROM (SELECT p.{{series}} AS variant, p.played_at, p.hand_id, p.{{value}} AS points
          FROM player_hands p WHERE {{where}})
    WINDOW everything AS (ORDER BY played_at, hand_id ROWS UNBOUNDED PRECEDING),
        per_variant AS (PARTITION BY variant ORDER BY played_at, hand_id ROWS UNBOUNDED PRECEDING)
)
SELECT '{ALL}' AS series, played_at AS until, n AS hands, cumulative AS points
FROM numbered WHERE {{with_all}} AND (n % greatest(total // {STEPS}, 1) = 0 OR n = total)
UNION ALL
SELECT variant, played_at, n_variant, cumulative_variant
FROM numbered
WHERE n_variant % greatest(total_variant // {STEPS}, 1) = 0 OR n_variant = total_variant
ORDER BY series, hands
"""

#: Running totals per ``series`` over ``step``s (``buckets``: series, step, hands, points,
#: until), thinned to about ``STEPS`` points a line.
_RUNNING = f"""
running AS (
    SELECT
        series,
        until,
        (sum(hands) OVER w)::BIGINT AS hands,
        sum(points) OVER w AS points,
        sum(hands) OVER (PARTITION BY series) AS total
    FROM buckets
    WINDOW w AS (PARTITION BY series ORDER BY step ROWS UNBOUNDED PRECEDING)
),
stepped AS (
    SELECT *, floor(hands * {STEPS} / total) AS mark,
           lead(floor(hands * {STEPS} / total)) OVER (PARTITION BY series ORDER BY hands) AS next
    FROM running
)
SELECT series, until, hands, points FROM stepped
WHERE next IS NULL OR next <> mark
ORDER BY series, hands
"""

_HOURLY = f"""
WITH buckets AS (
    SELECT
        CASE WHEN grouping(d.{{series}}) = 1 THEN '{ALL}' ELSE d.{{series}} END AS series,
        d.hour AS step,
        sum(d.{{hands}}) AS hands,
        sum(d.{{value}}) AS points,
        max(d.last_played_at) AS until
    FROM player_hours d
    WHERE {{where}}
    GROUP BY GROUPING SETS ({{hour_sets}})
),
{_RUNNING}"""

_BUCKETED = f"""
WITH mine AS (
    SELECT p.played_at, p.{{series}} AS variant, p.{{value}} AS points
    FROM player_hands p WHERE {{where}}
),
span AS (
    SELECT epoch(min(played_at)) AS start,
           greatest(epoch(max(played_at)) - epoch(min(played_at)), 1) / {BUCKETS} AS width
    FROM mine
),
buckets AS (
    SELECT
        CASE WHEN grouping(variant) = 1 THEN '{ALL}' ELSE variant END AS series,
        least(floor((epoch(played_at) - start) / width), {BUCKETS - 1}) AS step,
        count(*) AS hands,
        sum(points) AS points,
        max(played_at) AS until
    FROM mine, span
    GROUP BY GROUPING SETS ({{sets}})
),
{_RUNNING}"""


def _frame(db: Database, template: str, series: str, value: str, where: Where) -> pl.DataFrame:
    """``template`` run for ``series`` (``variant`` or ``currency``) summing ``value``; for
    ``variant``, with a line over all variants too. On ``player_hours`` the hands summed
    for money are ``money_hands``."""
    every = series == "variant"
    sql = template.format(
        where=where.sql,
        series=series,
        value=value,
        hands="hands" if every else "money_hands",
        with_all="TRUE" if every else "FALSE",
        sets="(variant, step), (step)" if every else "(variant, step)",
        hour_sets="(d.variant, d.hour), (d.hour)" if every else "(d.currency, d.hour)",
    )
    return db.frame(sql, list(where.params))


def _hours(db: Database, where: Where) -> int:
    sql = f"SELECT count(DISTINCT d.hour) FROM player_hours d WHERE {where.sql}"
    return int(db.value(sql, list(where.params)) or 0)


def _cumulative(
    db: Database, filters: Filters, hands: int, series: str, value: str
) -> pl.DataFrame:
    """Running totals of ``value`` per ``series`` (and over all, for variants), from (0, 0)."""
    money = series == "currency"
    where = scope(filters).also("p.money IS NOT NULL") if money else scope(filters)
    if hands <= EXACT_HANDS:
        found = _frame(db, _EXACT, series, value, where)
    else:
        hourly = day_scope(filters, time="hour")
        hourly = hourly.also("d.money_hands > 0") if money else hourly
        if filters.daily and _hours(db, hourly) >= MIN_HOURS:
            found = _frame(db, _HOURLY, series, value, hourly)
        else:
            found = _frame(db, _BUCKETED, series, value, where)
    if found.is_empty():
        return found
    starts = (
        found.group_by("series", maintain_order=True)
        .agg(pl.col("until").min())
        .with_columns(hands=pl.lit(0, found["hands"].dtype), points=pl.lit(0.0))
        .select(found.columns)
    )
    return pl.concat([starts, found.cast(starts.schema)]).sort("series", "hands")


def cumulative_points(db: Database, filters: Filters, hands: int) -> pl.DataFrame:
    """Columns ``series`` ('all variants' or a variant), ``until``, ``hands``, ``points``,
    starting from (0, 0); ``hands`` is how many hands the view holds (from the summary).
    The 'all variants' line is left out when the view holds one variant (it would be
    the same line)."""
    found = _cumulative(db, filters, hands, "variant", "points")
    if found.is_empty() or found["series"].n_unique() > 2:
        return found
    return found.filter(pl.col("series") != ALL)


def cumulative_money(db: Database, filters: Filters, hands: int) -> pl.DataFrame:
    """Cumulative money per currency (``series`` is the currency, ``points`` the running
    amount), over the view's hands played for money; one line per currency."""
    return _cumulative(db, filters, hands, "currency", "money")
