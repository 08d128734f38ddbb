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


def spelling_trie(spellings: dict[str, str]) -> np.ndarray:
    """The ranks and suits as a format spells them (canonical letters, and ``spellings``:
    other spellings to canonical ones, ``10`` → ``T``, ``♠`` → ``s``) as a trie over their
    UTF-8 bytes, one lookup per byte: ``step[node, byte]`` is the next node (>= 0), -1 when
    no spelling goes on with ``byte``, or ``ENDS - part`` when a spelling ends with it,
    ``part`` being its part of a card code (a rank's ``rank * 4``, a suit's ``suit``). Node 0
    starts a rank, node 1 a suit. A spelling that replaces a whole card (``10s`` → ``Ts``)
    gives its rank (``10``). No spelling is the beginning of another.

    >>> step = spelling_trie({"10s": "Ts", "Т": "A", "♠": "s"})
    >>> int(ENDS - step[step[0, ord("1")], ord("0")]), int(ENDS - step[1, ord("h")])
    (32, 1)
    """
    words: dict[bytes, tuple[int, int]] = {}
    for spelled, canonical in {**{c: c for c in RANKS + SUITS}, **spellings}.items():
        if len(canonical) == 2:
            spelled, canonical = spelled[:-1], canonical[0]
        if canonical in RANKS:
            words[spelled.encode()] = (0, RANKS.index(canonical) * 4)
        elif canonical in SUITS:
            words[spelled.encode()] = (1, SUITS.index(canonical))
    step = np.full((2 + sum(len(w) for w in words), 256), -1, dtype=np.int16)
    nodes = 2
    for word, (root, part) in words.items():
        node = root
        for byte in word[:-1]:
            if step[node, byte] == -1:
                step[node, byte] = nodes
                nodes += 1
            node = step[node, byte]
            assert node >= 0, f"{word!r} begins with another spelling"
        assert step[node, word[-1]] == -1, f"{word!r} is the beginning of another spelling"
        step[node, word[-1]] = ENDS - part
    return step[:nodes].copy()


#: ``spelling_trie``'s steps at or below this end a spelling.
ENDS = -2
