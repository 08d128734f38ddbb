"""Bots' placements on a regular street: candidate placements, look-ahead, the best by style.

For each deciding player (all tables at once) a bot

1. lists candidate placements of its dealt cards: every legal pattern when
   there are few (1 or 3 cards), or, for the 5 cards of street 1 and Turbo's
   4-card streets, a handful a sensible player would consider (the rollout
   policy with the cards in several orders, a pair or a high card on top,
   one random legal placement);
2. finishes each candidate board many times with random unseen cards using
   the rollout policy (``rollout.py``), the same random cards for every
   candidate so that differences are the placement's, not luck's;
3. scores the finished boards (``value.py``) with its style's weights
   (``styles.py``) and keeps the candidate with the best average.

A ``random`` bot plays a uniformly random legal pattern.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from pipeline.rulesets import Ruleset
from pipeline.simulator.candidates import legal, patterns, place
from pipeline.simulator.deal import HAND_SIZE, ROW_CAPACITY, ROW_START, TOP
from pipeline.simulator.rollout import BoardState, RolloutStyle, add, finish, preferred_rows
from pipeline.simulator.sampling import unseen_cards
from pipeline.simulator.styles import CHASE_TOP, FLUSH_DRAW, IS_RANDOM, WEIGHTS
from pipeline.simulator.value import N_EARLY, N_FEATURES, early_features, features

#: Monte Carlo finishes per candidate, by cards dealt on the street.
SAMPLES = {1: 24, 3: 6, 4: 8, 5: 6}
SCREEN_SAMPLES = 2
SHORTLIST = 5
QUEEN = 10


@dataclass(frozen=True, eq=False)
class StreetView:
    """What deciding players see on a street (arrays over players)."""

    boards: np.ndarray  # (n, 13) int8 card codes, -1 for an empty slot
    dealt: np.ndarray  # (n, k) int8 cards just dealt
    placed: int  # how many of them must be placed (the rest are discarded)
    known: np.ndarray  # (n, 52) bool: cards the player has seen (own and opponents' boards)
    style: np.ndarray  # (n,) index into styles.STYLE_NAMES


def row_counts(boards: np.ndarray) -> np.ndarray:
    """``(n, 3)`` cards already in top, middle, bottom of ``(n, 13)`` boards."""
    filled = boards >= 0
    return np.stack(
        [filled[:, s : s + c].sum(axis=1) for s, c in zip(ROW_START, ROW_CAPACITY, strict=True)],
        axis=1,
    ).astype(np.int8)


def choose(view: StreetView, ruleset: Ruleset, rng: np.random.Generator) -> np.ndarray:
    """``(n, k)`` row per dealt card (0 top, 1 middle, 2 bottom, 3 discard) for each player."""
    n, k = view.dealt.shape
    counts = row_counts(view.boards)
    allowed = legal(counts, k, view.placed)
    choice = np.empty(n, dtype=np.int64)
    rand = IS_RANDOM[view.style]
    if rand.any():
        keys = rng.random(allowed[rand].shape) + allowed[rand]
        choice[rand] = np.argmax(keys, axis=1)
    smart = ~rand
    if smart.any():
        sub = StreetView(
            *(a[smart] for a in (view.boards, view.dealt)),
            view.placed,
            view.known[smart],
            view.style[smart],
        )
        choice[smart] = _look_ahead(sub, counts[smart], allowed[smart], ruleset, rng)
    return patterns(k, view.placed)[choice]


def _look_ahead(
    view: StreetView,
    counts: np.ndarray,
    allowed: np.ndarray,
    ruleset: Ruleset,
    rng: np.random.Generator,
) -> np.ndarray:
    """Pattern index of the best candidate of each player, by Monte Carlo look-ahead.

    Many candidates (Pineapple's 27) are first screened with ``SCREEN_SAMPLES``
    finishes each; the best ``SHORTLIST`` are then judged with the full count.
    """
    n, k = view.dealt.shape
    empty_after = HAND_SIZE - int(counts[0].sum()) - view.placed
    if k >= 4 and empty_after > 0:
        candidates = _considered(view, counts, ruleset, rng)
    else:
        candidates = np.broadcast_to(np.arange(allowed.shape[1]), allowed.shape)
        if candidates.shape[1] > SHORTLIST and empty_after > 0:
            value = _values(view, counts, candidates, allowed, SCREEN_SAMPLES, ruleset, rng)
            keep = np.argsort(-value, axis=1, kind="stable")[:, :SHORTLIST]
            candidates = np.take_along_axis(candidates, keep, axis=1)
            allowed = np.take_along_axis(allowed, keep, axis=1)
        else:
            allowed = allowed.copy()
    valid = allowed if allowed.shape == candidates.shape else np.ones(candidates.shape, bool)
    samples = SAMPLES[k] if empty_after > 0 else 1
    value = _values(view, counts, candidates, valid, samples, ruleset, rng)
    return candidates[np.arange(n), np.argmax(value, axis=1)]


def _values(
    view: StreetView,
    counts: np.ndarray,
    candidates: np.ndarray,
    valid: np.ndarray,
    samples: int,
    ruleset: Ruleset,
    rng: np.random.Generator,
) -> np.ndarray:
    """``(n, L)`` each candidate's worth to the player's style (-inf where not valid)."""
    n, width = candidates.shape
    boards = place(view.boards, counts, view.dealt, view.placed, candidates).reshape(-1, 13)
    outcome = expected_features(view, boards, candidates, samples, ruleset, rng)
    early = early_features(boards).reshape(n, width, N_EARLY)
    weights = WEIGHTS[view.style][:, None, :]
    value = (outcome * weights[:, :, :N_FEATURES]).sum(axis=2)
    value += (early * weights[:, :, N_FEATURES:]).sum(axis=2)
    value[~valid] = -np.inf
    return value


def expected_features(
    view: StreetView,
    boards: np.ndarray,
    candidates: np.ndarray,
    samples: int,
    ruleset: Ruleset,
    rng: np.random.Generator,
) -> np.ndarray:
    """``(n, L, N_FEATURES)`` mean outcome of each candidate over ``samples`` finished boards.

    ``boards`` ``(n * L, 13)`` are the candidates' boards after this street.
    """
    n, width = candidates.shape
    empty = HAND_SIZE - int((view.boards[0] >= 0).sum()) - view.placed
    if empty == 0:
        return features(boards, ruleset).reshape(n, width, N_FEATURES)
    future = unseen_cards(view.known, empty, samples, rng)
    future = np.broadcast_to(future[:, None], (n, width, samples, empty)).reshape(-1, empty)
    state = _tallies(view, boards, candidates).repeat(samples)
    per_board = width * samples
    style = RolloutStyle(
        np.repeat(CHASE_TOP[view.style], per_board),
        np.repeat(FLUSH_DRAW[view.style], per_board),
        ruleset.lowball_middle,
    )
    finished = finish(state, future, style)
    return features(finished, ruleset).reshape(n, width, samples, N_FEATURES).mean(axis=2)


def _tallies(view: StreetView, boards: np.ndarray, candidates: np.ndarray) -> BoardState:
    """Rollout tallies of the candidates' boards: the players' tallies plus the dealt cards."""
    width = candidates.shape[1]
    state = BoardState.of(view.boards).repeat(width)
    rows = patterns(view.dealt.shape[1], view.placed)[candidates.ravel()]
    dealt = np.repeat(view.dealt, width, axis=0)
    for j in range(dealt.shape[1]):
        add(state, dealt[:, j], rows[:, j])  # a discard (row 3) tallies nowhere
    state.boards = boards
    return state


@cache
def _pattern_lookup(dealt: int) -> np.ndarray:
    """Pattern index of each base-4 code of a row assignment (no discards)."""
    pats = patterns(dealt, dealt).astype(np.int64)
    codes = (pats * 4 ** np.arange(dealt - 1, -1, -1)).sum(axis=1)
    lookup = np.full(4**dealt, -1, dtype=np.int64)
    lookup[codes] = np.arange(len(pats))
    return lookup


def _by_policy(
    view: StreetView,
    start: BoardState,
    order: np.ndarray,
    style: RolloutStyle,
    to_top: np.ndarray | None = None,
) -> np.ndarray:
    """Pattern index of placing the dealt cards one by one in ``order`` by the rollout rules.

    ``to_top`` ``(n, k)`` marks cards put on top first, where the top has room for them.
    """
    n, k = view.dealt.shape
    state = start.repeat(1)  # a copy: every candidate starts from the same boards
    rows = np.empty((n, k), dtype=np.int8)
    at = np.arange(n)
    if to_top is not None:
        fits = to_top.sum(axis=1) <= ROW_CAPACITY[TOP] - state.rows[TOP].count
        to_top = to_top & fits[:, None]
        forced_first = np.argsort(~np.take_along_axis(to_top, order, axis=1), axis=1, kind="stable")
        order = np.take_along_axis(order, forced_first, axis=1)
    for j in range(k):
        pos = order[:, j]
        card = view.dealt[at, pos]
        row = preferred_rows(state, card, style)
        if to_top is not None:
            row = np.where(to_top[at, pos], TOP, row).astype(np.int8)
        add(state, card, row)
        rows[at, pos] = row
    codes = (rows.astype(np.int64) * 4 ** np.arange(k - 1, -1, -1)).sum(axis=1)
    return _pattern_lookup(k)[codes]


def _considered(
    view: StreetView, counts: np.ndarray, ruleset: Ruleset, rng: np.random.Generator
) -> np.ndarray:
    """``(n, 8)`` candidate patterns for a street of 4 or 5 cards, all placed."""
    n, k = view.dealt.shape
    rank, suit = view.dealt >> 2, view.dealt & 3
    low = ruleset.lowball_middle
    own = RolloutStyle(CHASE_TOP[view.style], FLUSH_DRAW[view.style], low)
    start = BoardState.of(view.boards)
    chaser = RolloutStyle(np.full(n, 4.0, np.float32), np.full(n, 2.0, np.float32), low)
    descending = np.argsort(-rank, axis=1, kind="stable")
    ascending = np.argsort(rank, axis=1, kind="stable")
    by_suit = np.argsort(-(suit * 16 + rank), axis=1, kind="stable")
    dealt_order = np.broadcast_to(np.arange(k), (n, k))
    same = (rank[:, :, None] == rank[:, None, :]).sum(axis=2) >= 2
    pair_rank = np.where(same, rank, -1).max(axis=1)
    pair_to_top = same & (rank == pair_rank[:, None])
    high = rank.max(axis=1)
    high_to_top = np.zeros((n, k), dtype=bool)
    high_to_top[np.arange(n), descending[:, 0]] = high >= QUEEN
    allowed = legal(counts, k, k)
    random_pick = np.argmax(rng.random(allowed.shape) + allowed, axis=1)
    return np.stack(
        [
            _by_policy(view, start, descending, own),
            _by_policy(view, start, ascending, own),
            _by_policy(view, start, by_suit, own),
            _by_policy(view, start, dealt_order, own),
            _by_policy(view, start, descending, chaser),
            _by_policy(view, start, descending, own, pair_to_top),
            _by_policy(view, start, descending, own, high_to_top),
            random_pick,
        ],
        axis=1,
    )
