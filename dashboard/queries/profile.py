"""A player against the population: each metric's value, the population's median, the percentile.

Percentiles rank the player among the players with at least ``MIN_HANDS``
hands in the view (the player is always included). A variant alone is read
from ``player_summary`` and ``style_metrics``; with a ruleset, dates or stakes
every player's figures count only the view's hands (``per_player``).
The opponent filter does not apply: the player is ranked among everybody.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from dashboard.queries import per_player
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters

MIN_HANDS = 100


@dataclass(frozen=True)
class Metric:
    """A metric of the profile: its name, label, which direction is good, and its source
    (``s.<column>`` of ``player_summary`` or ``m.<column>`` of ``style_metrics``); a
    view's computed figures (``per_player``) name it ``column``."""

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


_SUMMARISED = """
SELECT s.player, {columns}
FROM player_summary s
LEFT JOIN style_metrics m ON m.player = s.player AND m.variant = s.variant
WHERE s.variant = ? AND (s.hands >= ? OR s.player = ?)
"""

_COMPUTED = """
SELECT player, {columns}
FROM ({figures})
WHERE hands >= ? OR player = ?
"""

_RANKED = """
WITH players AS ({players}),
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


def _columns(summarised: bool) -> str:
    """The metric columns, from the tables' sources or from the computed figures."""
    return ", ".join(f"{m.sql if summarised else m.column}::DOUBLE AS {m.column}" for m in METRICS)


def _players(filters: Filters) -> tuple[str, list[object]]:
    """SQL and parameters of the population: one row per player, a column per metric."""
    if filters.summarised:
        sql = _SUMMARISED.format(columns=_columns(True))
        return sql, [filters.variant_key, MIN_HANDS, filters.hero]
    computed, params = per_player.profile(filters)
    sql = _COMPUTED.format(columns=_columns(False), figures=computed)
    return sql, [*params, MIN_HANDS, filters.hero]


def profile(db: Database, filters: Filters) -> pl.DataFrame:
    """The profile of ``filters.hero`` in the view, one row per metric the player has:
    ``metric``, ``label``, ``value``, ``population_median``, ``percentile`` (0..1),
    ``players``, ``leak`` (worse than three players in four)."""
    view = filters.population().with_hero(filters.hero)
    players, params = _players(view)
    sql = _RANKED.format(players=players, names=", ".join(m.column for m in METRICS))
    found = db.frame(sql, [*params, view.hero])
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
