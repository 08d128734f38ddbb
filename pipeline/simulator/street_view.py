"""What a deciding player sees on a street, and how it finishes boards in its head.

``StreetView`` holds arrays over the players deciding on one street (their
boards, the cards just dealt, what they have seen, their styles);
``rollout_style`` turns their styles into the rollout policy's knobs
(``rollout.py``) for the table's ruleset.

>>> row_counts(np.array([[7, -1, -1, 9, 10, -1, -1, -1, 11, 12, 13, -1, -1]])).tolist()
[[1, 2, 3]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.rulesets import Ruleset
from ofc_core.variants import STREETS
from pipeline.simulator.deal import ROW_CAPACITY, ROW_START
from pipeline.simulator.rollout import RolloutStyle
from pipeline.simulator.styles import CHASE_TOP, FLUSH_DRAW
from pipeline.simulator.value import chase_rank

CHASER_MIDDLE = np.float32(0.5)  # chasers' extra liking for middle pairs, per unit of chase


@dataclass(frozen=True, eq=False)
class StreetView:
    """What deciding players see on a street (arrays over players)."""

    boards: np.ndarray  # (n, 13) int8 card codes, -1 for an empty slot
    dealt: np.ndarray  # (n, k) int8 cards just dealt
    placed: int  # how many of them must be placed (the rest are discarded)
    known: np.ndarray  # (n, 52) bool: cards the player has seen (own and opponents' boards)
    style: np.ndarray  # (n,) index into styles.STYLE_NAMES
    opponents: np.ndarray | None = None  # (n, P - 1, 13) the others' boards as seen (-1 hidden)
    opponents_fantasyland: np.ndarray | None = None  # (n, P - 1) the other is in Fantasyland

    def rollout_style(self, ruleset: Ruleset) -> RolloutStyle:
        """How each player finishes boards in its head."""
        return rollout_style(self.style, ruleset)


def rollout_style(
    style: np.ndarray, ruleset: Ruleset, chase: np.ndarray | None = None
) -> RolloutStyle:
    """The rollout knobs of players of ``style`` (``chase``: their QQ+ chasing instead).

    Chasers also like pairs in the middle, which must beat their top, where they
    can choose their cards (Pineapple): in Classic and Turbo that only fouls more.
    """
    chase_top = CHASE_TOP[style] if chase is None else chase
    chooses = STREETS[ruleset.variant][-1].discards > 0
    return RolloutStyle(
        chase_top,
        FLUSH_DRAW[style],
        (CHASER_MIDDLE * chooses * chase_top).astype(np.float32),
        ruleset.lowball_middle,
        chase_rank(ruleset),
    )


def row_counts(boards: np.ndarray) -> np.ndarray:
    """``(n, 3)`` cards already in top, middle, bottom of ``(n, 13)`` boards."""
    filled = boards >= 0
    return np.stack(
        [filled[:, s : s + c].sum(axis=1) for s, c in zip(ROW_START, ROW_CAPACITY, strict=True)],
        axis=1,
    ).astype(np.int8)
