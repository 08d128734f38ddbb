"""Finishing partial boards with a quick rule-based policy, for Monte Carlo look-ahead.

A bot judges a placement by finishing the board many times with random future
cards. How it finishes matters: cards thrown in at random foul almost every
board, so the rollout places each future card the way a sensible player
would, all boards at once (one numpy step per card):

* a card that pairs (or trips) a row goes there, bottom before middle, and
  into the row that must catch up when the middle is behind the top or the
  bottom behind the middle (R3); a pair on top only when the row below is
  already stronger, or, for a Fantasyland chaser, when it is ``QQ+``;
* a card of the suit a middle or bottom row is drawing to goes there;
* other cards fill the top when low, else the row with the most room;
* in Pineapple 2-7 (R9) the middle takes low unpaired cards instead.

Each row's tallies are packed in integers (3 bits per rank or per suit) and
kept as one flat array per row, so a step is a few dozen elementwise
operations on 1-D arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.simulator.deal import ROW_CAPACITY, ROW_START

QUEEN = 10
_SEVEN = np.uint64(7)
_THREE = np.uint64(3)


@dataclass(frozen=True, eq=False)
class RolloutStyle:
    """Per board: how keen the finishing player is on top pairs ``QQ+`` and on flush draws."""

    chase_top: np.ndarray  # float32 bonus for pairing QQ+ on top regardless of the middle
    flush_draw: np.ndarray  # float32 weight of following a suit in middle/bottom
    lowball_middle: bool = False  # Pineapple 2-7: the middle wants low unpaired cards (R9)


@dataclass(eq=False)
class RowTally:
    """One row (top, middle or bottom) of n boards."""

    count: np.ndarray  # int16 cards in the row
    ranks: np.ndarray  # uint64, 3 bits per rank: how many of that rank
    suits: np.ndarray  # uint64, 3 bits per suit
    most: np.ndarray  # int16 largest count of one rank
    pair_rank: np.ndarray  # int16 highest rank held at least twice, -1 for none

    @classmethod
    def of(cls, cards: np.ndarray) -> RowTally:
        """Tally of ``(n, width)`` row cards, -1 for an empty slot."""
        filled = cards >= 0
        codes = np.where(filled, cards, 0).astype(np.uint64)
        one = filled.astype(np.uint64)
        ranks = (one << (_THREE * (codes >> np.uint64(2)))).sum(axis=1, dtype=np.uint64)
        suits = (one << (_THREE * (codes & np.uint64(3)))).sum(axis=1, dtype=np.uint64)
        per_rank = (ranks[:, None] >> (_THREE * np.arange(13, dtype=np.uint64))) & _SEVEN
        paired = per_rank >= 2
        pair_rank = np.where(paired.any(axis=1), 12 - np.argmax(paired[:, ::-1], axis=1), -1)
        return cls(
            filled.sum(axis=1).astype(np.int16),
            ranks,
            suits,
            per_rank.max(axis=1, initial=0).astype(np.int16),
            pair_rank.astype(np.int16),
        )

    def repeat(self, times: int) -> RowTally:
        parts = (self.count, self.ranks, self.suits, self.most, self.pair_rank)
        return RowTally(*(np.repeat(a, times) for a in parts))

    def holding(self, rank_shift: np.ndarray) -> np.ndarray:
        """How many cards of the given rank (as its bit shift) the row holds."""
        return ((self.ranks >> rank_shift) & _SEVEN).astype(np.int16)

    def add(self, mask: np.ndarray, rank: np.ndarray, rank_shift, suit_shift) -> None:
        """Add one card to the boards in ``mask``."""
        one = mask.astype(np.uint64)
        self.count += mask
        self.ranks += one << rank_shift
        self.suits += one << suit_shift
        now = self.holding(rank_shift)
        self.most = np.where(mask, np.maximum(self.most, now), self.most)
        paired = mask & (now >= 2)
        self.pair_rank = np.where(paired, np.maximum(self.pair_rank, rank), self.pair_rank)


@dataclass(eq=False)
class BoardState:
    """Boards and the tallies of their three rows."""

    boards: np.ndarray  # (n, 13) card codes, -1 for empty
    rows: tuple[RowTally, RowTally, RowTally]  # top, middle, bottom

    @classmethod
    def of(cls, boards: np.ndarray) -> BoardState:
        parts = [boards[:, ROW_START[r] : ROW_START[r] + ROW_CAPACITY[r]] for r in range(3)]
        return cls(boards.copy(), tuple(RowTally.of(p) for p in parts))

    def repeat(self, times: int) -> BoardState:
        """Each board repeated ``times`` times in a row (board i becomes rows i*times ...)."""
        return BoardState(
            np.repeat(self.boards, times, axis=0), tuple(r.repeat(times) for r in self.rows)
        )


#: Preference of a card that makes nothing, by row and rank: low cards to the top.
_FILLER = (
    (0.9 - 0.13 * np.arange(13)).astype(np.float32),
    np.full(13, 0.35, dtype=np.float32),
    (0.25 + 0.01 * np.arange(13)).astype(np.float32),
)
#: In Pineapple 2-7 low cards (up to 8) go to the middle, high ones to top and bottom.
_LOWBALL_FILLER = (
    (-0.3 + 0.08 * np.arange(13)).astype(np.float32),
    np.where(np.arange(13) <= 6, 1.2 - 0.1 * np.arange(13), -2.0).astype(np.float32),
    (0.1 + 0.03 * np.arange(13)).astype(np.float32),
)


def _top_pair_weight(state: BoardState, rank: np.ndarray, style: RolloutStyle) -> np.ndarray:
    """Worth of pairing a top card: safe when the row that must beat the top already does."""
    guard = state.rows[2] if style.lowball_middle else state.rows[1]
    safe = rank < guard.pair_rank
    chase = style.chase_top * (rank >= QUEEN)
    return np.where(safe, np.float32(2.5), chase - np.float32(1.5))


def _scores(state: BoardState, cards: np.ndarray, style: RolloutStyle) -> list[np.ndarray]:
    """Preference of top, middle and bottom for each board's next card (-inf: row full)."""
    top, middle, bottom = state.rows
    rank = (cards >> 2).astype(np.int16)
    rank_shift = _THREE * rank.astype(np.uint64)
    suit_shift = _THREE * (cards & 3).astype(np.uint64)
    filler = _LOWBALL_FILLER if style.lowball_middle else _FILLER
    scores = []
    for r, row in enumerate(state.rows):
        room = ROW_CAPACITY[r] - row.count
        score = filler[r][rank] + np.float32(0.4 / ROW_CAPACITY[r]) * room
        same = row.holding(rank_shift)
        suited = ((row.suits >> suit_shift) & _SEVEN).astype(np.int16)
        drawing = (suited == row.count) & (row.count >= 2)
        if r == 0:
            score += same * _top_pair_weight(state, rank, style)
        elif r == 1 and style.lowball_middle:
            score -= np.float32(4.0) * same + np.where(drawing & (row.count >= 3), 2.0, 0)
        elif r == 1:
            behind = (top.pair_rank >= 0) & (top.pair_rank >= middle.pair_rank)
            over = (rank > bottom.pair_rank) & (bottom.most < 3)
            weight = np.where(over, np.float32(1.2), np.float32(3.0))
            score += same * np.where(behind, np.float32(4.0), weight)
            score += np.where(behind & (rank > top.pair_rank), np.float32(0.5), 0)
            score += np.where(drawing, 0.25 * row.count, 0) * style.flush_draw
        else:
            behind = (middle.pair_rank > bottom.pair_rank) & (bottom.most < 3)
            score += same * np.where(behind, np.float32(4.2), np.float32(3.2))
            score += np.where(drawing, 0.45 * row.count, 0) * style.flush_draw
        scores.append(np.where(room > 0, score, -np.inf).astype(np.float32))
    return scores


def preferred_rows(state: BoardState, cards: np.ndarray, style: RolloutStyle) -> np.ndarray:
    """The row (0 top, 1 middle, 2 bottom) the rollout rules give each board's next card."""
    scores = _scores(state, cards, style)
    pick_top = (scores[0] >= scores[1]) & (scores[0] >= scores[2])
    return np.where(pick_top, 0, np.where(scores[1] >= scores[2], 1, 2)).astype(np.int8)


def add(state: BoardState, cards: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Tally one card per board in the given rows; return the board slot each one takes."""
    rank = (cards >> 2).astype(np.int16)
    rank_shift = _THREE * rank.astype(np.uint64)
    suit_shift = _THREE * (cards & 3).astype(np.uint64)
    top, middle, bottom = state.rows
    slot = np.where(
        rows == 0, top.count, np.where(rows == 1, ROW_START[1] + middle.count, 8 + bottom.count)
    )
    for r, row in enumerate(state.rows):
        row.add(rows == r, rank, rank_shift, suit_shift)
    return slot


def finish(state: BoardState, cards: np.ndarray, style: RolloutStyle) -> np.ndarray:
    """Place ``cards`` ``(n, F)`` in order on boards with exactly F empty slots; ``(n, 13)``."""
    if cards.shape[1] == 0:
        return state.boards
    slots = np.empty(cards.shape, dtype=np.int64)
    for j in range(cards.shape[1]):
        card = cards[:, j]
        slots[:, j] = add(state, card, preferred_rows(state, card, style))
    np.put_along_axis(state.boards, slots, cards, axis=1)
    return state.boards
