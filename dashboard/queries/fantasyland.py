"""The Fantasyland page: entry and stay rates, cards dealt, points in and out of Fantasyland.

Rates and means are those of ``pipeline/load/metrics/definitions.py`` (entry
rate = entries / live hands not played in Fantasyland; stay rate = stays /
Fantasyland hands), each with its n and 95% interval; the headline's come from
``summary.summaries``. Views without an opponent are summed from ``player_days``,
whose rows keep Fantasyland hands apart by the cards dealt; with an opponent,
from ``player_hands``.
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, sourced
from pipeline.load.metrics.days import summed
from pipeline.load.metrics.definitions import (
    FANTASYLAND_ENTRY,
    FANTASYLAND_SHARE,
    FANTASYLAND_STAY,
    POINTS_PER_FANTASYLAND_HAND,
    POINTS_PER_NORMAL_HAND,
    stat_columns,
    stats,
    with_figures,
)

#: The metrics of this page.
METRICS = (
    FANTASYLAND_ENTRY,
    FANTASYLAND_STAY,
    FANTASYLAND_SHARE,
    POINTS_PER_FANTASYLAND_HAND,
    POINTS_PER_NORMAL_HAND,
)

_BY_RULESET = f"""
WITH counted AS (
    SELECT
        p.variant,
        p.ruleset,
        count(*) AS hands,
        count(*) FILTER (WHERE p.in_fantasyland) AS fantasyland_hands,
        avg(p.fantasyland_cards) FILTER (WHERE p.in_fantasyland) AS cards_per_fantasyland_hand,
        {stats("p", METRICS)}
    FROM player_hands p
    WHERE {{where}}
    GROUP BY p.variant, p.ruleset
)
SELECT * FROM counted ORDER BY hands DESC
"""


_BY_RULESET_DAILY = f"""
WITH counted AS (
    SELECT
        d.variant,
        d.ruleset,
        {summed(["hands", "fantasyland_hands"])},
        sum(d.fantasyland_cards * d.fantasyland_hands)
            / sum(d.fantasyland_hands) FILTER (WHERE d.fantasyland_cards IS NOT NULL)
            AS cards_per_fantasyland_hand,
        {summed(stat_columns(METRICS))}
    FROM player_days d
    WHERE {{where}}
    GROUP BY d.variant, d.ruleset
)
SELECT * FROM counted ORDER BY hands DESC
"""


def by_ruleset(db: Database, filters: Filters) -> pl.DataFrame:
    """One row per variant and ruleset (hero's hands, or everybody's without a hero):
    each metric of ``METRICS`` with ``_n``, ``_low``, ``_high``."""
    sql, where = sourced(filters, _BY_RULESET_DAILY, _BY_RULESET)
    return with_figures(db.frame(sql.format(where=where.sql), list(where.params)), METRICS)


#: Cards dealt in Fantasyland, in the order the chart lists them.
CARDS = (13, 14, 15, 16, 17)

_CARDS = f"""
WITH counted AS (
    SELECT p.variant, p.fantasyland_cards AS cards, count(*) AS hands,
        {stats("p", (FANTASYLAND_STAY, POINTS_PER_FANTASYLAND_HAND))}
    FROM player_hands p
    WHERE p.in_fantasyland AND {{where}}
    GROUP BY p.variant, p.fantasyland_cards
)
SELECT * FROM counted ORDER BY variant, cards
"""


_CARDS_DAILY = f"""
WITH counted AS (
    SELECT d.variant, d.fantasyland_cards AS cards, sum(d.fantasyland_hands)::BIGINT AS hands,
        {summed(stat_columns((FANTASYLAND_STAY, POINTS_PER_FANTASYLAND_HAND)))}
    FROM player_days d
    WHERE d.fantasyland_hands > 0 AND {{where}}
    GROUP BY d.variant, d.fantasyland_cards
)
SELECT * FROM counted ORDER BY variant, cards
"""


def cards_dealt(db: Database, filters: Filters) -> pl.DataFrame:
    """Fantasyland hands by cards dealt (13-17): how many, stay rate and points per hand,
    each with its n and 95% interval."""
    sql, where = sourced(filters, _CARDS_DAILY, _CARDS)
    found = db.frame(sql.format(where=where.sql), list(where.params))
    return with_figures(found, (FANTASYLAND_STAY, POINTS_PER_FANTASYLAND_HAND))
