"""The lines above a hand's first section: header, table, match and seat lines.

``parsers.fast.head_scan`` cuts them in one compiled pass and files their
repeated parts (rule words, clock labels, table and match lines' tails,
seat lines' tails, names) under codes of their distinct texts; this module
reads each distinct text once with the format's own patterns and field
expressions (``parsers.fast.grammar``), and hands the fields back by code. A hand whose head
lines do not all read this way is marked ``bad`` and left to the thorough
reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from parsers import bounds
from parsers.fast import head_scan
from parsers.fast.fields import DistinctTexts
from parsers.fast.grammar import Grammar
from parsers.fast.hands import Hands
from parsers.fast.head_scan import HeadScan
from parsers.fast.text import Text
from parsers.groups import ranks

#: Hands with more seats than this are left to the thorough reader.
MAX_SEATS = 10


@dataclass(frozen=True, eq=False)
class Seats:
    """The seat lines of all hands, in file order.

    ``hand`` (index of the hand), ``seat``, the name's bytes (``name_at``,
    ``name_len``), ``stack``, ``fl_cards`` (0: not in Fantasyland), ``player``
    (the names as text), ``name`` (the name's code: equal names, equal codes;
    -1: unread) and ``line`` (line index); ``slots[k, j]`` is the ``j``-th
    seat row of hand ``k`` (-1: none).
    """

    hand: np.ndarray
    seat: np.ndarray
    name_at: np.ndarray
    name_len: np.ndarray
    stack: np.ndarray
    fl_cards: np.ndarray
    player: pl.Series
    name: np.ndarray
    line: np.ndarray
    slots: np.ndarray

    def count(self) -> int:
        return len(self.hand)


@dataclass(frozen=True, eq=False)
class Head:
    """What the head lines say, per hand (``frame``, one row per hand; ``room_hand_id`` null
    where the header does not cut) and per seat."""

    frame: pl.DataFrame
    seats: Seats
    bad: np.ndarray


def read_head(text: Text, hands: Hands, grammar: Grammar) -> Head:
    """Read every hand's header, table, match and seat lines (in ``grammar``'s format)."""
    lines = hands.head
    found = head_scan.scan(text, hands.first, lines, grammar)
    texts = DistinctTexts(text, found.interned)
    header, tables, matches = (
        _header(text, found, texts, grammar),
        _tables(found, texts, grammar),
        _matches(found, texts, grammar),
    )
    seat_lines = lines[found.kind == head_scan.SEAT_LINE]
    seats, seat_bad = _seats(
        found, texts, grammar, seat_lines, hands.hand[seat_lines], hands.count()
    )
    read = [frame.get_column("read").to_numpy() for frame in (header, tables, matches)]
    frame = pl.concat([f.drop("read") for f in (header, tables, matches)], how="horizontal")
    return Head(frame=frame, seats=seats, bad=found.bad | seat_bad | ~np.logical_and.reduce(read))


def _header(text: Text, found: HeadScan, texts: DistinctTexts, grammar: Grammar) -> pl.DataFrame:
    """``OFC Hand #<id>: <words> - <YYYY/MM/DD HH:MM:SS> <label>`` (``en``)."""
    rules = texts.fields(found.rules, head_scan.WORDS, grammar.rules)
    zone = grammar.zone(texts.of(found.label).fill_null(""))
    return pl.concat(
        [
            pl.DataFrame(
                {
                    "room_hand_id": _cut_only(
                        text.strings(found.room_start, found.room_end), found.room_start >= 0
                    ),
                    "local": pl.Series(found.local, dtype=pl.Int64).cast(pl.Datetime("us")),
                    "zone": zone,
                }
            ),
            rules,
        ],
        how="horizontal",
    ).with_columns(
        read=pl.col("read")
        & zone.is_not_null()
        & pl.col("local").is_between(bounds.FIRST_DAY, bounds.LAST_DAY)
    )


def _cut_only(values: pl.Series, cut: np.ndarray) -> pl.Series:
    """``values`` where ``cut``, null elsewhere."""
    return values.scatter(np.flatnonzero(~cut), None) if not cut.all() else values


def _tables(found: HeadScan, texts: DistinctTexts, grammar: Grammar) -> pl.DataFrame:
    """``Table '<name>' <n>-max, <stake>, Seat #<k> is the button`` (``en``): the name ends
    at the last closing quote."""
    fields = texts.fields(found.table_tail, head_scan.TABLE_TAIL, grammar.table)
    read = fields.get_column("read")
    read &= fields.get_column("max_players").is_not_null()
    read &= fields.get_column("button_seat").is_not_null()
    read &= fields.get_column("currency").is_not_null() | fields.get_column("point_value").is_null()
    return fields.with_columns(table_name=texts.of(found.table_name), read=read)


def _matches(found: HeadScan, texts: DistinctTexts, grammar: Grammar) -> pl.DataFrame:
    """``Match #<id>, hand <i> of <m>`` or ``Match #<id>, Fantasyland continuation`` (or none)."""
    has = pl.Series(found.match_id >= 0)
    fields = texts.fields(found.match_tail, head_scan.MATCH_TAIL, grammar.match)
    return fields.with_columns(
        match_id=texts.of(found.match_id),
        continuation=has & fields.get_column("continuation"),
        read=~has | fields.get_column("read"),
    )


def _seats(
    found: HeadScan,
    texts: DistinctTexts,
    grammar: Grammar,
    lines: np.ndarray,
    owner: np.ndarray,
    count: int,
) -> tuple[Seats, np.ndarray]:
    """``Seat <k>: <name> (<stack> points)[ [Fantasyland, <c> cards]]`` (``en``); the name
    ends at the last ``(``."""
    fields = texts.fields(found.seat_tail, head_scan.SEAT_TAIL, grammar.seat)
    bad = np.zeros(count, dtype=bool)
    bad[owner[~fields.get_column("read").to_numpy()]] = True
    rank = ranks(owner)
    seats_per_hand = np.bincount(owner, minlength=count)
    bad |= (seats_per_hand < 2) | (seats_per_hand > MAX_SEATS)
    fine = rank < MAX_SEATS
    slots = np.full((count, MAX_SEATS), -1, dtype=np.int64)
    slots[owner[fine], rank[fine]] = np.flatnonzero(fine)
    seats = Seats(
        hand=owner,
        seat=found.seat,
        name_at=found.name_at,
        name_len=found.name_len,
        stack=fields.get_column("stack").to_numpy(),
        fl_cards=fields.get_column("fl_cards").fill_null(0).to_numpy(),
        player=texts.of(found.player),
        name=found.player,
        line=lines,
        slots=slots,
    )
    return seats, bad
