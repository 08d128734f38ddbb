"""Fantasyland: who enters, with how many cards, and who stays (docs/rules.md R6, R9).

Entry is read from the top row (``QQ``, ``KK``, ``AA``, trips) and, in
Pineapple 2-7, from a 7-5-4-3-2 middle. A level the ruleset does not name
takes the count of the highest level below it, so ``{"QQ": 14}`` reads as
"QQ or better: 14 cards". A player in Fantasyland stays by the ruleset's
conditions, within its repeat limit, and is then dealt the base count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.categories import CATEGORY_NAMES, PAIR, TRIPS
from ofc_core.rulesets import ENTRY_KEYS, FantasylandRules, StayCondition
from pipeline.rules.evaluate import category3, category5, leading_rank3
from pipeline.rules.rows import Rows
from pipeline.rules.royalties import RowRoyalties, is_27_wheel

QUEEN = 10


@dataclass(frozen=True, eq=False)
class FantasylandOutcome:
    """Per player-hand: enters or stays, the cards of the next Fantasyland hand, stays."""

    next: np.ndarray
    cards: np.ndarray
    stay: np.ndarray


def top_entry_level(top_strength: np.ndarray) -> np.ndarray:
    """Index into ``ENTRY_KEYS`` (QQ, KK, AA, trips) of each top row; -1 below QQ."""
    category, rank = category3(top_strength), leading_rank3(top_strength)
    pair_level = np.where((category == PAIR) & (rank >= QUEEN), rank - QUEEN, -1)
    return np.where(category == TRIPS, ENTRY_KEYS.index("trips"), pair_level)


def _cards_by_level(entry: dict[str, int]) -> np.ndarray:
    """Cards dealt for each entry level, levels not named taking the one below; -1 → 0."""
    counts, current = [0], 0
    for key in ENTRY_KEYS:
        current = entry.get(key, current)
        counts.append(current)
    return np.array(counts, dtype=np.int8)


def entry_cards(rows: Rows, rules: FantasylandRules, lowball_middle: bool) -> np.ndarray:
    """Cards a live, non-Fantasyland hand earns for its next Fantasyland (0: none)."""
    cards = _cards_by_level(rules.entry)[top_entry_level(rows.top_strength) + 1]
    if lowball_middle and "75432" in rules.lowball_entry:
        wheel = is_27_wheel(rows.middle_strength)
        cards = np.maximum(cards, np.where(wheel, rules.lowball_entry["75432"], 0))
    return cards


def _condition_met(condition: StayCondition, rows: Rows, royalties: RowRoyalties) -> np.ndarray:
    if condition.any_row_royalty_at_least is not None:
        best = np.maximum(np.maximum(royalties.top, royalties.middle), royalties.bottom)
        return best >= condition.any_row_royalty_at_least
    if condition.row == "top":
        level = {"high card": 0, "pair": PAIR, "trips": TRIPS}[condition.at_least]
        return category3(rows.top_strength) >= level
    strength = rows.middle_strength if condition.row == "middle" else rows.bottom_strength
    return category5(strength) >= CATEGORY_NAMES.index(condition.at_least)


def stays(rows: Rows, royalties: RowRoyalties, rules: FantasylandRules) -> np.ndarray:
    """Whether each hand meets the ruleset's stay conditions (before fouls and limits)."""
    met = [_condition_met(c, rows, royalties) for c in rules.stay]
    if not met:
        return np.zeros(len(rows.top_strength), dtype=bool)
    return np.logical_or.reduce(met) if rules.stay_combine == "any" else np.logical_and.reduce(met)


def fantasyland_outcome(
    rows: Rows,
    royalties: RowRoyalties,
    foul: np.ndarray,
    in_fantasyland: np.ndarray,
    repeats: np.ndarray,
    rules: FantasylandRules,
    lowball_middle: bool,
) -> FantasylandOutcome:
    """Fantasyland next hand for each player-hand, from its final rows."""
    live = ~foul
    within_limit = (rules.repeat_limit == 0) | (repeats < rules.repeat_limit)
    stay = in_fantasyland & live & within_limit & stays(rows, royalties, rules)
    enter = np.where(~in_fantasyland & live, entry_cards(rows, rules, lowball_middle), 0)
    cards = np.where(stay, rules.stay_cards, enter).astype(np.int8)
    return FantasylandOutcome(next=cards > 0, cards=cards, stay=stay)
