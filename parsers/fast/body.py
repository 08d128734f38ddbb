"""The lines below a hand's first section: dealt, placement, timeout, showdown and summary lines.

``parsers.fast.body_scan`` reads them in one compiled pass (names bound to
seats, grammar, cards); summary figures are read with the ``en`` reader's
pattern, once per distinct text. This module arranges what they found as
``Body``. A hand holding a line that does not read is marked ``bad`` and
left to the thorough reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from parsers import en
from parsers import extract as ex
from parsers.fast.body_scan import SHOWS_LINE, SUMMARY_LINE, Scanned, scan
from parsers.fast.fields import by_distinct
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.fast.text import Text
from parsers.segment import HEAD


@dataclass(frozen=True, eq=False)
class Acts:
    """Dealt, placement and timeout lines: ``seat`` (seat row), ``sec``, ``kind``
    (``parsers.extract`` act kinds), ``count`` (cards dealt), ``shown`` (dealt cards
    listed: the hero) and ``hidden`` (discards counted but not named)."""

    seat: np.ndarray
    sec: np.ndarray
    kind: np.ndarray
    count: np.ndarray
    shown: np.ndarray
    hidden: np.ndarray


@dataclass(frozen=True, eq=False)
class Body:
    """Everything below the head lines of all hands.

    ``acts``; the cards named on act lines (``card_act``: index into
    ``acts``, ``card_row``, ``card_code``), in line order; showdown lines:
    ``show_seat``, ``fouled`` and ``show_codes`` (13 per line: top, middle,
    bottom); summary lines: ``summary_seat`` and ``summaries`` (the
    figures); ``bad``: hands holding a line that did not read.
    """

    acts: Acts
    card_act: np.ndarray
    card_row: np.ndarray
    card_code: np.ndarray
    show_seat: np.ndarray
    fouled: np.ndarray
    show_codes: np.ndarray
    summary_seat: np.ndarray
    summaries: pl.DataFrame
    bad: np.ndarray


def read_body(text: Text, hands: Hands, seats: Seats) -> Body:
    """Read the lines below the first section of every hand."""
    at = np.flatnonzero((hands.hand >= 0) & (hands.sec != HEAD) & ~hands.section)
    hand, sec, ends = hands.hand[at], hands.sec[at], text.ends[at]
    found = scan(
        text.buf, text.starts[at], ends, hand, sec,
        seats.name_at, seats.name_len, seats.slots, hands.count(),
    )  # fmt: skip
    kind = found.kind
    d, s, t = (np.flatnonzero(kind == k) for k in (ex.DEALT_LINE, ex.SETS_LINE, ex.TIMEOUT_LINE))
    v, m = np.flatnonzero(kind == SHOWS_LINE), np.flatnonzero(kind == SUMMARY_LINE)
    summaries = by_distinct(
        text.strings(found.rest[m], ends[m]), en.SUMMARY_LINE, en.summary_fields()
    )
    bad = found.bad
    bad[hand[m[~summaries.get_column("read").to_numpy()]]] = True
    return Body(
        acts=_acts(found, sec, d, s, t),
        card_act=np.concatenate([found.dealt_act, found.set_act + len(d)]),
        card_row=np.concatenate(
            [np.full(len(found.dealt_act), ex.DEALT, dtype=np.int8), found.set_row]
        ),
        card_code=np.concatenate([found.dealt_code, found.set_code]),
        show_seat=found.seat[v],
        fouled=found.fouled[v],
        show_codes=found.show_codes,
        summary_seat=found.seat[m],
        summaries=summaries.drop("read"),
        bad=bad,
    )


def _acts(found: Scanned, sec: np.ndarray, d: np.ndarray, s: np.ndarray, t: np.ndarray) -> Acts:
    """The dealt (``d``), placement (``s``) and timeout (``t``) lines, in that order."""
    lines = np.concatenate([d, s, t])
    others = np.zeros(len(s) + len(t), dtype=np.int64)
    return Acts(
        seat=found.seat[lines],
        sec=sec[lines].astype(np.int64),
        kind=np.repeat(
            np.array([ex.DEALT_LINE, ex.SETS_LINE, ex.TIMEOUT_LINE], dtype=np.int8),
            [len(d), len(s), len(t)],
        ),
        count=np.concatenate([found.count[d], others]),
        shown=np.concatenate([found.shown[d], others.astype(bool)]),
        hidden=np.concatenate(
            [np.zeros(len(d), dtype=np.int64), found.hidden[s], np.zeros(len(t), dtype=np.int64)]
        ),
    )
