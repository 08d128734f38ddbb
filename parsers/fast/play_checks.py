"""The checks of a hand's play, compiled: streets against the variant's plan, and the showdown.

Two passes (numba) over the lines ``parsers.fast.body`` read, each gathering
counts and 52-bit card sets per seat and street in flat arrays, then testing
every seat; a hand with a seat that fails is marked. They are
``parsers.validate``'s checks (R2, R6: cards dealt, placed and discarded
per street; one showdown and one summary line per player; shown rows equal
to placed rows; no card twice in a hand), the same or stricter; the
thorough reader words the problem of a hand that fails here.

Acts (``parsers.fast.body.Acts``) are keyed ``seat * secs + sec``; a seat in
Fantasyland plays section 0 only, the others streets ``1..streets``.
"""

from __future__ import annotations

import numba
import numpy as np

from parsers import extract as ex

_SHOWN_ROWS = (ex.TOP,) * 3 + (ex.MIDDLE,) * 5 + (ex.BOTTOM,) * 5


@numba.njit(cache=True, inline="always")
def _bit(code) -> np.uint64:
    return np.uint64(1) << np.uint64(code) if code >= 0 else np.uint64(0)


@numba.njit(cache=True, inline="always")
def _distinct(bits, count) -> bool:
    n = 0
    while bits:
        bits &= bits - np.uint64(1)
        n += 1
    return n == count


@numba.njit(cache=True, nogil=True)
def act_problems(
    seat_hand, fl_cards, act_seat, act_sec, act_kind, act_count, act_shown, act_hidden,
    card_act, card_row, card_code, variant, streets, plan, secs, hands,
):  # fmt: skip
    """Per hand: whether a seat's dealt and placement lines break the variant's plan.

    Per seat and street there must be one dealt line and one placement line
    (an opponent's Fantasyland hand may show no placement), dealing as many
    cards as the plan places and discards; the placement places and discards
    those numbers; and the hero's placed and discarded cards are the cards
    dealt to them, each once.
    """
    size = len(seat_hand) * secs
    problems = np.zeros(hands, dtype=np.bool_)
    dealts = np.zeros(size, dtype=np.int32)
    shown = np.zeros(size, dtype=np.int32)
    placing = np.zeros(size, dtype=np.int32)
    dealt_count = np.zeros(size, dtype=np.int32)
    hidden = np.zeros(size, dtype=np.int32)
    key = np.empty(len(act_seat), dtype=np.int32)
    for a in range(len(act_seat)):
        seat, sec = act_seat[a], act_sec[a]
        hand = seat_hand[seat]
        fitting = sec == 0 if fl_cards[seat] > 0 else 1 <= sec <= streets[hand]
        if not fitting:
            problems[hand] = True
            sec = 0
        k = seat * secs + sec
        key[a] = k
        if act_kind[a] == ex.SETS_LINE:
            placing[k] += 1
        elif act_kind[a] == ex.DEALT_LINE:
            dealts[k] += 1
            shown[k] += act_shown[a]
        dealt_count[k] += act_count[a]
        hidden[k] += act_hidden[a]
    placed = np.zeros(size, dtype=np.int32)
    discarded = np.zeros(size, dtype=np.int32)
    got_bits = np.zeros(size, dtype=np.uint64)
    got_count = np.zeros(size, dtype=np.int32)
    played_bits = np.zeros(size, dtype=np.uint64)
    played_count = np.zeros(size, dtype=np.int32)
    for c in range(len(card_act)):
        k, row, code = key[card_act[c]], card_row[c], card_code[c]
        if row == ex.DEALT:
            got_bits[k] |= _bit(code)
            got_count[k] += 1
            continue
        played_bits[k] |= _bit(code)
        played_count[k] += 1
        if row == ex.DISCARD:
            discarded[k] += 1
        else:
            placed[k] += 1
    for seat in range(len(seat_hand)):
        hand = seat_hand[seat]
        in_fl = fl_cards[seat] > 0
        last = 0 if in_fl else streets[hand]
        for sec in range(0 if in_fl else 1, last + 1):
            k = seat * secs + sec
            if in_fl:
                want_placed, want_discards = 13, fl_cards[seat] - 13
            else:
                want_placed = plan[max(variant[hand], 0), sec, 0]
                want_discards = plan[max(variant[hand], 0), sec, 1]
            one_set = placing[k] == 1
            opponent_fl = sec == 0 and shown[k] == 0
            wrong = dealts[k] != 1 or not (one_set or (opponent_fl and placing[k] == 0))
            wrong |= one_set and (
                placed[k] != want_placed or discarded[k] + hidden[k] != want_discards
            )
            wrong |= dealt_count[k] != want_placed + want_discards
            if shown[k] > 0 and one_set:
                same = got_bits[k] == played_bits[k] and got_count[k] == played_count[k]
                wrong |= not (same and _distinct(got_bits[k], got_count[k]))
            if wrong:
                problems[hand] = True
    return problems


@numba.njit(cache=True, nogil=True)
def showdown_problems(
    seat_hand, fl_cards, act_seat, act_sec, act_kind, card_act, card_row, card_code,
    show_seat, show_codes, summary_seat, hands,
):  # fmt: skip
    """Per hand: whether a seat lacks its one showdown or summary line, shows rows other
    than it placed (unless in Fantasyland with no placement line: seen only at showdown),
    or a card is shown or discarded twice in the hand (``card_act``, ``card_row``,
    ``card_code``: the cards of placement lines)."""
    seats = len(seat_hand)
    problems = np.zeros(hands, dtype=np.bool_)
    shows = np.zeros(seats, dtype=np.int64)
    summaries = np.zeros(seats, dtype=np.int64)
    for seat in summary_seat:
        summaries[seat] += 1
    fl_placed = np.zeros(seats, dtype=np.bool_)
    for a in range(len(act_seat)):
        if act_kind[a] == ex.SETS_LINE and act_sec[a] == 0:
            fl_placed[act_seat[a]] = True
    placed_bits = np.zeros(seats * 3, dtype=np.uint64)
    placed_count = np.zeros(seats * 3, dtype=np.int64)
    hand_bits = np.zeros(hands, dtype=np.uint64)
    hand_count = np.zeros(hands, dtype=np.int64)
    for c in range(len(card_act)):
        seat, row, code = act_seat[card_act[c]], card_row[c], card_code[c]
        if row == ex.DISCARD:
            hand_bits[seat_hand[seat]] |= _bit(code)
            hand_count[seat_hand[seat]] += 1
        elif row < ex.DISCARD:
            placed_bits[seat * 3 + row] |= _bit(code)
            placed_count[seat * 3 + row] += 1
    shown_bits = np.zeros(seats * 3, dtype=np.uint64)
    shown_count = np.zeros(seats * 3, dtype=np.int64)
    for line in range(len(show_seat)):
        seat = show_seat[line]
        shows[seat] += 1
        for n in range(13):
            code = show_codes[line, n]
            k = seat * 3 + _SHOWN_ROWS[n]
            shown_bits[k] |= _bit(code)
            shown_count[k] += 1
            hand_bits[seat_hand[seat]] |= _bit(code)
            hand_count[seat_hand[seat]] += 1
    for seat in range(seats):
        hand = seat_hand[seat]
        if shows[seat] != 1 or summaries[seat] != 1:
            problems[hand] = True
        if fl_cards[seat] > 0 and not fl_placed[seat]:
            continue
        for k in range(seat * 3, seat * 3 + 3):
            same = placed_bits[k] == shown_bits[k] and placed_count[k] == shown_count[k]
            if not (same and _distinct(placed_bits[k], placed_count[k])):
                problems[hand] = True
    for hand in range(hands):
        if not _distinct(hand_bits[hand], hand_count[hand]):
            problems[hand] = True
    return problems
