"""The checks of ``parsers.validate``, for hands read from bytes, as integer array operations.

Counts are ``np.bincount`` over small integer keys (a seat row, or a seat row
and a street); sets of cards are 52-bit masks gathered per key by a small
compiled loop, beside the number of cards (a set of distinct cards has as
many bits as cards). A hand passes only if every check holds; this path never says
why a hand fails, because a failing hand goes to the thorough reader
(``parsers.validate``), which finds and words its first problem. The checks
are the same or stricter, never looser, so a hand stored here would be
stored there too.
"""

from __future__ import annotations

import numba
import numpy as np
import polars as pl

from parsers import extract as ex
from parsers.fast.body import Body
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.resolve import fantasyland_counts, ruleset_names, ruleset_variant, utc
from parsers.segment import SHOWDOWN, SUMMARY
from parsers.validate import STREETS

_VARIANTS = list(STREETS)
#: Streets per section key: a seat row's acts are keyed ``seat * SECS + sec``.
SECS = 1 + max(len(s) for s in STREETS.values())
_PLAN = np.zeros((len(_VARIANTS), SECS, 2), dtype=np.int64)
for _v, _streets in enumerate(STREETS.values()):
    _PLAN[_v, 1 : len(_streets) + 1] = _streets
_STREET_COUNT = np.array([len(s) for s in STREETS.values()], dtype=np.int64)
SHOWN_ROWS = np.repeat([ex.TOP, ex.MIDDLE, ex.BOTTOM], [3, 5, 5])


def describe(frame: pl.DataFrame, bad: np.ndarray, override: str | None) -> pl.DataFrame:
    """The hands still in the running (``k``: hand index) with ``ruleset``, ``exact`` and
    ``played_at``, as ``parsers.resolve.bind`` describes hands."""
    frame = frame.with_row_index("k").filter(pl.Series(~bad))
    words = ["variant", "fantasyland", "scoring", "royalties"]
    frame = frame.join(ruleset_names(frame, override), on=words, how="left", maintain_order="left")
    zones = [z for z in frame.get_column("zone").unique().to_list() if z is not None]
    return frame.with_columns(
        played_at=utc(pl.col("local"), pl.col("zone"), zones),
        k=pl.col("k").cast(pl.Int64),
    )


def passing(frame: pl.DataFrame, hands: Hands, seats: Seats, body: Body) -> np.ndarray:
    """Per hand: whether it passes every check (``frame`` from ``describe``)."""
    count = hands.count()
    good, variant, max_players, allowed = _per_hand(frame, count)
    streets = np.where(variant >= 0, _STREET_COUNT[np.maximum(variant, 0)], 0)
    good &= ~body.bad
    good &= ~_seat_problems(seats, max_players, allowed, count)
    good &= ~_section_problems(hands, seats, streets, count)
    good &= ~_act_problems(seats, body, variant, streets, count)
    good &= ~_showdown_problems(seats, body, count)
    return good


def _per_hand(frame: pl.DataFrame, count: int) -> list[np.ndarray]:
    """Per hand (zero where not in ``frame``): whether its clock and ruleset hold, its
    variant (index into ``STREETS``), table size and allowed Fantasyland counts (bits)."""
    rulesets = frame.get_column("ruleset").unique().to_list()
    ruleset = pl.col("ruleset")
    columns = frame.select(
        fine=pl.col("played_at").is_not_null()
        & (
            ruleset.replace_strict(rulesets, [ruleset_variant(r) for r in rulesets])
            == pl.col("variant")
        ),
        variant=pl.col("variant").replace_strict(_VARIANTS, list(range(len(_VARIANTS)))),
        max_players="max_players",
        allowed=ruleset.replace_strict(
            rulesets, [_bits(fantasyland_counts(r)) for r in rulesets], return_dtype=pl.Int64
        ),
    )
    k = frame.get_column("k").to_numpy()
    arrays = []
    for column, empty in zip(columns.iter_columns(), (False, -1, 0, 0), strict=True):
        array = np.full(count, empty, dtype=bool if column.dtype == pl.Boolean else np.int64)
        array[k] = column.to_numpy()
        arrays.append(array)
    return arrays


def _bits(counts: tuple[int, ...]) -> int:
    return sum(1 << c for c in counts if c < 63)


def _hands_of(rows: np.ndarray, count: int) -> np.ndarray:
    """Hands holding any of ``rows`` (hand indices) as a boolean array."""
    return np.bincount(rows, minlength=count) > 0


def _seat_problems(seats: Seats, max_players, allowed, count: int) -> np.ndarray:
    """Seats beyond the table size, repeated seat numbers or names, FL counts the ruleset never deals."""
    hand, fl = seats.hand, seats.fl_cards
    wrong = (seats.seat > max_players[hand]) | (fl > 62)
    wrong |= (fl > 0) & ((allowed[hand] >> np.minimum(fl, 62)) & 1 == 0)
    key = np.sort(hand * 256 + seats.seat)
    twice = key[1:][key[1:] == key[:-1]] // 256
    names = pl.DataFrame({"hand": hand, "player": seats.player})
    same_name = names.select(pl.struct("hand", "player").is_duplicated()).to_series().to_numpy()
    problems = _hands_of(np.concatenate([hand[wrong | same_name], twice]), count)
    return problems | (np.bincount(hand, minlength=count) > max_players)


def _section_problems(hands: Hands, seats: Seats, streets: np.ndarray, count: int) -> np.ndarray:
    """Sections other than: Fantasyland (if anyone is in it), streets 1..N (if anyone is not),
    showdown and summary, each once, in that order."""
    in_fl = seats.fl_cards > 0
    fl = np.bincount(seats.hand[in_fl], minlength=count) > 0
    live = np.bincount(seats.hand[~in_fl], minlength=count) > 0
    first = fl.astype(np.int64)
    played = np.where(live, streets, 0)
    lines = np.flatnonzero(hands.section)
    hand, code = hands.hand[lines], hands.sec[lines].astype(np.int64)
    nth = np.arange(len(lines)) - np.searchsorted(hand, hand)
    f, m = first[hand], played[hand]
    want = np.select(
        [nth < f, nth < f + m, nth == f + m, nth == f + m + 1],
        [0, nth - f + 1, SHOWDOWN, SUMMARY],
        default=-99,
    )
    wrong = _hands_of(hand[code != want], count)
    return wrong | (np.bincount(hand, minlength=count) != first + played + 2)


def _act_problems(seats: Seats, body: Body, variant, streets, count: int) -> np.ndarray:
    """Dealt and placement lines per player and street against the variant's plan (R2, R6)."""
    acts = body.acts
    in_fl = seats.fl_cards > 0
    hand = seats.hand[acts.seat]
    fitting = np.where(
        in_fl[acts.seat], acts.sec == 0, (acts.sec >= 1) & (acts.sec <= streets[hand])
    )
    problems = _hands_of(hand[~fitting], count)
    key = acts.seat * SECS + np.where(fitting, acts.sec, 0)
    size = seats.count() * SECS
    # Lines per key and kind; a dealt line listing its cards counts as kind 3.
    kinds = np.bincount(key * 4 + np.where(acts.shown, 3, acts.kind), minlength=size * 4)
    kinds = kinds.reshape(size, 4)
    dealts = kinds[:, ex.DEALT_LINE] + kinds[:, 3]
    placing, shown = kinds[:, ex.SETS_LINE], kinds[:, 3]
    dealt_count = np.bincount(key, acts.count, minlength=size).astype(np.int64)
    hidden = np.bincount(key, acts.hidden, minlength=size).astype(np.int64)
    card_key = key[body.card_act]
    rows = np.bincount(card_key * 5 + body.card_row, minlength=size * 5).reshape(size, 5)
    placed = rows[:, ex.TOP] + rows[:, ex.MIDDLE] + rows[:, ex.BOTTOM]
    discarded = rows[:, ex.DISCARD]
    # The cards dealt to a key (odd) and the cards it played (even), as sets.
    both = _card_sets(card_key * 2 + (body.card_row == ex.DEALT), body.card_code, size * 2)
    got = tuple(a[1::2] for a in both)
    played = tuple(a[0::2] for a in both)

    seat_streets = np.where(in_fl, 1, streets[seats.hand])
    seat = np.repeat(np.arange(seats.count()), seat_streets)
    sec = np.where(
        in_fl[seat],
        0,
        np.arange(len(seat)) - np.repeat(np.cumsum(seat_streets) - seat_streets, seat_streets) + 1,
    )
    want = _PLAN[np.maximum(variant[seats.hand[seat]], 0), sec]
    fl_cards = seats.fl_cards[seat]
    want_placed = np.where(in_fl[seat], 13, want[:, 0])
    want_discards = np.where(in_fl[seat], fl_cards - 13, want[:, 1])
    e = seat * SECS + sec
    opponent_fl = (sec == 0) & (shown[e] == 0)
    one_set = placing[e] == 1
    wrong = (dealts[e] != 1) | ~(one_set | (opponent_fl & (placing[e] == 0)))
    wrong |= one_set & ((placed[e] != want_placed) | (discarded[e] + hidden[e] != want_discards))
    wrong |= dealt_count[e] != want_placed + want_discards
    wrong |= (shown[e] > 0) & one_set & ~(_same(got, played, e))
    return problems | _hands_of(seats.hand[seat[wrong]], count)


def _showdown_problems(seats: Seats, body: Body, count: int) -> np.ndarray:
    """One showdown and one summary line per player; shown rows equal to placed rows (unless an
    opponent's Fantasyland hand is seen only there); no card twice in a hand."""
    hand = seats.hand
    size = seats.count()
    problems = _hands_of(hand[np.bincount(body.show_seat, minlength=size) != 1], count)
    problems |= _hands_of(hand[np.bincount(body.summary_seat, minlength=size) != 1], count)
    acts = body.acts
    on_sets = acts.kind[body.card_act] == ex.SETS_LINE
    placed_seat = acts.seat[body.card_act]
    row = body.card_row
    in_row = np.flatnonzero(on_sets & (row < ex.DISCARD))
    # Placed cards per seat and row (keys below 3 * size), and shown ones (keys above).
    shown_key = (body.show_seat[:, None] * 3 + SHOWN_ROWS[None, :]).reshape(-1) + 3 * size
    both = _card_sets(
        np.concatenate([placed_seat[in_row] * 3 + row[in_row], shown_key]),
        np.concatenate([body.card_code[in_row], body.show_codes.reshape(-1)]),
        size * 6,
    )
    placed = tuple(a[: 3 * size] for a in both)
    shown = tuple(a[3 * size :] for a in both)
    set_at_fl = np.bincount(
        acts.seat[(acts.kind == ex.SETS_LINE) & (acts.sec == 0)], minlength=size
    )
    unseen = (seats.fl_cards > 0) & (set_at_fl == 0)
    keys = np.flatnonzero(~np.repeat(unseen, 3))
    problems |= _hands_of(hand[keys[~_same(placed, shown, keys)] // 3], count)
    discards = on_sets & (row == ex.DISCARD)
    cards_hand = np.concatenate([np.repeat(hand[body.show_seat], 13), hand[placed_seat[discards]]])
    codes = np.concatenate([body.show_codes.reshape(-1), body.card_code[discards]])
    bits, n = _card_sets(cards_hand, codes, count)
    return problems | ~_distinct(bits, n)


@numba.njit(cache=True, nogil=True)
def _gather_sets(key: np.ndarray, codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    bits = np.zeros(size, dtype=np.uint64)
    count = np.zeros(size, dtype=np.int64)
    for k, code in zip(key, codes):  # noqa: B905 (numba's zip takes no ``strict``)
        if code >= 0:
            bits[k] |= np.uint64(1) << np.uint64(code)
        count[k] += 1
    return bits, count


def _card_sets(key: np.ndarray, codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per key: the set of its cards as 52 bits, and the number of cards (a repeated card,
    or a missing one, code -1, makes the number larger than the bits)."""
    return _gather_sets(key.astype(np.int64), codes.astype(np.int64), size)


def _distinct(bits: np.ndarray, count: np.ndarray) -> np.ndarray:
    return np.bitwise_count(bits) == count


def _same(a, b, keys: np.ndarray) -> np.ndarray:
    """Whether two card sets are the same distinct cards at ``keys``."""
    (abits, an), (bbits, bn) = a, b
    return (abits[keys] == bbits[keys]) & (an[keys] == bn[keys]) & _distinct(abits[keys], an[keys])
