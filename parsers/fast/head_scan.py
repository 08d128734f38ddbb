"""The head lines of ``en`` hands cut in one compiled pass: header, table, match and seat lines.

``scan`` walks each hand's header and the lines below it up to the first
section once (numba, no Python per line), while they are in the cache. It
cuts each line at the offsets the ``en`` grammar fixes (the header's id
ends at its first ``:``, the clock label follows its last space; a table
name ends at the line's last quote; a match id at its first comma; a seat's
name ends at its last ``(``), reads the clock and seat numbers, and files
every other part under a code of its distinct text (``parsers.fast.intern``), so the
fields are read once per distinct text (``parsers.fast.head``). Only ASCII
digits count as digits and any byte beyond ASCII as possible white space:
where the thorough reader's patterns might read a line otherwise, the hand
is marked ``bad`` and left to it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numba
import numpy as np

from parsers.fast.intern import Filed, Interned, intern, new_table
from parsers.fast.text import Text
from parsers.formats import en

#: Seat names longer than this many bytes are left to the thorough reader.
NAME_BYTES = 32
#: What each interned span is (``Interned.kind``).
WORDS, LABEL, TABLE_NAME, TABLE_TAIL, MATCH_ID, MATCH_TAIL, SEAT_TAIL, PLAYER = range(8)
#: What a line below the header is (``HeadScan.kind``).
TABLE_LINE, MATCH_LINE, SEAT_LINE, OTHER_LINE = range(4)

_HEADER = np.frombuffer(en.HEADER_PREFIX.encode(), dtype=np.uint8)
_TABLE = np.frombuffer(b"Table '", dtype=np.uint8)
_MATCH = np.frombuffer(b"Match #", dtype=np.uint8)
_SEAT = np.frombuffer(b"Seat ", dtype=np.uint8)
#: The clock ``YYYY/MM/DD HH:MM:SS``: 0 where a digit goes, else the byte.
_CLOCK = np.frombuffer(b"0000/00/00 00:00:00", dtype=np.uint8) * (
    np.frombuffer(b"0000/00/00 00:00:00", dtype=np.uint8) != ord("0")
)
_DAYS = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], dtype=np.int64)
_MICROS_PER_DAY = 86_400_000_000


@dataclass(frozen=True, eq=False)
class HeadScan:
    """What ``scan`` found.

    Per hand: the room id's span (``room_start``, ``room_end``), ``local``
    (the clock in microseconds since 1970, naive), the codes of the
    ``rules`` (the header's rule words) and clock ``label``, the table
    line's (``table_name``, ``table_tail``) and match line's (``match_id``,
    ``match_tail``; -1: no match line) and ``bad``: a line that does not cut,
    a line of no known kind, more than one table or match line, or no table
    line. Per line below a header: ``kind``. Per seat line: ``seat``,
    ``name_at``, ``name_len`` and the codes ``seat_tail`` and ``player``
    (while ``_scan`` fills them: per line below a header). Codes index
    ``interned``; where a hand is ``bad`` its fields mean nothing.
    """

    room_start: np.ndarray
    room_end: np.ndarray
    local: np.ndarray
    rules: np.ndarray
    label: np.ndarray
    table_name: np.ndarray
    table_tail: np.ndarray
    match_id: np.ndarray
    match_tail: np.ndarray
    bad: np.ndarray
    kind: np.ndarray
    seat: np.ndarray
    name_at: np.ndarray
    name_len: np.ndarray
    seat_tail: np.ndarray
    player: np.ndarray
    interned: Interned | None = None

    @classmethod
    def empty(cls, count: int, size: int) -> HeadScan:
        """Arrays for ``count`` hands and ``size`` lines below their headers, for ``_scan``."""

        def per_hand(dtype=np.int64, fill=-1):
            return np.full(count, fill, dtype=dtype)

        def per_line(dtype=np.int64, fill=-1):
            return np.full(size, fill, dtype=dtype)

        return cls(
            per_hand(), per_hand(), per_hand(), per_hand(), per_hand(), per_hand(), per_hand(),
            per_hand(), per_hand(), per_hand(np.bool_, False),
            per_line(np.int8, OTHER_LINE), per_line(), per_line(), per_line(fill=0), per_line(),
            per_line(),
        )  # fmt: skip


#: The fields ``_scan`` fills per line that ``scan`` keeps for the seat lines only.
_PER_SEAT = ("seat", "name_at", "name_len", "seat_tail", "player")


def scan(text: Text, first: np.ndarray, lines: np.ndarray) -> HeadScan:
    """Cut the headers (lines ``first``, one per hand) and the ``lines`` below them (line
    indices in order, hand by hand) of ``text``."""
    count, size = len(first), len(lines)
    out, filed = HeadScan.empty(count, size), Filed.empty(2 * count + 2 * size)
    arrays = [getattr(out, f.name) for f in fields(out) if f.name != "interned"]
    interned = _scan(text.buf, text.words, text.starts, text.ends, first, lines, *arrays,
                     *filed.arrays())  # fmt: skip
    seats = out.kind == SEAT_LINE
    kept = {name: getattr(out, name)[seats] for name in _PER_SEAT}
    return replace(out, **kept, interned=filed.interned(interned))


@numba.njit(cache=True, nogil=True)
def _scan(
    buf, words, starts, ends, first, lines,
    room_start, room_end, local, rules, label, table_name, table_tail,
    match_id, match_tail, bad, kind, seat, name_at, name_len, seat_tail, player,
    rep_start, rep_end, rep_kind, rep_hash,
):  # fmt: skip
    reps = (rep_start, rep_end, rep_kind, rep_hash)
    slots = new_table()
    n = 0
    line = 0
    for h in range(len(first)):
        n, fine, slots = _header(buf, words, starts[first[h]], ends[first[h]], h, slots, reps,
                                 n, room_start, room_end, local, rules, label)  # fmt: skip
        tables = matches = 0
        cut = fine
        stop = first[h + 1] if h + 1 < len(first) else len(starts)
        while line < len(lines) and lines[line] < stop:
            s, e = starts[lines[line]], ends[lines[line]]
            if _begins(buf, s, e, _TABLE):
                kind[line] = TABLE_LINE
                tables += 1
                quote = _find_back(buf, e, s + 7, 39, 128)
                cut &= quote >= s + 7 and buf[quote + 1] == 32
                if cut:
                    table_name[h], n, slots = intern(
                        words, s + 7, quote, TABLE_NAME, slots, reps, n
                    )
                    table_tail[h], n, slots = intern(words, quote, e, TABLE_TAIL, slots, reps, n)
            elif _begins(buf, s, e, _MATCH):
                kind[line] = MATCH_LINE
                matches += 1
                comma = _find(buf, s + 7, e, 44, 128)
                cut &= comma > s + 7 and buf[comma + 1] == 32
                if cut:
                    match_id[h], n, slots = intern(words, s + 7, comma, MATCH_ID, slots, reps, n)
                    match_tail[h], n, slots = intern(
                        words, comma + 2, e, MATCH_TAIL, slots, reps, n
                    )
            elif _begins(buf, s, e, _SEAT):
                kind[line] = SEAT_LINE
                n, fine, slots = _seat(buf, words, s, e, line, slots, reps, n,
                                       seat, name_at, name_len, seat_tail, player)  # fmt: skip
                cut &= fine
            else:
                cut = False
            line += 1
        bad[h] = not cut or tables != 1 or matches > 1
    return n


@numba.njit(cache=True, inline="always")
def _header(buf, words, s, e, h, slots, reps, n, room_start, room_end, local, rules, label):
    """``OFC Hand #<id>: <words> - <YYYY/MM/DD HH:MM:SS> <label>``: the number of texts filed,
    whether it cuts, and the table of texts (``parsers.fast.intern``)."""
    at = s + len(_HEADER)
    colon = _find(buf, at, e, 58, 64)
    if colon <= at or buf[colon + 1] != 32:
        return n, False, slots
    space = _find_back(buf, e, colon + 2, 32, 64)
    date = space - 19
    if space < 0 or date - 3 < colon + 2 or space + 1 >= e or not _plain(buf, at, colon):
        return n, False, slots
    if buf[date - 3] != 32 or buf[date - 2] != 45 or buf[date - 1] != 32:
        return n, False, slots
    fine, micros = _clock(buf, date)
    if not fine or not _plain(buf, space + 1, e):
        return n, False, slots
    room_start[h], room_end[h], local[h] = at, colon, micros
    rules[h], n, slots = intern(words, colon + 2, date - 3, WORDS, slots, reps, n)
    label[h], n, slots = intern(words, space + 1, e, LABEL, slots, reps, n)
    return n, True, slots


@numba.njit(cache=True, inline="always")
def _seat(buf, words, s, e, line, slots, reps, n, seat, name_at, name_len, tail, player):
    """``Seat <k>: <name> (<stack> points)[ [Fantasyland, <c> cards]]``: as ``_header``."""
    number, after = 0, s + 5
    while after < s + 8 and 48 <= buf[after] <= 57:
        number = number * 10 + buf[after] - 48
        after += 1
    if after == s + 5 or after == s + 8 or number < 1 or buf[after] != 58 or buf[after + 1] != 32:
        return n, False, slots
    at = after + 2
    paren = _find_back(buf, e, at + 1, 40, 128)
    length = paren - 1 - at
    if paren <= at + 1 or buf[paren - 1] != 32 or length > NAME_BYTES:
        return n, False, slots
    for k in range(at, paren - 2):
        if buf[k] == 58 and buf[k + 1] == 32:
            return n, False, slots
    seat[line], name_at[line], name_len[line] = number, at, length
    player[line], n, slots = intern(words, at, paren - 1, PLAYER, slots, reps, n)
    tail[line], n, slots = intern(words, paren - 1, e, SEAT_TAIL, slots, reps, n)
    return n, True, slots


@numba.njit(cache=True, inline="always")
def _clock(buf, at):
    """Whether the clock ``YYYY/MM/DD HH:MM:SS`` at ``at`` names a date and time, and which,
    in microseconds since 1970."""
    for k in range(len(_CLOCK)):
        byte = buf[at + k]
        if (_CLOCK[k] == 0 and not 48 <= byte <= 57) or (_CLOCK[k] != 0 and byte != _CLOCK[k]):
            return False, 0
    year = _number(buf, at, 4)
    month, day = _number(buf, at + 5, 2), _number(buf, at + 8, 2)
    hour, minute, second = (
        _number(buf, at + 11, 2),
        _number(buf, at + 14, 2),
        _number(buf, at + 17, 2),
    )
    if year < 1 or not 1 <= month <= 12 or hour > 23 or minute > 59 or second > 59:
        return False, 0
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not 1 <= day <= _DAYS[month - 1] + (month == 2 and leap):
        return False, 0
    seconds = (hour * 60 + minute) * 60 + second
    return True, _days_from_civil(year, month, day) * _MICROS_PER_DAY + seconds * 1_000_000


@numba.njit(cache=True, inline="always")
def _days_from_civil(year, month, day):
    """Days since 1970-01-01 of a date of the proleptic Gregorian calendar.

    >>> int(_days_from_civil(1970, 1, 1)), int(_days_from_civil(2026, 11, 29))
    (0, 20786)
    """
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    of_era_days = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146097 + of_era_days - 719468


@numba.njit(cache=True, inline="always")
def _number(buf, at, digits):
    value = 0
    for k in range(digits):
        value = value * 10 + buf[at + k] - 48
    return value


@numba.njit(cache=True, inline="always")
def _plain(buf, s, e) -> bool:
    """Whether ``[s, e)`` holds no white space: no ASCII space or control, nor any byte beyond
    ASCII (a UTF-8 white space starts with one)."""
    for k in range(s, e):  # noqa: SIM110 (a loop compiles to the tightest code)
        if buf[k] <= 32 or buf[k] >= 127:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _begins(buf, s, e, literal) -> bool:
    if e - s < len(literal):
        return False
    for k in range(len(literal)):  # noqa: SIM110 (a loop compiles to the tightest code)
        if buf[s + k] != literal[k]:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _find(buf, at, stop, byte, limit):
    for k in range(at, min(stop, at + limit)):
        if buf[k] == byte:
            return k
    return -1


@numba.njit(cache=True, inline="always")
def _find_back(buf, at, stop, byte, limit):
    for k in range(at - 1, max(stop, at - limit) - 1, -1):
        if buf[k] == byte:
            return k
    return -1
