"""Section lines (``*** SHOWDOWN ***``, ``== Улица 2 ==``) and their codes, read from the bytes.

A line is a section line when it starts with the format's section prefix
(the first of ``Grammar.sections``, ``words``); its code is ``parsers.segment``'s: 0 for
Fantasyland, the street's number, ``SHOWDOWN``, ``SUMMARY``, or ``UNKNOWN``
for a section the grammar lacks. ``parsers.fast.text`` reads every line's
code in its pass over the bytes (while the line is still in the cache: read
again later, the scattered section lines cost more than the rest of the pass), comparing
the format's words 8 bytes at a time (``parsers.fast.literals.spells``).
"""

from __future__ import annotations

import numba
import numpy as np

from parsers.fast.literals import Packed, packed, spells
from parsers.segment import SHOWDOWN, SUMMARY, UNKNOWN

#: The code of a line that is not a section line.
NO_SECTION = -3
#: Section words for text read without a format: no line is a section line.
NONE = packed(*[b""] * 6)


def words(prefix: str, fantasyland: str, showdown: str, summary: str, street: str) -> Packed:
    """A format's section words as ``code`` takes them (``Grammar.sections``): its section
    prefix, its Fantasyland, showdown and summary lines, and its street line with ``{}``
    where the number goes."""
    before, after = street.split("{}")
    lines = (prefix, fantasyland, showdown, summary, before, after)
    return packed(*(line.encode() for line in lines))


@numba.njit(cache=True, inline="always")
def code(words, start, end, sections) -> int:
    """The code of line ``[start, end)`` of a text (``words``: ``Text.words``):
    ``NO_SECTION`` unless it starts with the section prefix; ``sections``: ``Grammar.sections``
    (bytes past a line's end are ``\\r``, ``\\n`` or zero, which no prefix holds).

    >>> from parsers.fast.grammar import GRAMMARS
    >>> buf = np.frombuffer(b"*** STREET 4 ****** SUMMARY ****** STREET 0 ***" + bytes(40), np.uint8)
    >>> text = np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))
    >>> [code(text, a, b, GRAMMARS["en"].sections) for a, b in ((0, 16), (16, 31), (31, 47))]
    [4, 101, -2]
    >>> code(text, 1, 16, GRAMMARS["en"].sections), code(text, 0, 16, NONE)
    (-3, -3)

    One ``return`` at the end: with a return per case, numba compiles the line pass
    (``parsers.fast.text``) into code that spends a fifth more time on ``ru`` text
    (``docs/benchmarks.md``).
    """
    sizes = sections.sizes
    result = NO_SECTION
    if sizes[0] != 0 and spells(words, start, sections, 0):
        size = end - start
        result = UNKNOWN
        if size == sizes[1] and spells(words, start, sections, 1):
            result = 0
        elif size == sizes[2] and spells(words, start, sections, 2):
            result = SHOWDOWN
        elif size == sizes[3] and spells(words, start, sections, 3):
            result = SUMMARY
        elif size == sizes[4] + 1 + sizes[5] and spells(words, start, sections, 4):
            at = start + sizes[4]
            digit = np.int64(words[at] & np.uint64(255)) - 48
            if 1 <= digit <= 9 and spells(words, at + 1, sections, 5):
                result = digit
    return result
