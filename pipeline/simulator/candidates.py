"""The legal placements of one street's cards, as patterns of rows (docs/rules.md R1, R2).

A pattern gives each dealt card a row: ``0`` top, ``1`` middle, ``2`` bottom,
``3`` discard. A street of ``dealt`` cards of which ``placed`` are placed has
every pattern with exactly ``dealt - placed`` discards; a pattern is legal for
a board when no row goes over its capacity (3, 5, 5).

>>> patterns(3, 2).shape  # pineapple: 3 cards, one discarded
(27, 3)
>>> patterns(5, 5).shape, patterns(1, 1).tolist()
((243, 5), [[0], [1], [2]])
"""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np

from pipeline.simulator.deal import DISCARD, ROW_CAPACITY, ROW_START


@cache
def patterns(dealt: int, placed: int) -> np.ndarray:
    """Every assignment of ``dealt`` cards to rows with ``dealt - placed`` discards."""
    rows = [p for p in product(range(4), repeat=dealt) if p.count(DISCARD) == dealt - placed]
    return np.array(rows, dtype=np.int8).reshape(-1, dealt)


@cache
def pattern_row_counts(dealt: int, placed: int) -> np.ndarray:
    """Cards each pattern puts in top, middle, bottom: ``(patterns, 3)``."""
    pats = patterns(dealt, placed)
    return np.stack([(pats == row).sum(axis=1) for row in range(3)], axis=1).astype(np.int8)


@cache
def pattern_rank_in_row(dealt: int, placed: int) -> np.ndarray:
    """For each pattern and card, how many earlier cards of the street go to the same row."""
    pats = patterns(dealt, placed).astype(np.int16)
    same = pats[:, :, None] == pats[:, None, :]
    earlier = np.tril(np.ones((dealt, dealt), dtype=bool), k=-1)
    return (same & earlier).sum(axis=2).astype(np.int8)


def legal(counts: np.ndarray, dealt: int, placed: int) -> np.ndarray:
    """``(boards, patterns)``: the pattern fits each board with row ``counts`` ``(boards, 3)``.

    >>> legal(np.array([[3, 5, 4], [0, 0, 0]]), 3, 2).sum(axis=1).tolist()  # 1 slot; all
    [0, 27]
    """
    counts = counts.astype(np.int64)
    code = (counts[:, 0] * 6 + counts[:, 1]) * 6 + counts[:, 2]
    return _legal_by_counts(dealt, placed)[code]


@cache
def _legal_by_counts(dealt: int, placed: int) -> np.ndarray:
    """Which patterns fit, for every row count (top 0-3, middle and bottom 0-5)."""
    counts = np.stack(np.meshgrid(range(4), range(6), range(6), indexing="ij"), -1).reshape(-1, 3)
    room = ROW_CAPACITY - counts
    return (pattern_row_counts(dealt, placed)[None, :, :] <= room[:, None, :]).all(axis=2)


def place(
    boards: np.ndarray,
    counts: np.ndarray,
    dealt: np.ndarray,
    placed: int,
    pattern_index: np.ndarray,
) -> np.ndarray:
    """Boards after placing each board's dealt cards by some of its patterns.

    ``boards`` ``(n, 13)`` (-1 for an empty slot), row ``counts`` ``(n, 3)``,
    ``dealt`` ``(n, k)`` and ``pattern_index`` ``(n, L)`` give ``(n, L, 13)``;
    discarded cards are not on the board.

    >>> board = np.full((1, 13), -1, dtype=np.int8)
    >>> out = place(board, np.zeros((1, 3), np.int8), np.array([[7, 9, 11]]), 2, np.array([[5]]))
    >>> patterns(3, 2)[5].tolist(), out[0, 0].tolist()
    ([0, 3, 2], [7, -1, -1, -1, -1, -1, -1, -1, 11, -1, -1, -1, -1])
    """
    k = dealt.shape[1]
    rows = patterns(k, placed)[pattern_index].astype(np.int64)
    within = pattern_rank_in_row(k, placed)[pattern_index]
    on_board = rows != DISCARD
    safe_rows = np.where(on_board, rows, 0)
    filled = np.take_along_axis(counts[:, None, :].astype(np.int64), safe_rows, axis=2)
    in_row = filled + within
    fits = on_board & (
        in_row < ROW_CAPACITY[safe_rows]
    )  # an illegal pattern's extra cards fall off
    slot = np.where(fits, ROW_START[safe_rows] + in_row, 13)
    n, width = pattern_index.shape
    out = np.empty((n, width, 14), dtype=np.int8)
    out[:, :, :13] = boards[:, None, :]
    cards = np.broadcast_to(dealt[:, None, :], (n, width, k))
    np.put_along_axis(out, slot, cards, axis=2)
    return out[:, :, :13]


def put(boards: np.ndarray, dealt: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Boards ``(n, 13)`` after putting ``dealt`` ``(n, k)`` cards in ``rows`` (3: discarded).

    >>> board = np.full((1, 13), -1, dtype=np.int8)
    >>> put(board, np.array([[7, 9, 11]]), np.array([[2, 3, 2]]))[0, 8:10].tolist()
    [7, 11]
    """
    counts = (boards[:, :, None] >= 0) & (_SLOT_ROW[None, :, None] == np.arange(3))
    filled = counts.sum(axis=1)
    k = dealt.shape[1]
    earlier = np.tril(np.ones((k, k), dtype=bool), k=-1)
    within = ((rows[:, :, None] == rows[:, None, :]) & earlier).sum(axis=2)
    on_board = rows != DISCARD
    safe = np.where(on_board, rows, 0).astype(np.int64)
    slot = np.where(on_board, ROW_START[safe] + np.take_along_axis(filled, safe, 1) + within, 13)
    out = np.empty((len(boards), 14), dtype=np.int8)
    out[:, :13] = boards
    np.put_along_axis(out, slot, dealt.astype(np.int8), axis=1)
    return out[:, :13]


#: Row (0 top, 1 middle, 2 bottom) of each of the 13 board slots.
_SLOT_ROW = np.repeat(np.arange(3), ROW_CAPACITY)
