"""The population's figure a player is held against: like for like across variants.

Variants pay differently (a Fantasyland hand of Pineapple is worth more than
one of 2-7 Pineapple), so everybody's hands pooled over several variants are a
different mix from any one player's: a player of the cheaper variant would
look worse than the pool without playing worse. Over several variants the
player is compared with the figure the population shows **in the player's own
mix**: each variant's pooled figure, weighted by the player's trials of the
metric in that variant (indirect standardisation, docs/metrics.md). In one
variant it is simply that variant's pooled figure. The figure comes with the
trials it rests on and its 95% interval: in one variant the variant's own;
over several, the variants' standard errors (read back from their intervals)
combined with the same weights.

>>> from pipeline.load.metrics.definitions import FOUL_RATE
>>> mine = {"all": {"foul_rate_n": 40.0}, "a": {"foul_rate_n": 30.0}, "b": {"foul_rate_n": 10.0}}
>>> everyone = {"a": {"foul_rate": 0.1}, "b": {"foul_rate": 0.3}}
>>> round(like_for_like(FOUL_RATE, mine, everyone).value, 3)
0.15
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from pipeline.load.metrics.definitions import Metric
from pipeline.load.metrics.intervals import Z95

#: The key of the figures over every variant (not a variant of its own).
EVERY_VARIANT = "all"

Figures = Mapping[str, Mapping[str, object]]


@dataclass(frozen=True)
class Pooled:
    """The population's figure of a metric in the player's mix of variants: ``value``, the
    population's trials ``n`` in those variants, and its 95% interval (None: unknown)."""

    value: float
    n: float
    low: float | None
    high: float | None


def like_for_like(metric: Metric, mine: Figures, everyone: Figures) -> Pooled | None:
    """The population's figure of ``metric`` in the player's mix of variants, with its n
    and 95% interval (see the module docstring).

    ``mine`` and ``everyone`` map each variant to its figures (``<name>``,
    ``<name>_n``, ``<name>_low``, ``<name>_high``; an ``all`` key is ignored): the
    player's, and everybody's pooled. None when the player has no trial of the metric.

    >>> from pipeline.load.metrics.definitions import FOUL_RATE
    >>> mine = {"a": {"foul_rate_n": 30.0}, "b": {"foul_rate_n": 10.0}}
    >>> everyone = {
    ...     "a": {"foul_rate": 0.1, "foul_rate_n": 900.0, "foul_rate_low": 0.08, "foul_rate_high": 0.12},
    ...     "b": {"foul_rate": 0.3, "foul_rate_n": 100.0, "foul_rate_low": 0.22, "foul_rate_high": 0.4},
    ... }
    >>> found = like_for_like(FOUL_RATE, mine, everyone)
    >>> round(found.value, 3), found.n, round(found.low, 3), round(found.high, 3)
    (0.15, 1000.0, 0.123, 0.177)
    >>> like_for_like(FOUL_RATE, {"a": mine["a"]}, everyone)
    Pooled(value=0.1, n=900.0, low=0.08, high=0.12)
    """
    weights = _weights(metric, mine, everyone)
    total = sum(weights.values())
    if not total:
        return None
    name = metric.name
    value = sum(w * float(everyone[v][name]) for v, w in weights.items()) / total
    n = sum(float(everyone[v].get(f"{name}_n") or 0) for v in weights)
    bounds = [(everyone[v].get(f"{name}_low"), everyone[v].get(f"{name}_high")) for v in weights]
    if any(low is None or high is None for low, high in bounds):
        return Pooled(value, n, None, None)
    if len(bounds) == 1:
        return Pooled(value, n, float(bounds[0][0]), float(bounds[0][1]))
    se = math.sqrt(
        sum(
            (w / total * (high - low) / (2 * Z95)) ** 2
            for w, (low, high) in zip(weights.values(), bounds, strict=True)
        )
    )
    floor = 0.0 if metric.is_rate else metric.lowest
    low, high = value - Z95 * se, value + Z95 * se
    low = low if floor is None else max(low, floor)
    high = min(high, 1.0) if metric.is_rate else high
    return Pooled(value, n, low, high)


def _weights(metric: Metric, mine: Figures, everyone: Figures) -> dict[str, float]:
    """Each variant's weight in ``like_for_like``: the player's trials of the metric there,
    for the variants where the player has some and the population a figure."""
    weights: dict[str, float] = {}
    for variant, figures in mine.items():
        trials = figures.get(f"{metric.name}_n") or 0
        pooled = everyone.get(variant, {}).get(metric.name)
        if variant != EVERY_VARIANT and trials > 0 and pooled is not None:
            weights[variant] = float(trials)
    return weights
