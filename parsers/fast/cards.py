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


def spelling_tables(spellings: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """The ranks and suits as a format spells them (canonical letters, and ``spellings``:
    other spellings to canonical ones, ``10`` → ``T``, ``♠`` → ``s``) as lookups on their
    UTF-8 bytes (one to three), with no branch on a spelling's length.

    ``heads[kind, b0 | b1 << 8]`` (kind 0: a rank, 1: a suit) is, for a spelling's first two
    bytes, ``length << 8 | part`` for a spelling of one or two bytes (``part``: its part of a
    card code, a rank's ``rank * 4``, a suit's ``suit``), ``3 << 8 | slot`` for a spelling of
    three, whose last byte gives its part in ``thirds[slot, b2]``, and -1 for bytes no
    spelling begins with. A spelling that replaces a whole card (``10s`` → ``Ts``) gives its
    rank (``10``). No spelling is the beginning of another.

    >>> heads, thirds = spelling_tables({"10s": "Ts", "Т": "A", "♠": "s"})
    >>> [divmod(int(heads[0, ord(a) | ord(b) << 8]), 256) for a, b in ("10", "A ", "Th")]
    [(2, 32), (1, 48), (1, 32)]
    >>> length, slot = divmod(int(heads[1, 0xE2 | 0x99 << 8]), 256)
    >>> length, int(thirds[slot, 0xA0]), int(heads[0, ord("1") | ord("1") << 8])
    (3, 0, -1)
    """
    heads = np.full((2, 1 << 16), -1, dtype=np.int16)
    thirds: list[np.ndarray] = []
    for word, (kind, part) in _spelled(spellings).items():
        assert 1 <= len(word) <= 3, f"{word!r}: a spelling of one to three bytes"
        follows = np.arange(256) if len(word) == 1 else word[1]
        keys = word[0] | np.left_shift(follows, 8)
        if len(word) < 3:
            assert (heads[kind, keys] == -1).all(), f"{word!r} begins another spelling"
            heads[kind, keys] = len(word) << 8 | part
            continue
        if heads[kind, keys] == -1:
            heads[kind, keys] = 3 << 8 | len(thirds)
            thirds.append(np.full(256, -1, dtype=np.int16))
        slot = heads[kind, keys]
        assert slot >> 8 == 3 and thirds[slot & 255][word[2]] == -1, f"{word!r} begins another"
        thirds[slot & 255][word[2]] = part
    return heads, np.array(thirds or [np.full(256, -1, dtype=np.int16)])


def _spelled(spellings: dict[str, str]) -> dict[bytes, tuple[int, int]]:
    """Each spelling's UTF-8 bytes: whether it spells a rank (0) or a suit (1), and its part."""
    words: dict[bytes, tuple[int, int]] = {}
    for spelled, canonical in {**{c: c for c in RANKS + SUITS}, **spellings}.items():
        if len(canonical) == 2:
            spelled, canonical = spelled[:-1], canonical[0]
        if canonical in RANKS:
            words[spelled.encode()] = (0, RANKS.index(canonical) * 4)
        elif canonical in SUITS:
            words[spelled.encode()] = (1, SUITS.index(canonical))
    return words
