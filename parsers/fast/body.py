"""The lines below a hand's first section: dealt, placement, timeout, showdown and summary lines.

Lines are sorted by their first bytes (``Dealt to `` or a player's name),
bound to seats (``parsers.fast.names``) and read with the grammar of their
section (``parsers.fast.grammar``); summary figures are read with the ``en``
reader's pattern, once per distinct text. A hand holding a line that does
not read is marked ``bad`` and left to the thorough reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from parsers import en
from parsers import extract as ex
from parsers.fast import grammar
from parsers.fast.fields import by_distinct
from parsers.fast.hands import Hands
from parsers.fast.head import Seats
from parsers.fast.names import bind, name_words
from parsers.fast.text import Text
from parsers.segment import HEAD, SHOWDOWN, SUMMARY

_TIMEOUT = en.TIMEOUT.encode()
#: ``_player_kinds`` codes of showdown and summary lines (beside ``parsers.extract``'s act kinds).
_SHOWS, _SUMMARY = 10, 11


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


@dataclass(frozen=True, eq=False)
class _Lines:
    """Some body lines: their hand, section, start and end, and a per-hand ``bad`` flag to set."""

    hand: np.ndarray
    sec: np.ndarray
    start: np.ndarray
    end: np.ndarray
    bad: np.ndarray

    def reject(self, rows: np.ndarray) -> None:
        """Mark the hands of these lines (indices) as not plain."""
        self.bad[self.hand[rows]] = True


def read_body(text: Text, hands: Hands, seats: Seats) -> Body:
    """Read the lines below the first section of every hand."""
    at = np.flatnonzero((hands.hand >= 0) & (hands.sec != HEAD) & ~hands.section)
    lines = _Lines(
        hands.hand[at],
        hands.sec[at],
        text.starts[at],
        text.ends[at],
        np.zeros(hands.count(), dtype=bool),
    )
    words = name_words(text, seats)
    dealt = text.begins(b"Dealt to ", at)
    d, d_seat, d_count, d_shown, d_cards = _dealt(text, seats, words, lines, np.flatnonzero(dealt))
    p = np.flatnonzero(~dealt)
    p_seat, p_name_end = bind(
        text, seats, words, lines.hand[p], lines.start[p], text.heads[at[p]], (b": ",)
    )
    rest = np.where(p_seat >= 0, p_name_end + 2, lines.start[p])
    kind = _player_kinds(text, lines, p, rest)
    lines.reject(p[(p_seat < 0) | (kind < 0)])
    brackets = np.append(np.flatnonzero(text.buf[: len(text.data)] == ord("[")), len(text.data))

    s = np.flatnonzero((kind == ex.SETS_LINE) & (p_seat >= 0))
    s_ok, s_hidden, s_cards = grammar.placement(text, rest[s], lines.end[p[s]], brackets)
    lines.reject(p[s[~s_ok]])
    t = np.flatnonzero((kind == ex.TIMEOUT_LINE) & (p_seat >= 0))
    acts = _acts(lines, (d, p[s], p[t]), (d_seat, p_seat[s], p_seat[t]), d_count, d_shown, s_hidden)

    v = np.flatnonzero((kind == _SHOWS) & (p_seat >= 0))
    v_ok, fouled, show_codes = grammar.showdown(text, rest[v], lines.end[p[v]], brackets)
    lines.reject(p[v[~v_ok]])
    m = np.flatnonzero((kind == _SUMMARY) & (p_seat >= 0))
    summaries = by_distinct(
        text.strings(rest[m], lines.end[p[m]]), en.SUMMARY_LINE, en.summary_fields()
    )
    lines.reject(p[m[~summaries.get_column("read").to_numpy()]])
    return Body(
        acts=acts,
        card_act=np.concatenate([d_cards.line, s_cards.line + len(d)]),
        card_row=np.concatenate([d_cards.row, s_cards.row]),
        card_code=np.concatenate([d_cards.code, s_cards.code]),
        show_seat=p_seat[v],
        fouled=fouled,
        show_codes=show_codes,
        summary_seat=p_seat[m],
        summaries=summaries.drop("read"),
        bad=lines.bad,
    )


def _acts(lines: _Lines, rows, seats, count, shown, hidden) -> Acts:
    """``Acts`` of the dealt, placement and timeout lines (``rows``: three index arrays)."""
    dealt, sets, timeouts = (len(r) for r in rows)
    return Acts(
        seat=np.concatenate(seats),
        sec=lines.sec[np.concatenate(rows)].astype(np.int64),
        kind=np.repeat(
            np.array([ex.DEALT_LINE, ex.SETS_LINE, ex.TIMEOUT_LINE], dtype=np.int8),
            [dealt, sets, timeouts],
        ),
        count=np.concatenate([count, np.zeros(sets + timeouts, dtype=np.int64)]),
        shown=np.concatenate([shown, np.zeros(sets + timeouts, dtype=bool)]),
        hidden=np.concatenate(
            [np.zeros(dealt, dtype=np.int64), hidden, np.zeros(timeouts, dtype=np.int64)]
        ),
    )


def _dealt(text: Text, seats: Seats, words: np.ndarray, lines: _Lines, d: np.ndarray):
    """``Dealt to <name> [<cards>]`` / ``Dealt to <name> (<c> cards)`` lines (indices ``d``).

    Returns the lines that read (indices), their seats, counts, ``shown``
    and listed cards (``line``: index into those lines).
    """
    at = lines.start[d] + 9
    seat, name_end = bind(text, seats, words, lines.hand[d], at, text.words[at], (b" [", b" ("))
    bound = seat >= 0
    lines.reject(d[~bound])
    d, seat, name_end = d[bound], seat[bound], name_end[bound]
    ok, count, shown, cards = grammar.dealt_tail(text, name_end, lines.end[d])
    playing = (lines.sec[d] >= 0) & (lines.sec[d] < SHOWDOWN)
    lines.reject(d[~(ok & playing)])
    return d, seat, count, shown, cards


def _player_kinds(text: Text, lines: _Lines, p: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """What each ``<name>: <rest>`` line (indices ``p``) is by its section and words:
    ``SETS_LINE`` or ``TIMEOUT_LINE`` in a street, ``SHOWS`` in the showdown, ``SUMMARY``
    in the summary; -1 elsewhere (a line the fast path does not read)."""
    sec = lines.sec[p]
    playing = (sec >= 0) & (sec < SHOWDOWN)
    timeout = playing & (rest + len(_TIMEOUT) == lines.end[p])
    timeout[timeout] = text.equals(rest[timeout], _TIMEOUT)
    return np.select(
        [timeout, playing, sec == SHOWDOWN, sec == SUMMARY],
        [ex.TIMEOUT_LINE, ex.SETS_LINE, _SHOWS, _SUMMARY],
        default=-1,
    )
