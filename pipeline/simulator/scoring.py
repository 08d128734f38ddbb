"""The one place the simulator asks the rules engine for results (``pipeline.rules.engine``).

The room's reported figures in simulated files are the engine's results
(before ``misreport.py`` corrupts some on request), so a clean simulation
always passes the audit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from ofc_core.cards import CARD_NAMES
from ofc_core.rulesets import Ruleset
from pipeline.rules.engine import score_hands
from pipeline.rules.money import agreements, pair_money

_NAMES = pa.array(CARD_NAMES)


@dataclass(frozen=True, eq=False)
class Results:
    """Engine results per player-hand, ``(hands, players)`` in the input's order."""

    points: np.ndarray
    royalties: np.ndarray
    foul: np.ndarray
    next_cards: np.ndarray  # Fantasyland cards earned for the next hand, 0 for none
    stay: np.ndarray
    money: np.ndarray  # nan at play-money tables


def card_lists(cards: np.ndarray) -> pa.ListArray:
    """An Arrow list-of-card-names array from ``(n, width)`` card codes (all present)."""
    n, width = cards.shape
    offsets = pa.array(np.arange(0, (n + 1) * width, width, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, _NAMES.take(pa.array(cards.ravel().astype(np.int64))))


def score(
    hand_ids: np.ndarray,
    boards: np.ndarray,
    in_fantasyland: np.ndarray,
    stacks: np.ndarray,
    match_loss: np.ndarray,
    repeats: np.ndarray,
    ruleset: Ruleset,
    names: np.ndarray,
    point_value: np.ndarray,
) -> Results:
    """Score ``(hands, players)`` boards given in order of action (position 1 first);
    ``names`` of the players by position, each hand's ``point_value`` (nan: play money)."""
    hands, players = in_fantasyland.shape
    flat = boards.reshape(hands * players, 13)
    frame = pl.from_arrow(
        pa.table(
            {
                "hand_id": pa.array(np.repeat(hand_ids, players)),
                "position": pa.array(np.tile(np.arange(1, players + 1, dtype=np.int8), hands)),
                "in_fantasyland": pa.array(in_fantasyland.ravel()),
                "top": card_lists(flat[:, :3]),
                "middle": card_lists(flat[:, 3:8]),
                "bottom": card_lists(flat[:, 8:]),
                "starting_stack": pa.array(stacks.ravel().astype(np.float64)),
                "match_loss": pa.array(match_loss.ravel().astype(np.float64)),
                "fantasyland_repeats": pa.array(repeats.ravel().astype(np.int64)),
            }
        )
    )
    scored = score_hands(frame, ruleset)
    result = scored.player_hands

    def column(name: str) -> np.ndarray:
        return result[name].to_numpy().reshape(hands, players)

    points = column("points").astype(np.float64)
    money = points * point_value[:, None]
    if ruleset.pair_point_values:
        money = _agreed_money(scored.pairwise, hand_ids, names, point_value, ruleset)
    return Results(
        points=points,
        royalties=column("royalties").astype(np.float64),
        foul=column("foul").astype(bool),
        next_cards=column("fantasyland_next_cards").astype(np.int64),
        stay=column("fantasyland_stay").astype(bool),
        money=money,
    )


def _agreed_money(
    pairwise: pl.DataFrame,
    hand_ids: np.ndarray,
    names: np.ndarray,
    point_value: np.ndarray,
    ruleset: Ruleset,
) -> np.ndarray:
    """``(hands, players)`` money where pairs of players agreed their own point value (R7)."""
    row = pl.DataFrame({"hand_id": hand_ids.astype(str), "_row": np.arange(len(hand_ids))})
    pairs = pairwise.join(row, on="hand_id")
    at = pairs.get_column("_row").to_numpy()
    named = pairs.with_columns(
        player_a=pl.Series(names[at, pairs.get_column("position_a").to_numpy() - 1]),
        player_b=pl.Series(names[at, pairs.get_column("position_b").to_numpy() - 1]),
    )
    context = row.with_columns(
        ruleset=pl.lit(ruleset.name),
        point_value=pl.Series(point_value, nan_to_null=True),
    )
    found = pair_money(named, context, agreements({ruleset.name: ruleset.pair_point_values}))
    found = found.join(row, on="hand_id")
    money = np.full(names.shape, np.nan)
    money[found.get_column("_row").to_numpy(), found.get_column("position").to_numpy() - 1] = (
        found.get_column("money").fill_null(np.nan).to_numpy()
    )
    return money
