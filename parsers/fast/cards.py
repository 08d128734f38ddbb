"""Canonical cards as bytes: the two bytes of a card (``Ah``) and its ``ofc_core.cards`` code.

A canonical card is a rank ``23456789TJQKA`` then a suit ``shdc``; other
spellings (``10h``, suit symbols) are not canonical: their hands go to the
thorough reader, which understands them. Codes are ``rank * 4 + suit``.
"""

from __future__ import annotations

import numpy as np

from ofc_core.cards import RANKS, SUITS

#: The most cards a canonical list may hold.
MOST = 20


#: A part of a card code for a byte that is neither a rank nor a suit.
NOT_A_PART = -1000


def card_parts() -> np.ndarray:
    """Each byte's part of a card code as a ``(2, 256)`` table: row 0 a rank's ``rank * 4``,
    row 1 a suit's ``suit``, ``NOT_A_PART`` for other bytes. The code of two bytes is the sum
    of their parts, negative unless they are a rank then a suit (two lookups in a table small
    enough to stay in the cache).

    >>> parts = card_parts()
    >>> int(parts[0, ord("A")] + parts[1, ord("h")]), int(parts[0, ord("h")] + parts[1, ord("A")]) < 0
    (49, True)
    """
    table = np.full((2, 256), NOT_A_PART, dtype=np.int16)
    table[0, list(RANKS.encode())] = np.arange(len(RANKS)) * 4
    table[1, list(SUITS.encode())] = np.arange(len(SUITS))
    return table
