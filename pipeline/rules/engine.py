"""The rules engine's batch API: recompute every result of a batch of hands.

``score_hands`` takes one row per player-hand (its hand, order of action,
Fantasyland flag, stack, points lost so far in the match and three rows) and returns, column-wise, fouls,
royalties, Fantasyland and points per player-hand, and one settlement per pair
of players per hand. Nothing the room reported is read.

>>> import polars as pl
>>> from ofc_core.rulesets import load_ruleset
>>> hands = pl.DataFrame({
...     "hand_id": ["h1", "h1"], "position": [1, 2], "in_fantasyland": [False, False],
...     "top": [["Qs", "Qd", "3h"], ["2c", "3d", "4h"]],
...     "middle": [["Kd", "Kh", "Qh", "6s", "6d"], ["Tc", "Jc", "2d", "8h", "6c"]],
...     "bottom": [["7c", "7s", "7d", "2h", "9d"], ["As", "Ks", "Qc", "5s", "3s"]],
... })
>>> result = score_hands(hands, load_ruleset("pineapple-1-6-american")).player_hands
>>> result.select("points", "royalties", "fantasyland_next_cards").rows()
[(13.0, 7, 14), (-13.0, 0, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from ofc_core.categories import CATEGORY_NAMES
from ofc_core.rulesets import Ruleset
from pipeline.rules.evaluate import category3, category5
from pipeline.rules.fantasyland import fantasyland_outcome
from pipeline.rules.fouls import fouled
from pipeline.rules.rows import Rows
from pipeline.rules.royalties import row_royalties
from pipeline.rules.settle import DEUCE_OF_SPADES, PlayerRows, Seating, Stakes, settle

#: Row categories as a polars ``Enum``, in order of strength.
CATEGORY = pl.Enum(CATEGORY_NAMES)
_CATEGORY_CODES = dict(enumerate(CATEGORY_NAMES))


@dataclass(frozen=True)
class EngineResult:
    """Recomputed results: per player-hand (input order) and per pair of players."""

    player_hands: pl.DataFrame
    pairwise: pl.DataFrame


def _hand_numbers(hand_id: pl.Series) -> np.ndarray:
    """Dense 0-based number of each row's hand."""
    return (hand_id.rank("dense") - 1).to_numpy().astype(np.int64)


def _optional(frame: pl.DataFrame, name: str, default: float) -> np.ndarray:
    if name not in frame.columns:
        return np.full(frame.height, default)
    return frame[name].fill_null(default).to_numpy()


def _seating(frame: pl.DataFrame, hand: np.ndarray) -> Seating:
    position = frame["position"].to_numpy().astype(np.int64)
    if len(position) and position.min() < 1:
        raise ValueError("positions start at 1 (first to act after the button)")
    seating = Seating.from_positions(hand, position)
    if (seating.index >= 0).sum() != frame.height:
        raise ValueError("two players of the same hand share a position")
    return seating


def _categories(rows: Rows) -> dict[str, pl.Series]:
    names = {
        "top": category3(rows.top_strength),
        "middle": category5(rows.middle_strength),
        "bottom": category5(rows.bottom_strength),
    }
    return {
        f"category_{row}": pl.Series(values).replace_strict(_CATEGORY_CODES, return_dtype=CATEGORY)
        for row, values in names.items()
    }


def score_hands(frame: pl.DataFrame, ruleset: Ruleset) -> EngineResult:
    """Recompute fouls, royalties, Fantasyland and points for a batch of player-hands."""
    rows = Rows.from_frame(frame)
    hand = _hand_numbers(frame["hand_id"])
    seating = _seating(frame, hand)
    lowball = ruleset.lowball_middle
    foul = fouled(rows, lowball)
    royalties = row_royalties(rows, ruleset.royalties, lowball).zero_where(foul)
    in_fl = _optional(frame, "in_fantasyland", False).astype(bool)
    repeats = _optional(frame, "fantasyland_repeats", 0).astype(np.int64)
    fl = fantasyland_outcome(rows, royalties, foul, in_fl, repeats, ruleset.fantasyland, lowball)
    middle_cmp = rows.middle_lowball() if lowball else rows.middle_strength
    players = PlayerRows(
        row_strength=np.stack([rows.top_strength, middle_cmp, rows.bottom_strength], axis=1),
        row_royalty=np.stack([royalties.top, royalties.middle, royalties.bottom], axis=1),
        row_has_deuce=np.stack(
            [
                (cards == DEUCE_OF_SPADES).any(axis=1)
                for cards in (rows.top, rows.middle, rows.bottom)
            ],
            axis=1,
        ),
        foul=foul,
        stack=_optional(frame, "starting_stack", np.nan).astype(np.float64),
        match_loss=_optional(frame, "match_loss", 0.0).astype(np.float64),
    )
    pairs = settle(
        seating,
        players,
        ruleset.scoop_value,
        ruleset.foul_penalty,
        ruleset.deuce_of_spades,
        Stakes(ruleset.table_stakes, ruleset.match_loss_cap),
    )
    n = frame.height
    points = np.bincount(pairs.a, pairs.points_a, n) - np.bincount(pairs.b, pairs.points_a, n)
    player_hands = pl.DataFrame(
        {
            "foul": foul,
            **_categories(rows),
            "royalties_top": royalties.top,
            "royalties_middle": royalties.middle,
            "royalties_bottom": royalties.bottom,
            "royalties": royalties.total,
            "points": points,
            "fantasyland_next": fl.next,
            "fantasyland_next_cards": fl.cards,
            "fantasyland_stay": fl.stay,
        }
    )
    position = frame["position"]
    pairwise = pl.DataFrame(
        {
            "hand_id": frame["hand_id"].gather(pairs.a),
            "position_a": position.gather(pairs.a),
            "position_b": position.gather(pairs.b),
            "rows_a": pairs.rows_a.astype(np.int8),
            "rows_b": pairs.rows_b.astype(np.int8),
            "bonus_a": pairs.bonus_a.astype(np.int16),
            "royalties_a": pairs.royalties_a.astype(np.int32),
            "points_a_uncapped": pairs.points_a_uncapped,
            "points_a": pairs.points_a,
        }
    )
    return EngineResult(player_hands=player_hands, pairwise=pairwise)
