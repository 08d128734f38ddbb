"""The Fantasyland page: entry and stay rates, cards dealt, points in and out of Fantasyland.

Rates follow docs/rules.md R6: entry rate = entries / live non-Fantasyland hands;
stay rate = stays / Fantasyland hands played.
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, scope

_BY_RULESET = """
SELECT
    variant,
    ruleset,
    count(*) AS hands,
    count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland) AS live_non_fantasyland_hands,
    count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland AND fantasyland_next) AS entries,
    count(*) FILTER (WHERE in_fantasyland) AS fantasyland_hands,
    count(*) FILTER (WHERE in_fantasyland AND fantasyland_stay) AS stays,
    avg(fantasyland_cards) FILTER (WHERE in_fantasyland) AS cards_per_fantasyland_hand,
    avg(points) FILTER (WHERE in_fantasyland) AS points_per_fantasyland_hand,
    avg(points) FILTER (WHERE NOT in_fantasyland) AS points_per_normal_hand,
    coalesce(sum(points) FILTER (WHERE in_fantasyland), 0) AS fantasyland_points,
    coalesce(sum(points) FILTER (WHERE NOT in_fantasyland), 0) AS normal_points
FROM player_hands p
WHERE {where}
GROUP BY variant, ruleset
ORDER BY hands DESC
"""


def by_ruleset(db: Database, filters: Filters) -> pl.DataFrame:
    """One row per variant and ruleset (hero's hands, or everybody's without a hero)."""
    where = scope(filters)
    frame = db.frame(_BY_RULESET.format(where=where.sql), list(where.params))
    return frame.with_columns(
        entry_rate=pl.col("entries") / pl.col("live_non_fantasyland_hands"),
        stay_rate=pl.col("stays") / pl.col("fantasyland_hands"),
        fantasyland_share=pl.col("fantasyland_hands") / pl.col("hands"),
    ).with_columns(pl.selectors.float().fill_nan(None))


def _ratio(top: float, bottom: float) -> float | None:
    return top / bottom if bottom else None


def totals(frame: pl.DataFrame) -> dict[str, float | None]:
    """The rates of ``by_ruleset``'s rows taken together.

    >>> rows = pl.DataFrame({"hands": [10, 30], "live_non_fantasyland_hands": [8, 20],
    ...     "entries": [1, 3], "fantasyland_hands": [1, 0], "stays": [1, 0],
    ...     "fantasyland_points": [12.0, 0.0], "normal_points": [-3.0, 6.0]})
    >>> totals(rows)["entry_rate"], totals(rows)["points_per_normal_hand"]
    (0.14285714285714285, 0.07692307692307693)
    """
    s = frame.select(
        pl.col(
            "hands",
            "live_non_fantasyland_hands",
            "entries",
            "fantasyland_hands",
            "stays",
            "fantasyland_points",
            "normal_points",
        ).sum()
    ).row(0, named=True)
    return {
        "hands": s["hands"],
        "entry_rate": _ratio(s["entries"], s["live_non_fantasyland_hands"]),
        "stay_rate": _ratio(s["stays"], s["fantasyland_hands"]),
        "fantasyland_share": _ratio(s["fantasyland_hands"], s["hands"]),
        "points_per_fantasyland_hand": _ratio(s["fantasyland_points"], s["fantasyland_hands"]),
        "points_per_normal_hand": _ratio(s["normal_points"], s["hands"] - s["fantasyland_hands"]),
    }


_CARDS = """
SELECT variant, fantasyland_cards AS cards, count(*) AS hands,
       avg(points) AS points_per_hand,
       count(*) FILTER (WHERE fantasyland_stay) / count(*) AS stay_rate
FROM player_hands p
WHERE p.in_fantasyland AND {where}
GROUP BY variant, fantasyland_cards
ORDER BY variant, cards
"""


def cards_dealt(db: Database, filters: Filters) -> pl.DataFrame:
    """Fantasyland hands by cards dealt (13-17): how many, points per hand, stay rate."""
    where = scope(filters)
    return db.frame(_CARDS.format(where=where.sql), list(where.params))
