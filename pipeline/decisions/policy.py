"""The simulator's rollout policy, compiled: finishing one board card by card (numba).

This is ``pipeline.simulator.rollout`` (its rules and weights, imported from
there) written for one board at a time, so that a rollout kernel can finish
millions of boards a second without numpy's per-step overhead:

* a card that pairs a row goes there, most eagerly into the bottom and into
  a row behind the one above it (R3); a pair on top only when the row that
  must beat it already does (or, for a chaser, when it earns Fantasyland);
* the last slot of a row that is behind waits for a card that improves it;
* flush draws are followed; low cards go to the top, high ones to the bottom;
* in Pineapple 2-7 (R9) the middle takes low unpaired cards early;
* of a Pineapple street of 3 cards the two liked best are kept.

A board's tallies live in a ``(7, 3)`` int64 array, one column per row (top,
middle, bottom): ``COUNT``, ``RANKS`` (3 bits per rank), ``SUITS`` (3 bits per
suit), ``PRESENT`` (a bit per rank), ``SHAPE`` (made hand, times 5), ``PAIR``
(highest paired rank, -1) and ``KEY`` (``level * 13 + PAIR``). A style is a
``(5,)`` float64 array: chase bonus for a ``QQ+`` pair on top, flush-draw
weight, extra liking for middle pairs, lowball middle (0/1), the lowest rank
whose pair on top earns Fantasyland.
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.simulator import rollout as sim
from pipeline.simulator.tallies import _NEXT_BASE, _NEXT_SHAPE

COUNT, RANKS, SUITS, PRESENT, SHAPE, PAIR, KEY = range(7)
TOP, MIDDLE, BOTTOM = 0, 1, 2
CHASE, FLUSH, MIDDLE_PAIRS, LOWBALL, CHASE_FROM = range(5)
PAIRED = 13

_CAP = np.array([3, 5, 5], dtype=np.int64)
_START = np.array([0, 3, 8], dtype=np.int64)
_NEXT_SHAPE_T = _NEXT_SHAPE.astype(np.int64)
_NEXT_BASE_T = _NEXT_BASE.astype(np.int64)
# float32 like the simulator's, so that both make the same choices to the last bit (ties too)
_F = np.float32
_ZERO = _F(0.0)
_FILLER_A = sim._FILLER_A[:, 0].copy()
_FILLER_B = sim._FILLER_B[:, 0].copy()
_LOWBALL_FILLER = sim._LOWBALL_FILLER.copy()
_ROOM = sim._ROOM_WEIGHT[:, 0].copy()
_LOWBALL_ROOM = sim._LOWBALL_ROOM_WEIGHT[:, 0].copy()
_STRAIGHT = sim._STRAIGHT.copy()
_FLUSH_MIDDLE, _FLUSH_BOTTOM = _F(0.25), _F(0.45)
_SPOIL, _LOWBALL_FLUSH = _F(4.0), _F(2.0)
_FULL = sim.FULL
_TOP_PAIR_SAFE = sim.TOP_PAIR_SAFE
_TOP_PAIR_UNSAFE = sim.TOP_PAIR_UNSAFE
_MIDDLE_PAIR = sim.MIDDLE_PAIR
_MIDDLE_BEHIND = sim.MIDDLE_BEHIND
_MIDDLE_CATCHES = sim.MIDDLE_CATCHES
_MIDDLE_ABOVE_TOP = sim.MIDDLE_ABOVE_TOP
_OVERTAKE_BASE = sim.OVERTAKE_BASE
_OVERTAKE_PER_CARD = sim.OVERTAKE_PER_CARD
_OVERTAKE_AHEAD = sim.OVERTAKE_AHEAD
_BOTTOM_PAIR = sim.BOTTOM_PAIR
_BOTTOM_BEHIND = sim.BOTTOM_BEHIND
_LAST_SLOT = sim.LAST_SLOT
_MATES = sim.MATES


@numba.njit(cache=True)
def reset(state: np.ndarray) -> None:
    """Empty tallies."""
    state[:, :] = 0
    state[PAIR, :] = -1
    state[KEY, :] = -1


@numba.njit(cache=True, inline="always")
def _same(state, row, rank):
    return (state[RANKS, row] >> (3 * rank)) & 7


@numba.njit(cache=True, inline="always")
def _after_key(state, row, rank):
    """The row's made-hand key if the card of ``rank`` joined it."""
    same = _same(state, row, rank)
    pair = state[PAIR, row]
    if same > 0 and rank > pair:
        pair = rank
    return _NEXT_BASE_T[state[SHAPE, row] + same] + pair


@numba.njit(cache=True)
def add(state: np.ndarray, board: np.ndarray, card: int, row: int) -> None:
    """Put ``card`` in ``row``: on the board (next free slot) and in the tallies."""
    rank = card >> 2
    same = _same(state, row, rank)
    code = state[SHAPE, row] + same
    if same > 0 and rank > state[PAIR, row]:
        state[PAIR, row] = rank
    board[_START[row] + state[COUNT, row]] = card
    state[COUNT, row] += 1
    state[RANKS, row] += 1 << (3 * rank)
    state[SUITS, row] += 1 << (3 * (card & 3))
    state[PRESENT, row] |= 1 << rank
    state[SHAPE, row] = _NEXT_SHAPE_T[code]
    state[KEY, row] = _NEXT_BASE_T[code] + state[PAIR, row]


@numba.njit(cache=True)
def load(state: np.ndarray, board: np.ndarray, source: np.ndarray) -> None:
    """Tallies and board of a partly filled 13-slot ``source`` board (-1: empty slot)."""
    reset(state)
    board[:] = -1
    for slot in range(13):
        card = source[slot]
        if card >= 0:
            add(state, board, card, 0 if slot < 3 else (1 if slot < 8 else 2))


@numba.njit(cache=True, inline="always")
def _base(state, row, lowball):
    room = _CAP[row] - state[COUNT, row]
    weight = _LOWBALL_ROOM[row] if lowball else _ROOM[row]
    return weight * _F(room) - (_FULL if room <= 0 else _ZERO)


@numba.njit(cache=True, inline="always")
def scores(state: np.ndarray, card: int, style: np.ndarray) -> tuple[float, float, float]:
    """The policy's preference (float32) of top, middle and bottom for ``card``."""
    rank, suit = card >> 2, card & 3
    lowball = style[LOWBALL] > 0
    key_top, key_mid, key_bot = state[KEY, TOP], state[KEY, MIDDLE], state[KEY, BOTTOM]
    top_paired = key_top >= PAIRED
    if lowball:
        behind_top = top_paired and key_top >= key_bot
        bottom_behind = behind_top
        top = _base(state, TOP, True) + _LOWBALL_FILLER[TOP, rank]
        mid = _base(state, MIDDLE, True) + _LOWBALL_FILLER[MIDDLE, rank]
        bot = _base(state, BOTTOM, True) + _LOWBALL_FILLER[BOTTOM, rank]
    else:
        behind_top = top_paired and key_top >= key_mid
        bottom_behind = key_bot < key_mid
        top = _base(state, TOP, False) + _FILLER_A[TOP] + _FILLER_B[TOP] * _F(rank)
        mid = _base(state, MIDDLE, False) + _FILLER_A[MIDDLE] + _FILLER_B[MIDDLE] * _F(rank)
        bot = _base(state, BOTTOM, False) + _FILLER_A[BOTTOM] + _FILLER_B[BOTTOM] * _F(rank)
    if _same(state, TOP, rank) > 0:
        guard = key_bot if lowball else key_mid
        chase = (style[CHASE] if rank >= style[CHASE_FROM] else _ZERO) + _TOP_PAIR_UNSAFE
        safe = _after_key(state, TOP, rank) < guard
        top += chase + (_TOP_PAIR_SAFE - chase) if safe else chase
    count_mid, count_bot = state[COUNT, MIDDLE], state[COUNT, BOTTOM]
    suited_mid = ((state[SUITS, MIDDLE] >> (3 * suit)) & 7) == count_mid
    suited_bot = ((state[SUITS, BOTTOM] >> (3 * suit)) & 7) == count_bot
    same_mid = _same(state, MIDDLE, rank)
    if lowball:
        straight = count_mid == 4 and _STRAIGHT[state[PRESENT, MIDDLE] | (1 << rank)]
        spoils = same_mid + (1 if straight else 0)
        mid -= _SPOIL * _F(spoils) + (_LOWBALL_FLUSH if suited_mid and count_mid >= 3 else _ZERO)
    else:
        after_mid = _after_key(state, MIDDLE, rank)
        catches = after_mid > key_top
        if same_mid > 0:
            weight = _MIDDLE_PAIR + style[MIDDLE_PAIRS]
            if behind_top:
                weight += _MIDDLE_BEHIND + (_MIDDLE_CATCHES if catches else _ZERO)
            if after_mid > key_bot:
                weight -= (
                    _OVERTAKE_BASE
                    + _OVERTAKE_PER_CARD * _F(count_bot)
                    + (_OVERTAKE_AHEAD if key_mid > key_bot else _ZERO)
                )
            mid += weight
        if behind_top and _CAP[MIDDLE] - count_mid == 1 and not catches:
            mid -= _LAST_SLOT
        if suited_mid and count_mid >= 2:
            mid += _FLUSH_MIDDLE * _F(count_mid) * style[FLUSH]
        if behind_top and rank > state[PAIR, TOP]:
            mid += _MIDDLE_ABOVE_TOP
    if _same(state, BOTTOM, rank) > 0:
        bot += _BOTTOM_PAIR + (_BOTTOM_BEHIND if bottom_behind else _ZERO)
    locks = bottom_behind and _CAP[BOTTOM] - count_bot == 1
    if locks and _after_key(state, BOTTOM, rank) <= key_bot:
        bot -= _LAST_SLOT
    if suited_bot and count_bot >= 2:
        bot += _FLUSH_BOTTOM * _F(count_bot) * style[FLUSH]
    return top, mid, bot


@numba.njit(cache=True, inline="always")
def best_row(top: float, mid: float, bot: float) -> int:
    """The row with the highest score (ties to the higher row)."""
    if top >= mid and top >= bot:
        return TOP
    return MIDDLE if mid >= bot else BOTTOM


@numba.njit(cache=True)
def place_best(state: np.ndarray, board: np.ndarray, card: int, style: np.ndarray) -> None:
    """Put ``card`` in the row the policy likes best."""
    top, mid, bot = scores(state, card, style)
    add(state, board, card, best_row(top, mid, bot))


@numba.njit(cache=True, inline="always")
def _liked(state, dealt, j, style):
    top, mid, bot = scores(state, dealt[j], style)
    mates = False
    for i in range(len(dealt)):
        if i != j and dealt[i] >> 2 == dealt[j] >> 2:
            mates = True
    return max(top, mid, bot) + (_MATES if mates else _ZERO), best_row(top, mid, bot)


@numba.njit(cache=True)
def keep_best(state: np.ndarray, board: np.ndarray, dealt: np.ndarray, style: np.ndarray) -> None:
    """Of a Pineapple street's 3 ``dealt`` cards keep the 2 the policy likes best.

    Each card is liked as much as its best row's score (plus a bonus when another
    dealt card has its rank; ties go to the earlier card); the best is placed by
    the scores of the board as it was, the second re-scored after it; the least
    liked is discarded.
    """
    like0, row0 = _liked(state, dealt, 0, style)
    like1, row1 = _liked(state, dealt, 1, style)
    like2, row2 = _liked(state, dealt, 2, style)
    if like0 >= like1 and like0 >= like2:
        add(state, board, dealt[0], row0)
        second = 1 if like1 >= like2 else 2
    elif like1 > like0 and like1 >= like2:
        add(state, board, dealt[1], row1)
        second = 0 if like0 >= like2 else 2
    else:
        add(state, board, dealt[2], row2)
        second = 0 if like0 >= like1 else 1
    place_best(state, board, dealt[second], style)


def style_knobs(chase: float, flush: float, middle_pairs: float, lowball: bool, chase_from: int):
    """A style array for the compiled policy."""
    return np.array([chase, flush, middle_pairs, float(lowball), float(chase_from)], dtype=_F)
