"""Canonical cards as bytes: the two bytes of a card (``Ah``) and its ``pipeline.cards`` code.

A canonical card is a rank ``23456789TJQKA`` then a suit ``shdc``; other
spellings (``10h``, suit symbols) are not canonical: their hands go to the
thorough reader, which understands them. Codes are ``rank * 4 + suit``.
"""

from __future__ import annotations

import numpy as np

from pipeline.cards import RANKS, SUITS

#: The most cards a canonical list may hold.
MOST = 20


def card_pairs() -> np.ndarray:
    """Card code of each two bytes as a ``(256, 256)`` table: first byte, second byte (-1: none).

    >>> int(card_pairs()[ord("A"), ord("h")]), int(card_pairs()[ord("h"), ord("A")])
    (49, -1)
    """
    table = np.full((256, 256), -1, dtype=np.int16)
    for r, rank in enumerate(RANKS.encode()):
        for s, suit in enumerate(SUITS.encode()):
            table[rank, suit] = r * 4 + s
    return table
