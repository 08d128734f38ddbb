"""Simulated deals are legal OFC (docs/rules.md R1, R2, R6): cards, rows, streets, Fantasyland."""

from __future__ import annotations

from collections import Counter
from functools import cache

import polars as pl
import pyarrow as pa
import pytest

from ofc_core.rulesets import load_ruleset
from ofc_core.variants import STREETS
from pipeline.simulator import simulate
from pipeline.simulator.run import HANDS_PER_TABLE

#: (preset, players, roster): every variant, progressive and lowball Fantasyland, no Fantasyland.
CASES = [
    ("classic-1-6-american", 4, "aggressive,aggressive,tight,random"),
    ("pineapple-progressive-american", 3, "aggressive,aggressive,balanced"),
    ("turbo-1-6-american", 2, "aggressive,tight"),
    ("pineapple-27", 3, "aggressive,tight,balanced"),
    ("pineapple-2-4-pokerbet", 3, "aggressive,aggressive,random"),
    ("classic-stars-2013", 2, "tight,random"),
]
HANDS = 240


@cache
def played(preset: str, players: int, bots: str) -> dict[str, pl.DataFrame]:
    batches = [b.as_dict() for b in simulate(preset, players, HANDS, seed=11, bots=bots)]
    return {k: pl.from_arrow(pa.concat_tables([b[k] for b in batches])) for k in batches[0]}


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def case(request):
    preset, players, bots = request.param
    return load_ruleset(preset), players, played(preset, players, bots)


def test_every_hand_uses_distinct_cards_in_full_rows(case):
    _, players, tables = case
    ph = tables["player_hands"]
    seated = ph.group_by("hand_id").len()["len"]  # a busted player sits out (R7)
    assert seated.len() == HANDS and seated.is_between(2, players).all()
    assert (ph["top"].list.len() == 3).all()
    assert (ph["middle"].list.len() == 5).all()
    assert (ph["bottom"].list.len() == 5).all()
    cards = ph.select("hand_id", pl.concat_list("top", "middle", "bottom", "discards").alias("c"))
    per_hand = (
        cards.explode("c")
        .group_by("hand_id")
        .agg(pl.len().alias("n"), pl.col("c").n_unique().alias("distinct"))
    )
    assert (per_hand["n"] == per_hand["distinct"]).all()
    assert (per_hand["n"] <= 52).all()


def test_placements_are_the_final_rows_and_discards(case):
    _, _, tables = case
    moves = tables["placements"].group_by("hand_id", "seat", "row").agg(pl.col("card").sort())
    rows = (
        tables["player_hands"]
        .select("hand_id", "seat", "top", "middle", "bottom", pl.col("discards").alias("discard"))
        .unpivot(index=["hand_id", "seat"], variable_name="row", value_name="card")
        .filter(pl.col("card").list.len() > 0)
        .with_columns(pl.col("card").list.sort())
    )
    joined = rows.join(moves, on=["hand_id", "seat", "row"], how="full", suffix="_placed")
    assert joined.height == rows.height
    assert (joined["card"] == joined["card_placed"]).all()


def test_regular_players_follow_the_variant_street_structure(case):
    ruleset, _, tables = case
    regular = tables["player_hands"].filter(~pl.col("in_fantasyland")).select("hand_id", "seat")
    moves = tables["placements"].join(regular, on=["hand_id", "seat"])
    per_street = moves.group_by("hand_id", "seat", "street").agg(
        pl.len().alias("dealt"), (pl.col("row") == "discard").sum().alias("discarded")
    )
    expected = {s.number: (s.dealt, s.discards) for s in STREETS[ruleset.variant]}
    seen = Counter(
        (row["street"], row["dealt"], row["discarded"]) for row in per_street.iter_rows(named=True)
    )
    assert {street for street, _, _ in seen} == set(expected)
    for street, dealt, discarded in seen:
        assert (dealt, discarded) == expected[street], f"street {street}"
    assert per_street.height == regular.height * len(expected)


def _allowed_fantasyland_cards(ruleset) -> set[int]:
    rules = ruleset.fantasyland
    return {*rules.entry.values(), *rules.lowball_entry.values(), rules.stay_cards} - {0}


def test_fantasyland_hands_get_the_right_number_of_cards(case):
    ruleset, _, tables = case
    fl = tables["player_hands"].filter(pl.col("in_fantasyland"))
    if not ruleset.fantasyland.enabled:
        assert fl.height == 0
        return
    assert fl.height > 0, "the aggressive bots should reach Fantasyland in a few hundred hands"
    assert set(fl["fantasyland_cards"].to_list()) <= _allowed_fantasyland_cards(ruleset)
    moves = tables["placements"].join(
        fl.select("hand_id", "seat", "fantasyland_cards"), on=["hand_id", "seat"]
    )
    per_player = moves.group_by("hand_id", "seat").agg(
        pl.len().alias("dealt"),
        (pl.col("row") != "discard").sum().alias("placed"),
        pl.col("street").max().alias("street"),
        pl.col("fantasyland_cards").first(),
    )
    assert (per_player["dealt"] == per_player["fantasyland_cards"]).all()
    assert (per_player["placed"] == 13).all()
    assert (per_player["street"] == 0).all()


def hand_order(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Each hand's table and its number there (hands come table by table, in play order)."""
    return (
        tables["hands"]
        .with_row_index("n")
        .select(
            "hand_id", (pl.col("n") // HANDS_PER_TABLE).alias("table"), pl.col("n").cast(pl.Int64)
        )
    )


def test_fantasyland_cards_are_what_the_previous_hand_earned(case):
    """R6: a player is in Fantasyland exactly when the hand before earned it, with its cards,
    unless that hand ended the match early (R7: a timeout, or all but one busted), which
    leaves no Fantasyland hand to play."""
    ruleset, _, tables = case
    ph = tables["player_hands"].join(hand_order(tables), on="hand_id")
    gone = (pl.col("starting_stack") + pl.col("reported_points")) <= 1e-9
    ended = ph.group_by("n").agg(
        ended=pl.col("timed_out").any() | (ruleset.table_stakes & (gone.sum() >= pl.len() - 1))
    )
    before = ph.join(ended, on="n").select(
        "table",
        "player",
        (pl.col("n") + 1).alias("n"),
        pl.when("ended")
        .then(0)
        .otherwise(pl.col("reported_fantasyland_cards").fill_null(0))
        .alias("earned"),
    )
    pairs = ph.join(before, on=["table", "player", "n"])
    assert pairs.height > ph.height * 0.8
    assert (pairs["fantasyland_cards"] == pairs["earned"]).all()
    assert (pairs["in_fantasyland"] == (pairs["earned"] > 0)).all()
