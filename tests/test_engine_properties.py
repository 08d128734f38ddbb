"""Engine properties over random deals (docs/rules.md R4): zero-sum, symmetry, fouls, royalties."""

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc_core.cards import CARD_NAMES
from ofc_core.rulesets import PRESET_NAMES, load_ruleset
from pipeline.rules.engine import score_hands

UNCAPPED = [name for name in PRESET_NAMES if not load_ruleset(name).table_stakes]


def deal(deck: list[int], players: int) -> pl.DataFrame:
    cards = [CARD_NAMES[c] for c in deck]
    return pl.DataFrame(
        {
            "hand_id": ["h"] * players,
            "position": list(range(1, players + 1)),
            "in_fantasyland": [False] * players,
            "top": [cards[13 * p : 13 * p + 3] for p in range(players)],
            "middle": [cards[13 * p + 3 : 13 * p + 8] for p in range(players)],
            "bottom": [cards[13 * p + 8 : 13 * p + 13] for p in range(players)],
        }
    )


hands = st.tuples(st.permutations(range(52)), st.integers(2, 4), st.sampled_from(UNCAPPED))


@settings(max_examples=300, deadline=None)
@given(hands)
def test_r4_every_hand_is_zero_sum_without_caps(case):
    deck, players, ruleset = case
    result = score_hands(deal(deck, players), load_ruleset(ruleset))
    assert abs(result.player_hands["points"].sum()) < 1e-9


@settings(max_examples=200, deadline=None)
@given(hands)
def test_r4_swapping_two_players_negates_their_pairwise_result(case):
    deck, players, ruleset = case
    rs = load_ruleset(ruleset)
    forward = score_hands(deal(deck, players), rs).pairwise.row(0, named=True)
    swapped_deck = deck[13:26] + deck[:13] + deck[26:]
    backward = score_hands(deal(swapped_deck, players), rs).pairwise.row(0, named=True)
    assert backward["points_a"] == -forward["points_a"]
    assert (backward["rows_a"], backward["rows_b"]) == (forward["rows_b"], forward["rows_a"])


@settings(max_examples=300, deadline=None)
@given(hands)
def test_r4_a_fouled_hand_never_collects(case):
    deck, players, ruleset = case
    frame = deal(deck, players)
    result = score_hands(frame, load_ruleset(ruleset))
    foul = result.player_hands["foul"].to_numpy()
    pairs = result.pairwise
    a_fouled = foul[pairs["position_a"].to_numpy() - 1]
    b_fouled = foul[pairs["position_b"].to_numpy() - 1]
    points = pairs["points_a"].to_numpy()
    assert (points[a_fouled] <= 0).all()
    assert (points[b_fouled] >= 0).all()
    assert (result.player_hands.filter("foul")["royalties"] == 0).all()


@settings(max_examples=200, deadline=None)
@given(hands, st.permutations(range(52)))
def test_r5_royalties_never_depend_on_the_opponent(case, other):
    deck, players, ruleset = case
    rs = load_ruleset(ruleset)
    first = score_hands(deal(deck, players), rs).player_hands.row(0, named=True)
    mine = set(deck[:13])
    rest = [c for c in other if c not in mine]
    again = score_hands(deal(deck[:13] + rest, players), rs).player_hands.row(0, named=True)
    keys = (
        "foul",
        "royalties_top",
        "royalties_middle",
        "royalties_bottom",
        "fantasyland_next_cards",
    )
    assert [first[k] for k in keys] == [again[k] for k in keys]


def test_engine_results_are_aligned_with_input_order():
    rng = np.random.default_rng(7)
    frames = [
        deal(list(rng.permutation(52)), 3).with_columns(hand_id=pl.lit(f"h{i}")) for i in range(50)
    ]
    frame = pl.concat(frames)
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=3)
    rs = load_ruleset("pineapple-1-6-american")
    expected = score_hands(frame, rs).player_hands.with_columns(frame["hand_id"], frame["position"])
    got = score_hands(shuffled, rs).player_hands.with_columns(
        shuffled["hand_id"], shuffled["position"]
    )
    assert got.sort("hand_id", "position").equals(expected.sort("hand_id", "position"))
