"""Benchmark: the whole engine (``pipeline.rules.engine.score_hands``) on 3-handed Pineapple.

Input is random but complete: each hand deals 39 cards of a shuffled deck,
13 to each player (top 3, middle 5, bottom 5), so most hands foul, as
random layouts do; about one player-hand in ten is marked as played in
Fantasyland. Building the frame and loading the ruleset are not timed;
``score_hands`` (fouls, royalties, Fantasyland, pairwise scoring) is.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ofc_core.cards import CARD_NAMES
from ofc_core.rulesets import load_ruleset
from pipeline.benchkit.figures import Figure
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import best_of, runs
from pipeline.cli.bench.deals import deals
from pipeline.rules.engine import score_hands

NAME = "engine"
TITLE = "The whole engine on 3-handed Pineapple hands (pineapple-1-6-american)"

RULESET = "pineapple-1-6-american"
PLAYERS = 3
ROWS = {"top": 3, "middle": 5, "bottom": 5}
FANTASYLAND_SHARE = 0.1
TARGET_PLAYER_HANDS_PER_S = 1_000_000


def random_player_hands(rng: np.random.Generator, hands: int) -> pl.DataFrame:
    """``hands`` random complete 3-handed hands, one row per player-hand (engine input).

    >>> frame = random_player_hands(np.random.default_rng(1), 2)
    >>> frame.columns
    ['hand_id', 'position', 'in_fantasyland', 'top', 'middle', 'bottom']
    >>> frame["position"].to_list(), sorted(set(frame["middle"].list.len().to_list()))
    ([1, 2, 3, 1, 2, 3], [5])
    """
    cards = deals(rng, hands, PLAYERS * sum(ROWS.values())).reshape(hands * PLAYERS, -1)
    names = pl.Series("card", CARD_NAMES, dtype=pl.String)
    columns: dict[str, pl.Series] = {}
    start = 0
    for row, size in ROWS.items():
        codes = cards[:, start : start + size]
        start += size
        columns[row] = names.gather(codes.ravel()).reshape(codes.shape).cast(pl.List(pl.String))
    return pl.DataFrame(
        {
            "hand_id": np.repeat(np.arange(hands, dtype=np.int64), PLAYERS),
            "position": np.tile(np.arange(1, PLAYERS + 1, dtype=np.int8), hands),
            "in_fantasyland": rng.random(hands * PLAYERS) < FANTASYLAND_SHARE,
            **columns,
        }
    )


def run(options: BenchOptions) -> dict[str, Figure]:
    ruleset = load_ruleset(RULESET)
    frame = random_player_hands(np.random.default_rng(options.seed), options.sample(300_000, 1_000))
    result = score_hands(frame, ruleset)
    seconds = best_of(lambda: score_hands(frame, ruleset), options.repeats)
    return {
        "player_hands_per_s": Figure(
            frame.height / seconds,
            "player-hands/s",
            target=TARGET_PLAYER_HANDS_PER_S,
            better="higher",
            note=f"{frame.height:,} player-hands, best of {runs(options.repeats)}",
        ),
        "batch_s": Figure(seconds, "s", note=f"score_hands on {frame.height:,} player-hands"),
        "foul_share": Figure(
            float(result.player_hands["foul"].mean()), "share", note="context: random layouts"
        ),
    }
