"""Finishing partial boards with a quick rule-based policy, for Monte Carlo look-ahead.

A bot judges a placement by finishing the board many times with random future
cards. How it finishes matters: cards thrown in at random foul almost every
board, so the rollout places each future card the way a sensible player
would, all boards at once (one numpy step per card, on the row tallies of
``tallies.py``):

* a card that pairs a row goes there, most eagerly into the bottom and into
  a row that is behind the one above it (R3: bottom >= middle >= top),
  reluctantly into a middle that would then beat the bottom (the fuller the
  bottom, the more reluctantly); a pair on top only when the row that must
  beat the top already does, or, for a Fantasyland chaser, when it earns
  Fantasyland (``QQ+``; ``KK+`` in 2-7);
* the last slot of a row that is behind is kept for a card that improves it;
* a card of the suit a middle or bottom row is drawing to goes there;
* other cards fill the top when low, the bottom when high, else the middle;
* in Pineapple 2-7 (R9) the middle takes low unpaired cards that make no
  straight or flush, fills early, and the bottom must beat the top;
* on Pineapple's streets of 3 cards (R2) the policy keeps the two cards it
  likes best (two of a rank together) and discards the third.

Scores are elementwise arithmetic on ``(3, n)`` arrays, no ``np.where``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.simulator.deal import ROW_CAPACITY, ROW_START
from pipeline.simulator.tallies import BOTTOM, MIDDLE, PAIRED, ROWS, TOP, After, BoardState, Card

QUEEN = 10
FULL = np.float32(1e9)  # subtracted from the score of a full row
_CAPACITY = ROW_CAPACITY.astype(np.int16)[:, None]
_SLOT_START = ROW_START.astype(np.int16)[:, None]

#: Preference of a card that makes nothing, by row: ``a + b * rank``, low cards to the top,
#: high ones to the bottom.
_FILLER_A = np.array([[0.9], [0.35], [0.15]], dtype=np.float32)
_FILLER_B = np.array([[-0.13], [0.0], [0.03]], dtype=np.float32)
#: In Pineapple 2-7 low cards (up to 8, then 9 and T) go to the middle, J+ never (R9).
_LOWBALL_FILLER = np.stack(
    [
        -0.3 + 0.08 * np.arange(13),
        np.where(np.arange(13) <= 6, 1.2 - 0.1 * np.arange(13), [0] * 7 + [0.3, 0.1] + [-4] * 4),
        0.1 + 0.03 * np.arange(13),
    ]
).astype(np.float32)
_ROOM_WEIGHT = (np.float32(0.4) / ROW_CAPACITY.astype(np.float32))[:, None]
#: In Pineapple 2-7 the middle fills early, while low unpaired cards still come.
_LOWBALL_ROOM_WEIGHT = np.array([[0.133], [0.25], [0.08]], dtype=np.float32)
# The policy's weights: set by hand, then by a random search for fewer fouls on boards
# finished from scratch and from QQ on top (Pineapple and Classic), then checked on
# the styles' rates in play (pipeline/simulator/measure.py).
TOP_PAIR_SAFE = np.float32(4.0)  # a pair on top the row that must beat it already beats
TOP_PAIR_UNSAFE = np.float32(-0.9)  # ... that it does not (plus the chaser's bonus)
MIDDLE_PAIR = np.float32(1.1)
MIDDLE_BEHIND = np.float32(0.9)  # ... when the middle must still catch a paired top
MIDDLE_CATCHES = np.float32(1.9)  # ... and the pair does catch it
MIDDLE_ABOVE_TOP = np.float32(0.25)  # an unpaired card above the top's pair, for later
OVERTAKE_BASE = np.float32(1.1)  # a middle pair overtaking the bottom: base cost,
OVERTAKE_PER_CARD = np.float32(0.6)  # ... more per bottom card (less room to answer),
OVERTAKE_AHEAD = np.float32(1.6)  # ... more when the middle is already ahead
BOTTOM_PAIR = np.float32(4.35)
BOTTOM_BEHIND = np.float32(0.75)  # ... when the bottom does not yet beat the middle
LAST_SLOT = np.float32(2.9)  # the last slot of a row that is behind, for a card that fails it
MATES = np.float32(3.0)  # Pineapple: keep two cards of a rank dealt together
#: 13-bit rank masks of five ranks in a row (A-5 too): a straight fouls a 2-7 middle (R9).
_STRAIGHT = np.zeros(1 << 13, dtype=bool)
_STRAIGHT[[0b11111 << low for low in range(9)] + [(1 << 12) | 0b1111]] = True


@dataclass(frozen=True, eq=False)
class RolloutStyle:
    """Per board: how keen the finishing player is on top pairs ``QQ+`` and on flush draws."""

    chase_top: np.ndarray  # float32 bonus for pairing QQ+ on top regardless of the middle
    flush_draw: np.ndarray  # float32 weight of following a suit in middle/bottom
    middle_pairs: np.ndarray  # float32 extra liking for pairs in the middle (chasers)
    lowball_middle: bool = False  # Pineapple 2-7: the middle wants low unpaired cards (R9)
    chase_from: int = QUEEN  # the lowest rank whose pair on top earns Fantasyland


@dataclass(frozen=True, eq=False)
class _Context:
    """What scoring needs of the boards whatever the card: room, who is behind whom."""

    base: np.ndarray  # (3, n) float32: room left, minus FULL for a full row
    behind_top: np.ndarray  # (n,) the row that must beat the top (R3, R9) does not yet
    middle_locks: np.ndarray  # (n,) ... and the middle has one slot left
    bottom_behind: np.ndarray  # (n,) the bottom does not yet beat the middle (2-7: the top)
    bottom_locks: np.ndarray  # (n,) ... and the bottom has one slot left
    over_cost: np.ndarray  # (n,) float32: a middle pair overtaking the bottom
    flush: np.ndarray  # (2, n) float32: worth of one more card of a middle / bottom draw
    top_rank: np.ndarray  # (n,) the top's paired rank, -1 for none

    @classmethod
    def of(cls, state: BoardState, style: RolloutStyle) -> _Context:
        room = _CAPACITY - state.count
        count = state.count.astype(np.float32)
        key = state.key
        top_paired = key[TOP] >= PAIRED
        if style.lowball_middle:
            behind_top = top_paired & (key[TOP] >= key[BOTTOM])
            bottom_behind = behind_top
        else:
            behind_top = top_paired & (key[TOP] >= key[MIDDLE])
            bottom_behind = key[BOTTOM] < key[MIDDLE]
        drawn = count[1:] * (count[1:] >= 2)
        return cls(
            (_LOWBALL_ROOM_WEIGHT if style.lowball_middle else _ROOM_WEIGHT) * room
            - FULL * (room <= 0),
            behind_top,
            behind_top & (room[MIDDLE] == 1),
            bottom_behind,
            bottom_behind & (room[BOTTOM] == 1),
            OVERTAKE_BASE
            + OVERTAKE_PER_CARD * count[BOTTOM]
            + OVERTAKE_AHEAD * (key[MIDDLE] > key[BOTTOM]),
            np.array([[0.25], [0.45]], dtype=np.float32) * drawn * style.flush_draw,
            state.pair_rank[TOP],
        )


def _scores(
    state: BoardState, context: _Context, card: Card, after: After, style: RolloutStyle
) -> np.ndarray:
    """``(3, n)`` float32 preference of top, middle and bottom for each board's card."""
    if style.lowball_middle:
        score = context.base + np.take(_LOWBALL_FILLER, card.rank, axis=1)
    else:
        score = context.base + _FILLER_A + _FILLER_B * card.rank
    pairs = after.same > 0
    key, after_key = state.key, after.key
    guard = BOTTOM if style.lowball_middle else MIDDLE
    chase = style.chase_top * (card.rank >= style.chase_from) + TOP_PAIR_UNSAFE
    safe = after_key[TOP] < key[guard]
    score[TOP] += pairs[TOP] * (chase + safe * (TOP_PAIR_SAFE - chase))
    suited = ((state.suits[1:] >> card.suit_shift) & 7) == state.count[1:]
    if style.lowball_middle:
        straight = _STRAIGHT[state.present[MIDDLE] | (1 << card.rank)] & (state.count[MIDDLE] == 4)
        flushes = suited[0] & (state.count[MIDDLE] >= 3)
        spoils = (after.same[MIDDLE] + straight).astype(np.float32)
        score[MIDDLE] -= np.float32(4.0) * spoils + np.float32(2.0) * flushes
    else:
        behind = context.behind_top
        catches = after_key[MIDDLE] > key[TOP]
        overtakes = after_key[MIDDLE] > key[BOTTOM]
        weight = (
            MIDDLE_PAIR + style.middle_pairs + behind * (MIDDLE_BEHIND + MIDDLE_CATCHES * catches)
        )
        score[MIDDLE] += pairs[MIDDLE] * (weight - overtakes * context.over_cost)
        score[MIDDLE] -= LAST_SLOT * (context.middle_locks & ~catches)
        score[MIDDLE] += suited[0] * context.flush[0]
        # a middle that must catch a paired top keeps cards that can pair above it
        score[MIDDLE] += MIDDLE_ABOVE_TOP * (behind & (card.rank > context.top_rank))
    weight = BOTTOM_PAIR + BOTTOM_BEHIND * context.bottom_behind
    score[BOTTOM] += pairs[BOTTOM] * weight
    improves = after_key[BOTTOM] > key[BOTTOM]
    score[BOTTOM] -= LAST_SLOT * (context.bottom_locks & ~improves)
    score[BOTTOM] += suited[1] * context.flush[1]
    return score


def _best(scores: np.ndarray) -> np.ndarray:
    """``(3, n)`` bool marking each board's best row (ties to the higher row)."""
    top, middle, bottom = scores
    to_top = (top >= middle) & (top >= bottom)
    to_middle = ~to_top & (middle >= bottom)
    return np.stack([to_top, to_middle, ~to_top & ~to_middle])


def _row(chosen: np.ndarray) -> np.ndarray:
    """Row index (0, 1, 2) of a ``(3, n)`` one-hot mask."""
    return chosen[MIDDLE] + 2 * chosen[BOTTOM]


def preferred_rows(state: BoardState, cards: np.ndarray, style: RolloutStyle) -> np.ndarray:
    """The row (0 top, 1 middle, 2 bottom) the rollout rules give each board's next card."""
    card = Card.of(cards)
    after = After.of(state, card)
    return _row(_best(_scores(state, _Context.of(state, style), card, after, style)))


def add(state: BoardState, cards: np.ndarray, rows: np.ndarray) -> None:
    """Put one card per board in the given rows (0 top, 1 middle, 2 bottom)."""
    _lay(state, Card.of(cards), rows == ROWS)


def _lay(state: BoardState, card: Card, chosen: np.ndarray, after: After | None = None) -> None:
    """Put the card in the row ``chosen`` marks: on the board and in the tallies."""
    slot = (chosen * (_SLOT_START + state.count)).sum(axis=0)
    np.put(state.boards, np.arange(0, state.boards.size, 13) + slot, card.code)
    state.add(card, After.of(state, card) if after is None else after, chosen)


def _place_best(state: BoardState, card: Card, style: RolloutStyle) -> None:
    after = After.of(state, card)
    _lay(state, card, _best(_scores(state, _Context.of(state, style), card, after, style)), after)


def finish(
    state: BoardState, cards: np.ndarray, style: RolloutStyle, keep: int | None = None
) -> np.ndarray:
    """Finish boards with future ``cards`` ``(n, F)``; the finished ``(n, 13)`` boards.

    With ``keep`` None the cards are placed one by one, all of them; otherwise they
    come in streets of ``keep + 1`` of which the policy keeps the ``keep`` it likes
    best (Pineapple: 3 dealt, 2 kept). The boards must have room for the cards kept.
    """
    if keep is None:
        for j in range(cards.shape[1]):
            _place_best(state, Card.of(cards[:, j]), style)
        return state.boards
    for start in range(0, cards.shape[1], keep + 1):
        _street(state, cards[:, start : start + keep + 1], style)
    return state.boards


def _street(state: BoardState, dealt: np.ndarray, style: RolloutStyle) -> None:
    """Keep all but one of each board's ``dealt`` cards, the ones the policy likes best."""
    context = _Context.of(state, style)
    cards = [Card.of(dealt[:, j]) for j in range(dealt.shape[1])]
    scores = [_scores(state, context, c, After.of(state, c), style) for c in cards]
    liked = [np.maximum(np.maximum(s[TOP], s[MIDDLE]), s[BOTTOM]) for s in scores]
    # two cards of a rank dealt together are kept together: they make a pair wherever they go
    for j, card in enumerate(cards):
        mated = sum(card.rank == other.rank for other in cards if other is not card) > 0
        liked[j] = liked[j] + MATES * mated
    # rank each card by how many others are liked more (ties: the earlier card first)
    beaten = [
        sum(
            (liked[i] >= liked[j]) if i < j else (liked[i] > liked[j])
            for i in range(len(liked))
            if i != j
        )
        for j in range(len(liked))
    ]
    first = [b == 0 for b in beaten]
    best_card = Card.of(sum(f * c.code for f, c in zip(first, cards, strict=True)).astype(np.int8))
    best_scores = sum(f * s for f, s in zip(first, scores, strict=True))
    _lay(state, best_card, _best(best_scores))
    for place in range(1, len(cards) - 1):
        chosen = sum((b == place) * c.code for b, c in zip(beaten, cards, strict=True))
        _place_best(state, Card.of(chosen.astype(np.int8)), style)


def card_scores(state: BoardState, cards: np.ndarray, style: RolloutStyle) -> np.ndarray:
    """``(k, 3, n)`` the policy's preference of each row for each of ``cards`` ``(n, k)``,
    each judged alone against the boards as they are (a full row scores about -FULL)."""
    context = _Context.of(state, style)
    tried = [Card.of(cards[:, j]) for j in range(cards.shape[1])]
    return np.stack([_scores(state, context, c, After.of(state, c), style) for c in tried])
