"""A chunk's bytes as numpy arrays: where its lines are, which begin with a literal, which are
section lines, and spans as text.

Everything here answers for all lines (or spans) at once, never Python per
line: ``heads`` holds each line's first 8 bytes as one little-endian
integer, which makes a test of a line's beginning a couple of integer
comparisons; ``strings`` turns byte spans into a polars string column
without a Python object per span. One compiled pass over the bytes finds
the lines, their first bytes and their section codes (``parsers.fast.sections``)
while each line is in the cache. The compiled scans
(``parsers.fast.head_scan``, ``parsers.fast.body_scan``) read ``buf``.

>>> text = Text.of(b"Seat 1: Ann\\r\\nDealt to Ann [Ah]\\n", first_line=7)
>>> text.lines(), text.starts.tolist(), text.ends.tolist()
(3, [0, 13, 31], [11, 30, 31])
>>> text.begins(b"Dealt to ").tolist()
[False, True, False]
>>> from parsers.fast.grammar import GRAMMARS
>>> lines = b"*** SHOWDOWN ***\\r\\n***\\n*** STREET 2 ***\\n*** STREET 2 ***"
>>> Text.of(lines, 1, section_words=GRAMMARS["en"].sections).sections.tolist()
[100, -3, 2, 2]
>>> text.strings(text.starts[:2] + 5, text.ends[:2]).to_list()
['1: Ann', ' to Ann [Ah]']
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import polars as pl
import pyarrow as pa

from parsers.fast import sections
from parsers.fast.bits import trailing_zeros
from parsers.fast.literals import Packed
from parsers.lines import count_lines

#: Zero bytes after the text, so reads of a few words past a line end stay in the buffer.
PAD = 64
#: ``MASKS[k]`` keeps the low ``k`` bytes of a word (``k`` = 0..8).
MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


@dataclass(frozen=True, eq=False)
class Text:
    """The bytes of a chunk (UTF-8) and where its lines start and end.

    ``buf`` holds the bytes and ``PAD`` zero bytes after them; ``words[k]`` is
    the 8 bytes at offset ``k`` as one little-endian integer, ``heads`` those
    of each line's start. ``ends`` exclude the line's ``\\n`` and one ``\\r``
    before it, as ``parsers.lines.line_frame`` does; line ``i`` is line
    ``first_line + i`` of the file. ``sections``: each line's section code
    (``parsers.fast.sections.NO_SECTION`` for the other lines).
    """

    data: bytes
    buf: np.ndarray
    words: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    heads: np.ndarray
    sections: np.ndarray
    first_line: int

    @classmethod
    def of(
        cls,
        data: bytes,
        first_line: int,
        scratch: np.ndarray | None = None,
        newlines: int | None = None,
        section_words: Packed = sections.NONE,
    ) -> Text:
        """The text of ``data``, copied into ``scratch`` when given (at least ``len(data) +
        PAD`` bytes; reusing one buffer from chunk to chunk spares the system handing out
        fresh memory each time), which the text then owns until dropped. ``newlines``: how
        many ``\\n`` ``data`` holds, when known (else they are counted); ``section_words``:
        the format's (``Grammar.sections``; by default no line is a section line)."""
        size = len(data)
        if scratch is None:
            scratch = np.empty(size + PAD, dtype=np.uint8)
        buf = scratch[: size + PAD]
        buf[:size] = np.frombuffer(data, dtype=np.uint8)
        buf[size:] = 0
        newlines = count_lines(data) if newlines is None else newlines
        words = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, offset=0, strides=(1,))
        lines = _lines(buf, words, size, newlines, section_words)
        return cls(data, buf, words, *lines, first_line)

    def lines(self) -> int:
        return len(self.starts)

    def begins(self, literal: bytes) -> np.ndarray:
        """Whether each line starts with ``literal``: its first 8 bytes are tested on every
        line, each further 8 only on the lines that still match.

        (Past a line's end come ``\\r``, ``\\n`` or zero bytes, which no literal here holds.)
        """
        ok = _matches(self.heads, literal[:8])
        for at in range(8, len(literal), 8):
            rows = np.flatnonzero(ok)
            ok[rows] = _matches(self.words[self.starts[rows] + at], literal[at : at + 8])
        return ok

    def strings(self, starts: np.ndarray, ends: np.ndarray) -> pl.Series:
        """The text of each span ``[start, end)`` as a polars string column (spans in any order).

        >>> Text.of(b"abcdef", 1).strings(np.array([3, 0]), np.array([5, 2])).to_list()
        ['de', 'ab']
        """
        offsets, data = _gather(self.buf, starts, ends)
        array = pa.LargeStringArray.from_buffers(
            len(starts), pa.py_buffer(offsets), pa.py_buffer(data)
        )
        return pl.Series(array)


def _matches(words: np.ndarray, piece: bytes) -> np.ndarray:
    """Whether each word's first ``len(piece)`` (at most 8) bytes are ``piece``."""
    return words & MASKS[len(piece)] == int.from_bytes(piece, "little")


@numba.njit(cache=True, nogil=True)
def _lines(buf, words, size, newlines, section_words):
    """Where each line of ``buf[:size]`` (which holds ``newlines`` ``\\n``) starts and ends
    (before its ``\\n`` and one ``\\r`` before that), its first 8 bytes and its section code.

    Eight bytes at a time (the zero bytes after the text hold no ``\\n``): a word's ``\\n``
    bytes become its set high bits, taken lowest first, and each line is read as its ``\\n``
    is found, while it is in the cache.
    """
    starts = np.empty(newlines + 1, dtype=np.int64)
    ends = np.empty(newlines + 1, dtype=np.int64)
    heads = np.empty(newlines + 1, dtype=np.uint64)
    codes = np.full(newlines + 1, sections.NO_SECTION, dtype=np.int16)
    sizes, prefix = section_words.sizes, section_words.words[0, 0]
    lead = np.int64(prefix & np.uint64(255)) if sizes[0] else 256  # a section line's first byte
    starts[0], heads[0] = 0, words[0]
    line = 0
    eights = buf[: (size + 7) // 8 * 8].view(np.uint64)
    for w in range(len(eights)):
        x = eights[w] ^ _NEWLINE_BYTES
        marks = ~(((x & _LOW_SEVEN) + _LOW_SEVEN) | x | _LOW_SEVEN)  # 0x80 where x had 0
        while marks:
            at = 8 * w + (trailing_zeros(marks) >> 3)
            start = starts[line]
            end = ends[line] = at - (at > start and buf[at - 1] == 13)
            if buf[start] == lead:
                codes[line] = sections.code(words, start, end, section_words)
            line += 1
            starts[line], heads[line] = at + 1, words[at + 1]
            marks &= marks - np.uint64(1)
    start = starts[line]
    end = ends[line] = size - (size > start and buf[size - 1] == 13)
    if buf[start] == lead:
        codes[line] = sections.code(words, start, end, section_words)
    return starts, ends, heads, codes


_NEWLINE_BYTES = np.uint64(0x0A0A0A0A0A0A0A0A)
_LOW_SEVEN = np.uint64(0x7F7F7F7F7F7F7F7F)


@numba.njit(cache=True, nogil=True)
def _gather(buf, starts, ends):
    """The bytes of the spans ``[starts, ends)`` one after another, and where each begins."""
    offsets = np.empty(len(starts) + 1, dtype=np.int64)
    offsets[0] = 0
    for i in range(len(starts)):
        offsets[i + 1] = offsets[i] + max(ends[i] - starts[i], 0)
    data = np.empty(offsets[-1], dtype=np.uint8)
    for i in range(len(starts)):
        data[offsets[i] : offsets[i + 1]] = buf[starts[i] : starts[i] + offsets[i + 1] - offsets[i]]
    return offsets, data
