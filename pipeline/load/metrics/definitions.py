"""Every metric, defined once: what it counts, which direction is good, and its SQL.

A metric is a **rate** (``k`` successes in ``n`` trials, summed over
player-hands, Wilson interval) or a **mean** over player-hands (``n`` values,
their sum and sum of squares, t interval). Its *statistics* are those sums,
which add up: a player's figures come from the player's player-hands, the
population's from everybody's (pooled: the sums over every player-hand of the
view). The import stores each player's statistics per variant in
``player_metrics``; the dashboard, ``ofc report`` and ``ofc audit`` turn them
into figures with ``with_figures`` (polars, ``intervals``; docs/metrics.md).

The statistics are SQL aggregates over ``player_hands`` (alias ``p``); their
columns are ``<metric>__n``, ``__k`` (rates), ``__sum`` and ``__sumsq`` (means).

>>> FOUL_RATE.stats("p")
['count_if(p.foul)::DOUBLE AS foul_rate__k', 'count(*)::DOUBLE AS foul_rate__n']
>>> stats = pl.DataFrame({"foul_rate__k": [3.0], "foul_rate__n": [12.0]})
>>> with_figures(stats, (FOUL_RATE,)).select("foul_rate", "foul_rate_n").rows()
[(0.25, 12.0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import polars as pl

from pipeline.load.metrics import intervals

Direction = Literal["higher", "lower", "neither"]


@dataclass(frozen=True)
class Metric:
    """One metric of a player (or the population) over player-hands.

    ``kind`` ``rate``: ``success`` and ``trials`` are per player-hand numbers
    (booleans count as 0 or 1), summed. ``kind`` ``mean``: the mean of
    ``success`` over the player-hands where ``trials`` holds.
    ``good`` says which direction is better (``neither`` for a style).
    """

    name: str
    label: str
    kind: Literal["rate", "mean"]
    success: str
    trials: str
    good: Direction
    group: str
    counts: bool = True  # a rate of rows: ``success`` and ``trials`` are conditions
    lowest: float | None = None  # a mean that cannot go below this (its interval neither)

    @property
    def is_rate(self) -> bool:
        return self.kind == "rate"

    def _row(self, alias: str, sql: str) -> str:
        """``sql`` with the placeholder ``p.`` read as ``alias.``."""
        return sql.replace("p.", f"{alias}.")

    def stats(self, alias: str = "p") -> list[str]:
        """SQL select items: this metric's statistics over ``player_hands`` rows (``alias``).

        A rate counts rows (``count_if``) when ``counts``, else sums numbers. A mean over
        some rows sums ``CASE WHEN trials THEN value END``. Both give the sums an aggregate
        ``FILTER`` gives, which DuckDB evaluates aggregate by aggregate: about twice as slow
        over the dozens of statistics of a view."""
        value, trials = self._row(alias, self.success), self._row(alias, self.trials)
        if self.is_rate and self.counts:
            every = trials in ("1", "TRUE")
            return [
                f"count_if({value})::DOUBLE AS {self.name}__k",
                ("count(*)" if every else f"count_if({trials})") + f"::DOUBLE AS {self.name}__n",
            ]
        if self.is_rate:
            return [
                f"sum({value})::DOUBLE AS {self.name}__k",
                f"sum({trials})::DOUBLE AS {self.name}__n",
            ]
        every = trials == "TRUE"

        def kept(sql: str) -> str:
            return sql if every else f"CASE WHEN {trials} THEN {sql} END"

        square = f"({value})::DOUBLE * ({value})"
        return [
            ("count(*)" if every else f"count_if({trials})::BIGINT") + f" AS {self.name}__n",
            f"sum({kept(value)})::DOUBLE AS {self.name}__sum",
            f"sum({kept(square)}) AS {self.name}__sumsq",
        ]

    def columns(self) -> list[str]:
        """The names of this metric's statistics columns."""
        return [
            f"{self.name}__{s}" for s in (("k", "n") if self.is_rate else ("n", "sum", "sumsq"))
        ]

    def figures(self) -> list[pl.Expr]:
        """Polars expressions: ``<name>``, ``<name>_n``, ``<name>_low``, ``<name>_high`` from
        this metric's statistics columns."""
        c = {s.rpartition("__")[2]: s for s in self.columns()}
        if self.is_rate:
            value = intervals.rate(c["k"], c["n"])
            low, high = intervals.wilson_low(c["k"], c["n"]), intervals.wilson_high(c["k"], c["n"])
        else:
            value = intervals.mean(c["sum"], c["n"])
            low = intervals.at_least(intervals.mean_low(c["sum"], c["sumsq"], c["n"]), self.lowest)
            high = intervals.mean_high(c["sum"], c["sumsq"], c["n"])
        return [
            value.alias(self.name),
            pl.col(c["n"]).alias(f"{self.name}_n"),
            low.alias(f"{self.name}_low"),
            high.alias(f"{self.name}_high"),
        ]

    def pooled(self) -> list[str]:
        """SQL select items: this metric's statistics summed over rows of statistics."""
        return [f"sum({c})::DOUBLE AS {c}" for c in self.columns()]


_NOT_FL = "NOT p.in_fantasyland"
_STYLE_HAND = f"{_NOT_FL} AND NOT p.timed_out"
_DRAW = "p.first_street_bottom IN ('flush_draw', 'straight_draw')"

POINTS_PER_HAND = Metric(
    "points_per_hand", "Points per hand", "mean", "p.points", "TRUE", "higher", "results"
)
FOUL_RATE = Metric("foul_rate", "Foul rate", "rate", "p.foul", "1", "lower", "results")
SCOOP_RATE = Metric(
    "scoop_rate", "Scoop rate", "rate", "p.scoops", "p.pairings", "higher", "results", False
)
ROWS_WON = Metric(
    "rows_won_per_row",
    "Rows won",
    "rate",
    "p.rows_won",
    "3 * p.pairings",
    "higher",
    "results",
    False,
)
ROYALTIES_PER_HAND = Metric(
    "royalties_per_hand",
    "Royalties per hand",
    "mean",
    "p.royalties",
    "TRUE",
    "higher",
    "results",
    lowest=0.0,
)
FANTASYLAND_ENTRY = Metric(
    "fantasyland_entry_rate",
    "Fantasyland entry rate",
    "rate",
    f"NOT p.foul AND {_NOT_FL} AND p.fantasyland_next",
    f"NOT p.foul AND {_NOT_FL}",
    "higher",
    "fantasyland",
)
FANTASYLAND_STAY = Metric(
    "fantasyland_stay_rate",
    "Fantasyland stay rate",
    "rate",
    "p.in_fantasyland AND p.fantasyland_stay",
    "p.in_fantasyland",
    "higher",
    "fantasyland",
)
FANTASYLAND_SHARE = Metric(
    "fantasyland_share",
    "Hands in Fantasyland",
    "rate",
    "p.in_fantasyland",
    "1",
    "higher",
    "fantasyland",
)
POINTS_PER_FANTASYLAND_HAND = Metric(
    "points_per_fantasyland_hand",
    "Points per Fantasyland hand",
    "mean",
    "p.points",
    "p.in_fantasyland",
    "higher",
    "fantasyland",
)
POINTS_PER_NORMAL_HAND = Metric(
    "points_per_normal_hand",
    "Points per hand outside Fantasyland",
    "mean",
    "p.points",
    _NOT_FL,
    "higher",
    "fantasyland",
)
STYLE_FOUL_RATE = Metric(
    "style_foul_rate",
    "Foul rate (no Fantasyland, no timeout)",
    "rate",
    f"{_STYLE_HAND} AND p.foul",
    _STYLE_HAND,
    "lower",
    "style",
)
BOTTOM_AGGRESSION = Metric(
    "bottom_aggression",
    "Bottom aggression (unmade street-1 bottom)",
    "rate",
    f"{_NOT_FL} AND p.first_street_bottom <> 'pair_or_better'",
    f"{_NOT_FL} AND p.first_street_bottom IS NOT NULL",
    "neither",
    "style",
)
FOUL_RATE_DRAWING = Metric(
    "foul_rate_drawing",
    "Foul rate after a street-1 draw",
    "rate",
    f"{_STYLE_HAND} AND {_DRAW} AND p.foul",
    f"{_STYLE_HAND} AND {_DRAW}",
    "lower",
    "style",
)
TOP_QQ_BY_STREET2 = Metric(
    "top_qq_plus_by_street2_share",
    "QQ+ on top by street 2",
    "rate",
    f"{_NOT_FL} AND p.top_qq_plus_by_street2",
    f"{_NOT_FL} AND p.top_qq_plus_by_street2 IS NOT NULL",
    "neither",
    "style",
)

#: Every metric, in the order pages list them.
METRICS = (
    POINTS_PER_HAND,
    FOUL_RATE,
    SCOOP_RATE,
    ROWS_WON,
    ROYALTIES_PER_HAND,
    FANTASYLAND_ENTRY,
    FANTASYLAND_STAY,
    FANTASYLAND_SHARE,
    POINTS_PER_FANTASYLAND_HAND,
    POINTS_PER_NORMAL_HAND,
    STYLE_FOUL_RATE,
    BOTTOM_AGGRESSION,
    FOUL_RATE_DRAWING,
    TOP_QQ_BY_STREET2,
)
BY_NAME = {m.name: m for m in METRICS}
#: The metrics of results and Fantasyland (not style): what the Overview, the Players
#: table and the Fantasyland page show, cheaper to count than all.
RESULTS = tuple(m for m in METRICS if m.group != "style")


def stats(alias: str = "p", metrics: tuple[Metric, ...] = METRICS) -> str:
    """SQL select list: every metric's statistics over ``player_hands`` (``alias``)."""
    return ",\n    ".join(item for m in metrics for item in m.stats(alias))


def stat_columns(metrics: tuple[Metric, ...] = METRICS) -> list[str]:
    return [c for m in metrics for c in m.columns()]


def with_figures(frame: pl.DataFrame, metrics: tuple[Metric, ...] = METRICS) -> pl.DataFrame:
    """``frame`` (rows of statistics) with every metric's figure, n and 95% interval:
    ``<name>``, ``<name>_n``, ``<name>_low``, ``<name>_high``."""
    return frame.with_columns(*(e for m in metrics for e in m.figures()))


def pooled(metrics: tuple[Metric, ...] = METRICS) -> str:
    """SQL select list: the statistics summed over rows (the population, pooled)."""
    return ",\n    ".join(item for m in metrics for item in m.pooled())
