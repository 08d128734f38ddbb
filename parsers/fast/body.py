"""The lines below a hand's first section: dealt, placement, timeout, showdown and summary lines.

``parsers.fast.body_scan`` (``en``) or ``parsers.fast.body_scan_ru``
(``ru``) reads them in one compiled pass (names bound to seats, grammar,
cards); summary figures are read with the format's pattern, once per
distinct text (``parsers.fast.fields``). This module arranges what they
found as ``Body``; an ``ru`` placement line hiding its discards
(``сброс (закрыт)``) hid what the deal left over, as ``parsers.resolve``
counts them. A hand holding a line that does not read is marked ``bad`` and
left to the thorough reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import polars as pl

from parsers import extract as ex
from parsers.fast import body_scan, body_scan_ru
from parsers.fast.body_scan import Scanned
from parsers.fast.fields import DistinctTexts
from parsers.fast.grammar import Grammar
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.fast.text import Text

#: The body pass of each format (``Grammar.body``).
SCANS = {"en": body_scan.scan, "ru": body_scan_ru.scan}


@dataclass(frozen=True, eq=False)
class Acts:
    """Dealt, placement and timeout lines, in that order: ``seat`` (seat row), ``sec``,
    ``kind`` (``parsers.extract`` act kinds), ``count`` (cards dealt), ``shown`` (dealt cards
    listed: the hero) and ``hidden`` (discards counted but not named); ``sets`` and
    ``timeouts``: where the placement and timeout lines are."""

    seat: np.ndarray
    sec: np.ndarray
    kind: np.ndarray
    count: np.ndarray
    shown: np.ndarray
    hidden: np.ndarray
    sets: slice
    timeouts: slice


@dataclass(frozen=True, eq=False)
class Body:
    """Everything below the head lines of all hands.

    ``acts``; the cards named on act lines (``card_act``: index into
    ``acts``, ``card_row``, ``card_code``), in the order of ``acts`` (those of
    placement lines from ``placed_from`` on); showdown lines:
    ``show_seat``, ``fouled`` and ``show_codes`` (13 per line: top, middle,
    bottom); summary lines: ``summary_seat`` and ``summaries`` (the
    figures); ``bad``: hands holding a line that did not read.
    """

    acts: Acts
    card_act: np.ndarray
    card_row: np.ndarray
    card_code: np.ndarray
    placed_from: int
    show_seat: np.ndarray
    fouled: np.ndarray
    show_codes: np.ndarray
    summary_seat: np.ndarray
    summaries: pl.DataFrame
    bad: np.ndarray

    def placed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cards of placement lines: their ``card_act``, ``card_row`` and ``card_code``."""
        cards = slice(self.placed_from, None)
        return self.card_act[cards], self.card_row[cards], self.card_code[cards]


def read_body(text: Text, hands: Hands, seats: Seats, grammar: Grammar) -> Body:
    """Read the lines below the first section of every hand (in ``grammar``'s format)."""
    found = _left_over(SCANS[grammar.body](text, hands, seats))
    summaries = DistinctTexts(text, found.interned).fields(found.summary, 0, grammar.summary)
    bad = found.bad
    bad[seats.hand[found.summary_seat[~summaries.get_column("read").to_numpy()]]] = True
    return Body(
        acts=_acts(found),
        card_act=np.concatenate([found.dealt_act, found.set_act + len(found.dealt_seat)]),
        card_row=np.concatenate(
            [np.full(len(found.dealt_act), ex.DEALT, dtype=np.int8), found.set_row]
        ),
        card_code=np.concatenate([found.dealt_code, found.set_code]),
        placed_from=len(found.dealt_act),
        show_seat=found.show_seat,
        fouled=found.fouled,
        show_codes=found.show_codes,
        summary_seat=found.summary_seat,
        summaries=summaries.drop("read"),
        bad=bad,
    )


def _acts(found: Scanned) -> Acts:
    """The dealt, placement and timeout lines, in that order."""
    sizes = [len(found.dealt_seat), len(found.set_seat), len(found.timeout_seat)]
    return Acts(
        seat=np.concatenate([found.dealt_seat, found.set_seat, found.timeout_seat]),
        sec=np.concatenate([found.dealt_sec, found.set_sec, found.timeout_sec]).astype(np.int64),
        kind=np.repeat(
            np.array([ex.DEALT_LINE, ex.SETS_LINE, ex.TIMEOUT_LINE], dtype=np.int8), sizes
        ),
        count=np.concatenate([found.dealt_count, np.zeros(sizes[1] + sizes[2], dtype=np.int64)]),
        shown=np.concatenate([found.dealt_shown, np.zeros(sizes[1] + sizes[2], dtype=bool)]),
        hidden=np.concatenate(
            [np.zeros(sizes[0], dtype=np.int64), found.set_hidden, np.zeros(sizes[2], np.int64)]
        ),
        sets=slice(sizes[0], sizes[0] + sizes[1]),
        timeouts=slice(sizes[0] + sizes[1], sum(sizes)),
    )


def _left_over(found: Scanned) -> Scanned:
    """``found`` with each discard hidden without a count (``set_hidden`` -1) counted as the
    cards dealt to its seat on its street (its first dealt line; none: 0) that its line
    does not name."""
    unsaid = np.flatnonzero(found.set_hidden < 0)
    if not len(unsaid):
        return found
    dealt = _first_dealt(
        found.dealt_seat, found.dealt_sec, found.dealt_count,
        found.set_seat[unsaid], found.set_sec[unsaid],
    )  # fmt: skip
    named = np.bincount(found.set_act, minlength=len(found.set_seat))[unsaid]
    found.set_hidden[unsaid] = np.maximum(dealt - named, 0)
    return found


@numba.njit(cache=True, nogil=True)
def _first_dealt(dealt_seat, dealt_sec, dealt_count, seat, sec):
    """The cards of the first dealt line (in line order) of each seat row ``seat`` on section
    ``sec`` (none: 0), from a table of every seat row and section (``sec`` are sections of
    play: at least 0).

    >>> seat, sec, count = np.array([1, 1, 0]), np.array([2, 2, 2]), np.array([3, 5, 4])
    >>> _first_dealt(seat, sec, count, np.array([1, 0, 0]), np.array([2, 2, 1])).tolist()
    [3, 4, 0]
    """
    rows = max(dealt_seat.max(), seat.max()) + 1 if len(dealt_seat) else seat.max() + 1
    secs = sec.max() + 1
    first = np.full(rows * secs, -1, dtype=np.int64)
    for i in range(len(dealt_seat)):
        key = dealt_seat[i] * secs + dealt_sec[i]
        if 0 <= dealt_sec[i] < secs and first[key] < 0:
            first[key] = dealt_count[i]
    out = np.zeros(len(seat), dtype=np.int64)
    for j in range(len(seat)):
        out[j] = max(first[seat[j] * secs + sec[j]], 0)
    return out
