"""Dealing by variant (docs/rules.md R2): street structure, shuffled decks, who gets which cards.

Players' arrays in the simulator are laid out in order of action (index 0 is
position 1, the button is last). Cards come off one shuffled deck per hand in
a fixed order: first every Fantasyland player's whole hand (R6, by position),
then street by street each other player's cards (by position). The order is
what makes a seed reproduce a deal exactly.

The street plans themselves are ``ofc_core.variants.STREETS``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.cards import DECK_SIZE
from ofc_core.variants import STREETS

HAND_SIZE = 13
ROW_CAPACITY = np.array([3, 5, 5], dtype=np.int8)  # top, middle, bottom (R1)
ROW_START = np.array([0, 3, 8], dtype=np.int8)  # slot of each row's first card in a 13-slot board
TOP, MIDDLE, BOTTOM, DISCARD = 0, 1, 2, 3
ROW_NAMES = ("top", "middle", "bottom", "discard")


def shuffled_decks(rng: np.random.Generator, hands: int) -> np.ndarray:
    """One independently shuffled deck per hand, shaped ``(hands, 52)``, card codes as int8."""
    decks = np.tile(np.arange(DECK_SIZE, dtype=np.int8), (hands, 1))
    return rng.permuted(decks, axis=1)


@dataclass(frozen=True, eq=False)
class DealPlan:
    """Where each player's cards start in the hand's deck.

    ``fantasyland[h, p]`` is the deck index of the first card of a Fantasyland
    player's hand; ``streets[s][h, p]`` the first card a regular player gets on
    street ``s + 1``.
    """

    fantasyland: np.ndarray
    streets: tuple[np.ndarray, ...]


def deal_plan(variant: str, in_fantasyland: np.ndarray, fantasyland_cards: np.ndarray) -> DealPlan:
    """Deck offsets for ``(hands, players)`` arrays in order of action.

    >>> plan = deal_plan("classic", np.array([[False, True]]), np.array([[0, 13]]))
    >>> int(plan.fantasyland[0, 1]), int(plan.streets[0][0, 0]), int(plan.streets[1][0, 0])
    (0, 13, 18)
    """
    regular = ~in_fantasyland
    demand = [np.where(in_fantasyland, fantasyland_cards, 0)]
    demand += [np.where(regular, street.dealt, 0) for street in STREETS[variant]]
    flat = np.concatenate(demand, axis=1).astype(np.int16)
    if (flat.sum(axis=1) > DECK_SIZE).any():
        raise ValueError("the players of a hand need more cards than one deck holds")
    starts = np.cumsum(flat, axis=1) - flat
    width = in_fantasyland.shape[1]
    parts = [starts[:, i : i + width] for i in range(0, starts.shape[1], width)]
    return DealPlan(fantasyland=parts[0], streets=tuple(parts[1:]))


def take(decks: np.ndarray, start: np.ndarray, count: int) -> np.ndarray:
    """``count`` cards from each row's deck at ``start`` (clipped inside the deck)."""
    index = np.minimum(start[:, None] + np.arange(count), DECK_SIZE - 1)
    return np.take_along_axis(decks, index, axis=1)
