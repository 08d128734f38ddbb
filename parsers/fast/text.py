"""A chunk's bytes as numpy arrays: its lines, literal tests and short searches at many offsets.

Everything here takes arrays of byte offsets and answers for all of them at
once, so reading a line costs a few numpy operations over all lines, never
Python per line. ``Text.word(pos)`` reads the 8 bytes at each offset as one
little-endian integer (``pairs``: 2 bytes), which makes a literal test a couple of integer
comparisons; ``strings`` turns byte spans into a polars string column
without a Python object per span.

>>> text = Text.of(b"Seat 1: Ann\\r\\nDealt to Ann [Ah]\\n", first_line=7)
>>> text.lines(), text.starts.tolist(), text.ends.tolist()
(3, [0, 13, 31], [11, 30, 31])
>>> text.begins(b"Dealt to ").tolist()
[False, True, False]
>>> text.find(text.starts, text.ends, b"[").tolist()
[-1, 26, -1]
>>> text.strings(text.starts[:2] + 5, text.ends[:2]).to_list()
['1: Ann', ' to Ann [Ah]']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

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

    ``ends`` exclude the line's ``\\n`` and one ``\\r`` before it, as
    ``parsers.lines.line_frame`` does; line ``i`` is line ``first_line + i``
    of the file.
    """

    data: bytes
    buf: np.ndarray
    words: np.ndarray
    pairs: np.ndarray
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
        pairs = np.ndarray((len(buf) - 1,), dtype="<u2", buffer=buf, offset=0, strides=(1,))
        return cls(data, buf, words, pairs, starts, ends, words[starts], first_line)

    def lines(self) -> int:
        return len(self.starts)

    def word(self, pos: np.ndarray, size: int | np.ndarray = 8) -> np.ndarray:
        """The ``size`` (0..8) bytes at each offset as one little-endian integer."""
        if isinstance(size, int) and size == 8:
            return self.words[pos]
        return self.words[pos] & MASKS[size]

    def begins(self, literal: bytes, lines: np.ndarray | None = None) -> np.ndarray:
        """Whether each line (or each of ``lines``, by index) starts with ``literal``.

        (Past a line's end come ``\\r``, ``\\n`` or zero bytes, which no literal here holds.)
        """
        heads = self.heads if lines is None else self.heads[lines]
        head = literal[:8]
        ok = heads & MASKS[len(head)] == int.from_bytes(head, "little")
        if len(literal) > 8:
            rows = np.flatnonzero(ok)
            starts = self.starts[rows] if lines is None else self.starts[lines[rows]]
            ok[rows] = self.equals(starts + 8, literal[8:])
        return ok

    def equals(self, pos: np.ndarray, literal: bytes) -> np.ndarray:
        """Whether the bytes at each offset are ``literal``.

        The first 8 bytes are tested everywhere, the rest only where those matched.
        """
        if len(literal) == 2:
            return self.pairs[pos] == int.from_bytes(literal, "little")
        head = literal[:8]
        ok = self.word(pos, len(head)) == int.from_bytes(head, "little")
        if len(literal) <= 8:
            return ok
        rows = np.flatnonzero(ok)
        for at in range(8, len(literal), 8):
            piece = literal[at : at + 8]
            rows = rows[self.word(pos[rows] + at, len(piece)) == int.from_bytes(piece, "little")]
        ok = np.zeros(len(pos), dtype=bool)
        ok[rows] = True
        return ok

    def which(self, pos: np.ndarray, literals: tuple[bytes, ...]) -> np.ndarray:
        """Which of ``literals`` (16 bytes at most each) is written at each offset (-1: none).

        The literals must differ at some offset within the first 8 bytes and
        the shortest: the byte there picks the one candidate, which is then
        compared in full.
        """
        table = _literal_table(literals)
        first = self.words[pos]
        found = table.pick[(first >> np.uint64(8 * table.key)) & 0xFF]
        hit = (first & table.masks[found, 0]) == table.values[found, 0]
        hit &= (self.words[pos + 8] & table.masks[found, 1]) == table.values[found, 1]
        return np.where(hit, found, -1)

    def digits(self, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The number written with one or two ASCII digits at each offset, and where it ends.

        -1 where there is no digit, or a third one.
        """
        first, second, third = (self.buf[pos + k] - np.uint8(48) for k in range(3))
        one = first < 10
        two = one & (second < 10)
        value = np.where(two, first.astype(np.int64) * 10 + second, first)
        value = np.where(one & ~(two & (third < 10)), value, -1)
        return value, pos + one + two

    def find(
        self, pos: np.ndarray, stop: np.ndarray, targets: bytes, limit: int = 256
    ) -> np.ndarray:
        """The first offset in ``[pos, stop)`` holding one of the bytes ``targets`` (-1: none
        within ``limit`` bytes of ``pos``)."""
        wanted = np.zeros(256, dtype=np.bool_)
        wanted[list(targets)] = True
        return _find(self.buf, pos, stop, wanted, limit)

    def find_back(
        self, pos: np.ndarray, stop: np.ndarray, target: int, limit: int = 256
    ) -> np.ndarray:
        """The last offset in ``[stop, pos)`` holding byte ``target`` (-1: none within ``limit``)."""
        return _find_back(self.buf, pos, stop, target, limit)

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


@numba.njit(cache=True, nogil=True)
def _find(buf, pos, stop, wanted, limit):
    found = np.full(len(pos), -1, dtype=np.int64)
    for i in range(len(pos)):
        for at in range(pos[i], min(stop[i], pos[i] + limit)):
            if wanted[buf[at]]:
                found[i] = at
                break
    return found


@numba.njit(cache=True, nogil=True)
def _find_back(buf, pos, stop, target, limit):
    found = np.full(len(pos), -1, dtype=np.int64)
    for i in range(len(pos)):
        for at in range(pos[i] - 1, max(stop[i], pos[i] - limit) - 1, -1):
            if buf[at] == target:
                found[i] = at
                break
    return found


@dataclass(frozen=True, eq=False)
class _Literals:
    """``Text.which``'s view of some literals: the offset ``key`` where they all differ, the
    literal each byte there picks (``pick``), and each literal's two words (``masks``,
    ``values``), with a last row that matches nothing, for the bytes that pick none."""

    key: int
    pick: np.ndarray
    masks: np.ndarray
    values: np.ndarray


@cache
def _literal_table(literals: tuple[bytes, ...]) -> _Literals:
    key = next(
        k
        for k in range(min(8, *map(len, literals)))
        if len({lit[k] for lit in literals}) == len(literals)
    )
    pick = np.full(256, -1, dtype=np.int64)
    pick[[lit[key] for lit in literals]] = np.arange(len(literals))
    halves = [(lit[:8], lit[8:]) for lit in literals]
    masks = [[MASKS[len(h)] for h in pair] for pair in halves] + [[0, 0]]
    values = [[int.from_bytes(h, "little") for h in pair] for pair in halves] + [[1, 1]]
    return _Literals(key, pick, np.array(masks, np.uint64), np.array(values, np.uint64))
