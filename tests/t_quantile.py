"""Student's t quantile, computed from its density (an independent check of the
dashboard's intervals; no statistics library needed).

>>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 4), round(t_quantile(0.975, 359), 5)
(12.706, 2.2281, 1.96659)
"""

from __future__ import annotations

import math
from functools import cache


def _cdf(x: float, df: float) -> float:
    """P(T <= x) for x >= 0, by Simpson's rule on the density from 0 to x."""
    scale = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    steps = 4000
    h = x / steps
    total = 0.0
    for i in range(steps + 1):
        t = i * h
        weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += weight * (1 + t * t / df) ** (-(df + 1) / 2)
    return 0.5 + scale * total * h / 3


@cache
def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (p > 0.5) of Student's t with ``df`` degrees of freedom."""
    low, high = 0.0, 100.0
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if _cdf(middle, df) < p else (low, middle)
    return (low + high) / 2
