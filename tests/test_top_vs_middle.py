"""The top row's order, and the top compared with the middle (docs/rules.md R1, R3, R4).

``strength3`` and ``as_top`` are checked against a plain reference written
from the rule text: the top row knows only high card < pair < trips (R1);
rows compare by category, then rank by rank, pair rank first, then kickers,
highest first (R4); the top compares with a 5-card middle by category, then
rank by rank over the cards the top has (R3).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

from ofc_core.cards import parse_cards
from pipeline.cli.bench.deals import combinations, deals
from pipeline.rules.evaluate import as_top, strength3, strength5

# Poker categories, weakest first.
CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)
WHEEL = [0, 1, 2, 3, 12]  # A 2 3 4 5: the lowest straight (R1)

Key = tuple[int, tuple[int, ...]]


def by_importance(ranks: list[int]) -> tuple[int, ...]:
    """Ranks in the order rows compare them: most repeated first, then highest first."""
    counts = Counter(ranks)
    return tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))


def top_category(ranks: list[int]) -> str:
    return {1: "high card", 2: "pair", 3: "trips"}[max(Counter(ranks).values())]


def five_category(cards: list[int]) -> str:
    ranks = sorted(c // 4 for c in cards)
    shape = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    straight = len(set(ranks)) == 5 and (ranks[4] - ranks[0] == 4 or ranks == WHEEL)
    if straight and flush:
        return "straight flush"
    if shape[0] == 4:
        return "quads"
    if shape == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if shape[0] == 3:
        return "trips"
    if shape == [2, 2, 1]:
        return "two pair"
    return "pair" if shape[0] == 2 else "high card"


def top_key(cards: list[int]) -> Key:
    ranks = [c // 4 for c in cards]
    return CATEGORIES.index(top_category(ranks)), by_importance(ranks)


def middle_key_against_top(cards: list[int]) -> Key:
    """R3: category, then the three most important ranks: the cards a top row has."""
    return CATEGORIES.index(five_category(cards)), by_importance([c // 4 for c in cards])[:3]


def signs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sign(a.astype(np.int64) - b.astype(np.int64))


def reference_signs(tops: list[list[int]], middles: list[list[int]]) -> np.ndarray:
    return np.array(
        [
            (t > m) - (t < m)
            for t, m in zip(map(top_key, tops), map(middle_key_against_top, middles), strict=True)
        ]
    )


def cards(text: str) -> np.ndarray:
    return np.array([parse_cards(text)])


@cache
def all_tops() -> np.ndarray:
    return combinations(52, 3)


# --- the top row on its own -------------------------------------------------------------


def dense_ranks(keys: list[Key]) -> np.ndarray:
    """Place of each key among the distinct keys, weakest 0: equal keys share a place."""
    place = {key: i for i, key in enumerate(sorted(set(keys)))}
    return np.array([place[key] for key in keys])


def test_top_order_matches_reference_on_every_top() -> None:
    """All 22,100 tops: strengths order them exactly as the reference keys do."""
    tops = all_tops()
    reference = dense_ranks([top_key(t) for t in tops.tolist()])
    ours = np.unique(strength3(tops), return_inverse=True)[1]
    assert reference.max() == 454
    assert (ours == reference).all()


def test_r4_top_kicker_decides_between_equal_pairs() -> None:
    """R4: top 3 3 6 beats top 3 3 2."""
    assert strength3(cards("3s 3d 6c"))[0] > strength3(cards("3h 3c 2d"))[0]


def test_top_trips_beat_any_pair_and_pairs_beat_any_high_card() -> None:
    s = strength3(np.concatenate([cards("2s 2d 2c"), cards("As Ad Kc"), cards("Ah Kh Qh")]))
    assert s[0] > s[1] > s[2]


# --- the top against the middle (R3) ----------------------------------------------------


def test_r3_top_queens_with_better_kicker_than_middle_queens_fouls() -> None:
    """R3: top Q Q 7 with middle Q Q 6 5 4: top is stronger, a foul."""
    assert strength3(cards("Qs Qd 7c"))[0] > as_top(strength5(cards("Qh Qc 6s 5d 4h")))[0]


def test_r3_top_queens_under_middle_queens_with_better_kicker_is_legal() -> None:
    """R3: top Q Q 7 with middle Q Q 9 8 2: legal."""
    assert strength3(cards("Qs Qd 7c"))[0] < as_top(strength5(cards("Qh Qc 9s 8d 2h")))[0]


def test_r3_top_equal_to_the_middle_on_the_top_cards_is_legal() -> None:
    """R3: equal strength is allowed; top Q Q 7 ties middle Q Q 7 5 4 on the top's cards."""
    assert strength3(cards("Qs Qd 7c"))[0] == as_top(strength5(cards("Qh Qc 7s 5d 4h")))[0]


def test_top_against_middle_matches_reference_for_every_pair_of_strengths() -> None:
    """Every distinct top strength (455) against every distinct middle strength (7,462)."""
    tops = all_tops()[np.unique(strength3(all_tops()), return_index=True)[1]]
    fives = combinations(52, 5)
    middles = fives[np.unique(strength5(fives), return_index=True)[1]]
    ranks = dense_ranks(
        [top_key(t) for t in tops.tolist()] + [middle_key_against_top(m) for m in middles.tolist()]
    )
    ref_top, ref_mid = ranks[: len(tops)], ranks[len(tops) :]
    ours = signs(strength3(tops)[:, None], as_top(strength5(middles))[None, :])
    assert (ours == signs(ref_top[:, None], ref_mid[None, :])).all()


def test_top_against_middle_matches_reference_on_random_hands() -> None:
    rng = np.random.default_rng(7)
    dealt = deals(rng, 50_000, 8)
    tops, middles = dealt[:, :3], dealt[:, 3:]
    ours = signs(strength3(tops), as_top(strength5(middles)))
    assert (ours == reference_signs(tops.tolist(), middles.tolist())).all()


def test_top_against_middle_matches_reference_on_few_ranks() -> None:
    """Hands dealt from 4 ranks x 4 suits: pairs, trips and near-ties on every hand."""
    rng = np.random.default_rng(8)
    rows = 50_000
    ranks = np.argsort(rng.random((rows, 13)), axis=1)[:, :4]
    small_deck = (ranks[:, :, None] * 4 + np.arange(4)).reshape(rows, 16)
    picks = np.argsort(rng.random((rows, 16)), axis=1)[:, :8]
    dealt = np.take_along_axis(small_deck, picks, axis=1)
    tops, middles = dealt[:, :3], dealt[:, 3:]
    ours = signs(strength3(tops), as_top(strength5(middles)))
    theirs = reference_signs(tops.tolist(), middles.tolist())
    assert (ours == theirs).all()
    assert {-1, 0, 1} <= set(theirs.tolist())
