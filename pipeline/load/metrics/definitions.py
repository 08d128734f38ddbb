"""Every metric, defined once: what it counts, which direction is good, and its SQL.

A metric is a **rate** (``k`` successes in ``n`` trials, summed over
player-hands, Wilson interval) or a **mean** over player-hands (``n`` values,
their sum and sum of squares, t interval). Its *statistics* are those sums,
which add up: a player's figures come from the player's player-hands, the
population's from everybody's (pooled: the sums over every player-hand of the
view). The import stores each player's statistics per variant in
``player_metrics``; the dashboard, ``ofc report`` and ``ofc audit`` turn them
into figures with ``figures`` (docs/metrics.md).

SQL pieces take the alias of ``player_hands`` (``p``) or of a row of
statistics; column names are ``<metric>__n``, ``__k`` (rates), ``__sum`` and
``__sumsq`` (means).

>>> FOUL_RATE.stats("p")
['sum((p.foul)::DOUBLE) AS foul_rate__k', 'sum((1)::DOUBLE) AS foul_rate__n']
>>> import duckdb
>>> duckdb.sql(f"SELECT {FOUL_RATE.value('s')} FROM (SELECT 3.0 AS foul_rate__k, "
...     "12.0 AS foul_rate__n) s").fetchall()[0]
(0.25,)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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

    @property
    def is_rate(self) -> bool:
        return self.kind == "rate"

    def _row(self, alias: str, sql: str) -> str:
        """``sql`` with the placeholder ``p.`` read as ``alias.``."""
        return sql.replace("p.", f"{alias}.")

    def stats(self, alias: str = "p") -> list[str]:
        """SQL select items: this metric's statistics over ``player_hands`` rows (``alias``)."""
        value, trials = self._row(alias, self.success), self._row(alias, self.trials)
        if self.is_rate:
            return [
                f"sum(({value})::DOUBLE) AS {self.name}__k",
                f"sum(({trials})::DOUBLE) AS {self.name}__n",
            ]
        where = f"FILTER (WHERE {trials})"
        return [
            f"count(*) {where} AS {self.name}__n",
            f"sum(({value})::DOUBLE) {where} AS {self.name}__sum",
            f"sum(({value})::DOUBLE * ({value})::DOUBLE) {where} AS {self.name}__sumsq",
        ]

    def columns(self) -> list[str]:
        """The names of this metric's statistics columns."""
        return [
            f"{self.name}__{s}" for s in (("k", "n") if self.is_rate else ("n", "sum", "sumsq"))
        ]

    def _parts(self, alias: str) -> dict[str, str]:
        return {s.rpartition("__")[2]: f"{alias}.{s}" for s in self.columns()}

    def value(self, alias: str) -> str:
        """SQL: the figure, from the statistics of row ``alias``."""
        c = self._parts(alias)
        if self.is_rate:
            return f"({c['k']} / nullif({c['n']}, 0))"
        return intervals.mean(c["sum"], c["n"])

    def low(self, alias: str) -> str:
        c = self._parts(alias)
        if self.is_rate:
            return intervals.wilson_low(c["k"], c["n"])
        return intervals.mean_low(c["sum"], c["sumsq"], c["n"])

    def high(self, alias: str) -> str:
        c = self._parts(alias)
        if self.is_rate:
            return intervals.wilson_high(c["k"], c["n"])
        return intervals.mean_high(c["sum"], c["sumsq"], c["n"])

    def n(self, alias: str) -> str:
        return f"{alias}.{self.name}__n"

    def figures(self, alias: str) -> list[str]:
        """SQL select items: ``<name>``, ``<name>_n``, ``<name>_low``, ``<name>_high``."""
        return [
            f"{self.value(alias)} AS {self.name}",
            f"{self.n(alias)} AS {self.name}_n",
            f"{self.low(alias)} AS {self.name}_low",
            f"{self.high(alias)} AS {self.name}_high",
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
    "scoop_rate", "Scoop rate", "rate", "p.scoops", "p.pairings", "higher", "results"
)
ROWS_WON = Metric(
    "rows_won_per_row", "Rows won", "rate", "p.rows_won", "3 * p.pairings", "higher", "results"
)
ROYALTIES_PER_HAND = Metric(
    "royalties_per_hand", "Royalties per hand", "mean", "p.royalties", "TRUE", "higher", "results"
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


def stats(alias: str = "p", metrics: tuple[Metric, ...] = METRICS) -> str:
    """SQL select list: every metric's statistics over ``player_hands`` (``alias``)."""
    return ",\n    ".join(item for m in metrics for item in m.stats(alias))


def stat_columns(metrics: tuple[Metric, ...] = METRICS) -> list[str]:
    return [c for m in metrics for c in m.columns()]


def figures(alias: str, metrics: tuple[Metric, ...] = METRICS) -> str:
    """SQL select list: every metric's figure, n and interval from statistics row ``alias``."""
    return ",\n    ".join(item for m in metrics for item in m.figures(alias))


def named_figures(alias: str) -> dict[str, str]:
    """SQL of every metric's figure from statistics row ``alias``, by name: ``<name>``,
    ``<name>_n``, ``<name>_low``, ``<name>_high`` (to paste into SQL templates)."""
    found = {}
    for m in METRICS:
        found |= {
            m.name: m.value(alias),
            f"{m.name}_n": m.n(alias),
            f"{m.name}_low": m.low(alias),
            f"{m.name}_high": m.high(alias),
        }
    return found


def pooled(metrics: tuple[Metric, ...] = METRICS) -> str:
    """SQL select list: the statistics summed over rows (the population, pooled)."""
    return ",\n    ".join(item for m in metrics for item in m.pooled())


#: ``player_metrics``: each player's statistics per variant and over all variants ('all').
PLAYER_METRICS_SQL = f"""
CREATE OR REPLACE TABLE player_metrics AS
SELECT
    p.player,
    CASE WHEN grouping(p.variant) = 1 THEN 'all' ELSE p.variant END AS variant,
    count(*) AS hands,
    {stats("p")}
FROM player_hands AS p
GROUP BY GROUPING SETS ((p.player, p.variant), (p.player))
ORDER BY player, variant
"""
