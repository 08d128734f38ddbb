"""The checks of ``parsers.validate``, for hands read from bytes, as integer array operations.

Counts are ``np.bincount`` over small integer keys (a seat row, or a seat row
and a street); the checks of the play (streets, showdown, cards) run
compiled in ``parsers.fast.play_checks``. A hand passes only if every check holds; this path never says
why a hand fails, because a failing hand goes to the thorough reader
(``parsers.validate``), which finds and words its first problem. The checks
are the same or stricter, never looser, so a hand stored here would be
stored there too.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ofc_core.variants import STREETS
from parsers import extract as ex
from parsers.fast import play_checks
from parsers.fast.body import Body
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.groups import ranks
from parsers.resolve import (
    fantasyland_counts,
    ruleset_names,
    ruleset_players,
    ruleset_variant,
    utc,
)
from parsers.segment import SHOWDOWN, SUMMARY

_VARIANTS = list(STREETS)
#: Streets per section key: a seat row's acts are keyed ``seat * SECS + sec``.
SECS = 1 + max(len(s) for s in STREETS.values())
_PLAN = np.zeros((len(_VARIANTS), SECS, 2), dtype=np.int64)
for _v, _streets in enumerate(STREETS.values()):
    _PLAN[_v, 1 : len(_streets) + 1] = [(s.placed, s.discards) for s in _streets]
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
    good, variant, max_players, allowed, most_players = _per_hand(frame, count)
    streets = np.where(variant >= 0, _STREET_COUNT[np.maximum(variant, 0)], 0)
    good &= ~body.bad
    good &= ~_seat_problems(seats, max_players, allowed, count)
    good &= np.bincount(seats.hand, minlength=count) <= most_players
    good &= ~_section_problems(hands, seats, streets, count)
    good &= ~_act_problems(seats, body, variant, streets, count)
    good &= ~_showdown_problems(seats, body, count)
    good &= ~_cut_summaries(frame, seats, body, count)
    return good


def _cut_summaries(frame: pl.DataFrame, seats: Seats, body: Body, count: int) -> np.ndarray:
    """Hands played for money with a summary line without its money part, or with money not
    in the table's currency (cut short: ``parsers.validate.cut_summaries`` and
    ``other_currencies``)."""
    currency = pl.Series("currency", [None] * count, dtype=pl.String).scatter(
        frame.get_column("k").to_numpy(), frame.get_column("currency")
    )
    hand = seats.hand[body.summary_seat]
    table = currency.gather(hand)
    paid = body.summaries.get_column("money").is_not_null()
    money_currency = body.summaries.get_column("money_currency")
    cut = table.is_not_null() & (~paid | money_currency.ne_missing(table))
    return _hands_of(hand[cut.to_numpy()], count)


def _per_hand(frame: pl.DataFrame, count: int) -> list[np.ndarray]:
    """Per hand (zero where not in ``frame``): whether its clock and ruleset hold, its
    variant (index into ``STREETS``), table size, allowed Fantasyland counts (bits) and
    the most players its ruleset allows (R10)."""
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
        most_players=ruleset.replace_strict(
            rulesets, [ruleset_players(r)[0] for r in rulesets], return_dtype=pl.Int64
        ),
    )
    k = frame.get_column("k").to_numpy()
    arrays = []
    for column, empty in zip(columns.iter_columns(), (False, -1, 0, 0, 0), strict=True):
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
    twice = [_repeated(hand, seats.seat), _repeated(hand, seats.name)]
    problems = _hands_of(np.concatenate([hand[wrong], *twice]), count)
    return problems | (np.bincount(hand, minlength=count) > max_players)


def _repeated(hand: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Hands where a ``value`` (a small integer, at least -1) repeats; ``hand`` sorted, so the
    keys come in short runs, which the stable (adaptive) sort orders 10-40 times faster than
    the default one.

    >>> _repeated(np.array([0, 0, 1, 1]), np.array([3, 4, 5, 5])).tolist()
    [1]
    """
    size = int(value.max(initial=0)) + 2
    key = np.sort(hand * size + value + 1, kind="stable")
    return key[1:][key[1:] == key[:-1]] // size


def _section_problems(hands: Hands, seats: Seats, streets: np.ndarray, count: int) -> np.ndarray:
    """Sections other than: Fantasyland (if anyone is in it), streets 1..N (if anyone is not),
    showdown and summary, each once, in that order."""
    in_fl = seats.fl_cards > 0
    fl = np.bincount(seats.hand[in_fl], minlength=count) > 0
    live = np.bincount(seats.hand[~in_fl], minlength=count) > 0
    first = fl.astype(np.int64)
    played = np.where(live, streets, 0)
    lines = hands.sections
    hand, code = hands.hand[lines], hands.sec[lines].astype(np.int64)
    nth = ranks(hand)
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
    secs = int(streets.max(initial=0)) + 1  # the chunk's sections: no key beyond them
    return play_checks.act_problems(
        seats.hand, seats.fl_cards, acts.seat, acts.sec, acts.kind, acts.count, acts.shown,
        acts.hidden, body.card_act, body.card_row, body.card_code, variant, streets, _PLAN,
        secs, count,
    )  # fmt: skip


def _showdown_problems(seats: Seats, body: Body, count: int) -> np.ndarray:
    """One showdown and one summary line per player; shown rows equal to placed rows (unless an
    opponent's Fantasyland hand is seen only there); no card twice in a hand."""
    acts = body.acts
    return play_checks.showdown_problems(
        seats.hand, seats.fl_cards, acts.seat, acts.sec, acts.kind, *body.placed(),
        body.show_seat, body.show_codes, body.summary_seat, count,
    )  # fmt: skip
