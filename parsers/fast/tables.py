"""The hand model tables (``docs/schema.md``) of the hands that passed, built as Arrow arrays.

The rows are what ``parsers.model`` builds for the same hands: one
``hands`` row per hand, one ``player_hands`` row per seat (ordered by hand
and position), and ``placements`` rows for every card placed or discarded on
a placement line, one card-less discard row per hidden discard, and an
unseen Fantasyland hand's showdown rows (street 0) with its hidden discards.
Columns of strings that repeat row after row (hand ids, card names, row
names) are dictionary arrays over their few distinct values
(``parsers.schema.encoded``): no string is copied per row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from ofc_core.cards import CARD_NAMES
from parsers import extract as ex
from parsers.fast.body import Body
from parsers.fast.head import Seats
from parsers.fast.placement_rows import placement_rows
from parsers.groups import ranks
from parsers.schema import HANDS, encoded

_CARDS = pa.array(CARD_NAMES, pa.string())
_ROW_NAMES = pa.array([ex.ROW_NAMES[r] for r in range(4)], pa.string())


@dataclass(frozen=True, eq=False)
class HandIds:
    """The ids of the stored hands (``values``) and each hand's place among them (``at``;
    -1: not stored)."""

    values: pa.Array
    at: np.ndarray

    def of(self, hands: np.ndarray) -> pa.DictionaryArray:
        """The ids of ``hands`` (stored ones) as a dictionary array."""
        return _coded(self.at[hands], self.values)


def _coded(codes: np.ndarray, values: pa.Array, mask: np.ndarray | None = None) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32), mask=mask), values)


def hands_table(
    frame: pl.DataFrame, hand_ids: HandIds, first_line: np.ndarray, source_file: str, kind: str
) -> pa.Table:
    """``hands`` rows of the passing hands (``frame`` from ``checks.describe``, filtered; their
    ids are ``hand_ids.values``) of a file in format ``kind``."""
    out = frame.with_columns(
        hand_id=pl.Series(hand_ids.values),
        source_format=pl.lit(kind),
        fantasyland_continuation=pl.col("continuation").fill_null(False),
        source_file=pl.lit(source_file),
        source_line=pl.Series(first_line, dtype=pl.Int64),
    )
    return out.select(HANDS.names).to_arrow().cast(HANDS)


def player_hands_table(
    keep: np.ndarray, button: np.ndarray, hand_ids: HandIds, seats: Seats, body: Body
) -> pa.Table:
    """``player_hands`` rows of the seats of passing hands (``keep``: per hand), in order of
    hand and position."""
    rows = np.flatnonzero(keep[seats.hand])
    hand = seats.hand[rows]
    order = (seats.seat[rows] - button[hand] - 1) % 256
    rows = rows[np.argsort(hand * 256 + order, kind="stable")]
    hand = seats.hand[rows]
    position = ranks(hand) + 1
    size = seats.count()
    show = np.full(size, -1, dtype=np.int64)
    show[body.show_seat] = np.arange(len(body.show_seat))
    summary = np.full(size, -1, dtype=np.int64)
    summary[body.summary_seat] = np.arange(len(body.summary_seat))
    acts = body.acts
    sets, timeouts = acts.sets, acts.timeouts
    hidden = np.bincount(acts.seat[sets], acts.hidden[sets], minlength=size).astype(np.int64)
    unseen = _unseen(seats, body)
    hidden = np.where(unseen, seats.fl_cards - 13, hidden)
    timed_out = np.bincount(acts.seat[timeouts], minlength=size) > 0
    codes = body.show_codes[show[rows]]
    figures = body.summaries[summary[rows]]
    fl = seats.fl_cards[rows]
    columns = {
        "hand_id": hand_ids.of(hand),
        "seat": pa.array(seats.seat[rows], pa.int8()),
        "player": seats.player.gather(rows).to_arrow(),
        "position": pa.array(position, pa.int8()),
        "starting_stack": pa.array(seats.stack[rows], pa.float64()),
        "in_fantasyland": pa.array(fl > 0),
        "fantasyland_cards": pa.array(fl, pa.int8()),
        "top": _lists(codes[:, :3]),
        "middle": _lists(codes[:, 3:8]),
        "bottom": _lists(codes[:, 8:]),
        "discards": _discards(rows, seats, body),
        "hidden_discards": pa.array(hidden[rows], pa.int8()),
        "timed_out": pa.array(timed_out[rows]),
        "reported_points": figures.get_column("points").to_arrow(),
        "reported_royalties": figures.get_column("royalties").to_arrow(),
        "reported_foul": pa.array(body.fouled[show[rows]] | figures.get_column("foul").to_numpy()),
        "reported_money": figures.get_column("money").to_arrow(),
        "reported_fantasyland_next": figures.get_column("fl_next").to_arrow(),
        "reported_fantasyland_cards": figures.get_column("fl_cards").to_arrow().cast(pa.int8()),
        "reported_fantasyland_stay": figures.get_column("fl_stay").to_arrow(),
    }
    return pa.Table.from_pydict(columns, schema=encoded("player_hands"))


def placements_table(keep: np.ndarray, hand_ids: HandIds, seats: Seats, body: Body) -> pa.Table:
    """``placements`` rows of the passing hands (``keep``: per hand)."""
    found = placement_rows(np.where(keep, hand_ids.at, -1), seats, body, _unseen(seats, body))
    columns = {
        "hand_id": pa.DictionaryArray.from_arrays(found.hand, hand_ids.values),
        "seat": found.seat,
        "street": found.street,
        "card": _coded(np.maximum(found.card, 0), _CARDS, found.card < 0),
        "row": pa.DictionaryArray.from_arrays(found.row, _ROW_NAMES),
        "auto": found.auto,
    }
    return pa.Table.from_pydict(columns, schema=encoded("placements"))


def _unseen(seats: Seats, body: Body) -> np.ndarray:
    """Seats in Fantasyland with no placement line: their hand is known from the showdown only."""
    acts = body.acts
    fl_sets = acts.seat[acts.sets][acts.sec[acts.sets] == 0]
    return (seats.fl_cards > 0) & (np.bincount(fl_sets, minlength=seats.count()) == 0)


def _lists(codes: np.ndarray) -> pa.ListArray:
    """Rows of card codes as lists of card names."""
    offsets = np.arange(0, codes.size + 1, max(codes.shape[1], 1), dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), _coded(codes.reshape(-1), _CARDS))


def _discards(rows: np.ndarray, seats: Seats, body: Body) -> pa.ListArray:
    """Each seat's shown discards, in the order of its placement lines."""
    card_act, card_row, card_code = body.placed()
    discards = np.flatnonzero(card_row == ex.DISCARD)
    owner = body.acts.seat[card_act[discards]]
    order = np.argsort(owner, kind="stable")
    owner, codes = owner[order], card_code[discards][order]
    per_seat = np.bincount(owner, minlength=seats.count())
    begin = np.cumsum(per_seat) - per_seat
    sizes = per_seat[rows]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    take = np.repeat(begin[rows], sizes) + np.arange(offsets[-1]) - np.repeat(offsets[:-1], sizes)
    return pa.ListArray.from_arrays(pa.array(offsets), _coded(codes[take], _CARDS))
