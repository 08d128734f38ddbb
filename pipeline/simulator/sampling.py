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
    # a partial Fisher-Yates shuffle of each player's unknown cards, once per sample
    deck = np.repeat(np.argsort(known, axis=1, kind="stable").astype(np.int8), samples, axis=0)
    left = np.repeat(known.shape[1] - known.sum(axis=1), samples)
    at = np.arange(len(deck))
    pick = rng.random((len(deck), count))
    for t in range(count):
        j = t + (pick[:, t] * (left - t)).astype(np.int64)
        card = deck[at, j]
        deck[at, j] = deck[:, t]
        deck[:, t] = card
    return deck[:, :count].reshape(n, samples, count)
