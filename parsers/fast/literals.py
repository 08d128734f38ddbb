"""Comparing the bytes of a chunk with a format's literals, inside the compiled passes.

``equals`` compares byte by byte. ``Packed`` literals are compared 8 bytes at
a time against ``Text.words`` (the 8 bytes at each offset as one integer):
``spells`` takes one or a few integer comparisons where ``equals`` takes one
per byte, which matters on lines every chunk holds tens of thousands of
(section lines: ``parsers.fast.sections``). ``same`` compares two spans of the
text the same way (a name on a line with the seat line's, a text with one filed).

>>> buf = np.frombuffer("== Итог ==".encode() + bytes(8), dtype=np.uint8)
>>> equals(buf, 0, buf[:7]), equals(buf, 1, buf[:7])
(True, False)
>>> words = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
>>> lits = packed("== Итог ==".encode(), b"==", b"= ")
>>> [spells(words, 0, lits, k) for k in range(3)], spells(words, 1, lits, 2)
([True, True, False], True)
>>> same(words, 0, 12, 2), same(words, 0, 11, 3)
(True, False)
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def equals(buf, at, literal) -> bool:
    """Whether the bytes of ``buf`` at ``at`` spell ``literal``."""
    for k in range(len(literal)):  # noqa: SIM110 (a loop compiles to the tightest code)
        if buf[at + k] != literal[k]:
            return False
    return True


#: ``_MASKS[k]`` keeps the low ``k`` bytes of a word.
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


@numba.njit(cache=True, inline="always")
def same(words, at, other, length) -> bool:
    """Whether the ``length`` bytes at ``at`` and at ``other`` are the same (``words``:
    ``Text.words``, readable up to ``length`` past either rounded up to 8)."""
    for k in range(0, length, 8):
        if (words[at + k] ^ words[other + k]) & _MASKS[min(length - k, 8)]:
            return False
    return True


class Packed(NamedTuple):
    """Literals as 8-byte little-endian ``words`` (one row per literal), the ``masks`` that
    keep each word's bytes of the literal, and each literal's ``sizes`` in bytes."""

    words: np.ndarray
    masks: np.ndarray
    sizes: np.ndarray


def packed(*literals: bytes) -> Packed:
    """``literals`` as ``spells`` compares them.

    >>> packed(b"ab", b"").sizes.tolist(), hex(packed(b"ab").words[0, 0])
    ([2, 0], '0x6261')
    """
    width = max([1, *((len(lit) + 7) // 8 for lit in literals)])
    words = np.zeros((len(literals), width), dtype=np.uint64)
    masks = np.zeros((len(literals), width), dtype=np.uint64)
    for row, literal in enumerate(literals):
        for k in range(0, len(literal), 8):
            piece = literal[k : k + 8]
            words[row, k // 8] = int.from_bytes(piece, "little")
            masks[row, k // 8] = (1 << (8 * len(piece))) - 1
    return Packed(words, masks, np.array([len(lit) for lit in literals], dtype=np.int64))


@numba.njit(cache=True, inline="always")
def spells(words, at, literals, row) -> bool:
    """Whether the bytes at ``at`` spell literal ``row`` of ``literals`` (``Packed``);
    ``words``: ``Text.words``, readable up to the literal's length past ``at`` rounded up to 8."""
    for k in range((literals.sizes[row] + 7) // 8):
        if (words[at + 8 * k] ^ literals.words[row, k]) & literals.masks[row, k]:
            return False
    return True
