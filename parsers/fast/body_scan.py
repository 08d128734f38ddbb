"""The body lines of ``en`` hands read in one compiled pass: names bound to seats, cards, grammar.

``scan`` walks each line below a hand's first section once (numba, no
Python per line) and says what it is: a dealt line, a placement, a
timeout, a showdown or a summary line, the seat it names, whether all of it
reads, and the cards it lists; a summary line's figures are filed by their
text (``parsers.fast.intern``), to be read once per distinct text. It accepts exactly the canonical lines of
``ofc-text-en.md`` that ``parsers.formats.en`` reads; a line that does not read
marks its hand, which goes to the thorough reader. ``parsers.fast.body``
turns the result into its ``Body``.

Grammar, after the name (``<name>: `` or ``Dealt to <name>``):

- dealt: `` [<cards>]`` (the hero, at least one card) or `` (<c> card(s))``;
- placement: ``sets <row> [<cards>]`` then ``, <row> [<cards>]`` (rows
  ``top``, ``middle``, ``bottom``, each at most once), then optionally
  ``; discards [<cards>]`` or ``; discards <c> card(s)``;
- timeout: ``timed out, cards set automatically``;
- showdown: ``shows top [<3>] (<text>), middle [<5>] (<text>), bottom [<5>]
  (<text>)``, optionally `` - fouled``; the texts hold no brackets.

A name binds to a seat only when exactly one seat of the hand has its name
written there, followed by the bytes the grammar puts after a name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

import numba
import numpy as np

from parsers import extract as ex
from parsers.fast.cards import MOST, card_parts
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.fast.intern import NO_NRT, Filed, Interned, intern
from parsers.fast.literals import equals, same
from parsers.fast.text import Text
from parsers.formats import en
from parsers.segment import HEAD, SHOWDOWN, SUMMARY


def _literal(text: bytes) -> np.ndarray:
    return np.frombuffer(text, dtype=np.uint8)


_DEALT = _literal(b"Dealt to ")
_TIMEOUT = _literal(en.TIMEOUT.encode())
_SETS = _literal(b"sets ")
_ROW_WORDS = (_literal(b"top ["), _literal(b"middle ["), _literal(b"bottom ["))
_DISCARDS = _literal(b"; discards ")
_CARD, _CARDS = _literal(b" card"), _literal(b" cards")
_SHOWS = (_literal(b"shows top ["), _literal(b"), middle ["), _literal(b"), bottom ["))
_SHOWN_SIZES = (3, 5, 5)
_FOULED = _literal(b" - fouled")
_NOTHING = _literal(b"")


@dataclass(frozen=True, eq=False)
class Scanned:
    """What ``scan`` found, each kind of line in line order.

    Per dealt line: ``dealt_seat`` (seat row), ``dealt_sec``, ``dealt_count``
    (cards dealt) and ``dealt_shown`` (the cards are listed: the hero). Per
    placement line: ``set_seat``, ``set_sec`` and ``set_hidden`` (discards
    counted but not named). Per timeout line: ``timeout_seat``,
    ``timeout_sec``. Per showdown line: ``show_seat``, ``fouled`` and
    ``show_codes`` (13 cards: top, middle, bottom). Per summary line:
    ``summary_seat`` and ``summary``, the code of its text after ``<name>: ``
    among ``interned``. Per card listed on a dealt line: ``dealt_act`` (the
    line's rank among the dealt lines) and ``dealt_code``; on a placement
    line: ``set_act`` (its rank among the placement lines), ``set_row``,
    ``set_code``. Per hand: ``bad``.
    """

    dealt_seat: np.ndarray
    dealt_sec: np.ndarray
    dealt_count: np.ndarray
    dealt_shown: np.ndarray
    set_seat: np.ndarray
    set_sec: np.ndarray
    set_hidden: np.ndarray
    timeout_seat: np.ndarray
    timeout_sec: np.ndarray
    show_seat: np.ndarray
    fouled: np.ndarray
    show_codes: np.ndarray
    summary_seat: np.ndarray
    summary: np.ndarray
    dealt_act: np.ndarray
    dealt_code: np.ndarray
    set_act: np.ndarray
    set_row: np.ndarray
    set_code: np.ndarray
    bad: np.ndarray
    interned: Interned | None = None


#: ``Scanned`` fields grouped by what sizes them: dealt, placement, timeout, showdown and
#: summary lines, cards dealt, cards placed (``_scan`` returns the seven counts in this order).
GROUPS = (
    ("dealt_seat", "dealt_sec", "dealt_count", "dealt_shown"),
    ("set_seat", "set_sec", "set_hidden"),
    ("timeout_seat", "timeout_sec"),
    ("show_seat", "fouled", "show_codes"),
    ("summary_seat", "summary"),
    ("dealt_act", "dealt_code"),
    ("set_act", "set_row", "set_code"),
)


def empty_scanned(text: Text, hands: Hands) -> Scanned:
    """``Scanned`` arrays large enough for the body lines of ``text`` (filled by a scan)."""
    lines = text.lines()
    showdown = hands.showdown
    cards = int(text.ends[-1] - text.starts[0]) // 3 + 1

    def empty(size, dtype=np.int64):
        return np.empty(size, dtype=dtype)

    return Scanned(
        empty(lines), empty(lines, np.int16), empty(lines), empty(lines, np.bool_),
        empty(lines), empty(lines, np.int16), empty(lines),
        empty(lines), empty(lines, np.int16),
        empty(showdown), empty(showdown, np.bool_), np.zeros((showdown, 13), dtype=np.int64),
        empty(lines), empty(lines),
        empty(cards, np.int32), empty(cards, np.int8),
        empty(cards, np.int32), empty(cards, np.int8), empty(cards, np.int8),
        np.zeros(hands.count(), dtype=np.bool_),
    )  # fmt: skip


def scan(text: Text, hands: Hands, seats: Seats) -> Scanned:
    """Read the body lines of every hand (below its first section, section lines aside)
    against the seats of its hand."""
    return scanned(_scan, text, hands, seats, card_parts())


def scanned(
    kernel: Callable[..., tuple[int, ...]],
    text: Text,
    hands: Hands,
    seats: Seats,
    *grammar: np.ndarray,
) -> Scanned:
    """What a format's compiled body pass ``kernel`` finds: it takes the text, the hands'
    lines and the seats' names, then ``grammar`` (its format's tables), then the arrays it
    fills (``Scanned``'s, then ``Filed``'s); it returns how many of each group it filled
    and how many texts it filed. It files summary lines only: room for each line of a
    summary section, not for every line (a table of slots 8 to 10 times smaller)."""
    out = empty_scanned(text, hands)
    filed = Filed.empty(int(np.count_nonzero(hands.sec == SUMMARY)))
    arrays = [getattr(out, f.name) for f in fields(out) if f.name != "interned"]
    counts = kernel(
        text.buf, text.words, text.starts, text.ends, hands.hand, hands.sec, hands.section,
        seats.name_at, seats.name_len, seats.slots, *grammar, *arrays, *filed.arrays(),
    )  # fmt: skip
    trimmed = {
        name: getattr(out, name)[:count]
        for group, count in zip(GROUPS, counts[:-1], strict=True)
        for name in group
    }
    return replace(out, **trimmed, interned=filed.interned(counts[-1]))


@numba.njit(**NO_NRT)
def _scan(
    buf, words, starts, ends, line_hand, line_sec, section, name_at, name_len, seat_slots, parts,
    dealt_seat, dealt_sec, dealt_count, dealt_shown, set_seat, set_sec, set_hidden,
    timeout_seat, timeout_sec, show_seat, fouled, show_codes, summary_seat, summary,
    dealt_act, dealt_code, set_act, set_row, set_code, bad,
    slots, rep_start, rep_end, rep_kind, rep_hash,
):  # fmt: skip
    reps = (rep_start, rep_end, rep_kind, rep_hash)
    filed = 0
    dealt_lines = set_lines = timeouts = shows = summaries = dealt = placed = 0
    for i in range(len(starts)):
        h, sec = line_hand[i], line_sec[i]
        if h < 0 or sec == HEAD or section[i]:
            continue
        s, e = starts[i], ends[i]
        playing = sec >= 0 and sec < SHOWDOWN
        if equals(buf, s, _DEALT):
            row, name_end = _bind(
                buf, words, s + len(_DEALT), seat_slots[h], name_at, name_len, 32, 91, 40
            )
            if row < 0:
                bad[h] = True
                continue
            dealt_seat[dealt_lines], dealt_sec[dealt_lines] = row, sec
            dealt_count[dealt_lines], dealt_shown[dealt_lines] = 0, False
            ok, dealt = _dealt(buf, name_end, e, parts, dealt_lines, dealt_act, dealt_code,
                               dealt, dealt_count, dealt_shown)  # fmt: skip
            dealt_lines += 1
            if not (ok and playing):
                bad[h] = True
            continue
        row, name_end = _bind(buf, words, s, seat_slots[h], name_at, name_len, 58, 32, 32)
        if row < 0:
            bad[h] = True
            continue
        at = name_end + 2
        if playing and e - at == len(_TIMEOUT) and equals(buf, at, _TIMEOUT):
            timeout_seat[timeouts], timeout_sec[timeouts] = row, sec
            timeouts += 1
        elif playing:
            set_seat[set_lines], set_sec[set_lines] = row, sec
            ok, set_hidden[set_lines], placed = _placement(buf, at, e, parts, set_lines, set_act,
                                                           set_row, set_code, placed)  # fmt: skip
            set_lines += 1
            bad[h] |= not ok
        elif sec == SHOWDOWN:
            show_seat[shows] = row
            ok, fouled[shows] = _showdown(buf, at, e, parts, show_codes[shows])
            shows += 1
            bad[h] |= not ok
        elif sec == SUMMARY:
            summary_seat[summaries] = row
            summary[summaries], filed = intern(words, at, e, 0, slots, reps, filed)
            summaries += 1
        else:
            bad[h] = True
    return dealt_lines, set_lines, timeouts, shows, summaries, dealt, placed, filed


@numba.njit(cache=True, inline="always")
def _bind(buf, words, at, hand_slots, name_at, name_len, first, second, other):
    """The one seat among ``hand_slots`` whose name is written at ``at`` and followed by
    ``first`` then ``second`` or ``other`` (bytes); -1 when none or several. And where the
    name ends."""
    found, end = -1, -1
    for row in hand_slots:
        if row < 0:
            break
        length = name_len[row]
        if length == 0:
            continue
        after = at + length
        if buf[after] != first or (buf[after + 1] != second and buf[after + 1] != other):
            continue
        if same(words, at, name_at[row], length):
            if found >= 0:
                return -1, -1
            found, end = row, after
    return found, end


@numba.njit(cache=True, inline="always")
def _code(parts, rank, suit):
    """The code of the card written ``rank`` then ``suit`` (negative: not a card)."""
    return parts[0, rank] + parts[1, suit]


@numba.njit(cache=True, inline="always")
def _list(buf, open_, parts):
    """The canonical card list opening at ``open_``: its size and close (-1, -1: not one)."""
    if buf[open_ + 1] == 93:
        return 0, open_ + 1
    for n in range(MOST):
        at = open_ + 1 + 3 * n
        if _code(parts, buf[at], buf[at + 1]) < 0:
            return -1, -1
        after = buf[at + 2]
        if after == 93:
            return n + 1, at + 2
        if after != 32:
            return -1, -1
    return -1, -1


@numba.njit(cache=True, inline="always")
def _emit(buf, open_, size, row, parts, act, card_act, card_row, card_code, cards):
    """The ``size`` cards of the list opening at ``open_``, stored from index ``cards`` on
    (``card_row`` None: not stored); the new number of cards stored."""
    for n in range(size):
        at = open_ + 1 + 3 * n
        card_act[cards] = act
        if card_row is not None:
            card_row[cards] = row
        card_code[cards] = _code(parts, buf[at], buf[at + 1])
        cards += 1
    return cards


@numba.njit(cache=True, inline="always")
def _counted(buf, at, stop, before):
    """``<before><c> card(s)`` filling ``[at, stop)``, ``c`` of one or two digits: ``c`` or -1."""
    if not equals(buf, at, before):
        return -1
    at += len(before)
    value, digits = 0, 0
    while digits < 2 and 48 <= buf[at] <= 57:
        value = value * 10 + buf[at] - 48
        at += 1
        digits += 1
    if digits == 0:
        return -1
    for noun in (_CARD, _CARDS):
        if stop - at == len(noun) and equals(buf, at, noun):
            return value
    return -1


@numba.njit(cache=True, inline="always")
def _dealt(buf, at, stop, parts, act, card_act, card_code, cards, count, shown):
    """`` [<cards>]`` or `` (<c> card(s))`` from ``at`` to the line's end: whether it reads."""
    if buf[at + 1] == 91:
        shown[act] = True
        size, close = _list(buf, at + 1, parts)
        if size > 0 and close == stop - 1:
            count[act] = size
            return True, _emit(buf, at + 1, size, ex.DEALT, parts, act, card_act, None,
                               card_code, cards)  # fmt: skip
        return False, cards
    if buf[at + 1] != 40 or buf[stop - 1] != 41:
        return False, cards
    number = _counted(buf, at + 2, stop - 1, _NOTHING)
    count[act] = max(number, 0)
    return number >= 0, cards


@numba.njit(cache=True, inline="always")
def _row_word(buf, at):
    """Which row word (``top [``...) is written at ``at``: its row and length (-1, 0: none).
    Their first letters differ, so the first byte picks the one to compare."""
    first = buf[at]
    row = 0 if first == 116 else 1 if first == 109 else 2 if first == 98 else -1
    if row >= 0 and equals(buf, at, _ROW_WORDS[row]):
        return row, len(_ROW_WORDS[row])
    return -1, 0


@numba.njit(cache=True, inline="always")
def _placement(buf, at, stop, parts, act, card_act, card_row, card_code, cards):
    """``sets <row> [<cards>], ...`` from ``at`` to the line's end: whether it reads, the
    discards it counts without naming them, and the new card count."""
    if not equals(buf, at, _SETS):
        return False, 0, cards
    pos = at + len(_SETS)
    used = 0
    first = True
    while True:
        if first:
            row, length = _row_word(buf, pos)
        elif buf[pos] == 44 and buf[pos + 1] == 32:
            row, length = _row_word(buf, pos + 2)
            length += 2
        else:
            break
        if row < 0 or used & (1 << row):
            return False, 0, cards
        used |= 1 << row
        open_ = pos + length - 1
        size, close = _list(buf, open_, parts)
        if size < 0 or close >= stop:
            return False, 0, cards
        cards = _emit(buf, open_, size, row, parts, act, card_act, card_row, card_code, cards)
        pos = close + 1
        first = False
    if first:
        return False, 0, cards
    if pos == stop:
        return True, 0, cards
    if equals(buf, pos, _DISCARDS) and buf[pos + len(_DISCARDS)] == 91:
        open_ = pos + len(_DISCARDS)
        size, close = _list(buf, open_, parts)
        if size < 0 or close != stop - 1:
            return False, 0, cards
        cards = _emit(buf, open_, size, ex.DISCARD, parts, act, card_act, card_row, card_code,
                      cards)  # fmt: skip
        return True, 0, cards
    number = _counted(buf, pos, stop, _DISCARDS)
    return number >= 0, max(number, 0), cards


@numba.njit(cache=True, inline="always")
def _showdown(buf, at, stop, parts, codes):
    """``shows top [...] (...), middle [...] (...), bottom [...] (...)[ - fouled]`` from ``at``
    to the line's end: whether it reads and whether it says ``fouled``; the 13 cards go to
    ``codes``. Read left to right: each row's list opens at the first ``[`` after the text
    before it, and the texts hold no brackets."""
    fouled = stop - at >= len(_FOULED) and equals(buf, stop - len(_FOULED), _FOULED)
    end = stop - len(_FOULED) if fouled else stop
    pos, n = at, 0
    for k in range(3):
        words = _SHOWS[k]
        open_ = pos
        while open_ < end and buf[open_] != 91:
            if buf[open_] == 93:
                return False, fouled
            open_ += 1
        begin = open_ + 1 - len(words)
        if open_ >= end or begin < pos or (k == 0 and begin != at):
            return False, fouled
        if not equals(buf, begin, words):
            return False, fouled
        size, close = _list(buf, open_, parts)
        if size != _SHOWN_SIZES[k] or close >= end:
            return False, fouled
        for c in range(size):
            codes[n] = _code(parts, buf[open_ + 1 + 3 * c], buf[open_ + 2 + 3 * c])
            n += 1
        if buf[close + 1] != 32 or buf[close + 2] != 40:
            return False, fouled
        pos = close + 3
    for k in range(pos, end):
        if buf[k] == 91 or buf[k] == 93:
            return False, fouled
    return end - 1 >= pos and buf[end - 1] == 41, fouled
