"""The three rows of a batch of player-hands, as card codes and strengths.

``Rows`` is the engine's working set: card codes per row and the strengths
the rest of the engine compares (R1, R3, R9). Decoding goes through a polars
``Enum`` of the canonical card names, whose physical codes are the card codes,
so a million hands decode without a Python loop.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from ofc_core.cards import CARD_NAMES
from pipeline.rules.evaluate import as_top, lowball27, strength3, strength5

CARD_ENUM = pl.Enum(CARD_NAMES)
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}


class RowSizeError(ValueError):
    """A row that does not hold the number of cards R1 asks for."""


def decode_row(cards: pl.Series, size: int) -> np.ndarray:
    """Card codes of a list-of-card-names column, shaped ``(n, size)``."""
    lengths = cards.list.len().to_numpy()
    if (lengths != size).any():
        bad = int(np.flatnonzero(lengths != size)[0])
        raise RowSizeError(f"{cards.name} row {bad} has {lengths[bad]} cards, expected {size}")
    codes = cards.explode().cast(CARD_ENUM).to_physical().to_numpy()
    return codes.astype(np.int8).reshape(-1, size)


@dataclass(frozen=True, eq=False)
class Rows:
    """Card codes and strengths of the top, middle and bottom rows of n player-hands."""

    top: np.ndarray
    middle: np.ndarray
    bottom: np.ndarray
    top_strength: np.ndarray
    middle_strength: np.ndarray
    bottom_strength: np.ndarray

    @classmethod
    def from_codes(cls, top: np.ndarray, middle: np.ndarray, bottom: np.ndarray) -> Rows:
        return cls(top, middle, bottom, strength3(top), strength5(middle), strength5(bottom))

    @classmethod
    def from_frame(cls, frame: pl.DataFrame) -> Rows:
        """Rows of a frame with list-of-card-name columns ``top``, ``middle``, ``bottom``."""
        return cls.from_codes(*(decode_row(frame[row], n) for row, n in ROW_SIZES.items()))

    def middle_on_top_scale(self) -> np.ndarray:
        """The middle's strength as a top row would compare to it (R3)."""
        return as_top(self.middle_strength)

    def bottom_on_top_scale(self) -> np.ndarray:
        return as_top(self.bottom_strength)

    def middle_lowball(self) -> np.ndarray:
        """2-7 strength of the middle (R9): higher is better."""
        return lowball27(self.middle_strength)
