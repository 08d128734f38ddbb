"""The population's figure a player is held against: like for like across variants.

Variants pay differently (a Fantasyland hand of Pineapple is worth more than
one of 2-7 Pineapple), so everybody's hands pooled over several variants are a
different mix from any one player's: a player of the cheaper variant would
look worse than the pool without playing worse. Over several variants the
player is compared with the figure the population shows **in the player's own
mix**: each variant's pooled figure, weighted by the player's trials of the
metric in that variant (indirect standardisation, docs/metrics.md). In one
variant it is simply that variant's pooled figure.

>>> from pipeline.load.metrics.definitions import FOUL_RATE
>>> mine = {"all": {"foul_rate_n": 40.0}, "a": {"foul_rate_n": 30.0}, "b": {"foul_rate_n": 10.0}}
>>> everyone = {"a": {"foul_rate": 0.1}, "b": {"foul_rate": 0.3}}
>>> round(like_for_like(FOUL_RATE, mine, everyone), 3)
0.15
"""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.load.metrics.definitions import Metric

#: The key of the figures over every variant (not a variant of its own).
EVERY_VARIANT = "all"

Figures = Mapping[str, Mapping[str, object]]


def like_for_like(metric: Metric, mine: Figures, everyone: Figures) -> float | None:
    """The population's figure of ``metric`` in the player's mix of variants.

    ``mine`` and ``everyone`` map each variant to its figures (``<name>``,
    ``<name>_n``; an ``all`` key is ignored): the player's, and everybody's
    pooled. None when the player has no trial of the metric.
    """
    weights: dict[str, float] = {}
    for variant, figures in mine.items():
        trials = figures.get(f"{metric.name}_n") or 0
        pooled = everyone.get(variant, {}).get(metric.name)
        if variant != EVERY_VARIANT and trials > 0 and pooled is not None:
            weights[variant] = float(trials)
    total = sum(weights.values())
    if not total:
        return None
    return sum(w * float(everyone[v][metric.name]) for v, w in weights.items()) / total
