"""Limits on what one line of a hand history may hold, so hostile input costs bounded memory.

A line of a room's hand history is under a kilobyte, an ``ofc-jsonl`` hand
a few kilobytes. A line longer than ``MAX_LINE_BYTES`` is no hand history
line (a binary file, an archive of zeros): its bytes are not parsed but
replaced by a short note saying so (``SKIPPED``), so the hand it sits in
is rejected (its excerpt is the note) and a line outside any hand is one
reject whose reason is the note (docs/parsers.md).

>>> without_long_lines(b"ok\n" + b"x" * 9 + b"\nend", limit=5)
b'ok\n[skipped: a line of 9 bytes, over the limit of 5 bytes for one line (docs/parsers.md)]\nend'
"""

from __future__ import annotations

import numpy as np

#: The longest line read (bytes, without its line end).
MAX_LINE_BYTES = 1 << 20
#: What an over-long line is replaced by; ``SKIPPED_PREFIX`` starts every such note.
SKIPPED = "[skipped: a line of {length:,} bytes, over the limit of {limit:,} bytes for one line (docs/parsers.md)]"
SKIPPED_PREFIX = "[skipped: a line of "


def without_long_lines(data: bytes, limit: int = MAX_LINE_BYTES) -> bytes:
    """``data`` with every line longer than ``limit`` replaced by a note (``SKIPPED``)."""
    if len(data) <= limit:
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
