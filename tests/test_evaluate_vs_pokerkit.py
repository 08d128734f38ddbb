"""``strength5`` orders five-card hands exactly as pokerkit, an independent evaluator.

pokerkit's ``StandardLookup`` gives each hand an entry whose ``index`` grows
with strength; its ``get_entry`` on pokerkit ``Card`` objects is the fastest
way through its public API (a few microseconds a hand).
"""

from __future__ import annotations

import numpy as np
import pytest
from pokerkit import Card, StandardLookup

from ofc_core.cards import CARD_NAMES
from pipeline.cli.bench.deals import combinations, deals
from pipeline.rules.evaluate import strength5

pytestmark = pytest.mark.slow

LOOKUP = StandardLookup()
POKERKIT_CARDS = [next(iter(Card.parse(name))) for name in CARD_NAMES]


def pokerkit_index(hands: np.ndarray) -> np.ndarray:
    """pokerkit's strength index of each row of card codes (higher is stronger)."""
    return np.array(
        [LOOKUP.get_entry([POKERKIT_CARDS[c] for c in hand]).index for hand in hands.tolist()]
    )


def test_card_names_mean_the_same_cards_to_pokerkit() -> None:
    assert [repr(card) for card in POKERKIT_CARDS] == list(CARD_NAMES)


def test_random_pairs_compare_the_same() -> None:
    """100,000 random pairs of 5-card hands: ``<``, ``=``, ``>`` agree on every pair."""
    rng = np.random.default_rng(20240501)
    pairs = 100_000
    a, b = (deals(rng, pairs, 5) for _ in range(2))
    ours = np.sign(strength5(a).astype(np.int64) - strength5(b))
    theirs = np.sign(pokerkit_index(a) - pokerkit_index(b))
    mismatched = np.flatnonzero(ours != theirs)
    assert not len(mismatched), [(a[i].tolist(), b[i].tolist()) for i in mismatched[:5]]
    assert (ours == 0).any() and (ours > 0).any() and (ours < 0).any()


def test_one_hand_of_every_strength_orders_the_same() -> None:
    """Every distinct strength (7,462 of them): same total order as pokerkit's index."""
    hands = combinations(52, 5)
    strengths, first = np.unique(strength5(hands), return_index=True)
    theirs = pokerkit_index(hands[first])
    assert len(np.unique(theirs)) == len(strengths) == 7_462
    # ``strengths`` is ascending, so pokerkit must be ascending too.
    assert (np.diff(theirs) > 0).all()
