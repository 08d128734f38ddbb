"""Card lists in brackets (``[Ah Kd 7c]``), read from the bytes: where they end and their codes.

A canonical list is ``[`` then cards of two bytes (rank ``23456789TJQKA``,
suit ``shdc``) separated by single spaces, then ``]``; so a list of ``c``
cards closes ``3c`` bytes after it opens (one byte for an empty list). The
close is found by testing those offsets, and every card and separator is
then checked. Other spellings (``10h``, suit symbols) are not canonical:
their hands go to the thorough reader, which understands them.
Codes are ``pipeline.cards`` codes (``rank * 4 + suit``).

>>> from parsers.fast.text import Text
>>> text = Text.of(b"x [Ah Kd] [] [Ah Kx]", 1)
>>> lists = read_lists(text, np.array([2, 10, 13]), np.array([20, 20, 20]))
>>> lists.count.tolist(), lists.ok.tolist(), lists.codes.tolist(), lists.spread(np.arange(3)).tolist()
([2, 0, 2], [True, True, False], [49, 46, 49, -1], [0, 0, 2, 2])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.cards import RANKS, SUITS

#: Lists of up to ``SHORT`` cards are read from two words; longer ones (up to ``MOST``)
#: step through the remaining offsets.
SHORT = 5
MOST = 20
#: Card code of each two bytes read as a little-endian 16-bit number (-1: not a card).
_PAIRS = np.full(1 << 16, -1, dtype=np.int16)
for _r, _rank in enumerate(RANKS.encode()):
    for _s, _suit in enumerate(SUITS.encode()):
        _PAIRS[_rank | _suit << 8] = _r * 4 + _s
#: Bytes that may follow a card: a space, or the list's close.
_AFTER = np.zeros(256, dtype=bool)
_AFTER[[ord(" "), ord("]")]] = True


@dataclass(frozen=True, eq=False)
class Lists:
    """Bracketed lists: per list ``count``, ``close`` (offset of its ``]``) and ``ok``
    (canonical); per card its ``codes`` (-1: no card), list after list.

    ``spread(values)`` repeats a per-list value for each of the list's cards.
    """

    count: np.ndarray
    close: np.ndarray
    ok: np.ndarray
    codes: np.ndarray

    def spread(self, values: np.ndarray) -> np.ndarray:
        return np.repeat(values, self.count)


def read_lists(text, opens: np.ndarray, stops: np.ndarray) -> Lists:
    """The lists opening (``[``) at ``opens``, each ending before its ``stops`` offset.

    The 16 bytes after a ``[`` hold a list of up to ``SHORT`` cards: they are
    read once per list as two words, and shifts pick each card's two bytes
    and the byte after it (a space, or the close). Longer lists read on from
    the buffer. A close found past the line's end is harmless: the line end
    then lies inside the list and fails the card test.
    """
    low, high = text.words[opens + 1], text.words[opens + 9]
    # The n-th card of a short list from the lowest byte on: two bytes, then the byte after it.
    pieces = (low, low >> 24, (low >> 48) | (high << 16), high >> 8, high >> 32)
    count = np.where(low & 0xFF == ord("]"), 0, -1)
    spaced = np.ones(len(opens), dtype=bool)
    for cards, piece in enumerate(pieces, start=1):
        after = (piece >> 16) & 0xFF
        count = np.where((count < 0) & spaced & (after == ord("]")), cards, count)
        spaced &= after == ord(" ")
    longer = np.flatnonzero((count < 0) & spaced)
    count[longer] = _long_count(text, opens[longer])
    size = np.maximum(count, 0)
    close = opens + np.where(count > 0, 3 * count, 1)
    owner = np.repeat(np.arange(len(opens)), size)
    nth = np.arange(len(owner)) - np.repeat(np.cumsum(size) - size, size)
    short = np.stack([_PAIRS[(piece & 0xFFFF).astype(np.intp)] for piece in pieces])
    codes = short.reshape(-1)[np.minimum(nth, SHORT - 1) * len(opens) + owner]
    beyond = np.flatnonzero(nth >= SHORT)
    at = opens[owner[beyond]] + 1 + 3 * nth[beyond]
    codes[beyond] = np.where(_AFTER[text.buf[at + 2]], _PAIRS[text.pairs[at]], -1)
    ok = (count >= 0) & (close < stops)
    ok[owner[codes < 0]] = False
    return Lists(count=size, close=close, ok=ok, codes=codes)


def _long_count(text, opens: np.ndarray) -> np.ndarray:
    """Cards in lists longer than ``SHORT`` (-1: no close within ``MOST``)."""
    count = np.full(len(opens), -1, dtype=np.int64)
    rows = np.arange(len(opens))
    for cards in range(SHORT + 1, MOST + 1):
        if not len(rows):
            break
        hit = text.buf[opens[rows] + 3 * cards] == ord("]")
        count[rows[hit]] = cards
        rows = rows[~hit]
    return count
