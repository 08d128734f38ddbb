"""Timeouts and automatic placement (docs/rules.md R8).

Now and then a player runs out of time: from a random street on, for that
street only or (disconnected) for the rest of the hand. Their cards are then
placed automatically in the order received, bottom first, then middle, then
top; from street 2 of Pineapple the first two cards are placed and the third
discarded. A Fantasyland hand that times out is set the same way: bottom,
middle, top, the rest discarded. Placements made so are marked ``auto`` and
the player-hand ``timed_out``.

>>> auto_rows(np.array([[0, 4, 5]]), 3, 2).tolist()
[[1, 0, 3]]
"""

from __future__ import annotations

import numpy as np

from pipeline.simulator.deal import BOTTOM, DISCARD, MIDDLE, ROW_CAPACITY, TOP

TIMEOUT_RATE = 0.01  # share of player-hands with a timeout
DISCONNECT_SHARE = 0.4  # of those, the share that stays timed out to the end of the hand


def plan(rng: np.random.Generator, shape: tuple[int, int], streets: int) -> np.ndarray:
    """``(hands, players, 1 + streets)`` bool: which streets each player times out on.

    Column 0 is the Fantasyland setting; columns 1.. the streets.
    """
    struck = rng.random(shape) < TIMEOUT_RATE
    first = rng.integers(0, 1 + streets, size=shape)
    rest = rng.random(shape) < DISCONNECT_SHARE
    column = np.arange(1 + streets)
    from_first = column >= first[:, :, None]
    only_first = column == first[:, :, None]
    return struck[:, :, None] & np.where(rest[:, :, None], from_first, only_first)


def auto_rows(counts: np.ndarray, dealt: int, placed: int) -> np.ndarray:
    """``(n, dealt)`` rows of automatically placed cards given row ``counts`` ``(n, 3)``."""
    room = (ROW_CAPACITY - counts).astype(np.int16)
    rows = np.full((len(counts), dealt), DISCARD, dtype=np.int8)
    for j in range(placed):
        row = np.where(room[:, BOTTOM] > 0, BOTTOM, np.where(room[:, MIDDLE] > 0, MIDDLE, TOP))
        rows[:, j] = row
        room[np.arange(len(counts)), row] -= 1
    return rows
