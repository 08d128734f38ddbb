"""The rollout kernel: finish boards with random cards and score them, compiled (numba).

One rollout ("sample") is one draw of the unknown cards, in a fixed layout:
the hero's future cards first, then each opponent's. All candidates of a
decision read the same samples (common random numbers), so the difference
between two candidates is their placement's, not the cards'. Opponents'
boards do not depend on the hero's candidate (they don't see it), so each
sample's opponents are finished and scored once (``finish_opponents``) and
every candidate's finished board is settled against them
(``hero_rollouts``).

How a board is finished (``plan``: cards placed one by one, then Pineapple
streets of 3 of which 2 are kept) is ``policy.py``; a Fantasyland opponent
whose set is hidden is dealt its cards and sets them strongest first by
the same policy (a weaker set than a real Fantasyland player's).
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.decisions import policy, showdown

FIRST, STREETS, FANTASYLAND_CARDS = range(3)
STREET_CARDS = 3  # a Pineapple street: 3 dealt, 2 kept (R2)


@numba.njit(cache=True)
def _finish(state, board, deals, at, first, streets, style) -> int:
    """Place ``first`` cards one by one, then ``streets`` Pineapple streets; next deal index."""
    for j in range(first):
        policy.place_best(state, board, deals[at + j], style)
    at += first
    for _ in range(streets):
        policy.keep_best(state, board, deals[at : at + STREET_CARDS], style)
        at += STREET_CARDS
    return at


@numba.njit(cache=True)
def _strongest_first(cards: np.ndarray) -> np.ndarray:
    """Cards ordered by how many of their rank there are, then by rank, highest first."""
    counts = np.zeros(13, dtype=np.int64)
    for card in cards:
        counts[card >> 2] += 1
    keys = np.empty(len(cards), dtype=np.int64)
    for j in range(len(cards)):
        keys[j] = -(counts[cards[j] >> 2] * 64 + cards[j])
    return cards[np.argsort(keys)]


@numba.njit(cache=True, nogil=True)
def finish_opponents(
    boards, plans, offsets, deals, style,
    plain5, suited5, table3, roy_top, roy_mid, roy_bot, roy_low, settings,
):  # fmt: skip
    """``(S, O, 4, 3)`` showdowns of the opponents' boards finished with each sample's cards.

    ``boards`` ``(O, 13)`` as they stand; ``plans`` ``(O, 3)``: cards placed one
    by one, Pineapple streets, and the cards of a hidden Fantasyland set (0: none);
    ``offsets`` ``(O,)`` where each opponent's cards start in a sample's ``deals``.
    """
    samples, opponents = deals.shape[0], boards.shape[0]
    out = np.empty((samples, opponents, 4, 3), dtype=np.int64)
    state = np.empty((7, 3), dtype=np.int64)
    board = np.empty(13, dtype=np.int64)
    for s in range(samples):
        for o in range(opponents):
            policy.load(state, board, boards[o])
            at = offsets[o]
            fantasyland = plans[o, FANTASYLAND_CARDS]
            if fantasyland > 0:
                cards = _strongest_first(deals[s, at : at + fantasyland])
                for j in range(13):
                    policy.place_best(state, board, cards[j], style)
            else:
                _finish(state, board, deals[s], at, plans[o, FIRST], plans[o, STREETS], style)
            showdown.showdown(
                board, out[s, o], plain5, suited5, table3, roy_top, roy_mid, roy_bot, roy_low,
                settings,
            )  # fmt: skip
    return out


@numba.njit(cache=True, nogil=True)
def hero_rollouts(
    candidates, which, deals, plan, style, opponents,
    plain5, suited5, table3, roy_top, roy_mid, roy_bot, roy_low, settings,
):  # fmt: skip
    """Points and Fantasyland of the candidate boards ``which`` in every sample.

    ``candidates`` ``(C, 13)`` are the hero's boards after this street's
    placement; each is finished with a sample's first cards (``deals``
    ``(S, D)``) by ``plan`` ``(first, streets)`` and settled against the
    sample's ``opponents`` showdowns ``(S, O, 4, 3)``. Returns ``points``
    ``(len(which), S)`` and ``fantasyland`` (the cards earned, 0 for none).
    """
    samples = opponents.shape[0]
    n_opp = opponents.shape[1]
    points = np.empty((len(which), samples), dtype=np.float64)
    fantasyland = np.empty((len(which), samples), dtype=np.int64)
    start = np.empty((7, 3), dtype=np.int64)
    state = np.empty((7, 3), dtype=np.int64)
    board0 = np.empty(13, dtype=np.int64)
    board = np.empty(13, dtype=np.int64)
    mine = np.empty((4, 3), dtype=np.int64)
    for m in range(len(which)):
        policy.load(start, board0, candidates[which[m]])
        for s in range(samples):
            state[:, :] = start
            board[:] = board0
            _finish(state, board, deals[s], 0, plan[0], plan[1], style)
            showdown.showdown(
                board, mine, plain5, suited5, table3, roy_top, roy_mid, roy_bot, roy_low, settings
            )
            total = 0
            for o in range(n_opp):
                total += showdown.points(mine, opponents[s, o], settings)
            points[m, s] = total
            fantasyland[m, s] = mine[showdown.FLAGS, showdown.FANTASYLAND]
    return points, fantasyland
