"""The body lines of ``ru`` hands read in one compiled pass, filling ``body_scan.Scanned``.

The same pass as ``parsers.fast.body_scan`` (one walk over the lines below
each hand's first section, names bound to seats byte for byte) for the
grammar of ``ofc-text-ru.md`` as ``parsers.formats.ru`` reads it, with its
words taken from that module. Cards are bare (no brackets), separated by
one space, a rank then a suit as the format spells them (``Т♥``, ``10s``,
``Ah``: ``cards.spelling_tables`` looks up their UTF-8 bytes). A line that does
not read marks its hand, which goes to the thorough reader.

Grammar, after the name:

- dealt: `` получает: <cards>`` (the hero, at least one card) or
  `` получает <c> карту|карты|карт (закрыты)``;
- ``: `` then a placement: parts ``верх|середина|низ|сброс <cards>`` or
  ``сброс (закрыт)`` (a hidden discard, counted as what the deal leaves
  over: ``set_hidden`` is -1 until ``parsers.fast.body`` counts it), each
  row at most once, `` | `` between them;
- ``: `` then the timeout line;
- showdown: ``: верх <3> · середина <5> · низ <5>``, optionally `` — мёртвая рука``;
- summary: ``: `` then its figures, filed by their text.

A name binds to a seat only when exactly one seat of the hand, in exactly
one of these forms, has its name written at the line's start; a name that
ends in `` получает`` is left to the thorough reader, which reads its lines
as dealt lines.
"""

from __future__ import annotations

import numba
import numpy as np

from parsers import extract as ex
from parsers.fast.body_scan import Scanned, scanned
from parsers.fast.cards import MOST, spelling_tables
from parsers.fast.grammar import literal
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.fast.intern import NO_NRT, intern
from parsers.fast.literals import equals, same
from parsers.fast.text import Text
from parsers.formats import ru
from parsers.segment import HEAD, SHOWDOWN, SUMMARY

_HEADS, _THIRDS = spelling_tables(ru.SPELLINGS)
_SAID = literal(": ")
_DEALT = literal(ru.DEALT_SUFFIX)
_TIMEOUT = literal(ru.TIMEOUT)
_ROWS = tuple(literal(f"{word} ") for word in ru.ROWS)
_ROW_CODES = np.array(list(ru.ROWS.values()), dtype=np.int8)
_CLOSED = literal("(закрыт)")
_PARTS = literal(" | ")
_NOUNS = tuple(literal(f" {noun}") for noun in ru.HIDDEN_NOUNS)
_HIDDEN_END = literal(ru.HIDDEN_END)
_SHOWS = (literal("верх "), literal(" · середина "), literal(" · низ "))
_SHOWN_SIZES = (3, 5, 5)
_FOULED = literal(" — мёртвая рука")
#: How a name is followed: ``<name>: ``, ``<name> получает: `` (the hero's cards) or
#: ``<name> получает <c> ...`` (an opponent's).
SAID, SHOWN, HIDDEN = range(3)


def scan(text: Text, hands: Hands, seats: Seats) -> Scanned:
    """Read the body lines of every hand (below its first section, section lines aside)
    against the seats of its hand."""
    shown_acts = np.empty(5, dtype=np.int32)  # what _cards files beside a showdown's codes
    return scanned(_scan, text, hands, seats, _HEADS, _THIRDS, shown_acts)


@numba.njit(**NO_NRT)
def _scan(
    buf, words, starts, ends, line_hand, line_sec, section, name_at, name_len, seat_slots, heads,
    thirds, shown_acts,
    dealt_seat, dealt_sec, dealt_count, dealt_shown, set_seat, set_sec, set_hidden,
    timeout_seat, timeout_sec, show_seat, fouled, show_codes, summary_seat, summary,
    dealt_act, dealt_code, set_act, set_row, set_code, bad,
    slots, rep_start, rep_end, rep_kind, rep_hash,
):  # fmt: skip
    reps = (rep_start, rep_end, rep_kind, rep_hash)
    spelled = (heads, thirds)
    filed = 0
    dealt_lines = set_lines = timeouts = shows = summaries = dealt = placed = 0
    for i in range(len(starts)):
        h, sec = line_hand[i], line_sec[i]
        if h < 0 or sec == HEAD or section[i]:
            continue
        s, e = starts[i], ends[i]
        playing = sec >= 0 and sec < SHOWDOWN
        row, form, at = _bind(buf, words, s, seat_slots[h], name_at, name_len, playing)
        if row < 0:
            bad[h] = True
            continue
        if form != SAID:
            dealt_seat[dealt_lines], dealt_sec[dealt_lines] = row, sec
            dealt_count[dealt_lines], dealt_shown[dealt_lines] = 0, form == SHOWN
            if form == SHOWN:
                size, end = _cards(buf, at, e, spelled, MOST, dealt_lines, dealt_act,
                                   dealt_code, dealt)  # fmt: skip
                ok = size > 0 and end == e
                if ok:
                    dealt_count[dealt_lines] = size
                    dealt += size
            else:
                number = _hidden(buf, at, e)
                ok = number >= 0
                dealt_count[dealt_lines] = max(number, 0)
            dealt_lines += 1
            bad[h] |= not ok
        elif playing and e - at == len(_TIMEOUT) and equals(buf, at, _TIMEOUT):
            timeout_seat[timeouts], timeout_sec[timeouts] = row, sec
            timeouts += 1
        elif playing:
            set_seat[set_lines], set_sec[set_lines] = row, sec
            ok, set_hidden[set_lines], placed = _placement(
                buf, at, e, spelled, set_lines, set_act, set_row, set_code, placed
            )
            set_lines += 1
            bad[h] |= not ok
        elif sec == SHOWDOWN:
            show_seat[shows] = row
            ok, fouled[shows] = _showdown(buf, at, e, spelled, show_codes[shows], shown_acts)
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
def _bind(buf, words, at, hand_slots, name_at, name_len, playing):
    """The one seat among ``hand_slots`` whose name is written at ``at`` and followed as one
    of the forms (``SAID``; while ``playing`` also ``SHOWN``, ``HIDDEN``), the form, and where
    the rest of the line starts; -1 when none or several."""
    found, form, rest = -1, SAID, -1
    for row in hand_slots:
        if row < 0:
            break
        kind, start = SAID, -1
        length = name_len[row]
        after = at + length
        if length == 0 or (buf[after] != _SAID[0] and buf[after] != _DEALT[0]):
            continue
        if not same(words, at, name_at[row], length):
            continue
        if equals(buf, after, _SAID):
            kind, start = SAID, after + 2
            if playing and _ends_dealt(buf, at, after):
                return -1, SAID, -1
        elif playing and equals(buf, after, _DEALT):
            start = after + len(_DEALT)
            if equals(buf, start, _SAID):
                kind, start = SHOWN, start + 2
            elif buf[start] == 32:
                kind, start = HIDDEN, start + 1
            else:
                continue
        else:
            continue
        if found >= 0:
            return -1, SAID, -1
        found, form, rest = row, kind, start
    return found, form, rest


@numba.njit(cache=True, inline="always")
def _ends_dealt(buf, start, end) -> bool:
    """Whether the name ``[start, end)`` ends with `` получает`` (its lines are dealt lines)."""
    return end - start >= len(_DEALT) and equals(buf, end - len(_DEALT), _DEALT)


@numba.njit(cache=True, inline="always")
def _card(buf, at, spelled):
    """The code of the card spelled at ``at`` and where it ends (-1: not a card); ``spelled``:
    the two tables of ``spelling_tables``."""
    rank, at = _part(buf, at, spelled, 0)
    if rank < 0:
        return -1, at
    suit, at = _part(buf, at, spelled, 1)
    if suit < 0:
        return -1, at
    return rank + suit, at


@numba.njit(cache=True, inline="always")
def _part(buf, at, spelled, kind):
    """The part of a card code (``kind`` 0: a rank's, 1: a suit's) spelled at ``at``, and where
    it ends (-1: none spelled there)."""
    heads, thirds = spelled
    head = heads[kind, np.int64(buf[at]) | np.int64(buf[at + 1]) << 8]
    if head < 0:
        return -1, at
    length = head >> 8
    if length < 3:
        return head & 255, at + length
    return thirds[head & 255, buf[at + 2]], at + 3


@numba.njit(cache=True, inline="always")
def _cards(buf, at, stop, spelled, most, act, card_act, card_code, cards):
    """The cards (one space between two) from ``at``, stored from index ``cards`` on with
    ``act``: how many (0: no card at ``at``) and where the list ends."""
    size, end = 0, at
    while size < most and end < stop:
        start = end + (size > 0)
        if size > 0 and buf[end] != 32:
            break
        code, after = _card(buf, start, spelled)
        if code < 0 or after > stop:
            break
        card_act[cards + size], card_code[cards + size] = act, code
        size += 1
        end = after
    return size, end


@numba.njit(cache=True, inline="always")
def _hidden(buf, at, stop):
    """``<c> карту|карты|карт (закрыты)`` filling ``[at, stop)``, ``c`` of one or two digits:
    ``c`` or -1."""
    value, digits = 0, 0
    while digits < 2 and 48 <= buf[at] <= 57:
        value = value * 10 + buf[at] - 48
        at += 1
        digits += 1
    if digits == 0:
        return -1
    for noun in _NOUNS:
        end = at + len(noun)
        if (
            stop - end == len(_HIDDEN_END)
            and equals(buf, at, noun)
            and equals(buf, end, _HIDDEN_END)
        ):
            return value
    return -1


@numba.njit(cache=True, inline="always")
def _row_word(buf, at):
    """Which row word (``верх ``...) is written at ``at``: its index in ``ROWS`` (-1: none)."""
    for k in range(len(_ROWS)):
        if equals(buf, at, _ROWS[k]):
            return k
    return -1


@numba.njit(cache=True, inline="always")
def _placement(buf, at, stop, spelled, act, card_act, card_row, card_code, cards):
    """Parts ``<row> <cards>`` or ``сброс (закрыт)`` with `` | `` between them, from ``at`` to
    the line's end: whether it reads, -1 if it hides discards (else 0), the new card count."""
    used, hidden, pos = 0, 0, at
    while True:
        k = _row_word(buf, pos)
        if k < 0 or used & (1 << k):
            return False, 0, cards
        used |= 1 << k
        pos += len(_ROWS[k])
        row = _ROW_CODES[k]
        if row == ex.DISCARD and equals(buf, pos, _CLOSED):
            hidden, pos = -1, pos + len(_CLOSED)
        else:
            size, pos = _cards(buf, pos, stop, spelled, MOST, act, card_act, card_code, cards)
            if size == 0:
                return False, 0, cards
            card_row[cards : cards + size] = row
            cards += size
        if pos == stop:
            return True, hidden, cards
        if not equals(buf, pos, _PARTS):
            return False, 0, cards
        pos += len(_PARTS)


@numba.njit(cache=True, inline="always")
def _showdown(buf, at, stop, spelled, codes, acts):
    """``верх <3> · середина <5> · низ <5>[ — мёртвая рука]`` from ``at`` to the line's end:
    whether it reads and whether it says the hand is dead; the 13 cards go to ``codes``."""
    fouled = stop - at >= len(_FOULED) and equals(buf, stop - len(_FOULED), _FOULED)
    end = stop - len(_FOULED) if fouled else stop
    pos, n = at, 0
    for k in range(3):
        if not equals(buf, pos, _SHOWS[k]):
            return False, fouled
        size, pos = _cards(buf, pos + len(_SHOWS[k]), end, spelled, 5, 0, acts, codes[n:], 0)
        if size != _SHOWN_SIZES[k]:
            return False, fouled
        n += size
    return pos == end, fouled
