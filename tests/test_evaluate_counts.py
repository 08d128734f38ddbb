"""Exact counts of every hand category over all five-card hands and all top rows.

The known totals of poker combinatorics (docs/rules.md R1: standard 5-card ranks
for middle and bottom; only high card, pair and trips on top), checked over
every one of the 2,598,960 five-card hands and 22,100 three-card tops.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from ofc_core.categories import CATEGORY_NAMES, HIGH_CARD, PAIR, TRIPS
from pipeline.cli.bench.deals import combinations
from pipeline.rules.evaluate import (
    category3,
    category5,
    is_royal,
    lowball27,
    lowball27_valid,
    strength3,
    strength5,
)

pytestmark = pytest.mark.slow

FIVE_CARD_COUNTS = {
    "straight flush": 40,
    "quads": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "trips": 54_912,
    "two pair": 123_552,
    "pair": 1_098_240,
    "high card": 1_302_540,
}


@cache
def all_fives() -> np.ndarray:
    return combinations(52, 5)


@cache
def all_strengths5() -> np.ndarray:
    return strength5(all_fives())


def test_combinations_are_every_five_card_hand_once() -> None:
    hands = all_fives()
    assert hands.shape == (2_598_960, 5)
    assert hands.min() == 0 and hands.max() == 51
    # Each row is a 5-subset (strictly increasing), and the rows strictly increase read as
    # base-52 numbers, so no subset repeats: C(52, 5) distinct subsets are all of them.
    assert (np.diff(hands, axis=1) > 0).all()
    codes = hands.astype(np.int64) @ (52 ** np.arange(4, -1, -1))
    assert (np.diff(codes) > 0).all()


@pytest.mark.parametrize("name", list(FIVE_CARD_COUNTS))
def test_five_card_category_count(name: str) -> None:
    counts = np.bincount(category5(all_strengths5()), minlength=len(CATEGORY_NAMES))
    assert counts[CATEGORY_NAMES.index(name)] == FIVE_CARD_COUNTS[name]


def test_royal_flushes() -> None:
    royal = is_royal(all_strengths5())
    assert royal.sum() == 4
    ranks = np.sort(all_fives()[royal] >> 2, axis=1)
    assert (ranks == [8, 9, 10, 11, 12]).all()  # T J Q K A


def test_distinct_five_card_strengths() -> None:
    assert len(np.unique(all_strengths5())) == 7_462


def test_three_card_counts_and_distinct_strengths() -> None:
    strengths = strength3(combinations(52, 3))
    assert len(strengths) == 22_100
    counts = np.bincount(category3(strengths), minlength=TRIPS + 1)
    assert (counts[TRIPS], counts[PAIR], counts[HIGH_CARD]) == (52, 3_744, 18_304)
    assert counts.sum() == 22_100  # nothing else exists on top (R1)
    assert len(np.unique(strengths)) == 455


def test_legal_27_middles() -> None:
    """R9: 5 distinct ranks from 2..T (126 sets) less the 5 straights, times 4^5 - 4 suitings."""
    strengths = all_strengths5()
    valid = lowball27_valid(strengths)
    assert valid.sum() == 121 * (4**5 - 4)
    assert len(np.unique(lowball27(strengths[valid]))) == 121
