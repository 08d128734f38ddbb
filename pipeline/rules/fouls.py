"""Fouls: which complete hands are dead (docs/rules.md R3, R9).

A hand is fouled unless ``bottom >= middle >= top`` (equal is allowed). In
Pineapple 2-7 the middle must instead be a legal 2-7 low (no pair, straight
or flush; T-high or lower) and the bottom must still beat the top.
"""

from __future__ import annotations

import numpy as np

from pipeline.rules.evaluate import lowball27_valid
from pipeline.rules.rows import Rows


def fouled(rows: Rows, lowball_middle: bool) -> np.ndarray:
    """Boolean array: the hand is fouled under R3 (or R9 when ``lowball_middle``)."""
    if lowball_middle:
        return ~lowball27_valid(rows.middle_strength) | (
            rows.bottom_on_top_scale() < rows.top_strength
        )
    return (rows.middle_on_top_scale() < rows.top_strength) | (
        rows.bottom_strength < rows.middle_strength
    )
