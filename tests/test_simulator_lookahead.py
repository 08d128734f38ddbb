"""The bots' look-ahead machinery: random unseen cards, row tallies, the rollout policy,
legal patterns, Pineapple shortlists (docs/simulator.md, "How the bots play")."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_core.rulesets import load_ruleset
from pipeline.simulator import bots, proposals
from pipeline.simulator.candidates import legal, pattern_row_counts, patterns
from pipeline.simulator.deal import ROW_CAPACITY
from pipeline.simulator.rollout import RolloutStyle, add, finish
from pipeline.simulator.sampling import unseen_cards
from pipeline.simulator.street_view import StreetView, row_counts
from pipeline.simulator.styles import style_index
from pipeline.simulator.tallies import BoardState
from pipeline.simulator.value import FOUL, features


def decks(n: int, seed: int) -> np.ndarray:
    return np.argsort(np.random.default_rng(seed).random((n, 52)), axis=1).astype(np.int8)


def style(n: int, lowball: bool = False, chase: float = 0.0) -> RolloutStyle:
    ones = np.ones(n, dtype=np.float32)
    return RolloutStyle(chase * ones, ones, 0 * ones, lowball)


def finished(n: int, ruleset: str, seed: int, chase: float = 0.0) -> np.ndarray:
    """Boards finished from empty by the rollout policy, street by street (R2)."""
    rules = load_ruleset(ruleset)
    cards, how = decks(n, seed), style(n, rules.lowball_middle, chase)
    state = BoardState.empty(n)
    finish(state, cards[:, :5], how)
    if rules.variant in ("pineapple", "pineapple-27"):
        return finish(state, cards[:, 5:17], how, keep=2)
    return finish(state, cards[:, 5:13], how)


def test_unseen_cards_are_distinct_unknown_and_uniform():
    rng = np.random.default_rng(3)
    known = np.zeros((2, 52), dtype=bool)
    known[0, :40] = True  # 12 unknown cards
    known[1, ::2] = True  # 26 unknown cards
    drawn = unseen_cards(known, 5, 4000, rng)
    assert drawn.shape == (2, 4000, 5)
    for player in range(2):
        draws = drawn[player]
        assert not known[player][draws].any()
        assert all(len(set(row)) == 5 for row in draws[:200])
        counts = np.bincount(draws.ravel(), minlength=52)[~known[player]]
        expected = draws.size / (~known[player]).sum()
        assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)  # no favourite card
        first = np.bincount(draws[:, 0], minlength=52)[~known[player]]
        assert np.abs(first - 4000 / len(first)).max() < 5 * np.sqrt(4000 / len(first))


def test_unseen_cards_depend_on_the_generator_only():
    known = np.zeros((3, 52), dtype=bool)
    known[:, :7] = True
    a = unseen_cards(known, 6, 5, np.random.default_rng(9))
    b = unseen_cards(known, 6, 5, np.random.default_rng(9))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("ruleset", ["pineapple-1-6-american", "classic-1-6-american"])
def test_finished_boards_hold_every_card_once_and_tallies_match(ruleset):
    boards = finished(400, ruleset, seed=1)
    assert (boards >= 0).all()
    assert all(len(set(b)) == 13 for b in boards)
    rules = load_ruleset(ruleset)
    cards = decks(400, 1)
    if rules.variant == "classic":
        assert np.array_equal(np.sort(boards, axis=1), np.sort(cards[:, :13], axis=1))
    else:  # Pineapple: the 5 first cards and 8 of the 12 later ones, 2 of each 3
        for b, deck in zip(boards, cards, strict=True):
            assert set(deck[:5]) <= set(b)
            for street in range(4):
                three = set(deck[5 + 3 * street : 8 + 3 * street])
                assert len(three & set(b)) == 2


def test_incremental_tallies_equal_tallies_of_the_boards():
    n = 300
    cards, how = decks(n, 2), style(n)
    state = BoardState.empty(n)
    finish(state, cards[:, :5], how)
    finish(state, cards[:, 5:11], how, keep=2)  # two streets: 9 cards placed, 4 empty slots
    again = BoardState.of(state.boards)
    for name in ("count", "ranks", "suits", "present", "shape", "pair_rank", "key"):
        assert np.array_equal(getattr(state, name), getattr(again, name)), name


def test_the_policy_fouls_few_boards_by_itself():
    """A regression guard on the rollout policy's quality: finishing from nothing,
    with no look-ahead at all, it keeps most boards live (R3, R9)."""
    for ruleset, limit in [
        ("pineapple-1-6-american", 0.12),
        ("classic-1-6-american", 0.18),
        ("pineapple-27", 0.25),
    ]:
        boards = finished(4000, ruleset, seed=4)
        assert features(boards, load_ruleset(ruleset))[:, FOUL].mean() < limit, ruleset


def test_the_policy_never_puts_jacks_or_better_in_a_27_middle_by_choice():
    boards = finished(2000, "pineapple-27", seed=5)
    middle_high = ((boards[:, 3:8] >> 2) >= 9).any(axis=1)
    top_bottom_high = ((boards[:, [0, 1, 2, 8, 9, 10, 11, 12]] >> 2) >= 9).sum(axis=1)
    # a J+ lands in the middle only when top and bottom are full of J+ cards already
    assert (middle_high & (top_bottom_high < 8)).mean() < 0.05


def test_a_chaser_pairs_a_queen_on_top_and_a_careful_player_does_not():
    """With a queen on top already, a Fantasyland chaser pairs it (R6: QQ+), a careful
    player only when the middle would still beat the top."""
    n, queen = 3000, 40  # Qs
    rest = np.array([c for c in range(52) if c != queen])
    cards = rest[np.argsort(np.random.default_rng(6).random((n, 51)), axis=1)].astype(np.int8)

    def paired_on_top(chase: float) -> float:
        how = style(n, chase=chase)
        state = BoardState.empty(n)
        add(state, np.full(n, queen, dtype=np.int8), np.zeros(n, dtype=np.int16))
        finish(state, cards[:, :4], how)
        top = finish(state, cards[:, 4:16], how, keep=2)[:, :3] >> 2
        return float(((top == 10).sum(axis=1) >= 2).mean())

    assert paired_on_top(4.0) > paired_on_top(0.0) + 0.03


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.integers(0, 5), st.integers(0, 5))
def test_legal_patterns_fit_the_rows(top, middle, bottom):
    counts = np.array([[top, middle, bottom]])
    for dealt, placed in [(1, 1), (3, 2), (4, 4), (5, 5)]:
        room = ROW_CAPACITY - counts[0]
        expected = (pattern_row_counts(dealt, placed) <= room).all(axis=1)
        assert np.array_equal(legal(counts, dealt, placed)[0], expected)


def test_pineapple_shortlist_keeps_legal_patterns_two_per_discard():
    n = 200
    cards = decks(n, 7)
    rules = load_ruleset("pineapple-1-6-american")
    state = BoardState.empty(n)
    finish(state, cards[:, :5], style(n))
    finish(state, cards[:, 5:11], style(n), keep=2)
    view = StreetView(
        state.boards,
        cards[:, 11:14],
        2,
        np.zeros((n, 52), dtype=bool),
        np.full(n, style_index("aggressive")),
    )
    allowed = legal(row_counts(state.boards), 3, 2)
    shortlist = proposals.shortlist(view, allowed, rules)
    assert shortlist.shape == (n, 3 * proposals.PER_DISCARD)
    discarded = (patterns(3, 2)[shortlist] == 3).argmax(axis=2)
    assert np.array_equal(
        discarded, np.repeat(np.arange(3), proposals.PER_DISCARD)[None].repeat(n, 0)
    )
    fits = np.take_along_axis(allowed, shortlist, axis=1)
    assert fits[:, ::2].all()  # the best of each discard is legal whenever one exists


def test_repeated_candidates_are_played_out_once():
    candidates = np.array([[4, 4, 7, 4, 7, 1]])
    assert bots._first_seen(candidates).tolist() == [[True, False, True, False, False, True]]


def test_every_pattern_of_a_street_is_listed_once():
    for dealt, placed in [(1, 1), (3, 2), (4, 4), (5, 5)]:
        rows = {tuple(p) for p in patterns(dealt, placed).tolist()}
        expected = {p for p in product(range(4), repeat=dealt) if p.count(3) == dealt - placed}
        assert rows == expected
