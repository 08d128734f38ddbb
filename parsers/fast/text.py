"""A chunk's bytes as numpy arrays: where its lines are, which begin with a literal, and spans as text.

Everything here answers for all lines (or spans) at once, never Python per
line: ``heads`` holds each line's first 8 bytes as one little-endian
integer, which makes a test of a line's beginning a couple of integer
comparisons; ``strings`` turns byte spans into a polars string column
without a Python object per span. The compiled scans
(``parsers.fast.head_scan``, ``parsers.fast.body_scan``) read ``buf``.

>>> text = Text.of(b"Seat 1: Ann\\r\\nDealt to Ann [Ah]\\n", first_line=7)
>>> text.lines(), text.starts.tolist(), text.ends.tolist()
(3, [0, 13, 31], [11, 30, 31])
>>> text.begins(b"Dealt to ").tolist()
[False, True, False]
>>> text.strings(text.starts[:2] + 5, text.ends[:2]).to_list()
['1: Ann', ' to Ann [Ah]']
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import polars as pl
import pyarrow as pa

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
    ``first_line + i`` of the file.
    """

    data: bytes
    buf: np.ndarray
    words: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    heads: np.ndarray
    first_line: int

    @classmethod
    def of(cls, data: bytes, first_line: int, scratch: np.ndarray | None = None) -> Text:
        """The text of ``data``, copied into ``scratch`` when given (at least ``len(data) +
        PAD`` bytes; reusing one buffer from chunk to chunk spares the system handing out
        fresh memory each time), which the text then owns until dropped."""
        size = len(data)
        if scratch is None:
            scratch = np.empty(size + PAD, dtype=np.uint8)
        buf = scratch[: size + PAD]
        buf[:size] = np.frombuffer(data, dtype=np.uint8)
        buf[size:] = 0
        newlines = np.flatnonzero(buf[:size] == 10)
        starts = np.empty(len(newlines) + 1, dtype=np.int64)
        starts[0], starts[1:] = 0, newlines + 1
        ends = np.append(newlines, size)
        if b"\r" in data:
            ends -= (buf[np.maximum(ends - 1, 0)] == 13) & (ends > starts)
        words = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, offset=0, strides=(1,))
        return cls(data, buf, words, starts, ends, words[starts], first_line)

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
