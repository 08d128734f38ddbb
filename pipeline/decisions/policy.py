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
float32 array (``style_knobs``): chase bonus for a ``QQ+`` pair on top,
flush-draw weight, extra liking for middle pairs, lowball middle (0/1), the
lowest rank whose pair on top earns Fantasyland, then the simulator's weights
(``W_...`` positions).
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
_STRAIGHT = sim._STRAIGHT.copy()
_F = np.float32  # the simulator scores in float32: the same choices to the last bit, ties too
_ZERO = _F(0.0)
_FLUSH_MIDDLE, _FLUSH_BOTTOM = _F(0.25), _F(0.45)  # as the simulator's _Context.flush
_SPOIL, _LOWBALL_FLUSH = _F(4.0), _F(2.0)  # as the simulator's 2-7 middle

#: The simulator's tuned weights, read when a style is built (not frozen into the compiled
#: code, whose cache would not notice them change): their positions in a style array.
_SCALARS = (
    "FULL", "TOP_PAIR_SAFE", "TOP_PAIR_UNSAFE", "MIDDLE_PAIR", "MIDDLE_BEHIND", "MIDDLE_CATCHES",
    "MIDDLE_ABOVE_TOP", "OVERTAKE_BASE", "OVERTAKE_PER_CARD", "OVERTAKE_AHEAD", "BOTTOM_PAIR",
    "BOTTOM_BEHIND", "LAST_SLOT", "MATES",
)  # fmt: skip
(
    W_FULL, W_TOP_PAIR_SAFE, W_TOP_PAIR_UNSAFE, W_MIDDLE_PAIR, W_MIDDLE_BEHIND, W_MIDDLE_CATCHES,
    W_MIDDLE_ABOVE_TOP, W_OVERTAKE_BASE, W_OVERTAKE_PER_CARD, W_OVERTAKE_AHEAD, W_BOTTOM_PAIR,
    W_BOTTOM_BEHIND, W_LAST_SLOT, W_MATES,
) = range(5, 5 + len(_SCALARS))  # fmt: skip
W_FILLER_A = 5 + len(_SCALARS)  # 3 rows
W_FILLER_B = W_FILLER_A + 3
W_ROOM = W_FILLER_B + 3
W_LOWBALL_ROOM = W_ROOM + 3
W_LOWBALL_FILLER = W_LOWBALL_ROOM + 3  # 3 rows x 13 ranks


def _weights() -> np.ndarray:
    """The simulator's weights in the order of the ``W_`` positions."""
    return np.concatenate(
        [
            [getattr(sim, name) for name in _SCALARS],
            sim._FILLER_A[:, 0],
            sim._FILLER_B[:, 0],
            sim._ROOM_WEIGHT[:, 0],
            sim._LOWBALL_ROOM_WEIGHT[:, 0],
            sim._LOWBALL_FILLER.ravel(),
        ]
    ).astype(_F)


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
def _base(state, row, lowball, style):
    room = _CAP[row] - state[COUNT, row]
    weight = style[W_LOWBALL_ROOM + row] if lowball else style[W_ROOM + row]
    return weight * _F(room) - (style[W_FULL] if room <= 0 else _ZERO)


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
        top = _base(state, TOP, True, style) + style[W_LOWBALL_FILLER + 13 * TOP + rank]
        mid = _base(state, MIDDLE, True, style) + style[W_LOWBALL_FILLER + 13 * MIDDLE + rank]
        bot = _base(state, BOTTOM, True, style) + style[W_LOWBALL_FILLER + 13 * BOTTOM + rank]
    else:
        behind_top = top_paired and key_top >= key_mid
        bottom_behind = key_bot < key_mid
        top = (
            _base(state, TOP, False, style)
            + style[W_FILLER_A + TOP]
            + style[W_FILLER_B + TOP] * _F(rank)
        )
        mid = (
            _base(state, MIDDLE, False, style)
            + style[W_FILLER_A + MIDDLE]
            + style[W_FILLER_B + MIDDLE] * _F(rank)
        )
        bot = (
            _base(state, BOTTOM, False, style)
            + style[W_FILLER_A + BOTTOM]
            + style[W_FILLER_B + BOTTOM] * _F(rank)
        )
    if _same(state, TOP, rank) > 0:
        guard = key_bot if lowball else key_mid
        chase = (style[CHASE] if rank >= style[CHASE_FROM] else _ZERO) + style[W_TOP_PAIR_UNSAFE]
        safe = _after_key(state, TOP, rank) < guard
        top += chase + (style[W_TOP_PAIR_SAFE] - chase) if safe else chase
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
            weight = style[W_MIDDLE_PAIR] + style[MIDDLE_PAIRS]
            if behind_top:
                weight += style[W_MIDDLE_BEHIND] + (style[W_MIDDLE_CATCHES] if catches else _ZERO)
            if after_mid > key_bot:
                weight -= (
                    style[W_OVERTAKE_BASE]
                    + style[W_OVERTAKE_PER_CARD] * _F(count_bot)
                    + (style[W_OVERTAKE_AHEAD] if key_mid > key_bot else _ZERO)
                )
            mid += weight
        if behind_top and _CAP[MIDDLE] - count_mid == 1 and not catches:
            mid -= style[W_LAST_SLOT]
        if suited_mid and count_mid >= 2:
            mid += _FLUSH_MIDDLE * _F(count_mid) * style[FLUSH]
        if behind_top and rank > state[PAIR, TOP]:
            mid += style[W_MIDDLE_ABOVE_TOP]
    if _same(state, BOTTOM, rank) > 0:
        bot += style[W_BOTTOM_PAIR] + (style[W_BOTTOM_BEHIND] if bottom_behind else _ZERO)
    locks = bottom_behind and _CAP[BOTTOM] - count_bot == 1
    if locks and _after_key(state, BOTTOM, rank) <= key_bot:
        bot -= style[W_LAST_SLOT]
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
    return max(top, mid, bot) + (style[W_MATES] if mates else _ZERO), best_row(top, mid, bot)


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


def style_knobs(
    chase: float, flush: float, middle_pairs: float, lowball: bool, chase_from: int
) -> np.ndarray:
    """A style array for the compiled policy: the knobs, then the simulator's weights."""
    knobs = np.array([chase, flush, middle_pairs, float(lowball), float(chase_from)], dtype=_F)
    return np.concatenate([knobs, _weights()])
