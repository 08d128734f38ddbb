"""Random future cards for Monte Carlo look-ahead: draws from the cards a player can't see."""

from __future__ import annotations

import numpy as np


def unseen_cards(
    known: np.ndarray, count: int, samples: int, rng: np.random.Generator
) -> np.ndarray:
    """``(n, samples, count)`` distinct cards per sample, none of them ``known`` ``(n, 52)``.

    Each sample is a uniformly random ordered draw without replacement from
    the unknown cards.

    >>> known = np.zeros((1, 52), dtype=bool); known[0, :50] = True
    >>> sorted(unseen_cards(known, 2, 3, np.random.default_rng(0))[0, 1].tolist())
    [50, 51]
    """
    n = len(known)
    if count == 0:
        return np.empty((n, samples, 0), dtype=np.int8)
    keys = rng.random((n, samples, 52), dtype=np.float32)
    keys[np.broadcast_to(known[:, None, :], keys.shape)] = 2.0
    chosen = np.argpartition(keys, count - 1, axis=2)[:, :, :count]
    order = np.argsort(np.take_along_axis(keys, chosen, axis=2), axis=2)
    return np.take_along_axis(chosen, order, axis=2).astype(np.int8)
