"""Section lines (``*** SHOWDOWN ***``, ``== Улица 2 ==``) and their codes, read from the bytes.

A line is a section line when it starts with the format's section prefix
(``Grammar.sections[0]``); its code is ``parsers.segment``'s: 0 for
Fantasyland, the street's number, ``SHOWDOWN``, ``SUMMARY``, or ``UNKNOWN``
for a section the grammar lacks. ``parsers.fast.text`` reads every line's
code in its pass over the bytes (while the line is still in the cache: read
again later, the scattered section lines cost more than the rest of the pass).
"""

from __future__ import annotations

import numba
import numpy as np

from parsers.fast.literals import equals
from parsers.segment import SHOWDOWN, SUMMARY, UNKNOWN

#: The code of a line that is not a section line.
NO_SECTION = -3
_NAMED_CODES = (0, SHOWDOWN, SUMMARY)
#: Section words for text read without a format: no line is a section line.
NONE = tuple(np.zeros(0, dtype=np.uint8) for _ in range(6))


@numba.njit(cache=True)
def code(buf, start, end, words) -> int:
    """The code of line ``[start, end)`` of ``buf``: ``NO_SECTION`` unless it starts with
    ``words[0]``; ``words``: ``Grammar.sections`` (bytes past a line's end are ``\\r``,
    ``\\n`` or zero, which no prefix holds).

    >>> from parsers.fast.grammar import GRAMMARS
    >>> buf = np.frombuffer(b"*** STREET 4 ****** SUMMARY ****** STREET 0 ***", dtype=np.uint8)
    >>> [code(buf, a, b, GRAMMARS["en"].sections) for a, b in ((0, 16), (16, 31), (31, 47))]
    [4, 101, -2]
    >>> code(buf, 1, 16, GRAMMARS["en"].sections), code(buf, 0, 16, NONE)
    (-3, -3)
    """
    prefix = words[0]
    if len(prefix) == 0 or not equals(buf, start, prefix):
        return NO_SECTION
    for k in range(3):
        if _is(buf, start, end, words[k + 1]):
            return _NAMED_CODES[k]
    head, tail = words[4], words[5]
    at = start + len(head)
    if end - start == len(head) + 1 + len(tail) and _is(buf, start, at, head):
        digit = buf[at] - 48
        if 1 <= digit <= 9 and _is(buf, at + 1, end, tail):
            return digit
    return UNKNOWN


@numba.njit(cache=True, inline="always")
def _is(buf, start, end, literal) -> bool:
    return end - start == len(literal) and equals(buf, start, literal)
