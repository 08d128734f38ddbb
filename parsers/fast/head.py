"""The lines above a hand's first section: header, table, match and seat lines.

Each line is cut at byte offsets the ``en`` grammar fixes (the header's id
ends at its first ``:``, the clock label follows its last space; a table
name ends at the line's last quote; a seat's name ends at its last ``(``),
and the parts are read with the ``en`` reader's own patterns and field
expressions, once per distinct text (``parsers.fast.fields``). A hand
whose head lines do not all read this way is marked ``bad`` and left to the
thorough reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from parsers import en
from parsers.fast.fields import by_distinct
from parsers.fast.hands import Hands
from parsers.fast.text import Text
from parsers.segment import HEAD

#: Seat names longer than this many bytes are left to the thorough reader.
NAME_BYTES = 32
#: Hands with more seats than this are left to the thorough reader.
MAX_SEATS = 10
_DATE = r"^[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$"


@dataclass(frozen=True, eq=False)
class Seats:
    """The seat lines of all hands, in file order.

    ``hand`` (index of the hand), ``seat``, the name's bytes (``name_at``,
    ``name_len``), ``stack``, ``fl_cards`` (0: not in Fantasyland), ``player``
    (the names as text) and ``line`` (line index); ``slots[k, j]`` is the
    ``j``-th seat row of hand ``k`` (-1: none).
    """

    hand: np.ndarray
    seat: np.ndarray
    name_at: np.ndarray
    name_len: np.ndarray
    stack: np.ndarray
    fl_cards: np.ndarray
    player: pl.Series
    line: np.ndarray
    slots: np.ndarray

    def count(self) -> int:
        return len(self.hand)


@dataclass(frozen=True, eq=False)
class Head:
    """What the head lines say, per hand (``frame``, one row per hand) and per seat."""

    frame: pl.DataFrame
    seats: Seats
    bad: np.ndarray


def read_head(text: Text, hands: Hands) -> Head:
    """Read every hand's header, table, match and seat lines."""
    count = hands.count()
    bad = np.zeros(count, dtype=bool)
    lines = np.flatnonzero((hands.hand >= 0) & (hands.sec == HEAD))
    lines = lines[lines != hands.first[hands.hand[lines]]]
    owner = hands.hand[lines]
    kinds = {
        prefix: lines[text.begins(prefix, lines)] for prefix in (b"Table '", b"Match #", b"Seat ")
    }
    known = np.isin(lines, np.concatenate(list(kinds.values())))
    bad[owner[~known]] = True
    header = _header(text, hands.first)
    table, bad_table = _one_per_hand(count, hands.hand[kinds[b"Table '"]], kinds[b"Table '"], 1)
    match, bad_match = _one_per_hand(count, hands.hand[kinds[b"Match #"]], kinds[b"Match #"], 0)
    bad |= bad_table | bad_match | ~header.get_column("read").to_numpy()
    tables = _tables(text, table)
    matches = _matches(text, match)
    bad |= ~tables.get_column("read").to_numpy() | ~matches.get_column("read").to_numpy()
    seats, seat_bad = _seats(text, kinds[b"Seat "], hands.hand[kinds[b"Seat "]], count)
    frame = pl.concat(
        [header.drop("read"), tables.drop("read"), matches.drop("read")], how="horizontal"
    )
    return Head(frame=frame, seats=seats, bad=bad | seat_bad)


def _one_per_hand(
    count: int, owner: np.ndarray, lines: np.ndarray, least: int
) -> tuple[np.ndarray, np.ndarray]:
    """The line of each hand's one line of a kind (-1: none), and hands with too few or many."""
    per_hand = np.bincount(owner, minlength=count)
    line = np.full(count, -1, dtype=np.int64)
    line[owner] = lines
    return line, (per_hand < least) | (per_hand > 1)


def _spans(text: Text, rows: np.ndarray, ok: np.ndarray, start: np.ndarray, end: np.ndarray):
    """Text of each span where ``ok`` (an empty string elsewhere)."""
    start = np.where(ok, start, text.starts[rows])
    return text.strings(start, np.where(ok, end, start))


def _header(text: Text, first: np.ndarray) -> pl.DataFrame:
    """``OFC Hand #<id>: <words> - <YYYY/MM/DD HH:MM:SS> <label>``."""
    start, end = text.starts[first], text.ends[first]
    colon = text.find(start + len(en.HEADER_PREFIX), end, b":", limit=64)
    space = text.find_back(end, colon + 2, ord(" "), limit=64)
    date = space - 19
    ok = (
        (colon > start + len(en.HEADER_PREFIX))
        & (text.buf[colon + 1] == 32)
        & (date - 3 >= colon + 2)
        & (space + 1 < end)
        & text.equals(date - 3, b" - ")
    )
    room = _spans(text, first, ok, start + len(en.HEADER_PREFIX), colon)
    words = _spans(text, first, ok, colon + 2, date - 3)
    clock = _spans(text, first, ok, date, space)
    label = _spans(text, first, ok, space + 1, end)
    rules = by_distinct(
        words,
        f"^{en.HEADER_WORDS}$",
        en.rule_words(*(pl.col(f"g{i}") for i in (1, 2, 3, 4))),
    )
    frame = pl.DataFrame({"room_hand_id": room, "clock": clock, "label": label})
    frame = frame.with_columns(
        local=en.local_time(pl.col("clock")), zone=en.zone(frame.get_column("label"))
    )
    shape = frame.select(
        ~pl.col("room_hand_id").str.contains(r"\s")
        & ~pl.col("label").str.contains(r"\s")
        & pl.col("clock").str.contains(_DATE)
        & pl.col("local").is_not_null()
        & pl.col("zone").is_not_null()
    ).to_series()
    read = ok & rules.get_column("read").to_numpy() & shape.to_numpy()
    return pl.concat(
        [frame.select("room_hand_id", "local", "zone"), rules.drop("read")], how="horizontal"
    ).with_columns(read=pl.Series(read))


def _tables(text: Text, rows: np.ndarray) -> pl.DataFrame:
    """``Table '<name>' <n>-max, <stake>, Seat #<k> is the button``: the name ends at the last quote."""
    has = rows >= 0
    line = np.maximum(rows, 0)
    start, end = text.starts[line], text.ends[line]
    quote = text.find_back(end, start + 7, ord("'"), limit=128)
    ok = has & (quote >= start + 7) & (text.buf[quote + 1] == 32)
    name = _spans(text, line, ok, start + 7, quote)
    fields = by_distinct(_spans(text, line, ok, quote, end), en.TABLE_FIELDS, en.table_fields())
    read = fields.get_column("read") & pl.Series(ok)
    read &= fields.get_column("max_players").is_not_null()
    read &= fields.get_column("button_seat").is_not_null()
    return fields.with_columns(table_name=name, read=read)


def _matches(text: Text, rows: np.ndarray) -> pl.DataFrame:
    """``Match #<id>, hand <i> of <m>`` or ``Match #<id>, Fantasyland continuation`` (or none)."""
    has = rows >= 0
    line = np.maximum(rows, 0)
    start, end = text.starts[line], text.ends[line]
    comma = text.find(start + 7, end, b",", limit=128)
    ok = has & (comma > start + 7) & (text.buf[comma + 1] == 32)
    fields = by_distinct(
        _spans(text, line, ok, comma + 2, end), f"^({en.MATCH_TAIL})", en.match_fields(2)
    )
    match_id = _spans(text, line, ok, start + 7, comma)
    return fields.with_columns(
        match_id=pl.when(pl.Series(has)).then(match_id),
        continuation=pl.Series(has) & fields.get_column("continuation"),
        read=pl.Series(~has) | (pl.Series(ok) & fields.get_column("read")),
    ).with_columns(pl.when(pl.Series(has)).then(pl.col(c)) for c in ("match_hand", "match_hands"))


def _seats(
    text: Text, lines: np.ndarray, owner: np.ndarray, count: int
) -> tuple[Seats, np.ndarray]:
    """``Seat <k>: <name> (<stack> points)[ [Fantasyland, <c> cards]]``; the name ends at the last ``(``."""
    start, end = text.starts[lines], text.ends[lines]
    seat, after = text.digits(start + 5)
    name_at = after + 2
    paren = text.find_back(end, name_at + 1, ord("("), limit=128)
    name_len = paren - 1 - name_at
    ok = (
        (seat >= 1)
        & text.equals(after, b": ")
        & (paren > name_at + 1)
        & (text.buf[paren - 1] == 32)
        & (name_len <= NAME_BYTES)
    )
    player = _spans(text, lines, ok, name_at, paren - 1)
    fields = by_distinct(_spans(text, lines, ok, paren - 1, end), en.SEAT_FIELDS, en.seat_fields())
    ok &= fields.get_column("read").to_numpy() & ~player.str.contains(": ", literal=True).to_numpy()
    bad = np.zeros(count, dtype=bool)
    bad[owner[~ok]] = True
    rank = np.arange(len(lines)) - np.searchsorted(owner, owner)
    seats_per_hand = np.bincount(owner, minlength=count)
    bad |= (seats_per_hand < 2) | (seats_per_hand > MAX_SEATS)
    fine = rank < MAX_SEATS
    slots = np.full((count, MAX_SEATS), -1, dtype=np.int64)
    slots[owner[fine], rank[fine]] = np.flatnonzero(fine)
    seats = Seats(
        hand=owner,
        seat=seat,
        name_at=name_at,
        name_len=np.where(ok, name_len, 0),
        stack=fields.get_column("stack").to_numpy(),
        fl_cards=fields.get_column("fl_cards").fill_null(0).to_numpy(),
        player=player,
        line=lines,
        slots=slots,
    )
    return seats, bad
