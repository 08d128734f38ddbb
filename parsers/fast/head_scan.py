"""The head lines of hands cut in one compiled pass: header, table, match and seat lines.

``scan`` walks each hand's header and the lines below it up to the first
section once (numba, no Python per line), while they are in the cache. It
cuts each line at the offsets the format's grammar fixes
(``parsers.fast.grammar``: the header's id ends at the first ``: ``
(``en``) or `` · `` (``ru``), the clock label follows the last space
(``en``) or is the last bracket's content (``ru``); a table name ends at the
line's last closing quote; a match id at its first comma; a seat's name
ends at its last ``(``), reads the clock and seat numbers, and files
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

from parsers.fast.grammar import Grammar
from parsers.fast.intern import NO_NRT, Filed, Interned, intern
from parsers.fast.literals import equals
from parsers.fast.text import Text

#: Seat names longer than this many bytes are left to the thorough reader.
NAME_BYTES = 32
#: What each interned span is (``Interned.kind``).
WORDS, LABEL, TABLE_NAME, TABLE_TAIL, MATCH_ID, MATCH_TAIL, SEAT_TAIL, PLAYER = range(8)
#: What a line below the header is (``HeadScan.kind``).
TABLE_LINE, MATCH_LINE, SEAT_LINE, OTHER_LINE = range(4)

#: The literals of ``Grammar.head``, in order.
HEAD_LITERALS = (
    "header", "id_sep", "words_sep", "label_open", "label_close", "clock", "table",
    "table_close", "match", "seat",
)  # fmt: skip
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


def scan(text: Text, first: np.ndarray, lines: np.ndarray, grammar: Grammar) -> HeadScan:
    """Cut the headers (lines ``first``, one per hand) and the ``lines`` below them (line
    indices in order, hand by hand) of ``text``, in ``grammar``'s format."""
    count, size = len(first), len(lines)
    out, filed = HeadScan.empty(count, size), Filed.empty(2 * count + 2 * size)
    arrays = [getattr(out, f.name) for f in fields(out) if f.name != "interned"]
    interned = _scan(text.buf, text.words, text.starts, text.ends, first, lines,
                     grammar.head, grammar.clock_at, grammar.plain_label, *arrays,
                     *filed.arrays())  # fmt: skip
    seats = out.kind == SEAT_LINE
    kept = {name: getattr(out, name)[seats] for name in _PER_SEAT}
    return replace(out, **kept, interned=filed.interned(interned))


@numba.njit(**NO_NRT)
def _scan(
    buf, words, starts, ends, first, lines, lits, clock_at, plain_label,
    room_start, room_end, local, rules, label, table_name, table_tail,
    match_id, match_tail, bad, kind, seat, name_at, name_len, seat_tail, player,
    slots, rep_start, rep_end, rep_kind, rep_hash,
):  # fmt: skip
    reps = (rep_start, rep_end, rep_kind, rep_hash)
    table_at, close, match_at, seat_at = lits[6], lits[7], lits[8], lits[9]
    n = 0
    line = 0
    for h in range(len(first)):
        n, fine = _header(buf, words, starts[first[h]], ends[first[h]], h, slots, reps,
                                 n, lits, clock_at, plain_label, room_start, room_end, local,
                                 rules, label)  # fmt: skip
        tables = matches = 0
        cut = fine
        stop = first[h + 1] if h + 1 < len(first) else len(starts)
        while line < len(lines) and lines[line] < stop:
            s, e = starts[lines[line]], ends[lines[line]]
            if _begins(buf, s, e, table_at):
                kind[line] = TABLE_LINE
                tables += 1
                at = s + len(table_at)
                quote = _find_back(buf, e, at + len(close) - 1, close[-1], 128) + 1 - len(close)
                cut &= quote >= at and _begins(buf, quote, e, close)
                cut &= buf[quote + len(close)] == 32
                if cut:
                    table_name[h], n = intern(words, at, quote, TABLE_NAME, slots, reps, n)
                    table_tail[h], n = intern(words, quote, e, TABLE_TAIL, slots, reps, n)
            elif _begins(buf, s, e, match_at):
                kind[line] = MATCH_LINE
                matches += 1
                at = s + len(match_at)
                comma = _find(buf, at, e, 44, 128)
                cut &= comma > at and buf[comma + 1] == 32
                if cut:
                    match_id[h], n = intern(words, at, comma, MATCH_ID, slots, reps, n)
                    match_tail[h], n = intern(words, comma + 2, e, MATCH_TAIL, slots, reps, n)
            elif _begins(buf, s, e, seat_at):
                kind[line] = SEAT_LINE
                n, fine = _seat(buf, words, s + len(seat_at), e, line, slots, reps, n,
                                       seat, name_at, name_len, seat_tail, player)  # fmt: skip
                cut &= fine
            else:
                cut = False
            line += 1
        bad[h] = not cut or tables != 1 or matches > 1
    return n


@numba.njit(cache=True, inline="always")
def _header(buf, words, s, e, h, slots, reps, n, lits, clock_at, plain_label,
            room_start, room_end, local, rules, label):  # fmt: skip
    """``<prefix><id><id_sep><words><words_sep><clock><label_open><label><label_close>``
    (``lits``: ``HEAD_LITERALS``): the number of texts filed (``parsers.fast.intern``) and
    whether it cuts."""
    id_sep, words_sep, label_open, label_close, clock = lits[1], lits[2], lits[3], lits[4], lits[5]
    at = s + len(lits[0])
    sep = _find(buf, at, e, id_sep[0], 64)
    if sep <= at or not _begins(buf, sep, e, id_sep) or not _plain(buf, at, sep):
        return n, False
    after = sep + len(id_sep)
    close = e - len(label_close)
    if close <= after or not _begins(buf, close, e, label_close):
        return n, False
    opens = _find_back(buf, close, after, label_open[-1], 64) + 1
    date = opens - len(label_open) - len(clock)
    if opens <= 0 or opens >= close or date - len(words_sep) < after:
        return n, False
    if not _begins(buf, opens - len(label_open), e, label_open):
        return n, False
    if not _begins(buf, date - len(words_sep), e, words_sep):
        return n, False
    fine, micros = _clock(buf, date, clock, clock_at)
    if not fine or (plain_label and not _plain(buf, opens, close)):
        return n, False
    room_start[h], room_end[h], local[h] = at, sep, micros
    rules[h], n = intern(words, after, date - len(words_sep), WORDS, slots, reps, n)
    label[h], n = intern(words, opens, close, LABEL, slots, reps, n)
    return n, True


@numba.njit(cache=True, inline="always")
def _seat(buf, words, s, e, line, slots, reps, n, seat, name_at, name_len, tail, player):
    """``<k>: <name> (<stack>...`` from ``s`` (after the prefix ``Seat ``, ``Место ``; ``en``:
    ``(<stack> points)[ [Fantasyland, <c> cards]]``): as ``_header``."""
    number, after = 0, s
    while after < s + 3 and 48 <= buf[after] <= 57:
        number = number * 10 + buf[after] - 48
        after += 1
    if after == s or after == s + 3 or number < 1 or buf[after] != 58 or buf[after + 1] != 32:
        return n, False
    at = after + 2
    paren = _find_back(buf, e, at + 1, 40, 128)
    length = paren - 1 - at
    if paren <= at + 1 or buf[paren - 1] != 32 or length > NAME_BYTES:
        return n, False
    for k in range(at, paren - 2):
        if buf[k] == 58 and buf[k + 1] == 32:
            return n, False
    seat[line], name_at[line], name_len[line] = number, at, length
    player[line], n = intern(words, at, paren - 1, PLAYER, slots, reps, n)
    tail[line], n = intern(words, paren - 1, e, SEAT_TAIL, slots, reps, n)
    return n, True


@numba.njit(cache=True, inline="always")
def _clock(buf, at, shape, parts):
    """Whether the clock at ``at`` (written as ``shape``: 0 where a digit goes; its year,
    month, day, hour, minute and second at ``parts``) names a date and time, and which, in
    microseconds since 1970."""
    for k in range(len(shape)):
        byte = buf[at + k]
        if (shape[k] == 0 and not 48 <= byte <= 57) or (shape[k] != 0 and byte != shape[k]):
            return False, 0
    year = _number(buf, at + parts[0], 4)
    month, day = _number(buf, at + parts[1], 2), _number(buf, at + parts[2], 2)
    hour, minute, second = (
        _number(buf, at + parts[3], 2),
        _number(buf, at + parts[4], 2),
        _number(buf, at + parts[5], 2),
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
    return e - s >= len(literal) and equals(buf, s, literal)


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
