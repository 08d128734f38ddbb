"""Royalties of each row from the ruleset's table (docs/rules.md R5, R9).

Royalties here are what each row earns on its own; a fouled hand earns none
(R4.4), which the engine applies after the foul check.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.rulesets.royalty_table import ROYAL, RoyaltyTable
from pipeline.rules.evaluate import category5, is_royal, leading_rank5, lowball27_valid
from pipeline.rules.rows import Rows

#: Base-13 tiebreak of the best 2-7 low, 7-5-4-3-2 (ranks 5, 3, 2, 1, 0).
WHEEL_27 = (((5 * 13 + 3) * 13 + 2) * 13 + 1) * 13 + 0


@dataclass(frozen=True, eq=False)
class RowRoyalties:
    """Royalties per row for n player-hands."""

    top: np.ndarray
    middle: np.ndarray
    bottom: np.ndarray

    @property
    def total(self) -> np.ndarray:
        return self.top + self.middle + self.bottom

    def zero_where(self, mask: np.ndarray) -> RowRoyalties:
        """The same royalties with the masked hands (fouls) earning nothing."""
        keep = ~mask
        return RowRoyalties(self.top * keep, self.middle * keep, self.bottom * keep)


def is_27_wheel(strength: np.ndarray) -> np.ndarray:
    """Whether 5-card strengths are the 2-7 nuts, 7-5-4-3-2 unsuited (R9)."""
    return lowball27_valid(strength) & (strength % 13**5 == WHEEL_27)


def _five_card(table: np.ndarray, strength: np.ndarray) -> np.ndarray:
    return table[np.where(is_royal(strength), ROYAL, category5(strength))]


def _lowball_middle(table: RoyaltyTable, strength: np.ndarray) -> np.ndarray:
    by_rank = table.middle_lowball[leading_rank5(strength)]
    value = np.where(is_27_wheel(strength), table.lowball_75432, by_rank)
    return np.where(lowball27_valid(strength), value, 0)


def row_royalties(rows: Rows, table: RoyaltyTable, lowball_middle: bool) -> RowRoyalties:
    """Royalties each row earns, before fouls are taken into account."""
    middle = (
        _lowball_middle(table, rows.middle_strength)
        if lowball_middle
        else _five_card(table.middle, rows.middle_strength)
    )
    return RowRoyalties(
        top=table.top[rows.top_strength],
        middle=middle,
        bottom=_five_card(table.bottom, rows.bottom_strength),
    )
