"""Cutting a chunk's lines into hands, stray runs and sections, from its bytes.

The same cut as ``parsers.segment`` (which the thorough reader uses): a hand
starts at a line beginning with the format's header prefix (``OFC Hand #``,
``Раздача №``) and runs to the next blank line or header; non-blank lines
outside hands form one stray run per gap between hands; section lines
(``*** ... ***``, ``== ... ==``) inside a hand open sections, whose codes
(``Text.sections``) are carried down to the lines below (``HEAD`` above the
first one). The format's words come from its ``parsers.fast.grammar.Grammar``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import polars as pl

from parsers.extract import EXCERPT_CHARS
from parsers.fast.grammar import Grammar
from parsers.fast.sections import NO_SECTION
from parsers.fast.text import Text
from parsers.segment import HEAD, SHOWDOWN

#: First bytes of the characters ``\s`` matches (ASCII spaces and controls, U+0085, U+00A0,
#: U+1680, U+2000..U+205F, U+3000): only lines starting with one may be blank.
_SPACE_LEADS = np.zeros(256, dtype=bool)
_SPACE_LEADS[[9, 10, 11, 12, 13, 32, 0xC2, 0xE1, 0xE2, 0xE3]] = True


@dataclass(frozen=True, eq=False)
class Hands:
    """Where the hands of a chunk are.

    Per hand: ``first`` (its header's line index) and ``stop`` (one past its
    last line). Per line: ``hand`` (-1 outside hands and on blank lines),
    ``section`` (whether it is a section line of a hand) and ``sec`` (the
    code of the section it is in, ``HEAD`` above the first, ``UNKNOWN`` for a
    section the grammar lacks). The line indices of the ``head`` lines (below
    a header, above its first section) and of the ``sections``; ``showdown``:
    how many lines of hands are in a showdown section. ``strays``: one row per
    run of lines outside hands (``n``, ``count``, ``line``: its first line,
    cut to the excerpt length; ``garbled``: its lines holding U+FFFD).
    """

    first: np.ndarray
    stop: np.ndarray
    hand: np.ndarray
    section: np.ndarray
    sec: np.ndarray
    head: np.ndarray
    sections: np.ndarray
    showdown: int
    strays: pl.DataFrame

    def count(self) -> int:
        return len(self.first)


def cut(text: Text, grammar: Grammar) -> Hands:
    """Find the hands, stray runs and sections of ``text`` (in ``grammar``'s format)."""
    blank = _blank(text, text.ends - text.starts)
    header = text.begins(grammar.header)
    walked = _walk(text.buf, text.starts, text.ends, blank, header, text.sections)
    hand, sec, section, first, stop, head, sections, showdown, *strays = walked
    return Hands(
        first=first,
        stop=stop,
        hand=hand,
        section=section,
        sec=sec,
        head=head,
        sections=sections,
        showdown=showdown,
        strays=_strays(text, *strays),
    )


@numba.njit(cache=True, nogil=True)
def _walk(buf, starts, ends, blank, header, codes):
    """One pass over the lines: ``Hands``' arrays, and the first line, size and number of
    lines holding bytes that did not decode of each stray run (the non-blank lines outside
    hands between two headers). ``codes``: each line's section code (``Text.sections``)."""
    lines = len(starts)
    hands = header.sum()
    hand = np.full(lines, -1, dtype=np.int64)
    sec = np.full(lines, HEAD, dtype=np.int16)
    section = np.zeros(lines, dtype=np.bool_)
    first = np.empty(hands, dtype=np.int64)
    stop = np.empty(hands, dtype=np.int64)
    head = np.empty(lines, dtype=np.int64)
    sections = np.empty(lines, dtype=np.int64)
    stray_at = np.empty(hands + 1, dtype=np.int64)
    stray_count = np.zeros(hands + 1, dtype=np.int64)
    garbled = np.zeros(hands + 1, dtype=np.int64)
    count = heads = found = strays = showdown = 0
    inside, code, gap = False, HEAD, -2
    for i in range(lines):
        if header[i]:
            if inside:
                stop[count - 1] = i
            first[count] = i
            count += 1
            inside, code = True, HEAD
        elif blank[i]:
            if inside:
                stop[count - 1] = i
            inside = False
        if inside and not blank[i]:
            hand[i] = count - 1
            if codes[i] != NO_SECTION:
                code = codes[i]
                section[i] = True
                sections[found] = i
                found += 1
            elif code == HEAD and not header[i]:
                head[heads] = i
                heads += 1
            showdown += code == SHOWDOWN
        elif not blank[i]:
            if gap != count - 1:
                gap = count - 1
                stray_at[strays] = i
                strays += 1
            stray_count[strays - 1] += 1
            garbled[strays - 1] += _undecoded(buf, starts[i], ends[i])
        sec[i] = code if count else HEAD
    if inside:
        stop[count - 1] = lines
    return (
        hand, sec, section, first, stop, head[:heads].copy(), sections[:found].copy(), showdown,
        stray_at[:strays].copy(), stray_count[:strays].copy(), garbled[:strays].copy(),
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def _undecoded(buf, start, end) -> bool:
    """Whether ``[start, end)`` holds U+FFFD (``parsers.lines.UNDECODED``: a byte that did not
    decode)."""
    for k in range(start, end - 2):
        if buf[k] == 0xEF and buf[k + 1] == 0xBF and buf[k + 2] == 0xBD:
            return True
    return False


def _blank(text: Text, length: np.ndarray) -> np.ndarray:
    """Lines of nothing but white space (``^\\s*$``, as ``parsers.segment`` tests)."""
    blank = length == 0
    first_bytes = text.heads.astype("<u8", copy=False).view(np.uint8)[::8]
    maybe = np.flatnonzero(_SPACE_LEADS.take(first_bytes) & ~blank)
    if len(maybe):
        spaces = text.strings(text.starts[maybe], text.ends[maybe]).str.contains(r"^\s*$")
        blank[maybe] = spaces.to_numpy()
    return blank


def _strays(text: Text, at: np.ndarray, count: np.ndarray, garbled: np.ndarray) -> pl.DataFrame:
    """One row per run of non-blank lines between two hands: its first line, size, and how
    many of its lines hold bytes that did not decode."""
    return pl.DataFrame(
        {
            "n": at + text.first_line,
            "count": count,
            "line": text.strings(text.starts[at], text.ends[at]).str.slice(0, EXCERPT_CHARS),
            "garbled": garbled,
        },
        schema={"n": pl.Int64, "count": pl.Int64, "line": pl.String, "garbled": pl.Int64},
    )
