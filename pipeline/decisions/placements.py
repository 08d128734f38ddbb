"""Every legal placement of a street's dealt cards on a board (RULES.md R1, R2).

A placement gives each dealt card a row or the discard (the simulator's
patterns, ``pipeline.simulator.candidates``); it is legal when no row goes
over its size (3, 5, 5) and exactly the street's number of cards is placed.
The dealt cards are distinct, so distinct patterns give distinct boards:
the list has no repeats.

>>> import numpy as np
>>> empty = np.full(13, -1, dtype=np.int8)
>>> len(legal_placements(empty, np.array([0, 4, 8, 12, 16]), 5).boards)  # 3**5 - 11
232
>>> len(legal_placements(empty, np.array([0, 4, 8]), 2).boards)  # Pineapple: 3 x 9
27
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.simulator.candidates import legal, patterns, place
from pipeline.simulator.deal import DISCARD
from pipeline.simulator.street_view import row_counts


@dataclass(frozen=True, eq=False)
class Placements:
    """The legal placements of one street: boards after each, and the cards each discards."""

    rows: np.ndarray  # (L, k) row of each dealt card: 0 top, 1 middle, 2 bottom, 3 discard
    boards: np.ndarray  # (L, 13) the board after the placement, -1 for an empty slot
    discards: np.ndarray  # (L, k - placed) discarded cards

    def __len__(self) -> int:
        return len(self.boards)


def legal_placements(board: np.ndarray, dealt: np.ndarray, placed: int) -> Placements:
    """Every legal placement of ``dealt`` on the 13-slot ``board``, ``placed`` of them kept."""
    dealt = np.asarray(dealt, dtype=np.int8)
    k = len(dealt)
    counts = row_counts(board[None, :])
    which = np.flatnonzero(legal(counts, k, placed)[0])
    rows = patterns(k, placed)[which]
    boards = place(board[None, :], counts, dealt[None, :], placed, which[None, :])[0]
    discards = np.array([dealt[r == DISCARD] for r in rows], dtype=np.int8).reshape(
        len(rows), k - placed
    )
    return Placements(rows=rows, boards=boards, discards=discards)
