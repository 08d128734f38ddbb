"""A player against the population: each metric's value, the population's median, the percentile.

Read from ``player_summary`` and ``style_metrics`` for one variant (or
``all``): percentiles rank the player among players with at least
``MIN_HANDS`` hands (the player is always included).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from dashboard.queries.db import Database

MIN_HANDS = 100


@dataclass(frozen=True)
class Metric:
    """A metric of the profile: its name, label, which direction is good, and its source
    (``s.<column>`` of ``player_summary`` or ``m.<column>`` of ``style_metrics``)."""

    column: str
    label: str
    higher_is_better: bool | None  # None: a style, neither good nor bad
    source: str = ""

    @property
    def sql(self) -> str:
        return self.source or f"s.{self.column}"


METRICS = (
    Metric("points_per_hand", "Points per hand", True),
    Metric("foul_rate", "Foul rate", False),
    Metric("scoop_rate", "Scoop rate", True),
    Metric("rows_won_per_row", "Rows won", True),
    Metric("royalties_per_hand", "Royalties per hand", True),
    Metric("fantasyland_entry_rate", "Fantasyland entry rate", True),
    Metric("fantasyland_stay_rate", "Fantasyland stay rate", True),
    Metric("points_per_fantasyland_hand", "Points per Fantasyland hand", True),
    Metric("style_foul_rate", "Foul rate (no Fantasyland, no timeout)", False, "m.foul_rate"),
    Metric(
        "bottom_aggression",
        "Bottom aggression (unmade street-1 bottom)",
        None,
        "m.bottom_aggression",
    ),
    Metric("foul_rate_drawing", "Foul rate after a street-1 draw", False, "m.foul_rate_drawing"),
    Metric(
        "top_qq_plus_by_street2_share",
        "QQ+ on top by street 2",
        None,
        "m.top_qq_plus_by_street2_share",
    ),
)


_SQL = """
WITH players AS (
    SELECT s.player, {columns}
    FROM player_summary s
    LEFT JOIN style_metrics m ON m.player = s.player AND m.variant = s.variant
    WHERE s.variant = ? AND (s.hands >= ? OR s.player = ?)
),
long AS (UNPIVOT players ON {names} INTO NAME metric VALUE value),
ranked AS (
    SELECT
        player, metric, value,
        percent_rank() OVER (PARTITION BY metric ORDER BY value) AS percentile,
        median(value) OVER (PARTITION BY metric) AS population_median,
        count(*) OVER (PARTITION BY metric) AS players
    FROM long
)
SELECT metric, value, population_median, percentile, players FROM ranked WHERE player = ?
"""


def profile(db: Database, player: str, variant: str) -> pl.DataFrame:
    """One row per metric the player has: ``metric``, ``label``, ``value``,
    ``population_median``, ``percentile`` (0..1), ``players``, ``leak`` (worse
    than three players in four)."""
    sql = _SQL.format(
        columns=", ".join(f"{m.sql}::DOUBLE AS {m.column}" for m in METRICS),
        names=", ".join(m.column for m in METRICS),
    )
    found = db.frame(sql, [variant, MIN_HANDS, player, player])
    order = {m.column: i for i, m in enumerate(METRICS)}
    labels = pl.DataFrame(
        {
            "metric": [m.column for m in METRICS],
            "label": [m.label for m in METRICS],
            "higher_is_better": [m.higher_is_better for m in METRICS],
        }
    )
    return (
        found.join(labels, on="metric")
        .with_columns(
            leak=pl.when(pl.col("higher_is_better"))
            .then(pl.col("percentile") < 0.25)
            .when(pl.col("higher_is_better").not_())
            .then(pl.col("percentile") > 0.75)
            .otherwise(False)
        )
        .sort(pl.col("metric").replace_strict(order))
    )
