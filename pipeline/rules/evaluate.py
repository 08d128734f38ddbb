"""Hand strength for whole batches of rows, as integers (docs/rules.md R1, R3, R9).

A strength is ``category * 13**k + tiebreak`` where the tiebreak is the row's
ranks in order of importance (by count, then rank, highest first) written in
base 13. Strengths of rows of the same size compare as the rows do; equal
strengths are exact ties.

Every function takes an integer array of card codes shaped ``(n, 5)`` or
``(n, 3)`` and works column-wise: a sorting network over the rank columns
builds a key, and precomputed tables map the key to a strength. Tables are
built once, at import, from the 6,188 ascending 5-rank rows (455 for tops).

>>> from ofc_core.cards import parse_cards
>>> from ofc_core.categories import CATEGORY_NAMES
>>> rows = np.array([parse_cards("Ah Kh Qh Jh Th"), parse_cards("5c 4d 3s 2h Ac")])
>>> [CATEGORY_NAMES[c] for c in category5(strength5(rows))]
['straight flush', 'straight']
>>> tops = np.array([parse_cards("3s 3d 6c"), parse_cards("3h 3c 2d")])
>>> s = strength3(tops)
>>> bool(s[0] > s[1])  # R4: top 3 3 6 beats top 3 3 2
True
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from ofc_core.categories import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)

ACE = 12
TEN = 8

_B5 = 13**5
_B3 = 13**3


def _sort_columns(ranks: np.ndarray) -> list[np.ndarray]:
    """Sort each row ascending with a compare-exchange network over the columns."""
    cols = [ranks[:, i] for i in range(ranks.shape[1])]
    pairs = {
        3: [(0, 1), (1, 2), (0, 1)],
        5: [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)],
    }[len(cols)]
    for i, j in pairs:
        lo = np.minimum(cols[i], cols[j])
        cols[j] = np.maximum(cols[i], cols[j])
        cols[i] = lo
    return cols


def _rank_key(ranks: np.ndarray) -> np.ndarray:
    """Base-13 number of the row's ranks sorted ascending: the table index."""
    key = np.zeros(len(ranks), dtype=np.int32)
    for col in _sort_columns(ranks):
        key = key * 13 + col
    return key


def _sorted_rank_rows(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ascending row of ``size`` ranks, and its table index (base-13 number)."""
    ranks = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    return ranks, ranks @ (13 ** np.arange(size - 1, -1, -1))


def _tiebreak(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks ordered by (count, rank) descending, as base-13 digits; and rank counts."""
    counts = (ranks[:, :, None] == np.arange(13)).sum(axis=1)
    per_card = np.take_along_axis(counts, ranks, axis=1)
    order = np.argsort(-(per_card * 13 + ranks), axis=1, kind="stable")
    ordered = np.take_along_axis(ranks, order, axis=1)
    tiebreak = np.zeros(len(ranks), dtype=np.int64)
    for col in ordered.T:
        tiebreak = tiebreak * 13 + col
    return tiebreak, counts


def _build_tables5() -> tuple[np.ndarray, np.ndarray]:
    """Strength of every sorted 5-rank key, off-suit and suited."""
    ranks, keys = _sorted_rank_rows(5)
    tiebreak, counts = _tiebreak(ranks)
    top = np.sort(counts, axis=1)[:, ::-1]
    distinct = top[:, 0] == 1
    high, low = ranks.max(axis=1), ranks.min(axis=1)
    wheel = distinct & (high == ACE) & (np.sort(ranks, axis=1)[:, 3] == 3)
    straight = distinct & ((high - low == 4) | wheel)
    tiebreak = np.where(wheel, ((3 * 13 + 2) * 13 + 1) * 13 * 13, tiebreak)  # A plays low
    category = np.select(
        [
            top[:, 0] == 4,
            (top[:, 0] == 3) & (top[:, 1] == 2),
            top[:, 0] == 3,
            (top[:, 0] == 2) & (top[:, 1] == 2),
            top[:, 0] == 2,
            straight,
        ],
        [QUADS, FULL_HOUSE, TRIPS, TWO_PAIR, PAIR, STRAIGHT],
        HIGH_CARD,
    )
    suited = np.where(straight, STRAIGHT_FLUSH, FLUSH)
    plain, flush = np.zeros((2, 13**5), dtype=np.int32)
    plain[keys] = category * _B5 + tiebreak
    flush[keys] = suited * _B5 + tiebreak
    return plain, flush


def _build_table3() -> np.ndarray:
    """Strength of every sorted 3-rank key (top row: no straights, no flushes)."""
    ranks, keys = _sorted_rank_rows(3)
    tiebreak, counts = _tiebreak(ranks)
    most = counts.max(axis=1)
    category = np.select([most == 3, most == 2], [TRIPS, PAIR], HIGH_CARD)
    table = np.zeros(13**3, dtype=np.int32)
    table[keys] = category * _B3 + tiebreak
    return table


_PLAIN5, _SUITED5 = _build_tables5()
_TABLE3 = _build_table3()


def strength5(cards: np.ndarray) -> np.ndarray:
    """Strength of each 5-card row of an ``(n, 5)`` array of card codes."""
    cards = np.asarray(cards)
    key = _rank_key(cards >> 2)
    suits = cards & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    return np.where(flush, _SUITED5[key], _PLAIN5[key])


def strength3(cards: np.ndarray) -> np.ndarray:
    """Strength of each 3-card top row of an ``(n, 3)`` array of card codes."""
    return _TABLE3[_rank_key(np.asarray(cards) >> 2)]


def category5(strength: np.ndarray) -> np.ndarray:
    """Category (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of 5-card strengths."""
    return strength // _B5


def category3(strength: np.ndarray) -> np.ndarray:
    """Category (``HIGH_CARD``, ``PAIR`` or ``TRIPS``) of 3-card strengths."""
    return strength // _B3


def leading_rank5(strength: np.ndarray) -> np.ndarray:
    """The most important rank of 5-card strengths (straight high card, pair rank, ...)."""
    return (strength % _B5) // 13**4


def leading_rank3(strength: np.ndarray) -> np.ndarray:
    """The most important rank of 3-card strengths (trips or pair rank, else high card)."""
    return (strength % _B3) // 13**2


def as_top(strength5_: np.ndarray) -> np.ndarray:
    """Project 5-card strengths onto the 3-card scale to compare with a top row (R3).

    Category first, then rank by rank over the three most important cards,
    which are the cards a top row has: ``Q Q 7`` on top beats ``Q Q 6 5 4``
    in the middle, and ties ``Q Q 7 5 4``.
    """
    return (category5(strength5_) * _B3 + (strength5_ % _B5) // 13**2).astype(np.int32)


def is_royal(strength: np.ndarray) -> np.ndarray:
    """Whether 5-card strengths are royal flushes (``AKQJT`` suited)."""
    return (category5(strength) == STRAIGHT_FLUSH) & (leading_rank5(strength) == ACE)


def lowball27_valid(strength: np.ndarray) -> np.ndarray:
    """Whether 5-card rows are legal 2-7 middles (R9): no pair, straight or flush; T-high."""
    return (category5(strength) == HIGH_CARD) & (leading_rank5(strength) <= TEN)


def lowball27(strength: np.ndarray) -> np.ndarray:
    """2-7 lowball strength of legal middles (R9): higher is better, so lower cards win."""
    return (_B5 - 1 - strength % _B5).astype(np.int32)
