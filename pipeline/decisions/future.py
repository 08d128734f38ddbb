"""The cards still to come in a situation: how many each player gets, and how they finish.

One rollout deals the unseen cards in a fixed layout: the hero's future
cards first, then each opponent's in order (``offsets``). The hero, after this
street's placement, plays the variant's remaining streets (R2): Pineapple
streets of 3 with 2 kept, otherwise cards placed one by one. An opponent
plays its remaining streets from where its board stands (the first street's
5 cards, if it has not played it yet); a Fantasyland opponent whose set is
hidden is dealt the ruleset's base Fantasyland count (R6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ofc_core.rulesets import Ruleset

if TYPE_CHECKING:
    from pipeline.decisions.situation import Situation


@dataclass(frozen=True, eq=False)
class Plan:
    """How the unknown cards of one sample are laid out and who plays them."""

    hero: np.ndarray  # (2,) cards placed one by one, Pineapple streets
    hero_cards: int
    opponents: np.ndarray  # (O, 3) rollout_kernel plans
    offsets: np.ndarray  # (O,) where each opponent's cards start
    total: int


def deal_plan(situation: Situation, ruleset: Ruleset) -> Plan:
    """How many unknown cards each player still gets, and how each finishes (R2, R6)."""
    pineapple = ruleset.variant in ("pineapple", "pineapple-27")
    empty = 13 - situation.hero_count - situation.placed
    hero = np.array([0, empty // 2] if pineapple else [empty, 0], dtype=np.int64)
    hero_cards = empty // 2 * 3 if pineapple else empty
    plans, offsets, at = [], [], hero_cards
    for opponent in situation.opponents:
        count = opponent.board.count
        if opponent.in_fantasyland:
            dealt = 0 if count == 13 else ruleset.fantasyland.stay_cards
            row = [0, 0, dealt]
        elif pineapple:
            first = 5 if count == 0 else 0
            streets = (13 - max(count, 5)) // 2
            row, dealt = [first, streets, 0], first + 3 * streets
        else:
            row, dealt = [13 - count, 0, 0], 13 - count
        plans.append(row)
        offsets.append(at)
        at += dealt
    return Plan(
        hero=hero,
        hero_cards=hero_cards,
        opponents=np.array(plans, dtype=np.int64).reshape(-1, 3),
        offsets=np.array(offsets, dtype=np.int64),
        total=at,
    )
