"""The ``expert`` bot: ``ofc decide``'s best placement on every regular street.

Each expert decision is one ``decide`` call (``pipeline.decisions``) on what
the player sees: its board and cards, its discards, the other players'
boards (a Fantasyland board hidden), with ``EXPERT_ROLLOUTS`` rollouts for
the best candidates and the ruleset's default Fantasyland value. In
Fantasyland the expert sets the exact best board of ``ofc solve``
(``expert_fantasyland_rows``), with the same value and the stays it has
already made in a row (R6 repeat limit).
"""

from __future__ import annotations

import numpy as np

from ofc_core.rulesets import Ruleset
from pipeline.decisions.decide import decide
from pipeline.decisions.fantasyland_solver import solve_fantasyland
from pipeline.decisions.situation import Board, Opponent, Situation
from pipeline.simulator.candidates import patterns
from pipeline.simulator.street_view import StreetView

#: Rollouts of the best candidates in each of the expert's decisions (``ofc decide`` default
#: is more): enough to play 2,000 heads-up hands in a few CPU minutes.
EXPERT_ROLLOUTS = 256


def expert_choices(
    view: StreetView, players: np.ndarray, ruleset: Ruleset, rng: np.random.Generator
) -> np.ndarray:
    """Pattern index (into ``patterns(k, placed)``) of the best placement of each of ``players``."""
    pats = patterns(view.dealt.shape[1], view.placed)
    out = np.empty(len(players), dtype=np.int64)
    for i, p in enumerate(players):
        seed = int(rng.integers(2**62))
        best = decide(situation_seen(view, p), ruleset, EXPERT_ROLLOUTS, seed)[0]
        rows = best.rows_for(tuple(int(c) for c in view.dealt[p]))
        out[i] = int(np.flatnonzero((pats == rows).all(axis=1))[0])
    return out


def expert_fantasyland_rows(cards: np.ndarray, repeats: np.ndarray, ruleset: Ruleset) -> np.ndarray:
    """``(n, N)`` row of each dealt card (0 top, 1 middle, 2 bottom, 3 discard) of the
    exact Fantasyland set (``ofc solve``) of each hand of ``cards`` ``(n, N)``."""
    rows = np.full(cards.shape, 3, dtype=np.int8)
    for i, hand in enumerate(cards):
        best = solve_fantasyland(hand, ruleset, repeats=int(repeats[i]))
        for row, placed in enumerate((best.top, best.middle, best.bottom)):
            rows[i, np.isin(hand, placed)] = row
    return rows


def situation_seen(view: StreetView, p: int) -> Situation:
    """Player ``p``'s decision as ``decide`` reads it."""
    board = _board(view.boards[p])
    opponents = tuple(
        Opponent(None, _board(seen), bool(fl))
        for seen, fl in zip(view.opponents[p], view.opponents_fantasyland[p], strict=True)
    )
    dealt = tuple(int(c) for c in view.dealt[p])
    on_boards = {*board.cards(), *dealt, *(c for o in opponents for c in o.board.cards())}
    discards = tuple(int(c) for c in np.flatnonzero(view.known[p]) if c not in on_boards)
    return Situation(board, dealt, view.placed, discards, opponents)


def _board(slots: np.ndarray) -> Board:
    def row(cards: np.ndarray) -> tuple[int, ...]:
        return tuple(int(c) for c in cards if c >= 0)

    return Board(row(slots[:3]), row(slots[3:8]), row(slots[8:]))
