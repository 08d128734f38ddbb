"""Pineapple 2-7 middles (docs/rules.md R9): which are legal, and how they compare.

A legal 2-7 middle has no pair, no straight, no flush and no card above T;
between legal middles the lower hand wins, highest card first. Checked
against a plain reference written from that text.
"""

from __future__ import annotations

import numpy as np

from ofc_core.cards import parse_cards
from pipeline.cli.bench.deals import combinations, deals
from pipeline.rules.evaluate import as_top, lowball27, lowball27_valid, strength3, strength5

TEN = 8  # rank code of T


def reference_valid(cards: list[int]) -> bool:
    ranks = sorted(c // 4 for c in cards)
    distinct = len(set(ranks)) == 5
    straight = distinct and ranks[4] - ranks[0] == 4  # A is high in 2-7; A2345 has an A anyway
    flush = len({c % 4 for c in cards}) == 1
    return distinct and not straight and not flush and ranks[4] <= TEN


def reference_badness(cards: list[int]) -> tuple[int, ...]:
    """Larger is worse: compare the highest card, then the next, ..."""
    return tuple(sorted((c // 4 for c in cards), reverse=True))


def middle(text: str) -> np.ndarray:
    return strength5(np.array([parse_cards(text)]))


def test_r9_eight_seven_six_four_three_is_a_legal_middle() -> None:
    assert lowball27_valid(middle("8s 7h 6d 4c 3s"))[0]


def test_r9_a_jack_in_the_middle_fouls() -> None:
    assert not lowball27_valid(middle("8s 7h 4d 3c Js"))[0]


def test_r9_pairs_straights_and_flushes_are_not_legal_middles() -> None:
    for text in ("8s 8h 6d 4c 3s", "7s 6h 5d 4c 3s", "8h 7h 6h 4h 2h", "As 2h 3d 4c 5s"):
        assert not lowball27_valid(middle(text))[0], text


def test_r9_example_hand_bottom_against_top() -> None:
    """R9: A A 3 / 8 7 6 4 3 / T T 9 9 K is legal; bottom T T 9 Q K under A A 3 fouls."""
    top = strength3(np.array([parse_cards("As Ad 3c")]))[0]
    assert lowball27_valid(middle("8s 7h 6d 4c 3s"))[0]
    assert as_top(middle("Ts Th 9d 9c Kh"))[0] >= top
    assert as_top(middle("Ts Th 9d Qc Kh"))[0] < top


def test_seven_five_four_three_two_is_the_best_27_middle() -> None:
    assert lowball27(middle("7s 5h 4d 3c 2s"))[0] > lowball27(middle("8s 5h 4d 3c 2s"))[0]
    assert lowball27(middle("8s 6h 4d 3c 2s"))[0] > lowball27(middle("8s 7h 4d 3c 2s"))[0]


def test_27_order_matches_reference_on_every_legal_rank_set() -> None:
    fives = combinations(52, 5)
    strengths = strength5(fives)
    legal = fives[lowball27_valid(strengths)]
    ours = lowball27(strength5(legal))
    worse_first = sorted({reference_badness(c) for c in legal.tolist()}, reverse=True)
    place = {key: i for i, key in enumerate(worse_first)}
    reference = np.array([place[reference_badness(c)] for c in legal.tolist()])
    assert len(worse_first) == 121
    assert (np.unique(ours, return_inverse=True)[1] == reference).all()


def test_27_validity_matches_reference_on_random_and_low_hands() -> None:
    rng = np.random.default_rng(27)
    anything = deals(rng, 20_000, 5)
    low_deck = np.arange(TEN * 4 + 4)  # 2..T: most hands are close calls
    low = np.argsort(rng.random((20_000, len(low_deck))), axis=1)[:, :5]
    for hands in (anything, low_deck[low]):
        ours = lowball27_valid(strength5(hands))
        reference = np.array([reference_valid(h) for h in hands.tolist()])
        assert (ours == reference).all()
        assert reference.any()
