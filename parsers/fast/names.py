"""Binding lines to seats by the name they start with, compared byte for byte.

A line naming a player (``<name>: ...``, ``Dealt to <name> [...]``) is bound
to the seat of its hand whose name is written at the line's name offset and
is followed by the bytes the line's grammar puts after a name (``": "``,
``" ["``, ``" ("``). Names are compared as up to four 8-byte words
(``parsers.fast.head.NAME_BYTES``), so binding costs a few integer
comparisons per line and seat, and it is exact: a line is bound only when
exactly one seat's name fits. A line that no seat fits (or two do) stays
unbound, and its hand goes to the thorough reader, which names the problem.
"""

from __future__ import annotations

import numpy as np

from parsers.fast.head import NAME_BYTES, Seats
from parsers.fast.text import MASKS, Text

_WORDS = NAME_BYTES // 8


def name_words(text: Text, seats: Seats) -> np.ndarray:
    """Each seat's name as ``(seats, 4)`` words (zero past the name's end)."""
    return np.stack(
        [
            text.word(seats.name_at + 8 * k, np.clip(seats.name_len - 8 * k, 0, 8))
            for k in range(_WORDS)
        ],
        axis=1,
    )


def bind(
    text: Text,
    seats: Seats,
    words: np.ndarray,
    hand: np.ndarray,
    at: np.ndarray,
    first: np.ndarray,
    follow: tuple[bytes, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """The seat row named at each offset ``at`` (-1: none or ambiguous), and where the name ends.

    ``hand`` is each line's hand and ``first`` the 8 bytes at ``at``; a name
    must be followed by one of the two-byte ``follow`` literals. The first 8
    bytes pick the seat (a line whose first bytes fit two seats is left
    unbound); the rest of the name and what follows it are then compared.
    (A name never runs past its line's end: no name holds a line break.)
    """
    row = np.full(len(at), -1, dtype=np.int64)
    if not seats.count():
        return row, row.copy()
    slots = seats.slots[:, : int((seats.slots >= 0).sum(axis=1).max())]
    lengths = np.append(seats.name_len, 0)  # slot -1 (no seat): length 0, never a name
    heads = np.append(words[:, 0], np.uint64(0))
    fits = np.zeros(len(at), dtype=np.int8)
    for slot in range(slots.shape[1]):
        seat = slots[hand, slot]
        length = lengths[seat]
        same = (first & MASKS[np.minimum(length, 8)] == heads[seat]) & (length > 0)
        row = np.where(same, seat, row)
        fits += same
    row = np.where((fits == 1) & _named(text, words, lengths, at, row, follow), row, -1)
    several = np.flatnonzero(fits > 1)
    if len(several):
        row[several] = _one_of(text, words, lengths, at[several], slots[hand[several]], follow)
    return row, np.where(row >= 0, at + lengths[row], -1)


def _named(text: Text, words, lengths, at, seat, follow: tuple[bytes, ...]) -> np.ndarray:
    """Whether the name of ``seat`` (whose first 8 bytes fit) is written at ``at``, then ``follow``."""
    length, seat = lengths[seat], np.maximum(seat, 0)
    pair = text.pairs[at + length]
    same = pair == int.from_bytes(follow[0], "little")
    for other in follow[1:]:
        same |= pair == int.from_bytes(other, "little")
    for k in range(1, -(-int(length.max(initial=0)) // 8)):
        longer = np.flatnonzero(same & (length > 8 * k))
        tail = text.word(at[longer] + 8 * k, np.minimum(length[longer] - 8 * k, 8))
        same[longer] = tail == words[seat[longer], k]
    return same


def _one_of(text: Text, words, lengths, at, slots, follow) -> np.ndarray:
    """The one seat among ``slots`` (per line) whose whole name and ``follow`` are at ``at``."""
    found = np.full(len(at), -1, dtype=np.int64)
    count = np.zeros(len(at), dtype=np.int8)
    first = text.word(at)
    for seat in slots.T:
        length = lengths[seat]
        fits = (first & MASKS[np.minimum(length, 8)] == np.append(words[:, 0], 0)[seat]) & (
            length > 0
        )
        fits &= _named(text, words, lengths, at, seat, follow)
        found = np.where(fits, seat, found)
        count += fits
    return np.where(count == 1, found, -1)
