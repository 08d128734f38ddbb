"""R7 and R8 (docs/rules.md): when a match ends.

A match ends early only when every player but one has lost the whole stack;
a player who busts in a 3-handed match sits out its remaining hands while
the other two play on. A hand in which a player timed out ends the match
after it. (An older digest said any bust ends the match: that was wrong.)
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import polars as pl
import pyarrow as pa

from pipeline.simulator import simulate
from pipeline.simulator.match import MatchState, Outcome
from pipeline.simulator.run import HANDS_PER_TABLE


def _state(stacks: list[float]) -> MatchState:
    state = MatchState.begin(np.random.default_rng(0), np.array([100.0]), len(stacks))
    state.stacks[:] = stacks
    state.button[:] = len(stacks) - 1  # seat 0 acts first in the first hand
    return state


def _outcome(points: list[float], timed_out: int | None = None, cards: int = 0) -> Outcome:
    n = len(points)
    out = np.zeros((1, n), dtype=bool)
    if timed_out is not None:
        out[0, timed_out] = True
    next_cards = np.zeros((1, n), dtype=np.int64)
    next_cards[0, 0] = cards
    return Outcome(np.array([points], dtype=float), next_cards, np.zeros((1, n), bool), out)


def _hand(state: MatchState, outcome: Outcome, table_stakes=True, cap=None):
    setup = state.next_hand(button_moves_in_fantasyland=False)
    state.record(outcome, table_stakes, cap)
    return setup


def test_r7_a_bust_in_a_three_handed_match_sits_out_and_the_others_play_on():
    state = _state([10, 50, 50])
    first = _hand(state, _outcome([-10, 5, 5]))
    assert first.new_match[0] and first.playing[0].all()
    second = _hand(state, _outcome([0, 3, -3]))
    assert not second.new_match[0]
    assert second.playing[0].tolist() == [False, True, True]
    # the button is on seat 0, which sits out but keeps its turn: seat 1 acts first
    assert second.button[0] == 0
    assert second.seats_in_order(np.array([0])).tolist() == [[1, 2]]
    third = _hand(state, _outcome([0, -3, 3]))
    assert not third.new_match[0] and third.match_hand[0] == 3
    assert third.playing[0].tolist() == [False, True, True]
    fourth = state.next_hand(button_moves_in_fantasyland=False)
    assert fourth.new_match[0] and fourth.playing[0].all()
    assert fourth.stacks[0, 0] == 100  # rebought at the start of the next match


def test_r7_the_match_ends_early_when_all_but_one_have_busted():
    state = _state([10, 10, 50])
    _hand(state, _outcome([-10, -10, 20]))
    after = state.next_hand(button_moves_in_fantasyland=False)
    assert after.new_match[0]


def test_r7_heads_up_a_bust_ends_the_match():
    state = _state([10, 50])
    _hand(state, _outcome([-10, 10]))
    assert state.next_hand(button_moves_in_fantasyland=False).new_match[0]


def test_r7_a_bust_ends_no_match_without_table_stakes():
    state = _state([10, 50])
    _hand(state, _outcome([-10, 10]), table_stakes=False)
    assert not state.next_hand(button_moves_in_fantasyland=False).new_match[0]


def test_r7_a_player_who_has_lost_the_cap_sits_out_the_match():
    state = _state([100, 100, 100])
    _hand(state, _outcome([-20, 10, 10]), cap=20)
    second = state.next_hand(button_moves_in_fantasyland=False)
    assert second.playing[0].tolist() == [False, True, True]
    assert second.match_loss[0].tolist() == [20, -10, -10]
    assert second.stacks[0, 0] == 80  # the rest of the stack is safe


def test_r8_a_timeout_ends_the_match_after_the_hand_pending_fantasyland_included():
    state = _state([100, 100, 100])
    _hand(state, _outcome([1, -1, 0], timed_out=1, cards=14), table_stakes=False)
    after = state.next_hand(button_moves_in_fantasyland=False)
    assert after.new_match[0]
    assert not after.continuation[0] and not after.in_fantasyland.any()


def test_r7_without_busts_or_timeouts_the_match_plays_its_hands_and_fantasyland():
    state = _state([100, 100, 100])
    for number in (1, 2, 3):
        setup = _hand(state, _outcome([0, 0, 0], cards=14 if number == 3 else 0))
        assert setup.match_hand[0] == number
    continuation = state.next_hand(button_moves_in_fantasyland=False)
    assert continuation.continuation[0] and not continuation.new_match[0]


@cache
def _simulated(preset: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    batches = list(simulate(preset, 3, 600, seed=11))
    hands = pl.from_arrow(pa.concat_tables([b.hands for b in batches])).with_row_index("n")
    players = pl.from_arrow(pa.concat_tables([b.player_hands for b in batches]))
    return hands, players


def test_r7_simulated_busts_sit_out_and_the_match_goes_on():
    hands, players = _simulated("pineapple-2-4-pokerbet")
    count = players.group_by("hand_id").agg(pl.len().alias("players"), pl.col("player"))
    hands = hands.join(count, on="hand_id", maintain_order="left")
    short = hands.filter(pl.col("players") == 2)
    assert short.height > 0, "no one busted: the test proves nothing"
    assert (short["match_hand"].fill_null(0) != 1).all()  # never a match's first hand
    final = players.with_columns(after=pl.col("starting_stack") + pl.col("reported_points"))
    for hand in short.iter_rows(named=True):
        match = hands.filter(
            (pl.col("match_id") == hand["match_id"]) & (pl.col("n") < hand["n"])
        ).sort("n")
        missing = set(match["player"][0]) - set(hand["player"])
        assert len(missing) == 1
        (name,) = missing
        last = final.filter(
            pl.col("hand_id").is_in(match["hand_id"].to_list()) & (pl.col("player") == name)
        )
        assert last["after"][-1] <= 1e-9  # they sat out because their stack was gone


def test_r8_simulated_timeouts_end_the_match():
    hands, players = _simulated("pineapple-1-6-american")
    timed = players.group_by("hand_id").agg(pl.col("timed_out").any().alias("timeout"))
    hands = hands.join(timed, on="hand_id", maintain_order="left")
    rows = hands.to_dicts()
    checked = 0
    for before, after in itertools.pairwise(rows):
        same_table = before["n"] // HANDS_PER_TABLE == after["n"] // HANDS_PER_TABLE
        if same_table and before["timeout"]:
            checked += 1
            assert after["match_id"] != before["match_id"]
            assert after["match_hand"] == 1 and not after["fantasyland_continuation"]
    assert checked > 0
