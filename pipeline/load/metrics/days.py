"""``player_days``: every player's statistics per UTC day, variant, ruleset and stake.

The dashboard's views narrowed by dates, stakes or a ruleset (without an
opponent) sum these rows instead of reading every player-hand: a player's
10,000,000 hands are a few thousand rows here. Every column but the keys adds
up over rows (the metrics' statistics, ``definitions.stats``, counts and sums)
or combines by its extreme (``first_played_at``, ``last_played_at``). Fantasyland hands are kept apart by the cards dealt
(``fantasyland_cards``, NULL outside Fantasyland) so the Fantasyland page can
break them down. ``day`` is the UTC date of ``played_at``: the dashboard's date
filters are UTC days (``dashboard/queries/db.py``).

``player_metrics`` (per player and variant) is summed from these rows rather than
from ``player_hands`` again.

>>> BOTTOMS["full house"], FIRST_STREET["flush_draw"]
('bottom_full_house', 'first_street_flush_draw')
>>> "mismatches" in COUNTS and "points" not in COUNTS
True
"""

from __future__ import annotations

from ofc_core.categories import CATEGORY_NAMES
from pipeline.load.metrics.definitions import METRICS, stat_columns, stats

#: Live hands (not in Fantasyland, no timeout, not fouled) by final bottom category:
#: label → column.
BOTTOMS = {label: "bottom_" + label.replace(" ", "_") for label in CATEGORY_NAMES}
#: Hands not in Fantasyland by street-1 bottom setup (``first_street_bottom``): value →
#: column.
FIRST_STREET = {
    setup: f"first_street_{setup}"
    for setup in ("pair_or_better", "flush_draw", "straight_draw", "high_cards")
}

_LIVE = "NOT p.in_fantasyland AND NOT p.timed_out AND NOT p.foul"
_SETUP = "NOT p.in_fantasyland AND p.first_street_bottom"

#: Counts and sums besides the metrics' statistics: column → SQL aggregate.
TOTALS = {
    "hands": "count(*)",
    "points": "sum(p.points)",
    "squares": "sum(p.points * p.points)",
    "fouls": "count_if(p.foul)",
    "money_hands": "count(p.money)",
    "money": "sum(p.money)",
    "money_squares": "sum(p.money * p.money)",
    "mismatches": "count(a.seat)",
    "fantasyland_hands": "count_if(p.in_fantasyland)",
    "live_hands": f"count_if({_LIVE})",
    **{c: f"count_if({_LIVE} AND p.category_bottom = '{b}')" for b, c in BOTTOMS.items()},
    "first_street_hands": f"count_if({_SETUP} IS NOT NULL)",
    **{c: f"count_if({_SETUP} = '{s}')" for s, c in FIRST_STREET.items()},
}


def _totals() -> str:
    """SQL select items: ``TOTALS``, counts as BIGINT."""
    return ", ".join(
        f"{sql}{'::BIGINT' if n in COUNTS else ''} AS {n}" for n, sql in TOTALS.items()
    )


#: The BIGINT columns: counts, and the ``__n`` of the means (a rate's is DOUBLE).
COUNTS = frozenset(
    [n for n, sql in TOTALS.items() if sql.startswith("count")]
    + [m.columns()[0] for m in METRICS if not m.is_rate]
)

#: The query of ``player_days`` (``{player_hands}``: the stored table, or the rows of it an
#: import's refresh reads, ``metrics.refresh``). The UTC day is grouped as days since 1970
#: (a time zone's date costs more on every row).
PLAYER_DAYS_SQL = f"""
WITH grouped AS (
    SELECT
        p.player,
        fdiv(epoch_us(p.played_at), 86400000000)::INTEGER AS day,
        p.variant,
        p.ruleset,
        p.point_value,
        p.currency,
        CASE WHEN p.in_fantasyland THEN p.fantasyland_cards END AS fantasyland_cards,
        {_totals()},
        min(p.played_at) AS first_played_at,
        max(p.played_at) AS last_played_at,
        {stats("p")}
    FROM {{player_hands}} AS p
    LEFT JOIN audit_mismatches AS a USING (hand_id, seat)
    GROUP BY ALL
)
SELECT * REPLACE (DATE '1970-01-01' + day AS day) FROM grouped
ORDER BY player, day
"""


def summed(names: list[str]) -> str:
    """SQL select items: the columns ``names`` of ``player_days`` summed over rows, each
    under its own name (counts stay BIGINT, as in the table).

    >>> summed(["hands", "points", "points_per_hand__n"])
    'sum(hands)::BIGINT AS hands, sum(points) AS points, sum(points_per_hand__n)::BIGINT AS points_per_hand__n'
    """
    return ", ".join(f"sum({n}){'::BIGINT' if n in COUNTS else ''} AS {n}" for n in names)


#: The query of ``player_metrics``: each player's statistics per variant and over all
#: variants ('all'), summed from ``player_days``.
PLAYER_METRICS_SQL = f"""
SELECT
    player,
    CASE WHEN grouping(variant) = 1 THEN 'all' ELSE variant END AS variant,
    {summed(["hands", *stat_columns()])}
FROM player_days
GROUP BY GROUPING SETS ((player, variant), (player))
ORDER BY player, variant
"""
