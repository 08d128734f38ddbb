"""Per-deal tables for the Fantasyland search: every row the dealt cards can make.

For 13 to 17 cards: every 5-card subset (up to 6,188) as a bottom and as a
middle, and every 3-card subset (up to 680) as a top, each with its strength,
royalty (R5, R9) and the Fantasyland stay conditions it meets (R6), plus the
upper bounds that let ``fantasyland_kernel.search`` cut branches. Strengths
come from the project's evaluator (``pipeline.rules.evaluate``); fouls, royalties
and stays are decided here and in the kernel, apart from the engine's own
``fouls`` / ``royalties`` / ``fantasyland`` modules that the tests check
this search against.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from ofc_core.cards import RANKS
from ofc_core.categories import CATEGORY_NAMES, STRAIGHT_FLUSH
from ofc_core.rulesets import FantasylandRules, Ruleset
from pipeline.rules.evaluate import TEN, strength3, strength5

_B5, _B3 = 13**5, 13**3
_ROYAL = len(CATEGORY_NAMES)
_ACE = RANKS.index("A")
#: The tiebreak digits of 7-5-4-3-2, the best 2-7 low (R9).
_WHEEL_27 = int("".join(str(RANKS.index(r)) for r in "75432"), 13)
_TOP_LEVELS = {"high card": 0, "pair": 1, "trips": 3}


@cache
def subsets(n: int, k: int) -> np.ndarray:
    """Positions of every ``k``-card subset of ``n`` cards, ``(C(n, k), k)``, in order."""
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


@cache
def _three_index(n: int) -> np.ndarray:
    """``index[i, j, k]``: the row of ``subsets(n, 3)`` holding positions ``i < j < k``."""
    index = np.full((n, n, n), -1, dtype=np.int64)
    three = subsets(n, 3)
    index[three[:, 0], three[:, 1], three[:, 2]] = np.arange(len(three))
    return index


@dataclass(frozen=True, eq=False)
class FiveCardRows:
    """Every 5-card subset: positions, strength, and what it is worth as bottom or middle."""

    positions: np.ndarray
    mask: np.ndarray
    strength: np.ndarray
    top_scale: np.ndarray
    bottom_royalty: np.ndarray
    bottom_bits: np.ndarray
    middle_legal: np.ndarray
    middle_royalty: np.ndarray
    middle_key: np.ndarray
    middle_bits: np.ndarray


@dataclass(frozen=True, eq=False)
class ThreeCardRows:
    """Every 3-card subset as a top: positions, strength, royalty, stay bits."""

    positions: np.ndarray
    index: np.ndarray
    strength: np.ndarray
    royalty: np.ndarray
    bits: np.ndarray


@dataclass(frozen=True)
class StayRule:
    """The stay conditions as bits: which must be met (``wanted``), all or any."""

    wanted: int
    every: bool

    def met(self, bits: np.ndarray) -> np.ndarray:
        """Whether boards meeting the conditions ``bits`` stay (elementwise)."""
        hit = np.asarray(bits) & self.wanted
        met = hit == self.wanted if self.every else hit != 0
        return met & (self.wanted != 0)


def stay_rule(rules: FantasylandRules) -> StayRule:
    return StayRule((1 << len(rules.stay)) - 1, rules.stay_combine == "all")


def _five_card_rows(cards: np.ndarray, ruleset: Ruleset) -> FiveCardRows:
    positions = subsets(len(cards), 5)
    strength = strength5(cards[positions]).astype(np.int64)
    category, tiebreak = strength // _B5, strength % _B5
    leading = tiebreak // 13**4
    royal = (category == STRAIGHT_FLUSH) & (leading == _ACE)
    by_category = np.where(royal, _ROYAL, category)
    table = ruleset.royalties
    if ruleset.lowball_middle:
        legal = (category == 0) & (leading <= TEN)
        by_rank = table.middle_lowball[leading]
        royalty = np.where(tiebreak == _WHEEL_27, table.lowball_75432, by_rank)
        middle_royalty, middle_key = np.where(legal, royalty, 0), _B5 - 1 - tiebreak
    else:
        legal = np.ones(len(strength), dtype=bool)
        middle_royalty, middle_key = table.middle[by_category], strength
    bottom_royalty = table.bottom[by_category].astype(np.int64)
    bottom_bits, middle_bits = _five_card_bits(
        ruleset.fantasyland, category, bottom_royalty, middle_royalty
    )
    return FiveCardRows(
        positions=positions,
        mask=(1 << positions).sum(axis=1),
        strength=strength,
        top_scale=category * _B3 + tiebreak // 169,
        bottom_royalty=bottom_royalty,
        bottom_bits=bottom_bits,
        middle_legal=legal,
        middle_royalty=middle_royalty.astype(np.int64),
        middle_key=middle_key.astype(np.int64),
        middle_bits=middle_bits,
    )


def _five_card_bits(
    rules: FantasylandRules, category: np.ndarray, bottom: np.ndarray, middle: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Stay conditions each subset meets as a bottom and as a middle (bit q: condition q)."""
    bottom_bits = np.zeros(len(category), dtype=np.int64)
    middle_bits = np.zeros(len(category), dtype=np.int64)
    for q, condition in enumerate(rules.stay):
        if condition.any_row_royalty_at_least is not None:
            bottom_bits |= (bottom >= condition.any_row_royalty_at_least).astype(np.int64) << q
            middle_bits |= (middle >= condition.any_row_royalty_at_least).astype(np.int64) << q
        elif condition.row in ("middle", "bottom"):
            met = (category >= CATEGORY_NAMES.index(condition.at_least)).astype(np.int64) << q
            if condition.row == "middle":
                middle_bits |= met
            else:
                bottom_bits |= met
    return bottom_bits, middle_bits


def _three_card_rows(cards: np.ndarray, ruleset: Ruleset) -> ThreeCardRows:
    positions = subsets(len(cards), 3)
    strength = strength3(cards[positions]).astype(np.int64)
    royalty = ruleset.royalties.top[strength].astype(np.int64)
    bits = np.zeros(len(strength), dtype=np.int64)
    for q, condition in enumerate(ruleset.fantasyland.stay):
        if condition.any_row_royalty_at_least is not None:
            bits |= (royalty >= condition.any_row_royalty_at_least).astype(np.int64) << q
        elif condition.row == "top":
            level = _TOP_LEVELS[condition.at_least]
            bits |= (strength // _B3 >= level).astype(np.int64) << q
    return ThreeCardRows(positions, _three_index(len(cards)), strength, royalty, bits)


@dataclass(frozen=True, eq=False)
class SearchTables:
    """Everything ``fantasyland_kernel.search`` reads, for one deal and one stay value."""

    five: FiveCardRows
    three: ThreeCardRows
    stay: StayRule
    top_cap: np.ndarray
    top_cap_bits: np.ndarray
    middle_bound: np.ndarray
    middle_order: np.ndarray
    bottom_bound: np.ndarray
    bottom_order: np.ndarray


def _prefix_best(keys, values, bits, queries) -> tuple[np.ndarray, np.ndarray]:
    """For each query q: max of ``values`` and OR of ``bits`` over items with key <= q
    (``-inf`` and 0 when there is none)."""
    order = np.argsort(keys, kind="stable")
    best = np.maximum.accumulate(values[order].astype(np.float64))
    union = np.bitwise_or.accumulate(bits[order])
    at = np.searchsorted(keys[order], queries, side="right") - 1
    found = at >= 0
    at = np.maximum(at, 0)
    return np.where(found, best[at], -np.inf), np.where(found, union[at], 0)


def build_tables(cards: np.ndarray, ruleset: Ruleset, stay_value: float) -> SearchTables:
    """The search tables of one deal (card codes) under the ruleset."""
    five, three = _five_card_rows(cards, ruleset), _three_card_rows(cards, ruleset)
    stay = stay_rule(ruleset.fantasyland)
    top_cap, top_cap_bits = _prefix_best(three.strength, three.royalty, three.bits, five.top_scale)
    legal = five.middle_legal
    bonus = max(stay_value, 0.0)
    if ruleset.lowball_middle:
        middle_bound = five.middle_royalty.astype(np.float64)
        best_middle = middle_bound[legal].max(initial=-np.inf)
        middle_union = np.bitwise_or.reduce(five.middle_bits[legal], initial=0)
        rest, rest_bits = best_middle + top_cap, middle_union | top_cap_bits
    else:
        middle_bound = five.middle_royalty + top_cap
        rest, rest_bits = _prefix_best(
            five.strength, middle_bound, five.middle_bits | top_cap_bits, five.strength
        )
    may_stay = stay.met(five.bottom_bits | rest_bits)
    bottom_bound = five.bottom_royalty + rest + np.where(may_stay, bonus, 0.0)
    legal_at = np.flatnonzero(legal)
    return SearchTables(
        five=five,
        three=three,
        stay=stay,
        top_cap=top_cap,
        top_cap_bits=top_cap_bits,
        middle_bound=middle_bound,
        middle_order=legal_at[np.argsort(-middle_bound[legal_at], kind="stable")],
        bottom_bound=bottom_bound,
        bottom_order=np.lexsort((-five.strength, -bottom_bound)),
    )
