"""Rooms that report wrong figures, for testing the audit (``--misreport-rate``).

A room with a wrong rule setting pays the wrong amount. The simulator picks
a share of hands from its own seed stream and shifts one player's reported
points by a small nonzero amount (its money follows); nothing in the output
says which. The audit finds them by recomputing with the engine, and a test
can find them the same way.

>>> rng = np.random.default_rng(0)
>>> points = np.zeros((1000, 2))
>>> changed = corrupt_points(rng, points, 0.1)
>>> bool(((changed != points).any(axis=1).mean() - 0.1) ** 2 < 0.03 ** 2)
True
"""

from __future__ import annotations

import numpy as np

DELTAS = np.array([-6.0, -3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 6.0])


def corrupt_points(rng: np.random.Generator, points: np.ndarray, rate: float) -> np.ndarray:
    """``points`` ``(hands, players)`` with a ``rate`` share of hands misreported."""
    hands, players = points.shape
    hit = rng.random(hands) < rate
    who = rng.integers(players, size=hands)
    delta = DELTAS[rng.integers(len(DELTAS), size=hands)]
    out = points.copy()
    out[np.arange(hands), who] += np.where(hit, delta, 0.0)
    return out
