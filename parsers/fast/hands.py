"""Cutting a chunk's lines into hands, stray runs and sections, from its bytes.

The same cut as ``parsers.segment`` (which the thorough reader uses): a hand
starts at a line beginning ``OFC Hand #`` and runs to the next blank line or
header; non-blank lines outside hands form one stray run per gap between
hands; ``*** ... ***`` lines inside a hand open sections, whose codes are
carried down to the lines below (``HEAD`` above the first one).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from parsers.en import HEADER_PREFIX, SECTION_PREFIX
from parsers.extract import EXCERPT_CHARS
from parsers.fast.text import MASKS, Text
from parsers.segment import HEAD, SHOWDOWN, SUMMARY, UNKNOWN

#: First bytes of the characters ``\s`` matches (ASCII spaces and controls, U+0085, U+00A0,
#: U+1680, U+2000..U+205F, U+3000): only lines starting with one may be blank.
_SPACE_LEADS = np.zeros(256, dtype=bool)
_SPACE_LEADS[[9, 10, 11, 12, 13, 32, 0xC2, 0xE1, 0xE2, 0xE3]] = True
_NAMED_SECTIONS = {
    b"*** FANTASYLAND ***": 0,
    b"*** SHOWDOWN ***": SHOWDOWN,
    b"*** SUMMARY ***": SUMMARY,
}


@dataclass(frozen=True, eq=False)
class Hands:
    """Where the hands of a chunk are.

    Per hand: ``first`` (its header's line index) and ``stop`` (one past its
    last line). Per line: ``hand`` (-1 outside hands and on blank lines),
    ``section`` (whether it is a section line) and ``sec`` (the code of the
    section it is in, ``HEAD`` above the first, ``UNKNOWN`` for a section
    the grammar lacks). ``strays``: one row per run of lines outside hands
    (``n``, ``count``, ``line``: its first line, cut to the excerpt length).
    """

    first: np.ndarray
    stop: np.ndarray
    hand: np.ndarray
    section: np.ndarray
    sec: np.ndarray
    strays: pl.DataFrame

    def count(self) -> int:
        return len(self.first)


def cut(text: Text) -> Hands:
    """Find the hands, stray runs and sections of ``text``."""
    lines = text.lines()
    length = text.ends - text.starts
    blank = _blank(text, length)
    header = text.begins(HEADER_PREFIX.encode())
    index = np.arange(lines)
    events = header | blank
    last_event = np.maximum.accumulate(np.where(events, index, -1))
    inside = (last_event >= 0) & header[np.maximum(last_event, 0)]
    number = np.cumsum(header) - 1
    in_hand = inside & ~blank
    first = np.flatnonzero(header)
    event_lines = np.flatnonzero(events)
    after = np.searchsorted(event_lines, first, side="right")
    stop = np.append(event_lines, lines)[after]
    section = in_hand & text.begins(SECTION_PREFIX.encode())
    return Hands(
        first=first,
        stop=stop,
        hand=np.where(in_hand, number, -1),
        section=section,
        sec=_sections(text, section, header),
        strays=_strays(text, np.flatnonzero(~inside & ~blank), number),
    )


def _blank(text: Text, length: np.ndarray) -> np.ndarray:
    """Lines of nothing but white space (``^\\s*$``, as ``parsers.segment`` tests)."""
    blank = length == 0
    maybe = np.flatnonzero(_SPACE_LEADS[text.heads & 0xFF] & ~blank)
    if len(maybe):
        spaces = text.strings(text.starts[maybe], text.ends[maybe]).str.contains(r"^\s*$")
        blank[maybe] = spaces.to_numpy()
    return blank


def _sections(text: Text, section: np.ndarray, header: np.ndarray) -> np.ndarray:
    """Each line's section code, carried down from the section line above it."""
    at = np.flatnonzero(section)
    codes = _section_codes(text, at)
    marks = np.full(len(section), -1, dtype=np.int64)
    marks[at] = at
    marks[header] = np.flatnonzero(header)
    carried = np.maximum.accumulate(marks)
    value = np.full(len(section), HEAD, dtype=np.int16)
    value[at] = codes
    return np.where(carried >= 0, value[np.maximum(carried, 0)], HEAD).astype(np.int16)


def _section_codes(text: Text, at: np.ndarray) -> np.ndarray:
    """The codes of section lines (indices ``at``), from their 24 first bytes read as 3 words.

    >>> lines = b"*** STREET 4 ***\\n*** SUMMARY ***\\n*** STREET 0 ***\\n*** LUNCH ***"
    >>> _section_codes(Text.of(lines, 1), np.arange(4)).tolist()
    [4, 101, -2, -2]
    """
    starts = text.starts[at]
    length = text.ends[at] - starts
    words = [text.heads[at], text.words[starts + 8], text.words[starts + 16]]
    codes = np.full(len(at), UNKNOWN, dtype=np.int16)
    for literal, code in _NAMED_SECTIONS.items():
        named = length == len(literal)
        for k, word in enumerate(words):
            piece = literal[8 * k : 8 * k + 8]
            named &= word & MASKS[len(piece)] == int.from_bytes(piece, "little")
        codes[named] = code
    # "*** STREET d ***": the digit is the fourth byte of the second word.
    digit = ((words[1] >> np.uint64(24)) & 0xFF).astype(np.int16) - ord("0")
    street = (
        (length == 16)
        & (words[0] == int.from_bytes(b"*** STRE", "little"))
        & (words[1] & np.uint64(0xFFFFFFFF00FFFFFF) == int.from_bytes(b"ET \0 ***", "little"))
        & (digit >= 1)
        & (digit <= 9)
    )
    codes[street] = digit[street]
    return codes


def _strays(text: Text, lines: np.ndarray, number: np.ndarray) -> pl.DataFrame:
    """One row per run of non-blank lines between two hands: its first line and size."""
    _, first, count = np.unique(number[lines], return_index=True, return_counts=True)
    at = lines[first]
    return pl.DataFrame(
        {
            "n": at + text.first_line,
            "count": count,
            "line": text.strings(text.starts[at], text.ends[at]).str.slice(0, EXCERPT_CHARS),
        },
        schema={"n": pl.Int64, "count": pl.Int64, "line": pl.String},
    )
