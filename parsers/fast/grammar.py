"""The ``en`` grammar of what follows a player's name on dealt, placement and showdown lines.

Each reader takes the offsets where that part of the line starts and where
the line ends, walks the fixed words with literal tests and the card lists
with ``parsers.fast.cards``, and says per line whether all of it was read.
They accept exactly the canonical lines of ``ofc-text-en.md`` (a subset of
what ``parsers.en`` reads: its patterns ``SETS_SHAPE`` and ``SHOWS_SHAPE``,
cards spelled canonically); anything else is left to that reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from parsers import extract as ex
from parsers.fast.cards import read_lists
from parsers.fast.text import Text

_FIRST_ROW = (b"sets top [", b"sets middle [", b"sets bottom [")
_NEXT_PART = (b", top [", b", middle [", b", bottom [", b"; discards [")
#: Row of the list each of the words above opens (the same index in both; -1, no words: any).
_ROWS = np.array([ex.TOP, ex.MIDDLE, ex.BOTTOM, ex.DISCARD, ex.DISCARD], dtype=np.int64)
_FIRST_LENGTH = np.array([*map(len, _FIRST_ROW), 0])
_NEXT_LENGTH = np.array([*map(len, _NEXT_PART), 0])
#: Showdown rows: the words before each list, and the cards each must hold (R1).
_SHOWN = ((b"shows top [", 3), (b"), middle [", 5), (b"), bottom [", 5))


@dataclass(frozen=True, eq=False)
class Named:
    """Cards named on lines: per card its ``line`` (index into the lines read), ``row`` and ``code``."""

    line: np.ndarray
    row: np.ndarray
    code: np.ndarray


def dealt_tail(text: Text, at: np.ndarray, stop: np.ndarray):
    """`` [<cards>]`` (listed: the hero) or `` (<c> cards)`` at ``at``, up to the line's end.

    Returns per line ``ok``, ``count`` and ``shown``, and the listed cards (row ``DEALT``).
    """
    shown = text.buf[at + 1] == ord("[")
    listed = np.flatnonzero(shown)
    lists = read_lists(text, at[listed] + 1, stop[listed])
    ok = np.zeros(len(at), dtype=bool)
    count = np.zeros(len(at), dtype=np.int64)
    ok[listed] = lists.ok & (lists.close == stop[listed] - 1) & (lists.count > 0)
    count[listed] = lists.count
    hidden = np.flatnonzero(~shown)
    count[hidden], ok[hidden] = _counted(text, at[hidden], stop[hidden], b" (", b")")
    named = Named(
        line=lists.spread(listed),
        row=np.full(len(lists.codes), ex.DEALT, dtype=np.int8),
        code=lists.codes,
    )
    return ok, count, shown, named


def _counted(text: Text, at: np.ndarray, stop: np.ndarray, before: bytes, after: bytes):
    """``<before><c> card(s)<after>`` filling ``[at, stop)`` (``c``: 1 or 2 digits).

    Returns ``c`` and whether the text reads so. The words at ``at`` are
    compared with each shape, the digits masked out, then the digits read.
    """
    longest = len(before) + 2 + len(b" cards") + len(after)
    words = [text.words[at + 8 * k] for k in range(-(-longest // 8))]
    number = np.full(len(at), -1, dtype=np.int64)
    for digits in (1, 2):
        for noun in (b" card", b" cards"):
            literal = before + b"0" * digits + noun + after
            fits = stop - at == len(literal)
            places = range(len(before), len(before) + digits)
            for k, word in enumerate(words):
                piece = literal[8 * k : 8 * k + 8]
                mask = int.from_bytes(
                    bytes(0 if 8 * k + b in places else 255 for b in range(len(piece))), "little"
                )
                fits &= (word & np.uint64(mask)) == int.from_bytes(piece, "little") & mask
            value = np.zeros(len(at), dtype=np.int64)
            for place in places:
                digit = ((words[place // 8] >> np.uint64(8 * (place % 8))) & 0xFF).astype(np.int64)
                fits &= (digit >= ord("0")) & (digit <= ord("9"))
                value = value * 10 + digit - ord("0")
            number = np.where(fits, value, number)
    return number, number >= 0


def placement(text: Text, at: np.ndarray, stop: np.ndarray, brackets: np.ndarray):
    """``sets <row> [<cards>], ...[; discards [<cards>] | ; discards <c> card(s)]`` at ``at``.

    Rows in any order, each at most once, at least one; a discards list
    comes last. ``brackets`` are the offsets of every ``[`` of the text, and
    one past its end (so every line has a next bracket): a line's lists are
    the brackets between ``at`` and its end, and the words before each
    (``sets top [``, ``, middle [``, ``; discards [`` ...) must fill the line
    exactly from the previous list's end. Returns per line ``ok`` and
    ``hidden`` (the discards it counts without naming them), and the named cards.
    """
    lines = len(at)
    first = np.searchsorted(brackets, at)
    count = np.searchsorted(brackets, stop) - first
    ok = (count >= 1) & (count <= len(_ROWS))
    count = np.where(ok, count, 0)
    begins = np.cumsum(count) - count
    line = np.repeat(np.arange(lines), count)
    opens = brackets[np.repeat(first - begins, count) + np.arange(len(line))]
    lists = read_lists(text, opens, stop[line])
    lead = begins[count > 0]
    gap = np.roll(lists.close, 1) + 1
    gap[lead] = at[count > 0]
    which = text.which(gap, _NEXT_PART)
    which[lead] = text.which(gap[lead], _FIRST_ROW)
    length = _NEXT_LENGTH[which]
    length[lead] = _FIRST_LENGTH[which[lead]]
    row = _ROWS[which]
    last = np.zeros(len(line), dtype=bool)
    last[begins[count > 0] + count[count > 0] - 1] = True
    fine = (which >= 0) & (gap + length - 1 == opens) & lists.ok & ((row != ex.DISCARD) | last)
    rows = np.bincount(line * 4 + row, minlength=4 * lines).reshape(lines, 4)
    ok &= (np.bincount(line[~fine], minlength=lines) == 0) & (rows.max(axis=1, initial=0) <= 1)
    tail = np.where(count > 0, np.append(lists.close, 0)[begins + count - 1] + 1, stop)
    rest = np.flatnonzero(ok & (tail != stop) & (rows[:, ex.DISCARD] == 0))
    ok &= tail == stop
    hidden = np.zeros(lines, dtype=np.int64)
    hidden[rest], ok[rest] = _counted(text, tail[rest], stop[rest], b"; discards ", b"")
    hidden[~ok] = 0
    return ok, hidden, Named(lists.spread(line), lists.spread(row).astype(np.int8), lists.codes)


def showdown(text: Text, at: np.ndarray, stop: np.ndarray, brackets: np.ndarray):
    """``shows top [<3>] (<text>), middle [<5>] (<text>), bottom [<5>] (<text>)[ - fouled]``.

    The texts hold no brackets: the line holds exactly three ``[`` (from
    ``brackets``, as for ``placement``) and three ``]``. Returns per line
    ``ok``, ``fouled`` and the cards as a ``(lines, 13)`` array: top, middle,
    bottom.
    """
    first = np.searchsorted(brackets, at)
    ok = np.searchsorted(brackets, stop) - first == len(_SHOWN)
    closes = pl.DataFrame({"line": text.strings(at, stop)}).select(
        pl.col("line").str.count_matches("]", literal=True) == len(_SHOWN)
    )
    ok &= closes.to_series().to_numpy() & text.equals(at, _SHOWN[0][0])
    opens = brackets[np.minimum(first[:, None] + np.arange(len(_SHOWN)), len(brackets) - 1)]
    lists = read_lists(text, opens.reshape(-1), np.repeat(stop, len(_SHOWN)))
    close = lists.close.reshape(-1, len(_SHOWN))
    codes = []
    pos = at
    for k, (words, size) in enumerate(_SHOWN):
        ok &= text.equals(opens[:, k] + 1 - len(words), words) & (
            opens[:, k] + 1 - len(words) >= pos
        )
        ok &= lists.ok[k :: len(_SHOWN)] & (lists.count[k :: len(_SHOWN)] == size)
        ok &= text.equals(close[:, k] + 1, b" (")
        pos = close[:, k] + 3
    good = np.repeat(ok, len(_SHOWN))
    codes = np.zeros((len(at), 13), dtype=np.int64)
    codes[ok] = lists.codes[lists.spread(good)].reshape(-1, 13)
    fouled = text.equals(np.maximum(stop - 9, 0), b" - fouled")
    last = np.where(fouled, stop - 9, stop) - 1
    ok &= (last >= pos) & (text.buf[last] == ord(")"))
    return ok, fouled, codes


def _spread(count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ``count[i]`` items per row ``i``: each item's row and its place in the row."""
    row = np.repeat(np.arange(len(count)), count)
    return row, np.arange(len(row)) - np.repeat(np.cumsum(count) - count, count)
