"""The ``placements`` rows of the stored hands, gathered in one compiled pass.

The rows, in order: every card named on a placement line (in line order),
then one card-less discard per discard a placement line counts without
naming it, then for each Fantasyland hand seen only at showdown its 13
shown cards on street 0 (top, middle, bottom), then one card-less discard
per card such hands were dealt beyond 13. Each row says its stored hand
(``hand``: index among the stored hands), seat, street, card code (-1:
none), row code (``parsers.extract``'s ``TOP`` .. ``DISCARD``) and whether
the cards were set automatically (``auto``: the seat timed out on that street).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parsers import extract as ex
from parsers.fast.body import Body
from parsers.fast.checks import SECS, SHOWN_ROWS
from parsers.fast.head import Seats

_SETS, _DISCARD = ex.SETS_LINE, ex.DISCARD


@dataclass(frozen=True, eq=False)
class PlacementRows:
    """One entry per ``placements`` row (see the module docstring)."""

    hand: np.ndarray
    seat: np.ndarray
    street: np.ndarray
    card: np.ndarray
    row: np.ndarray
    auto: np.ndarray


def placement_rows(
    stored_at: np.ndarray, seats: Seats, body: Body, unseen: np.ndarray
) -> PlacementRows:
    """The rows of the hands with a place among the stored ones (``stored_at``: per hand, -1:
    not stored); ``unseen``: the seats whose Fantasyland hand is seen only at showdown."""
    show = np.full(seats.count(), -1, dtype=np.int64)
    show[body.show_seat] = np.arange(len(body.show_seat))
    acts = body.acts
    auto = np.zeros(seats.count() * SECS, dtype=np.bool_)
    auto[acts.seat[acts.timeouts] * SECS + acts.sec[acts.timeouts]] = True
    found = _rows(
        stored_at[seats.hand], seats.seat, seats.fl_cards, auto.reshape(-1, SECS),
        acts.seat, acts.kind, acts.sec, acts.hidden, *body.placed(), np.flatnonzero(unseen),
        show, body.show_codes, SHOWN_ROWS,
    )  # fmt: skip
    return PlacementRows(*found)


@numba.njit(cache=True, nogil=True)
def _rows(
    seat_at, seat_number, fl_cards, auto, act_seat, act_kind, act_sec, act_hidden,
    card_act, card_row, card_code, unseen, show, show_codes, shown_rows,
):  # fmt: skip
    """The rows (``card_act``, ``card_row``, ``card_code``: the cards of placement lines)."""
    size = 0
    for c in range(len(card_act)):
        size += seat_at[act_seat[card_act[c]]] >= 0 and card_row[c] <= _DISCARD
    for a in range(len(act_kind)):
        if act_kind[a] == _SETS and seat_at[act_seat[a]] >= 0:
            size += act_hidden[a]
    for s in unseen:
        if seat_at[s] >= 0:
            size += max(fl_cards[s], 13)
    hand = np.empty(size, dtype=np.int32)
    seat = np.empty(size, dtype=np.int8)
    street = np.zeros(size, dtype=np.int8)
    card = np.full(size, -1, dtype=np.int32)
    row = np.full(size, _DISCARD, dtype=np.int32)
    timed = np.zeros(size, dtype=np.bool_)
    n = 0
    for c in range(len(card_act)):
        a = card_act[c]
        if seat_at[act_seat[a]] >= 0 and card_row[c] <= _DISCARD:
            s, sec = act_seat[a], act_sec[a]
            hand[n], seat[n], street[n], timed[n] = seat_at[s], seat_number[s], sec, auto[s, sec]
            card[n], row[n] = card_code[c], card_row[c]
            n += 1
    for a in range(len(act_kind)):
        if act_kind[a] == _SETS and seat_at[act_seat[a]] >= 0:
            s, sec = act_seat[a], act_sec[a]
            for _ in range(act_hidden[a]):
                hand[n], seat[n], street[n], timed[n] = (
                    seat_at[s],
                    seat_number[s],
                    sec,
                    auto[s, sec],
                )
                n += 1
    for s in unseen:
        if seat_at[s] >= 0:
            for k in range(13):
                hand[n], seat[n], timed[n] = seat_at[s], seat_number[s], auto[s, 0]
                card[n], row[n] = show_codes[show[s], k], shown_rows[k]
                n += 1
    for s in unseen:
        if seat_at[s] >= 0:
            for _ in range(fl_cards[s] - 13):
                hand[n], seat[n], timed[n] = seat_at[s], seat_number[s], auto[s, 0]
                n += 1
    return hand, seat, street, card, row, timed
