"""The Style page: tight against aggressive, final bottoms, first-street setups.

From ``style_metrics`` when the view is a variant only; with dates, stakes, a
ruleset or an opponent, from ``player_hands`` with the same definitions
(``pipeline/load/metrics/style_metrics.sql``): only hands not played in
Fantasyland; final-row figures leave out hands with a timed-out street (R8).
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, scope

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

_PLAYERS_COMPUTED = """
SELECT
    player,
    count(*) FILTER (WHERE NOT timed_out) AS style_hands,
    count(*) FILTER (WHERE NOT timed_out AND foul)
        / nullif(count(*) FILTER (WHERE NOT timed_out), 0) AS foul_rate,
    count(*) FILTER (WHERE first_street_bottom <> 'pair_or_better')
        / nullif(count(first_street_bottom), 0) AS bottom_aggression
FROM player_hands p
WHERE NOT p.in_fantasyland AND {where}
GROUP BY player
HAVING count(*) FILTER (WHERE NOT timed_out) >= ?
ORDER BY style_hands DESC
"""


def players(db: Database, filters: Filters) -> pl.DataFrame:
    """One row per player: ``style_hands``, ``foul_rate``, ``bottom_aggression``."""
    if filters.summarised:
        return db.frame(
            "SELECT player, style_hands, foul_rate, bottom_aggression FROM style_metrics"
            " WHERE variant = ? AND style_hands >= ? ORDER BY style_hands DESC",
            [filters.variant_key, MIN_STYLE_HANDS],
        )
    where = scope(filters.population())
    return db.frame(_PLAYERS_COMPUTED.format(where=where.sql), [*where.params, MIN_STYLE_HANDS])


def _pooled(columns: dict[str, str], base: str) -> str:
    """SQL: each share pooled over players, weighted by its base count."""
    return ", ".join(
        f'sum({column} * {base}) / nullif(sum({base}), 0) AS "{label}"'
        for label, column in columns.items()
    )


def _shares_table(db: Database, filters: Filters, columns: dict[str, str], base: str) -> dict:
    if filters.hero:
        sql = f"SELECT {', '.join(columns.values())} FROM style_metrics WHERE player = ? AND variant = ?"
        rows = db.rows(sql, [filters.hero, filters.variant_key])
    else:
        sql = f"SELECT {_pooled(columns, base)} FROM style_metrics WHERE variant = ?"
        rows = db.rows(sql, [filters.variant_key])
    values = rows[0] if rows else (None,) * len(columns)
    return dict(zip(columns, values, strict=True))


_BOTTOMS_COMPUTED = """
SELECT category_bottom AS category, count(*) / sum(count(*)) OVER () AS share
FROM player_hands p
WHERE NOT p.in_fantasyland AND NOT p.timed_out AND NOT p.foul AND {where}
GROUP BY category_bottom
"""

_FIRST_STREET_COMPUTED = """
SELECT first_street_bottom AS category, count(*) / sum(count(*)) OVER () AS share
FROM player_hands p
WHERE NOT p.in_fantasyland AND p.first_street_bottom IS NOT NULL AND {where}
GROUP BY first_street_bottom
"""


def _computed_shares(db: Database, filters: Filters, sql: str, labels: list[str]) -> dict:
    where = scope(filters)
    found = dict(db.rows(sql.format(where=where.sql), list(where.params)))
    return {label: found.get(label, 0.0) if found else None for label in labels}


def bottom_categories(db: Database, filters: Filters) -> dict[str, float | None]:
    """Share of each final bottom category among live hands (hero's, or everybody's)."""
    if filters.summarised:
        return _shares_table(db, filters, BOTTOM_CATEGORIES, "live_hands")
    return _computed_shares(db, filters, _BOTTOMS_COMPUTED, list(BOTTOM_CATEGORIES))


def first_street(db: Database, filters: Filters) -> dict[str, float | None]:
    """Share of each first-street bottom setup (hero's, or everybody's)."""
    if filters.summarised:
        return _shares_table(db, filters, FIRST_STREET, "first_street_hands")
    return _computed_shares(db, filters, _FIRST_STREET_COMPUTED, list(FIRST_STREET))
