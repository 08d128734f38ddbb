"""Limits on what one line and one hand of a hand history may hold, so hostile input costs
bounded memory and gets a reason a user understands.

A line of a room's hand history is under a kilobyte, an ``ofc-jsonl`` hand
a few kilobytes. A line longer than ``MAX_LINE_BYTES`` is no hand history
line (a binary file, an archive of zeros): its bytes are not parsed but
replaced by a short note saying so (``SKIPPED``), so the hand it sits in
is rejected (its excerpt is the note) and a line outside any hand is one
reject whose reason is the note (docs/parsers.md).

A hand of more than ``MAX_HAND_LINES`` lines or ``MAX_HAND_BYTES`` bytes is
no hand a room writes (ten seats, every street of Classic with a timeout
line each, come to under 500 lines of a few hundred bytes): it is one
reject, whose reason (``hand_too_long``) gives its size. A chunk where some
``MAX_HAND_BYTES`` hold no blank line (``has_long_paragraph``) is cut around
such hands first (``long_hands``), each rejected from its bytes alone; a hand
over the line limit in fewer bytes keeps only its header line in the frame
(``parsers.segment``). A hand longer than a chunk runs into the
next one (``Chunk.continues``): its lines there are dropped up to the next
blank line or header (``without_continued_hand``), so it stays one reject.

>>> print(without_long_lines(b"ok\\n" + b"x" * 9 + b"\\nend", limit=5).decode())
ok
[skipped: a line of 9 bytes or more, over the limit of 5 bytes for one line (docs/parsers.md)]
end
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import polars as pl

#: The longest line read (bytes, without its line end).
MAX_LINE_BYTES = 1 << 20
#: What an over-long line is replaced by; ``SKIPPED_PREFIX`` starts every such note.
SKIPPED = (
    "[skipped: a line of {length:,} bytes or more, over the limit of {limit:,} bytes for one"
    " line (docs/parsers.md)]"
)
SKIPPED_PREFIX = "[skipped: a line of "
#: The most lines (non-blank, header included) and bytes (line ends included) of one hand.
MAX_HAND_LINES = 1_000
MAX_HAND_BYTES = 1 << 20


def line_too_long(length: int, limit: int = MAX_LINE_BYTES) -> str:
    """Why a line of ``length`` bytes (or more: all of it that was read) is rejected.

    >>> line_too_long(2_000_000)
    'line too long: 2,000,000 bytes or more, over the limit of 1,048,576 bytes for one line (docs/parsers.md)'
    """
    return (
        f"line too long: {length:,} bytes or more, over the limit of {limit:,} bytes for one"
        " line (docs/parsers.md)"
    )


def hand_too_long(lines: pl.Expr, size: pl.Expr) -> pl.Expr:
    """Why a hand of ``lines`` lines and ``size`` bytes is rejected.

    >>> pl.select(hand_too_long(pl.lit(1500), pl.lit(60000))).item()
    'hand too long: 1,500 lines (60,000 bytes) read, over the limit of 1,000 lines or 1,048,576 bytes for one hand (docs/parsers.md)'
    """
    limit = f"over the limit of {MAX_HAND_LINES:,} lines or {MAX_HAND_BYTES:,} bytes for one hand"
    return pl.format(
        "hand too long: {} lines ({} bytes) read, {} (docs/parsers.md)",
        _thousands(lines),
        _thousands(size),
        pl.lit(limit),
    )


def _thousands(number: pl.Expr) -> pl.Expr:
    """``number`` written with thousands separators (``1,048,576``)."""
    digits = number.cast(pl.String).str.reverse().str.replace_all(r"(\d{3})", "$1,")
    return digits.str.strip_suffix(",").str.reverse()


def has_long_paragraph(data: bytes, limit: int = MAX_HAND_BYTES) -> bool:
    """Whether some ``limit`` bytes of ``data`` hold no blank line: a hand there may be over
    the limit (a few ``rfind`` calls per chunk, so every chunk can be asked).

    >>> has_long_paragraph(b"a\\n\\nb\\n" * 4, limit=8), has_long_paragraph(b"ab\\n" * 6, limit=8)
    (False, True)
    """
    start = 0
    while len(data) - start > limit:
        blank = last_blank(data, start, start + limit)
        if blank < 0:
            return True
        start = blank + 1
    return False


def last_blank(data: bytes, start: int, end: int) -> int:
    """Where the ``\\n`` before the last blank line of ``data[start:end]`` is (-1: none); the
    ``\\r\\n`` form is looked for only after the last ``\\n\\n``, so neither search runs
    over the whole span when a blank line is near its end.

    >>> last_blank(b"a\\n\\nb\\r\\n\\r\\nc", 0, 10), last_blank(b"a\\n\\nb", 0, 5), last_blank(b"ab", 0, 2)
    (5, 1, -1)
    """
    blank = data.rfind(b"\n\n", start, end)
    return max(blank, data.rfind(b"\n\r\n", max(blank, start), end))


@dataclass(frozen=True)
class Span:
    """Bytes ``start..end`` of a chunk: whole lines, or one hand over the limits (``long``)."""

    start: int
    end: int
    long: bool


def long_hands(data: bytes, headers: tuple[str, ...]) -> list[Span]:
    """``data`` cut around its hands over ``MAX_HAND_LINES`` lines or ``MAX_HAND_BYTES`` bytes
    (from a line starting with one of ``headers`` to the next blank line or header).

    >>> text = b"OFC Hand #1\\nx\\n\\nOFC Hand #2\\n" + b"y\\n" * 1001 + b"\\nend\\n"
    >>> [(s.start, s.end, s.long) for s in long_hands(text, ("OFC Hand #",))]
    [(0, 15, False), (15, 2029, True), (2029, 2034, False)]
    """
    starts = b"|".join(re.escape(h.encode()) for h in headers)
    bounds = re.compile(rb"^(?:(" + starts + rb")|[ \t\r]*$)", re.M)
    spans, at, hand = [], 0, -1  # hand: where the current hand starts (-1: none)
    for found in bounds.finditer(data):
        if hand >= 0 and _too_long(data, hand, found.start()):
            spans += [Span(at, hand, False), Span(hand, found.start(), True)]
            at = found.start()
        hand = found.start() if found.group(1) else -1
    if hand >= 0 and _too_long(data, hand, len(data)):
        spans += [Span(at, hand, False), Span(hand, len(data), True)]
        at = len(data)
    return [span for span in [*spans, Span(at, len(data), False)] if span.end > span.start]


def _too_long(data: bytes, start: int, end: int) -> bool:
    return end - start > MAX_HAND_BYTES or data.count(b"\n", start, end) > MAX_HAND_LINES


def without_continued_hand(data: bytes, headers: tuple[str, ...]) -> bytes:
    """``data`` with its first lines, up to its first blank line or line starting with one of
    ``headers``, made blank (line ends kept, so line numbers stay): the rest of a hand or
    run of stray lines that an earlier chunk began and accounted for.

    >>> without_continued_hand(b"rest\\nmore\\nOFC Hand #2\\n", ("OFC Hand #",))
    b'\\n\\nOFC Hand #2\\n'
    """
    starts = b"|".join(re.escape(h.encode()) for h in headers)
    found = re.compile(rb"^(?:[ \t\r]*$|" + starts + rb")", re.M).search(data)
    end = len(data) if found is None else found.start()
    return b"\n" * data.count(b"\n", 0, end) + data[end:]


def without_long_lines(data: bytes, limit: int = MAX_LINE_BYTES) -> bytes:
    """``data`` with every line longer than ``limit`` replaced by a note (``SKIPPED``)."""
    if not has_long_paragraph(data, limit):  # a longer line would be a longer paragraph
        return data
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    starts = np.concatenate([[0], ends + 1])
    stops = np.concatenate([ends, [len(data)]])
    long = np.flatnonzero(stops - starts > limit)
    if not len(long):
        return data
    parts, at = [], 0
    for i in long.tolist():
        begin, stop = int(starts[i]), int(stops[i])
        parts += [data[at:begin], SKIPPED.format(length=stop - begin, limit=limit).encode()]
        at = stop
    parts.append(data[at:])
    return b"".join(parts)


class LineLimited(io.RawIOBase):
    """A stream that hands out at most ``limit + 1`` bytes of any line: the rest of a longer
    line is read and dropped, so reading a file of one endless line (2 GiB of zeros in a
    ``.gz``) needs no more memory than a normal one. ``without_long_lines`` then replaces
    what is left of the line by its note.

    >>> stream = LineLimited(io.BytesIO(b"ab\\n" + b"x" * 50 + b"\\ncd"), limit=4)
    >>> b"".join(iter(lambda: stream.read(8), b""))
    b'ab\\nxxxxx\\ncd'
    """

    def __init__(self, stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> None:
        self._stream = stream
        self._limit = limit
        self._line = 0  # bytes of the current line handed out so far
        self._dropping = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        view = memoryview(buffer).cast("B")
        while True:
            read = _read_once(self._stream, view)
            if not read:
                return 0
            kept = self._keep(view, read)
            if kept:
                return kept

    def _keep(self, view: memoryview, size: int) -> int:
        """Drop the bytes of ``view[:size]`` past the limit of their line; the bytes kept.

        Only a line that runs over a block's edge is cut here; a longer line
        inside the block is bounded by the block and left to ``without_long_lines``.
        """
        if self._dropping:
            first = _NEWLINE.search(view, 0, size)
            if first is None:
                return 0
            size -= first.start()
            view[:size] = view[first.start() : first.start() + size]
            self._dropping, self._line = False, 0
        first = _NEWLINE.search(view, 0, size)
        head = size if first is None else first.start()
        room = self._limit + 1 - self._line
        if head > room:  # the line from the last block grows past the limit: cut it here
            rest = size - head
            view[room : room + rest] = view[head:size]
            size = room + rest
            if first is None:
                self._line, self._dropping = self._limit + 1, True
                return size
            head = room
        if first is None:
            self._line += head
            return size
        last = _last_newline(view, size)
        tail = size - last - 1
        if tail > self._limit + 1:
            size = last + 1 + self._limit + 1
            self._line, self._dropping = self._limit + 1, True
        else:
            self._line = tail
        return size


_NEWLINE = re.compile(b"\\n")


def _last_newline(view: memoryview, size: int, window: int = 1 << 16) -> int:
    """Where the last ``\\n`` of ``view[:size]`` is (there is one)."""
    end = size
    while True:
        start = max(0, end - window)
        found = bytes(view[start:end]).rfind(b"\n")
        if found >= 0:
            return start + found
        end, window = start, window * 4


def _read_once(stream: BinaryIO, view: memoryview) -> int:
    """One read of ``stream`` into ``view`` (``readinto1`` where there is one: a compressed
    stream cut short then raises only after handing out all it could decompress)."""
    return getattr(stream, "readinto1", stream.readinto)(view) or 0
