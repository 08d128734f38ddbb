"""Card arrays for benchmarks and exhaustive tests, built column-wise with numpy.

>>> combinations(4, 2).tolist()
[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
>>> deals(np.random.default_rng(0), hands=2, cards=39).shape
(2, 39)
"""

from __future__ import annotations

import numpy as np

from ofc_core.cards import DECK_SIZE


def combinations(n: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``0..n-1`` as a row, increasing, in lexicographic order.

    Grown one column at a time: each row ending in ``last`` is repeated once
    for every value above ``last`` and that value appended.
    """
    rows = np.arange(n, dtype=np.int8)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1].astype(np.int64)
        counts = n - 1 - last
        first_of_group = np.repeat(np.cumsum(counts) - counts, counts)
        following = np.repeat(last + 1, counts) + np.arange(counts.sum()) - first_of_group
        rows = np.column_stack([np.repeat(rows, counts, axis=0), following.astype(np.int8)])
    return rows


def deals(rng: np.random.Generator, hands: int, cards: int) -> np.ndarray:
    """The first ``cards`` cards of ``hands`` independently shuffled decks, one row per hand."""
    decks = np.tile(np.arange(DECK_SIZE, dtype=np.int8), (hands, 1))
    return rng.permuted(decks, axis=1)[:, :cards]
