"""A player's audit against the population: every metric with its n and 95% interval,
the population's figure (with its n and interval too), and the leaks, only where the
sample says so.

Shared by the dashboard's Coach audit and Style pages and by ``ofc audit``:
each passes the SQL of the players' statistics in its view (``player_metrics``
rows, or the same columns computed from a narrowed view's player-hands) and
gets the same ``Audit``.

The population is pooled per variant: every player-hand of the view, the
player's too (the statistics summed, then turned into figures by the metric's
one definition); over several variants its figure is the one of the player's
own mix of variants (``population.like_for_like``: a player of a variant that
pays less is not called worse for it). Only the variants the player plays
count: the other players, their hands and their percentiles are taken there.
A figure is a **leak** only when

- the player has at least ``MIN_HANDS`` hands and the metric at least
  ``MIN_TRIALS`` trials (hands, settlements) in the view,
- the population holds at least ``MIN_PLAYERS`` other players with
  ``MIN_POPULATION_HANDS`` hands each in the player's variants, and
- the player's 95% interval lies wholly on the bad side of the population's
  figure (which side is bad is the metric's ``good`` direction).

The same test on the good side is a strength; a style (neither direction
good) is only said to be higher or lower. Percentiles rank the player among
the players with at least ``MIN_POPULATION_HANDS`` hands, for the chart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol

import polars as pl

from pipeline.load.metrics.definitions import METRICS, Metric, pooled, stat_columns, with_figures
from pipeline.report.population import like_for_like

MIN_HANDS = 200
MIN_TRIALS = 30
MIN_PLAYERS = 10
MIN_POPULATION_HANDS = 100

LEAK, STRENGTH, IN_LINE, HIGHER, LOWER, TOO_FEW, TOO_FEW_PLAYERS = (
    "leak",
    "strength",
    "in line",
    "higher",
    "lower",
    "too few hands",
    "too few players",  # the player's hands are enough; the other players are too few
)
DIRECTION = {"higher": "higher is better", "lower": "lower is better", "neither": "a style"}


class Frames(Protocol):
    """What the audit needs of a database: one query's result as a polars frame."""

    def frame(self, sql: str, params: list[object] | None = None) -> pl.DataFrame: ...


@dataclass(frozen=True)
class Finding:
    """One metric of the player against the population."""

    metric: str
    label: str
    value: float
    n: float
    low: float | None
    high: float | None
    population: float | None
    percentile: float | None
    direction: str
    verdict: str
    population_n: float | None = None  # the population's trials behind ``population``
    population_low: float | None = None  # its 95% interval
    population_high: float | None = None

    @property
    def leak(self) -> bool:
        return self.verdict == LEAK


@dataclass(frozen=True)
class Audit:
    """The player's figures in the view, the population's, and what the sample allows."""

    player: str
    hands: int
    population_players: int  # other players with MIN_POPULATION_HANDS hands in its variants
    population_hands: int  # every player-hand of the view in the player's variants (pooled)
    findings: tuple[Finding, ...]
    pooled_players: int = 0  # every player of those hands, the player too

    @property
    def enough(self) -> bool:
        """Whether the sample allows calling a leak at all."""
        return shortfall(self.hands, self.population_players) is None

    @property
    def shortfall(self) -> str | None:
        """What the sample lacks to call a difference (``TOO_FEW``: the player's hands,
        ``TOO_FEW_PLAYERS``: other players), or None."""
        return shortfall(self.hands, self.population_players)

    @property
    def leaks(self) -> list[Finding]:
        return [f for f in self.findings if f.leak]

    def sample_note(self) -> str:
        """The minimum sample, in words, and whether this one meets it."""
        rule = (
            f"A leak needs at least {MIN_HANDS:,} hands of the player ({MIN_TRIALS} for the"
            f" metric) and at least {MIN_PLAYERS} other players with {MIN_POPULATION_HANDS:,}"
            " hands in the player's variants, and a 95% interval wholly on the bad side of the"
            " population's figure (pooled per variant, in the player's mix of variants)."
        )
        if self.enough:
            return rule
        if self.hands < MIN_HANDS:
            here = f"the player has {self.hands:,} hands ({MIN_HANDS:,} needed)"
            if self.population_players < MIN_PLAYERS:
                here += (
                    f" and {self.population_players} other players have"
                    f" {MIN_POPULATION_HANDS:,} hands ({MIN_PLAYERS} needed)"
                )
        else:
            here = (
                f"the player's {self.hands:,} hands are enough, but only"
                f" {self.population_players} other players have {MIN_POPULATION_HANDS:,} hands"
                f" ({MIN_PLAYERS} needed)"
            )
        return f"{rule} Here {here}: too few to call anything a leak."

    def to_json(self) -> dict[str, object]:
        """What ``ofc audit --json`` prints."""
        metrics = [asdict(f) for f in self.findings]
        leaks = [
            {k: v for k, v in asdict(f).items() if k not in ("label", "percentile", "verdict")}
            for f in self.leaks
        ]
        return {
            "player": self.player,
            "hands": self.hands,
            "population": {
                "kind": "pooled",
                "players": self.pooled_players,
                "hands": self.population_hands,
            },
            "other_players_ranked": {
                "players": self.population_players,
                "min_hands": MIN_POPULATION_HANDS,
            },
            "enough_sample": self.enough,
            "rule": self.sample_note(),
            "metrics": metrics,
            "leaks": leaks,
        }


#: Rows of the audit's query: ``kind`` ``player`` (each player's statistics over the view's
#: variants the player plays, those with ``MIN_POPULATION_HANDS`` there and the player),
#: ``mine`` (the player's, per variant), ``variant`` (everybody's pooled, per variant),
#: ``everyone`` (all pooled in the player's variants; ``players`` counts them).
_SQL = """
WITH stats AS MATERIALIZED ({stats}),
players AS (
    SELECT player, sum(hands) AS hands, {pooled} FROM stats
    WHERE variant IN (SELECT variant FROM stats WHERE player = ?)
    GROUP BY player
)
SELECT 'player' AS kind, player, NULL AS variant, hands::BIGINT AS hands, 1::BIGINT AS players,
    {columns}
FROM players WHERE hands >= ? OR player = ?
UNION ALL
SELECT 'mine', player, variant, hands::BIGINT, 1, {columns} FROM stats WHERE player = ?
UNION ALL
SELECT 'variant', NULL, variant, sum(hands)::BIGINT, count(*), {pooled} FROM stats GROUP BY variant
UNION ALL
SELECT 'everyone', NULL, NULL, sum(hands)::BIGINT, count(*), {pooled} FROM players
"""


def shortfall(hands: int, others: int) -> str | None:
    """What a sample of ``hands`` of the player and ``others`` other players with
    ``MIN_POPULATION_HANDS`` hands lacks to call a difference, or None: the one rule of the
    Coach audit, ``ofc audit``, ``ofc report`` and the dashboard's verdicts.

    >>> shortfall(300, 2), shortfall(150, 20), shortfall(200, 10) is None
    ('too few players', 'too few hands', True)
    """
    if hands < MIN_HANDS:
        return TOO_FEW
    if others < MIN_PLAYERS:
        return TOO_FEW_PLAYERS
    return None


def by_variant(variant: str) -> tuple[str, list[object]]:
    """The statistics ``audit`` needs from ``player_metrics``: every player's, per variant,
    in ``variant`` alone or in every variant (``all``)."""
    if variant == "all":
        return "SELECT * FROM player_metrics WHERE variant <> 'all'", []
    return "SELECT * FROM player_metrics WHERE variant = ?", [variant]


def verdict(metric: Metric, row: dict, population: float | None, short: str | None = None) -> str:
    """``row``'s figure of ``metric`` against ``population``: a leak, a strength, higher,
    lower, in line, or too few hands (``short``: what the whole sample lacks, from
    ``shortfall``; None when it is enough)."""
    low, high = row[f"{metric.name}_low"], row[f"{metric.name}_high"]
    if (row[f"{metric.name}_n"] or 0) < MIN_TRIALS or low is None:
        return TOO_FEW
    if short is not None:
        return short
    if population is None:
        return IN_LINE
    above, below = low > population, high < population
    if metric.good == "neither":
        return HIGHER if above else LOWER if below else IN_LINE
    better = above if metric.good == "higher" else below
    worse = below if metric.good == "higher" else above
    return STRENGTH if better else LEAK if worse else IN_LINE


def _percentile(values: pl.Series, value: float) -> float | None:
    """The share of the other ranked players below ``value`` (ties count half)."""
    others = values.drop_nulls()
    if others.len() < 2:
        return None
    below = int((others < value).sum())
    ties = int((others == value).sum()) - 1
    return (below + ties / 2) / (others.len() - 1)


def audit(db: Frames, player: str, stats: str, params: list[object]) -> Audit | None:
    """The audit of ``player`` among the players of ``stats`` (SQL of one row per player
    and variant: ``player``, ``variant``, ``hands`` and the statistics of
    ``definitions``); None when the player has no hand there. The population's figure
    of each metric is the one of the player's mix of variants (``population``)."""
    columns = ", ".join(f"{c}::DOUBLE AS {c}" for c in stat_columns())
    sql = _SQL.format(stats=stats, pooled=pooled(), columns=columns)
    frame = with_figures(db.frame(sql, [*params, player, MIN_POPULATION_HANDS, player, player]))
    ranked = frame.filter(pl.col("kind") == "player")
    mine = ranked.filter(pl.col("player") == player)
    if mine.is_empty():
        return None
    row = mine.row(0, named=True)
    everyone = frame.filter(pl.col("kind") == "everyone").row(0, named=True)
    my_variants, variants = (
        {r["variant"]: r for r in frame.filter(pl.col("kind") == kind).iter_rows(named=True)}
        for kind in ("mine", "variant")
    )
    hands = int(row["hands"])
    others = ranked.height - 1
    short = shortfall(hands, others)
    findings = []
    for metric in METRICS:
        if row[metric.name] is None:
            continue
        theirs = like_for_like(metric, my_variants, variants)
        figure = None if theirs is None else theirs.value
        findings.append(
            Finding(
                metric=metric.name,
                label=metric.label,
                value=row[metric.name],
                n=row[f"{metric.name}_n"],
                low=row[f"{metric.name}_low"],
                high=row[f"{metric.name}_high"],
                population=figure,
                percentile=_percentile(ranked[metric.name], row[metric.name]),
                direction=DIRECTION[metric.good],
                verdict=verdict(metric, row, figure, short),
                population_n=None if theirs is None else theirs.n,
                population_low=None if theirs is None else theirs.low,
                population_high=None if theirs is None else theirs.high,
            )
        )
    return Audit(
        player,
        hands,
        others,
        int(everyone["hands"] or 0),
        tuple(findings),
        pooled_players=int(everyone["players"] or 0),
    )
