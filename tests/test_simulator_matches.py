"""Simulated matches follow R7 and R6 (docs/rules.md): button, positions, Fantasyland
continuations. How a bust or a timeout ends a match early is tested in
test_rules_r7_match_end.py; here such hands are left out where they change the course."""

from __future__ import annotations

import itertools
from functools import cache

import polars as pl
import pyarrow as pa
import pytest

from ofc_core.rulesets import load_ruleset
from pipeline.simulator import simulate
from pipeline.simulator.run import HANDS_PER_TABLE

CASES = [  # the button stays in Fantasyland / moves every hand (R6)
    ("pineapple-1-6-american", 3, "aggressive,aggressive,aggressive"),
    ("pineapple-2-4-pokerdom", 3, "aggressive,aggressive,balanced"),
    ("classic-1-6-american", 2, "aggressive,aggressive"),
]


@cache
def hands_in_order(preset: str, players: int, bots: str) -> list[dict]:
    batches = list(simulate(preset, players, 400, seed=5, bots=bots))
    hands = pl.from_arrow(pa.concat_tables([b.hands for b in batches])).with_row_index("n")
    ph = pl.from_arrow(pa.concat_tables([b.player_hands for b in batches]))
    seats = ph.group_by("hand_id", maintain_order=True).agg(
        pl.col("seat"),
        pl.col("position"),
        pl.col("reported_fantasyland_next").any().alias("fl"),
        pl.col("in_fantasyland").any().alias("anyone_in_fl"),
        pl.col("timed_out").any().alias("timeout"),
        ((pl.col("starting_stack") + pl.col("reported_points")) <= 1e-9).any().alias("bust"),
    )
    return hands.join(seats, on="hand_id", maintain_order="left").to_dicts()


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def case(request):
    preset, players, bots = request.param
    return load_ruleset(preset), players, hands_in_order(preset, players, bots)


def _pairs(hands, players: int):
    """Consecutive hands at the same table, all seated, the first with no timeout or bust."""
    for before, after in itertools.pairwise(hands):
        if before["n"] // HANDS_PER_TABLE != after["n"] // HANDS_PER_TABLE:
            continue
        if before["timeout"] or before["bust"] or len(after["seat"]) < players:  # R7, R8
            continue
        if len(before["seat"]) == players:
            yield before, after


def test_the_button_acts_last_and_positions_follow_the_seats(case):
    _, _, hands = case
    for hand in hands:
        seats, positions = hand["seat"], hand["position"]
        assert sorted(positions) == list(range(1, len(seats) + 1))
        after_button = [s for s in seats if s > hand["button_seat"]] + [
            s for s in seats if s <= hand["button_seat"]
        ]  # a seat sitting out (R7) may keep the button
        assert [positions[seats.index(s)] for s in after_button] == list(range(1, len(seats) + 1))


def test_a_fantasyland_hand_is_a_continuation_of_the_match(case):
    _, players, hands = case
    continuations = 0
    for before, after in _pairs(hands, players):
        assert after["fantasyland_continuation"] == before["fl"]
        assert after["anyone_in_fl"] == before["fl"]
        if after["fantasyland_continuation"]:
            continuations += 1
            assert after["match_id"] == before["match_id"]
            assert after["match_hand"] is None and after["match_hands"] is None
        else:
            assert after["match_hands"] == players
    assert continuations > 0


def test_the_button_moves_by_the_ruleset(case):
    ruleset, players, hands = case
    for before, after in _pairs(hands, players):
        seats = before["seat"]
        next_seat = seats[(seats.index(before["button_seat"]) + 1) % len(seats)]
        stays = after["fantasyland_continuation"] and not ruleset.button_moves_in_fantasyland
        assert after["button_seat"] == (before["button_seat"] if stays else next_seat)


def test_a_match_is_one_regular_hand_per_player_on_the_button(case):
    ruleset, players, hands = case
    matches: dict[str, list[dict]] = {}
    for hand in hands:
        matches.setdefault(hand["match_id"], []).append(hand)
    complete = 0
    for match in matches.values():
        regular = [h for h in match if not h["fantasyland_continuation"]]
        assert [h["match_hand"] for h in regular] == list(range(1, len(regular) + 1))
        ended_early = match[-1]["timeout"] or (ruleset.table_stakes and match[-1]["bust"])
        if len(regular) == players:
            complete += 1
            if not ruleset.button_moves_in_fantasyland:
                assert len({h["button_seat"] for h in regular}) == players
        elif ended_early:
            complete += 1
    assert complete >= len(matches) - 400 // HANDS_PER_TABLE  # only a table's last may be cut
