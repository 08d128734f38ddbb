"""The room's reported figures are the engine's results, unless ``--misreport-rate`` corrupts them."""

from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl
import pyarrow as pa

from ofc_core.rulesets import load_ruleset
from pipeline.rules.engine import score_hands
from pipeline.simulator import simulate

PRESET = "pineapple-2-4-pokerbet"  # table stakes: points depend on stacks too (R7)


@cache
def run(rate: float) -> dict[str, pl.DataFrame]:
    batches = [
        b.as_dict()
        for b in simulate(
            PRESET, 3, 600, seed=8, misreport_rate=rate, bots="aggressive,tight,balanced"
        )
    ]
    return {k: pl.from_arrow(pa.concat_tables([b[k] for b in batches])) for k in batches[0]}


def rescored(ph: pl.DataFrame) -> pl.DataFrame:
    repeats = pl.lit(0)  # no stays in a row yet where the engine needs them: checked below
    frame = ph.with_columns(fantasyland_repeats=repeats)
    return score_hands(frame, load_ruleset(PRESET)).player_hands


def test_reported_figures_are_the_engines():
    ph = run(0.0)["player_hands"]
    engine = rescored(ph)
    assert np.allclose(ph["reported_points"].to_numpy(), engine["points"].to_numpy())
    assert (ph["reported_royalties"] == engine["royalties"].cast(pl.Float64)).all()
    assert (ph["reported_foul"] == engine["foul"]).all()
    assert (ph["reported_fantasyland_next"] == engine["fantasyland_next"]).all()
    cards = ph["reported_fantasyland_cards"].fill_null(0)
    # the engine here does not know past stays: compare where no repeat limit applies
    fresh = ~ph["in_fantasyland"]
    assert (cards.filter(fresh) == engine["fantasyland_next_cards"].filter(fresh)).all()


def test_money_is_points_times_the_point_value():
    tables = run(0.0)
    joined = tables["player_hands"].join(
        tables["hands"].select("hand_id", "point_value"), on="hand_id"
    )
    paid = joined.filter(pl.col("point_value").is_not_null())
    assert np.allclose(paid["reported_money"], paid["reported_points"] * paid["point_value"])
    assert joined.filter(pl.col("point_value").is_null())["reported_money"].null_count() == (
        joined.filter(pl.col("point_value").is_null()).height
    )


def test_misreporting_corrupts_about_that_share_of_hands_and_nothing_else():
    clean, dirty = run(0.0), run(0.25)
    for name in ("hands", "placements"):
        assert clean[name].equals(dirty[name])
    same_game = clean["player_hands"].drop("reported_points", "reported_money")
    assert same_game.equals(dirty["player_hands"].drop("reported_points", "reported_money"))
    differs = clean["player_hands"]["reported_points"] != dirty["player_hands"]["reported_points"]
    wrong_hands = clean["player_hands"].filter(differs)["hand_id"].n_unique()
    share = wrong_hands / clean["hands"].height
    assert 0.25 - 0.06 < share < 0.25 + 0.06
