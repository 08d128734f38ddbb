"""Setting a Fantasyland hand: 13 of the 13-17 cards dealt, all at once (docs/rules.md R6).

A bot in Fantasyland sees all its cards, so it searches: the strongest few
choices for the first row (the bottom; in Pineapple 2-7 the 2-7 middle, R9),
for each the strongest few second rows from what is left, and every top of
the rest. Each full board is scored with the engine's rules (``value.py``)
and the player's style, which weighs royalties against staying in
Fantasyland and against fouling; the best is set and the rest discarded.
Plausible, not optimal. A ``random`` bot sets any 13 cards anywhere; an
``expert`` sets the exact best board of ``ofc solve`` (``expert.py``).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from ofc_core.rulesets import Ruleset
from pipeline.rules.evaluate import lowball27, lowball27_valid, strength5
from pipeline.simulator.deal import BOTTOM, DISCARD, MIDDLE, TOP
from pipeline.simulator.styles import IS_EXPERT, IS_RANDOM, WEIGHTS
from pipeline.simulator.value import N_FEATURES, features

FIRST_CHOICES = 5
SECOND_CHOICES = 3


@cache
def _combos(n: int, k: int) -> np.ndarray:
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


def set_hands(
    cards: np.ndarray, style: np.ndarray, ruleset: Ruleset, rng, repeats: np.ndarray
) -> np.ndarray:
    """``(n, N)`` row of each dealt card (0 top, 1 middle, 2 bottom, 3 discard);
    ``repeats``: the stays each player has made in a row (R6)."""
    rows = np.empty(cards.shape, dtype=np.int8)
    rand, expert = IS_RANDOM[style], IS_EXPERT[style]
    if rand.any():
        rows[rand] = _random_rows(cards[rand].shape, rng)
    if expert.any():
        # on use: pipeline.decisions builds on this package's rollout policy
        from pipeline.simulator.expert import expert_fantasyland_rows

        rows[expert] = expert_fantasyland_rows(cards[expert], repeats[expert], ruleset)
    searched = ~rand & ~expert
    if searched.any():
        rows[searched] = _searched_rows(cards[searched], style[searched], ruleset)
    return rows


def _random_rows(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    n, width = shape
    layout = np.array([TOP] * 3 + [MIDDLE] * 5 + [BOTTOM] * 5 + [DISCARD] * (width - 13), np.int8)
    return rng.permuted(np.tile(layout, (n, 1)), axis=1)


def _first_row_keys(five: np.ndarray, lowball: bool) -> np.ndarray:
    """Preference among 5-card choices for the row picked first."""
    strength = strength5(five.reshape(-1, 5)).reshape(five.shape[:-1]).astype(np.int64)
    if lowball:
        return np.where(lowball27_valid(strength), lowball27(strength), -1)
    return strength


def _top_k(keys: np.ndarray, k: int) -> np.ndarray:
    k = min(k, keys.shape[-1])
    return np.argsort(-keys, axis=-1, kind="stable")[..., :k]


def _searched_rows(cards: np.ndarray, style: np.ndarray, ruleset: Ruleset) -> np.ndarray:
    n, width = cards.shape
    lowball = ruleset.lowball_middle
    first_row, second_row = (MIDDLE, BOTTOM) if lowball else (BOTTOM, MIDDLE)
    at = np.arange(n)[:, None]
    combos = _combos(width, 5)
    first = _top_k(_first_row_keys(cards[:, combos], lowball), FIRST_CHOICES)  # (n, F1)
    first_pos = combos[first]  # (n, F1, 5)
    taken = np.zeros((n, first.shape[1], width), dtype=bool)
    np.put_along_axis(taken, first_pos, True, axis=2)
    rest = np.argsort(taken, axis=2, kind="stable")[:, :, : width - 5]  # positions left
    second_combos = rest[:, :, _combos(width - 5, 5)]  # (n, F1, K2, 5)
    second_keys = strength5(cards[at[:, :, None, None], second_combos].reshape(-1, 5))
    second_keys = second_keys.reshape(second_combos.shape[:3]).astype(np.int64)
    if not lowball:
        first_strength = strength5(cards[at[:, :, None], first_pos].reshape(-1, 5))
        below = second_keys <= first_strength.reshape(n, -1, 1)
        second_keys = np.where(below, second_keys, -1)
    second = _top_k(second_keys, SECOND_CHOICES)  # (n, F1, F2)
    second_pos = np.take_along_axis(second_combos, second[..., None], axis=2)  # (n, F1, F2, 5)
    used = np.broadcast_to(taken[:, :, None, :], (*second_pos.shape[:3], width)).copy()
    np.put_along_axis(used, second_pos, True, axis=3)
    left = np.argsort(used, axis=3, kind="stable")[..., : width - 10]
    top_pos = left[..., _combos(width - 10, 3)]  # (n, F1, F2, K3, 3)
    shape = top_pos.shape[:4]
    boards = np.empty((*shape, 13), dtype=np.int8)
    boards[..., :3] = cards[at[:, :, None, None, None], top_pos]
    rows_pos = {first_row: first_pos[:, :, None, None, :], second_row: second_pos[:, :, :, None, :]}
    for row, pos in rows_pos.items():
        start = 3 if row == MIDDLE else 8
        boards[..., start : start + 5] = cards[at[:, :, None, None, None], pos]
    outcome = features(boards.reshape(-1, 13), ruleset, in_fantasyland=True)
    outcome = outcome.reshape(*shape, N_FEATURES)
    weights = WEIGHTS[style][:, :N_FEATURES]
    value = (outcome * weights[:, None, None, None, :]).sum(axis=4).reshape(n, -1)
    best = np.unravel_index(np.argmax(value, axis=1), shape[1:])
    return _rows_of(n, width, first_row, first_pos, second_row, second_pos, top_pos, best)


def _rows_of(n, width, first_row, first_pos, second_row, second_pos, top_pos, best) -> np.ndarray:
    """Rows of every dealt card for the chosen (first, second, top) of each hand."""
    i1, i2, i3 = best
    at = np.arange(n)
    rows = np.full((n, width), DISCARD, dtype=np.int8)
    rows[at[:, None], first_pos[at, i1]] = first_row
    rows[at[:, None], second_pos[at, i1, i2]] = second_row
    rows[at[:, None], top_pos[at, i1, i2, i3]] = TOP
    return rows
