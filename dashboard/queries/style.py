"""The Style page: tight against aggressive, final bottoms, first-street setups.

The scatter's rates are those of ``pipeline/load/metrics/definitions.py``
(``style_foul_rate``, ``bottom_aggression``), from the view's players'
statistics (``profile.players_stats``). The shares of final bottoms and
first-street setups come from ``style_metrics`` when the view is a variant
only, from ``player_days`` with dates, stakes or a ruleset, and from
``player_hands`` with an opponent, with the same definitions
(``pipeline/load/metrics/style_metrics.sql``): only hands not played in
Fantasyland; final-row figures leave out hands with a timed-out street.
Every share comes with its n and Wilson 95% interval.
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, day_scope, scope
from dashboard.queries.profile import players_stats
from pipeline.load.metrics import days, intervals
from pipeline.load.metrics.definitions import (
    BOTTOM_AGGRESSION,
    STYLE_FOUL_RATE,
    pooled,
    stat_columns,
    with_figures,
)

#: Players with fewer style hands are left off the scatter (their rates are noise).
MIN_STYLE_HANDS = 30

#: Final bottom categories, weakest first, as ``style_metrics`` names their shares.
BOTTOM_CATEGORIES = {
    "high card": "bottom_high_card_share",
    "pair": "bottom_pair_share",
    "two pair": "bottom_two_pair_share",
    "trips": "bottom_trips_share",
    "straight": "bottom_straight_share",
    "flush": "bottom_flush_share",
    "full house": "bottom_full_house_share",
    "quads": "bottom_quads_share",
    "straight flush": "bottom_straight_flush_share",
}
#: First-street bottom setups (``first_street_bottom``) and their share columns.
FIRST_STREET = {
    "pair_or_better": "first_street_pair_share",
    "flush_draw": "first_street_flush_draw_share",
    "straight_draw": "first_street_straight_draw_share",
    "high_cards": "first_street_high_cards_share",
}

_SCATTER = (STYLE_FOUL_RATE, BOTTOM_AGGRESSION)

_PLAYERS = f"""
WITH stats AS MATERIALIZED ({{stats}})
SELECT player, {", ".join(stat_columns(_SCATTER))} FROM stats
WHERE {STYLE_FOUL_RATE.name}__n >= ?
UNION ALL
SELECT NULL AS player, {pooled(_SCATTER)} FROM stats
"""


def players(db: Database, filters: Filters) -> pl.DataFrame:
    """One row per player with ``MIN_STYLE_HANDS`` style hands: ``style_hands``,
    ``foul_rate``, ``bottom_aggression`` with their intervals (``_low``, ``_high``);
    first, a row without a player: the pooled population's (every player-hand)."""
    sql, params = players_stats(filters, _SCATTER)
    found = with_figures(db.frame(_PLAYERS.format(stats=sql), [*params, MIN_STYLE_HANDS]), _SCATTER)
    foul, aggression = STYLE_FOUL_RATE.name, BOTTOM_AGGRESSION.name
    return found.select(
        "player",
        pl.col(f"{foul}_n").alias("style_hands"),
        *(pl.col(f"{foul}{end}").alias(f"foul_rate{end}") for end in ("", "_low", "_high")),
        *(pl.col(f"{aggression}{end}") for end in ("", "_low", "_high")),
        pl.col(f"{aggression}_n").alias("first_street_hands"),
    ).sort(
        pl.col("player").is_not_null(),
        pl.col("style_hands"),
        "player",
        descending=[False, True, False],
    )


_TABLE = """
SELECT * FROM (
    UNPIVOT (SELECT {columns}, sum({base}) AS n FROM style_metrics WHERE {where})
    ON {labels} INTO NAME category VALUE k
)
"""

_BOTTOMS_COMPUTED = """
SELECT category_bottom AS category, count(*)::DOUBLE AS k, sum(count(*)) OVER () AS n
FROM player_hands p
WHERE NOT p.in_fantasyland AND NOT p.timed_out AND NOT p.foul AND {where}
GROUP BY category_bottom
"""

_FIRST_STREET_COMPUTED = """
SELECT first_street_bottom AS category, count(*)::DOUBLE AS k, sum(count(*)) OVER () AS n
FROM player_hands p
WHERE NOT p.in_fantasyland AND p.first_street_bottom IS NOT NULL AND {where}
GROUP BY first_street_bottom
"""

SCHEMA = {"category": pl.String, "share": pl.Float64, "n": pl.Int64, "low": pl.Float64}


def _table_counts(filters: Filters, columns: dict[str, str], base: str) -> tuple[str, list]:
    """Counts of each category from ``style_metrics`` (share × base), the hero's or pooled."""
    sums = ", ".join(f'sum({column} * {base}) AS "{label}"' for label, column in columns.items())
    where, params = "variant = ?", [filters.variant_key]
    if filters.hero:
        where, params = f"{where} AND player = ?", [*params, filters.hero]
    labels = ", ".join(f'"{label}"' for label in columns)
    return _TABLE.format(columns=sums, base=base, where=where, labels=labels), params


_DAILY = """
SELECT * FROM (
    UNPIVOT (SELECT {columns}, sum({base})::BIGINT AS n FROM player_days d WHERE {where})
    ON {labels} INTO NAME category VALUE k
)
"""


def _day_counts(filters: Filters, columns: dict[str, str], base: str) -> tuple[str, list]:
    """Counts of each category (label → ``player_days`` column) in the view's days."""
    sums = ", ".join(f'sum({column})::DOUBLE AS "{label}"' for label, column in columns.items())
    where = day_scope(filters)
    labels = ", ".join(f'"{label}"' for label in columns)
    sql = _DAILY.format(columns=sums, base=base, where=where.sql, labels=labels)
    return sql, list(where.params)


def _shares(db: Database, counts: str, params: list, labels: list[str]) -> pl.DataFrame:
    counted = db.frame(counts, params).select("category", "k", "n")
    found = intervals.with_rate(counted, "share", "k", "n")
    found = found.rename({"share_low": "low", "share_high": "high"}).with_columns(
        pl.col("n").cast(pl.Int64)
    )
    order = {label: i for i, label in enumerate(labels)}
    return (
        found.filter(pl.col("category").is_in(labels), pl.col("share") > 0)
        .with_columns(rank=pl.col("category").replace_strict(order))
        .sort("rank")
    )


def bottom_categories(db: Database, filters: Filters) -> pl.DataFrame:
    """Share of each final bottom category among live hands (hero's, or everybody's pooled):
    ``category``, ``share``, ``n`` (live hands), ``low``, ``high``, ``rank``."""
    labels = list(BOTTOM_CATEGORIES)
    if filters.summarised:
        sql, params = _table_counts(filters, BOTTOM_CATEGORIES, "live_hands")
        return _shares(db, sql, params, labels)
    if filters.daily:
        sql, params = _day_counts(filters, days.BOTTOMS, "live_hands")
        return _shares(db, sql, params, labels)
    where = scope(filters)
    return _shares(db, _BOTTOMS_COMPUTED.format(where=where.sql), list(where.params), labels)


def first_street(db: Database, filters: Filters) -> pl.DataFrame:
    """Share of each first-street bottom setup (hero's, or everybody's pooled), as
    ``bottom_categories``."""
    labels = list(FIRST_STREET)
    if filters.summarised:
        sql, params = _table_counts(filters, FIRST_STREET, "first_street_hands")
        return _shares(db, sql, params, labels)
    if filters.daily:
        sql, params = _day_counts(filters, days.FIRST_STREET, "first_street_hands")
        return _shares(db, sql, params, labels)
    where = scope(filters)
    return _shares(db, _FIRST_STREET_COMPUTED.format(where=where.sql), list(where.params), labels)
