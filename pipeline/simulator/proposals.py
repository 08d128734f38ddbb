"""The placements a bot looks ahead at, when there are too many to try them all.

* Pineapple's 3 cards (``shortlist``): out of the 27 patterns, the
  ``PER_DISCARD`` best for each card that could be discarded, judged card by
  card by the rollout policy (two cards of a rank put together count as a
  pair) and by the style's taste for high cards and a Fantasyland pair on top.
* 4 or 5 cards, all placed (``considered``: street 1, Turbo): the rollout
  policy placing them one by one in several orders, as a chaser would, with
  a pair or a high card on top first, and one random legal pattern.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ofc_core.rulesets import Ruleset
from pipeline.simulator.candidates import legal, patterns
from pipeline.simulator.deal import DISCARD, ROW_CAPACITY, TOP
from pipeline.simulator.rollout import RolloutStyle, add, card_scores, preferred_rows
from pipeline.simulator.street_view import StreetView, rollout_style
from pipeline.simulator.styles import WEIGHTS
from pipeline.simulator.tallies import BoardState
from pipeline.simulator.value import N_FEATURES, chase_rank

#: Pineapple candidates kept per card that could be discarded.
PER_DISCARD = 2
PAIR_TOGETHER = np.float32(3.0)  # two dealt cards of a rank put in the same row
CHASER = np.float32(4.0)  # the QQ+ chasing of the "as a chaser would" street-1 candidate
_PER_BOARD = ("chase_top", "flush_draw", "middle_pairs")


def shortlist(view: StreetView, allowed: np.ndarray, ruleset: Ruleset) -> np.ndarray:
    """``(n, 3 * PER_DISCARD)`` Pineapple patterns worth a look-ahead, by discarded card.

    A pattern is judged by the rollout policy's liking of each kept card in its
    row (each card alone, plus a bonus for two cards of a rank put together) and
    by the style's taste for high cards and ``QQ+`` on top.
    """
    n, k = view.dealt.shape
    pats = patterns(k, view.placed).astype(np.int64)  # (P, k)
    state = BoardState.of(view.boards)
    liking = card_scores(state, view.dealt, view.rollout_style(ruleset))
    liking = np.concatenate([liking, np.zeros((k, 1, n), np.float32)], axis=1)  # discard: 0
    value = sum(liking[j][pats[:, j]] for j in range(k)).T  # (n, P)
    rank = view.dealt >> 2
    for i in range(k):
        for j in range(i + 1, k):
            together = (pats[:, i] == pats[:, j]) & (pats[:, i] != DISCARD)
            value += PAIR_TOGETHER * ((rank[:, i] == rank[:, j])[:, None] & together)
    value += _top_taste(view, pats, chase_rank(ruleset))
    value[~allowed] = -np.inf
    return _best_per_discard(value, pats)


def _top_taste(view: StreetView, pats: np.ndarray, from_rank: int) -> np.ndarray:
    """``(n, P)`` the style's liking for the high cards (``from_rank`` up: Q+, K+ in 2-7)
    and the pair of them a pattern puts on top."""
    weights = WEIGHTS[view.style][:, N_FEATURES:]  # (n, N_EARLY): a QQ+ pair, each Q+ card
    rank = view.dealt >> 2
    high = rank >= from_rank
    on_top = (pats == TOP).astype(np.float32).T  # (k, P)
    top = view.boards[:, :3]
    held = ((top[:, None, :] >= 0) & (top[:, None, :] >> 2 == rank[:, :, None])).any(axis=2)
    pairs = ((high & held).astype(np.float32) @ on_top) > 0
    k = rank.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            alike = high[:, i] & (rank[:, i] == rank[:, j])
            pairs |= alike[:, None] & (on_top[i] * on_top[j] > 0)[None, :]
    return weights[:, 1:2] * (high.astype(np.float32) @ on_top) + weights[:, 0:1] * pairs


def _best_per_discard(value: np.ndarray, pats: np.ndarray) -> np.ndarray:
    """The ``PER_DISCARD`` best patterns of each discarded card, by ``value`` ``(n, P)``."""
    picks = []
    for card in range(pats.shape[1]):
        group = np.flatnonzero(pats[:, card] == DISCARD)
        order = np.argsort(-value[:, group], axis=1, kind="stable")[:, :PER_DISCARD]
        picks.append(group[order])
    return np.concatenate(picks, axis=1)


@cache
def _pattern_lookup(dealt: int) -> np.ndarray:
    """Pattern index of each base-4 code of a row assignment (no discards)."""
    pats = patterns(dealt, dealt).astype(np.int64)
    codes = (pats * 4 ** np.arange(dealt - 1, -1, -1)).sum(axis=1)
    lookup = np.full(4**dealt, -1, dtype=np.int64)
    lookup[codes] = np.arange(len(pats))
    return lookup


def _by_policy(
    view: StreetView, order: np.ndarray, style: RolloutStyle, to_top: np.ndarray
) -> np.ndarray:
    """Pattern index of placing the dealt cards one by one in ``order`` by the rollout rules.

    ``view`` holds the players' boards once per way of ordering (``order`` ``(n, k)``,
    ``style`` and ``to_top`` alike); ``to_top`` marks cards put on top first, where the
    top has room for all of them.
    """
    n, k = view.dealt.shape
    state = BoardState.of(view.boards)
    rows = np.empty((n, k), dtype=np.int8)
    at = np.arange(n)
    fits = to_top.sum(axis=1) <= ROW_CAPACITY[TOP] - state.count[TOP]
    to_top = to_top & fits[:, None]
    forced_first = np.argsort(~np.take_along_axis(to_top, order, axis=1), axis=1, kind="stable")
    order = np.take_along_axis(order, forced_first, axis=1)
    for j in range(k):
        pos = order[:, j]
        card = view.dealt[at, pos]
        row = np.where(to_top[at, pos], TOP, preferred_rows(state, card, style))
        add(state, card, row)
        rows[at, pos] = row
    codes = (rows.astype(np.int64) * 4 ** np.arange(k - 1, -1, -1)).sum(axis=1)
    return _pattern_lookup(k)[codes]


def considered(
    view: StreetView, counts: np.ndarray, ruleset: Ruleset, rng: np.random.Generator
) -> np.ndarray:
    """``(n, 8)`` candidate patterns for a street of 4 or 5 cards, all placed.

    Seven come from the rollout policy placing the cards one by one: by rank down
    and up, by suit, as dealt, as a Fantasyland chaser would, with a pair or the
    highest card (Q+) on top first; the eighth is a random legal pattern.
    """
    n, k = view.dealt.shape
    rank, suit = view.dealt >> 2, view.dealt & 3
    low = ruleset.lowball_middle
    descending = np.argsort(-rank, axis=1, kind="stable")
    ascending = np.argsort(rank, axis=1, kind="stable")
    by_suit = np.argsort(-(suit * 16 + rank), axis=1, kind="stable")
    dealt_order = np.broadcast_to(np.arange(k), (n, k))
    same = (rank[:, :, None] == rank[:, None, :]).sum(axis=2) >= 2
    pair_rank = np.where(same, rank, -1).max(axis=1)
    pair_to_top = same & (rank == pair_rank[:, None])
    high_to_top = np.zeros((n, k), dtype=bool)
    high_to_top[np.arange(n), descending[:, 0]] = rank.max(axis=1) >= chase_rank(ruleset)
    free = np.zeros((n, k), dtype=bool)
    own = view.rollout_style(ruleset)
    chaser = rollout_style(view.style, ruleset, chase=np.full(n, CHASER, np.float32))
    ways = [
        (descending, own, free),
        (ascending, own, free),
        (by_suit, own, free),
        (dealt_order, own, free),
        (descending, chaser, free),
        (descending, own, pair_to_top),
        (descending, own, high_to_top),
    ]
    copies = np.tile(np.arange(n), len(ways))
    every = StreetView(
        view.boards[copies], view.dealt[copies], k, view.known[copies], view.style[copies]
    )
    style = RolloutStyle(
        *(np.concatenate([getattr(w[1], f) for w in ways]) for f in _PER_BOARD),
        low,
        chase_rank(ruleset),
    )
    order = np.concatenate([w[0] for w in ways])
    by_policy = _by_policy(every, order, style, np.concatenate([w[2] for w in ways]))
    allowed = legal(counts, k, k)
    random_pick = np.argmax(rng.random(allowed.shape) + allowed, axis=1)
    return np.column_stack([by_policy.reshape(len(ways), n).T, random_pick])
