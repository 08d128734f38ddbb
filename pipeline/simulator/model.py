"""The simulator's output as the hand model: ``hands``, ``player_hands``, ``placements``.

Steps of a chunk are gathered and written table by table, hand by hand, in
the Arrow schemas of ``parsers/schema.py`` (the public contract described in
``docs/schema.md``). The simulator knows everything, so every discard is
shown (``hidden_discards`` is 0) and every placement has its card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ofc_core.cards import CARD_NAMES
from parsers.schema import HANDS, PLACEMENTS, PLAYER_HANDS
from pipeline.simulator.deal import ROW_NAMES
from pipeline.simulator.play import PlayedHands
from pipeline.simulator.scoring import Results, card_lists


@dataclass(frozen=True, eq=False)
class ModelBatch:
    """Model tables of a batch of hands (``rejects`` is the parsers' business)."""

    hands: pa.Table
    player_hands: pa.Table
    placements: pa.Table

    def as_dict(self) -> dict[str, pa.Table]:
        return {
            "hands": self.hands,
            "player_hands": self.player_hands,
            "placements": self.placements,
        }


@dataclass(frozen=True, eq=False)
class StepRecord:
    """One step of a chunk: a hand at each live table (players in order of action)."""

    table: np.ndarray
    number: np.ndarray  # run-wide hand number
    room_id: np.ndarray
    hand_id: np.ndarray
    played_at: np.ndarray
    button: np.ndarray  # seat index
    continuation: np.ndarray
    match_hand: np.ndarray  # 0 for a continuation
    match_first: np.ndarray  # run-wide number of the match's first hand
    order: np.ndarray  # (n, P) seat index of each position
    stacks: np.ndarray
    fantasyland_cards: np.ndarray
    played: PlayedHands
    results: Results
    reported_points: np.ndarray
    reported_money: np.ndarray  # nan at play-money tables


def _cat(steps: list[StepRecord], get) -> np.ndarray:
    return np.concatenate([get(s) for s in steps])


def build_tables(spec, ruleset, tables, steps: list[StepRecord]) -> ModelBatch:
    """Model tables of a chunk's steps, hands in run order (table by table).

    Steps of each player count are built together (hands where a player sat
    out have fewer players), then merged back into run order.
    """
    if not steps:
        return ModelBatch(*(s.empty_table() for s in (HANDS, PLAYER_HANDS, PLACEMENTS)))
    widths = sorted({s.order.shape[1] for s in steps}, reverse=True)
    parts = [
        _build(spec, ruleset, tables, [s for s in steps if s.order.shape[1] == w]) for w in widths
    ]
    if len(parts) == 1:
        return parts[0]
    hands = pa.concat_tables([p.hands for p in parts])
    hands = hands.take(pc.sort_indices(pc.cast(hands["room_hand_id"], pa.int64())))
    return ModelBatch(
        hands,
        _in_hand_order(pa.concat_tables([p.player_hands for p in parts]), hands["hand_id"]),
        _in_hand_order(pa.concat_tables([p.placements for p in parts]), hands["hand_id"]),
    )


def _in_hand_order(table: pa.Table, hand_ids: pa.ChunkedArray) -> pa.Table:
    """``table``'s rows ordered as ``hand_ids`` orders their hands (stable within a hand)."""
    rank = pc.index_in(table["hand_id"], value_set=hand_ids.combine_chunks())
    return table.take(pc.sort_indices(rank))


def _build(spec, ruleset, tables, steps: list[StepRecord]) -> ModelBatch:
    """Model tables of steps with the same number of players."""
    order = np.argsort(_cat(steps, lambda s: s.number), kind="stable")

    def col(get) -> np.ndarray:
        return _cat(steps, get)[order]

    table = col(lambda s: s.table)
    seat_of_position = col(lambda s: s.order)
    seat_numbers = np.take_along_axis(tables.seat[table], seat_of_position, axis=1)
    roster = np.take_along_axis(
        tables.roster_index[table], np.sort(seat_of_position, axis=1), axis=1
    )  # the players of each hand in seat order
    rank_of_position = np.argsort(np.argsort(seat_of_position, axis=1), axis=1)
    hand_id = col(lambda s: s.hand_id)
    hands = _hands(spec, ruleset, tables, table, col, hand_id)
    player_hands = _player_hands(spec, col, hand_id, rank_of_position, seat_numbers, roster)
    placements = _placements(col, hand_id, seat_numbers)
    return ModelBatch(hands, player_hands, placements)


def _hands(spec, ruleset, tables, table, col, hand_id) -> pa.Table:
    continuation = col(lambda s: s.continuation)
    button = col(lambda s: s.button)
    point_value = tables.point_value[table]
    return pa.table(
        {
            "hand_id": pa.array(hand_id, pa.string()),
            "room_hand_id": pa.array(col(lambda s: s.room_id).astype(str)),
            "source_format": pa.array(np.full(len(table), spec.source_format)),
            "variant": pa.array(np.full(len(table), ruleset.variant.value)),
            "ruleset": pa.array(np.full(len(table), ruleset.name)),
            "played_at": pa.array(col(lambda s: s.played_at).astype("datetime64[us]")),
            "table_name": pa.array([tables.name[t] for t in table], pa.string()),
            "max_players": pa.array(tables.max_players[table]),
            "button_seat": pa.array(tables.seat[table, button]),
            "point_value": pa.array(point_value, mask=np.isnan(point_value)),
            "currency": pa.array([tables.currency[t] for t in table], pa.string()),
            "match_id": pa.array((spec.id_base + col(lambda s: s.match_first)).astype(str)),
            "match_hand": pa.array(col(lambda s: s.match_hand), mask=continuation),
            "match_hands": pa.array(np.full(len(table), spec.players), mask=continuation),
            "fantasyland_continuation": pa.array(continuation),
            "source_file": pa.nulls(len(table), pa.string()),
            "source_line": pa.nulls(len(table), pa.int64()),
        }
    ).cast(HANDS)


def _by_seat(values: np.ndarray, seat_of_position: np.ndarray) -> np.ndarray:
    """``(n, P, ...)`` values in order of action rearranged into seat order, flattened."""
    out = np.empty_like(values)
    index = seat_of_position.reshape(seat_of_position.shape + (1,) * (values.ndim - 2))
    np.put_along_axis(out, np.broadcast_to(index, values.shape), values, axis=1)
    return out.reshape(-1, *values.shape[2:])


def _discard_lists(discards: np.ndarray) -> pa.ListArray:
    count = (discards >= 0).sum(axis=1)
    offsets = np.concatenate([[0], np.cumsum(count)]).astype(np.int32)
    cards = discards[discards >= 0].astype(np.int64)  # -1 padding sits at the end of each row
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(CARD_NAMES).take(pa.array(cards)))


def _player_hands(spec, col, hand_id, seat_of_position, seat_numbers, roster) -> pa.Table:
    """``seat_of_position``: each position's place among the hand's seats (0 = lowest seat);
    ``roster``: the hand's players in seat order."""
    n, players = seat_of_position.shape

    def seat_order(get) -> np.ndarray:
        return _by_seat(col(get), seat_of_position)

    boards = seat_order(lambda s: s.played.boards)
    points = seat_order(lambda s: s.reported_points)
    next_cards = seat_order(lambda s: s.results.next_cards)
    fl_cards = seat_order(lambda s: s.fantasyland_cards)
    money = seat_order(lambda s: s.reported_money)
    position = _by_seat(np.broadcast_to(np.arange(1, players + 1), (n, players)), seat_of_position)
    return pa.table(
        {
            "hand_id": pa.array(np.repeat(hand_id, players), pa.string()),
            "seat": pa.array(np.sort(seat_numbers, axis=1).ravel()),
            "player": pa.array([spec.roster[i].name for i in roster.ravel()], pa.string()),
            "position": pa.array(position),
            "starting_stack": pa.array(seat_order(lambda s: s.stacks)),
            "in_fantasyland": pa.array(fl_cards > 0),
            "fantasyland_cards": pa.array(fl_cards),
            "top": card_lists(boards[:, :3]),
            "middle": card_lists(boards[:, 3:8]),
            "bottom": card_lists(boards[:, 8:]),
            "discards": _discard_lists(seat_order(lambda s: s.played.discards)),
            "hidden_discards": pa.array(np.zeros(n * players, dtype=np.int8)),
            "timed_out": pa.array(seat_order(lambda s: s.played.timed_out)),
            "reported_points": pa.array(points),
            "reported_royalties": pa.array(seat_order(lambda s: s.results.royalties)),
            "reported_foul": pa.array(seat_order(lambda s: s.results.foul)),
            "reported_money": pa.array(money, mask=np.isnan(money)),
            "reported_fantasyland_next": pa.array(next_cards > 0),
            "reported_fantasyland_cards": pa.array(next_cards, mask=next_cards == 0),
            "reported_fantasyland_stay": pa.array(seat_order(lambda s: s.results.stay)),
        }
    ).cast(PLAYER_HANDS)


def _placements(col, hand_id, seat_numbers) -> pa.Table:
    def field(name: str) -> np.ndarray:
        return _padded(col, name)

    valid = field("valid")
    position = field("position")
    width = valid.shape[1]
    seat = np.take_along_axis(seat_numbers, (position - 1).astype(np.int64), axis=1)
    cards = field("card")[valid].astype(np.int64)
    return pa.table(
        {
            "hand_id": pa.array(np.repeat(hand_id, width)[valid.ravel()], pa.string()),
            "seat": pa.array(seat[valid]),
            "street": pa.array(field("street")[valid]),
            "card": pa.array(CARD_NAMES).take(pa.array(cards)),
            "row": pa.array(np.array(ROW_NAMES)[field("row")[valid]]),
            "auto": pa.array(field("auto")[valid]),
        }
    ).cast(PLACEMENTS)


def _padded(col, name: str) -> np.ndarray:
    """A placements field of every step, rows in run order (steps share one width)."""
    return col(lambda s: getattr(s.played.placements, name))
