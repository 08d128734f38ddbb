"""Tallies of partly filled boards, row by row, for the look-ahead's quick policy.

``BoardState`` keeps, for many boards at once, what the rollout policy
(``rollout.py``) needs to know of each row: how many cards, how many of each
rank and suit (packed 3 bits each in integers), which ranks, and the row's
made hand as a key (its level: high card, pair, two pair, trips, full house,
quads; then its highest paired rank). The rows are stacked in ``(3, n)``
arrays, top, middle, bottom, so that one elementwise operation serves all
boards and rows; a card is added with arithmetic only (a small table gives
the next made hand), because ``np.where`` and fancy indexing cost ten times
an add per element and a look-ahead adds millions of cards.

>>> from ofc_core.cards import parse_cards
>>> state = BoardState.empty(1)
>>> for code in parse_cards("Qs Qd 7c"):
...     state.tally(np.array([code], dtype=np.int8), np.array([MIDDLE]))
>>> state.count[:, 0].tolist(), state.key[:, 0].tolist()  # middle: a pair of queens
([0, 3, 0], [-1, 23, -1])
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from pipeline.simulator.deal import ROW_CAPACITY

TOP, MIDDLE, BOTTOM = 0, 1, 2
ROWS = np.arange(3, dtype=np.int16)[:, None]
PAIRED = 13  # made-hand keys from here up hold a pair or better

# Made-hand shapes of a row: 0 nothing paired, 1 pair, 2 two pair, 3 trips, 4 full house,
# 5 quads. _NEXT[shape, same] is the shape after adding a card whose rank the row already
# holds ``same`` times (4 only for a card that is not really added: see tally);
# _LEVEL the shape's category in the order of pipeline.rules.evaluate. Shapes are stored
# times 5, so ``shape + same`` indexes the flattened tables directly.
_NEXT = np.array(
    [[0, 1, 3, 5, 5], [1, 2, 3, 5, 5], [2, 2, 4, 5, 5], [3, 4, 3, 5, 5], [4, 4, 4, 5, 5],
     [5, 5, 5, 5, 5]]
)  # fmt: skip
_LEVEL = np.array([0, 1, 2, 3, 6, 7])
_NEXT_SHAPE = (5 * _NEXT).ravel()
_NEXT_BASE = (13 * _LEVEL[_NEXT]).ravel().astype(np.int16)  # next shape's key less its rank


@dataclass(eq=False)
class BoardState:
    """Boards and the tallies of their rows, ``(3, n)`` arrays: top, middle, bottom."""

    boards: np.ndarray  # (n, 13) int8 card codes, -1 for empty
    count: np.ndarray  # int16 cards in the row
    ranks: np.ndarray  # int64, 3 bits per rank: how many of that rank
    suits: np.ndarray  # int16, 3 bits per suit
    present: np.ndarray  # int16, a bit per rank held
    shape: np.ndarray  # int64 made-hand shape times 5 (see _NEXT)
    pair_rank: np.ndarray  # int16 highest rank held at least twice, -1 for none
    key: np.ndarray  # int16 made-hand key: level * 13 + pair_rank

    @classmethod
    def empty(cls, n: int) -> BoardState:
        def zeros(dtype=np.int16):
            return np.zeros((3, n), dtype=dtype)

        none = np.full((3, n), -1, dtype=np.int16)
        return cls(np.full((n, 13), -1, dtype=np.int8), zeros(), zeros(np.int64), zeros(),
                   zeros(), zeros(np.int64), none, none.copy())  # fmt: skip

    @classmethod
    def of(cls, boards: np.ndarray) -> BoardState:
        """Tallies of ``(n, 13)`` boards (slots 0-2 top, 3-7 middle, 8-12 bottom)."""
        state = cls.empty(len(boards))
        rows = np.repeat(np.arange(3), ROW_CAPACITY)
        for slot in range(13):
            cards = boards[:, slot]
            state.tally(np.maximum(cards, 0), (cards >= 0) * rows[slot] + (cards < 0) * 3)
        state.boards = boards.copy()
        return state

    def repeat(self, times: int) -> BoardState:
        """Each board repeated ``times`` times in a row (board i becomes rows i*times ...)."""
        return BoardState(
            np.repeat(self.boards, times, axis=0),
            *(np.repeat(getattr(self, f.name), times, axis=1) for f in fields(self)[1:]),
        )

    def take(self, index: np.ndarray) -> BoardState:
        """The boards at ``index``, in that order."""
        return BoardState(
            self.boards[index], *(getattr(self, f.name)[:, index] for f in fields(self)[1:])
        )

    def tally(self, cards: np.ndarray, rows: np.ndarray) -> None:
        """Count one card per board in ``rows`` (3: discarded, counted nowhere); the boards
        themselves are not written."""
        card = Card.of(cards)
        self.add(card, After.of(self, card), rows == ROWS)

    def add(self, card: Card, after: After, chosen: np.ndarray) -> None:
        """Count the card in the row ``chosen`` ``(3, n)`` marks."""
        self.count += chosen
        self.ranks += chosen << card.rank_shift
        self.suits += chosen << card.suit_shift
        self.present |= chosen << card.rank
        self.shape += chosen * (after.shape - self.shape)
        self.pair_rank += chosen * (after.pair_rank - self.pair_rank)
        self.key += chosen * (after.key - self.key)


@dataclass(frozen=True, eq=False)
class Card:
    """One card per board, as the tallies and scores use it."""

    code: np.ndarray  # int8 card codes
    rank: np.ndarray  # int16
    rank_shift: np.ndarray  # int64: 3 * rank
    suit_shift: np.ndarray  # int16: 3 * suit

    @classmethod
    def of(cls, cards: np.ndarray) -> Card:
        rank = (cards >> 2).astype(np.int16)
        return cls(cards, rank, 3 * rank.astype(np.int64), 3 * (cards & 3).astype(np.int16))


@dataclass(frozen=True, eq=False)
class After:
    """Each row ``(3, n)`` as it would be with the card: rank count before, shape, key."""

    same: np.ndarray  # int64
    shape: np.ndarray  # int64
    pair_rank: np.ndarray  # int16
    key: np.ndarray  # int16

    @classmethod
    def of(cls, state: BoardState, card: Card) -> After:
        same = (state.ranks >> card.rank_shift) & 7
        code = state.shape + same
        pair_rank = np.maximum(state.pair_rank, (same > 0) * (card.rank + 1) - 1)
        return cls(same, _NEXT_SHAPE.take(code), pair_rank, _NEXT_BASE.take(code) + pair_rank)
