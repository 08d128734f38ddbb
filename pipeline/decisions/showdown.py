"""A finished board's showdown, compiled: strengths, foul, royalties, Fantasyland, points.

The same rules as the engine (``pipeline.rules.evaluate``, ``fouls``, ``royalties``,
``fantasyland``, ``settle``: RULES.md R3-R6, R9), one board at a time (numba),
on the engine's own lookup tables, which ``ShowdownRules`` gathers from a
ruleset. ``tests/test_decide.py`` checks them against the engine on random
boards of every preset.

A board's showdown is a ``(4, 3)`` int64 array: row strengths as settlement
compares them (the 2-7 middle on its lowball scale), royalties (zero when
fouled), whether the row holds 2♠ (R5 Finnish option), and in the last row
the foul flag (column 0) and the Fantasyland cards earned (column 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ofc_core.rulesets import Ruleset
from pipeline.rules.evaluate import _PLAIN5, _SUITED5, _TABLE3
from pipeline.rules.fantasyland import _cards_by_level
from pipeline.rules.settle import DEUCE_OF_SPADES

STRENGTH, ROYALTY, DEUCE, FLAGS = range(4)
FOUL, FANTASYLAND = 0, 1
_B3 = 13**3
_B5 = 13**5
_WHEEL_27 = (((5 * 13 + 3) * 13 + 2) * 13 + 1) * 13 + 0
STRAIGHT_FLUSH, PAIR, TRIPS, HIGH_CARD = 8, 1, 3, 0
ACE, TEN, QUEEN = 12, 8, 10


@dataclass(frozen=True, eq=False)
class ShowdownRules:
    """A ruleset as the compiled showdown reads it (arrays and numbers only)."""

    plain5: np.ndarray
    suited5: np.ndarray
    table3: np.ndarray
    royalty_top: np.ndarray  # by 3-card strength
    royalty_middle: np.ndarray  # by category, 9 = royal flush
    royalty_bottom: np.ndarray
    royalty_lowball: np.ndarray  # 2-7 middle, by its highest rank (zeros unless 2-7)
    settings: np.ndarray  # int64: see SETTING_NAMES

    @classmethod
    def of(cls, ruleset: Ruleset) -> ShowdownRules:
        table = ruleset.royalties
        lowball = table.middle_lowball if ruleset.lowball_middle else None
        entry = _cards_by_level(ruleset.fantasyland.entry).astype(np.int64)
        settings = np.array(
            [
                int(ruleset.lowball_middle),
                table.lowball_75432 if lowball is not None else 0,
                ruleset.fantasyland.lowball_entry.get("75432", 0),
                ruleset.scoop_value,
                ruleset.foul_penalty,
                int(ruleset.deuce_of_spades),
                *entry,
            ],
            dtype=np.int64,
        )
        return cls(
            _PLAIN5.astype(np.int64),
            _SUITED5.astype(np.int64),
            _TABLE3.astype(np.int64),
            table.top.astype(np.int64),
            table.middle.astype(np.int64),
            table.bottom.astype(np.int64),
            (lowball if lowball is not None else np.zeros(13)).astype(np.int64),
            settings,
        )

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in the order the compiled functions take them."""
        return (
            self.plain5,
            self.suited5,
            self.table3,
            self.royalty_top,
            self.royalty_middle,
            self.royalty_bottom,
            self.royalty_lowball,
            self.settings,
        )


#: ``ShowdownRules.settings``: then the Fantasyland cards by top level (none, QQ, KK, AA, trips).
LOWBALL, LOWBALL_BEST, WHEEL_ENTRY, SCOOP, PENALTY, DEUCE_RULE, ENTRY = range(7)


@numba.njit(cache=True, inline="always")
def _strength5(board, start, plain5, suited5):
    r0, r1, r2, r3, r4 = (
        board[start] >> 2,
        board[start + 1] >> 2,
        board[start + 2] >> 2,
        board[start + 3] >> 2,
        board[start + 4] >> 2,
    )
    # sorting network (ascending), as pipeline.rules.evaluate
    if r0 > r1:
        r0, r1 = r1, r0
    if r3 > r4:
        r3, r4 = r4, r3
    if r2 > r4:
        r2, r4 = r4, r2
    if r2 > r3:
        r2, r3 = r3, r2
    if r0 > r3:
        r0, r3 = r3, r0
    if r0 > r2:
        r0, r2 = r2, r0
    if r1 > r4:
        r1, r4 = r4, r1
    if r1 > r3:
        r1, r3 = r3, r1
    if r1 > r2:
        r1, r2 = r2, r1
    key = (((r0 * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4
    suit = board[start] & 3
    flush = (
        (board[start + 1] & 3) == suit
        and (board[start + 2] & 3) == suit
        and (board[start + 3] & 3) == suit
        and (board[start + 4] & 3) == suit
    )
    return suited5[key] if flush else plain5[key]


@numba.njit(cache=True, inline="always")
def _strength3(board, table3):
    r0, r1, r2 = board[0] >> 2, board[1] >> 2, board[2] >> 2
    if r0 > r1:
        r0, r1 = r1, r0
    if r1 > r2:
        r1, r2 = r2, r1
    if r0 > r1:
        r0, r1 = r1, r0
    return table3[(r0 * 13 + r1) * 13 + r2]


@numba.njit(cache=True, inline="always")
def _five_card_royalty(strength, table):
    category = strength // _B5
    royal = category == STRAIGHT_FLUSH and (strength % _B5) // 13**4 == ACE
    return table[9] if royal else table[category]


@numba.njit(cache=True)
def showdown(
    board, out, plain5, suited5, table3, roy_top, roy_mid, roy_bot, roy_low, settings
) -> None:
    """Fill ``out`` (4, 3) with the showdown of a full 13-slot ``board``."""
    top = _strength3(board, table3)
    middle = _strength5(board, 3, plain5, suited5)
    bottom = _strength5(board, 8, plain5, suited5)
    bottom_as_top = (bottom // _B5) * _B3 + (bottom % _B5) // 169
    lowball = settings[LOWBALL] > 0
    if lowball:
        valid = middle // _B5 == HIGH_CARD and (middle % _B5) // 13**4 <= TEN
        foul = (not valid) or bottom_as_top < top
        wheel = valid and middle % _B5 == _WHEEL_27
        mid_royalty = (
            (settings[LOWBALL_BEST] if wheel else roy_low[(middle % _B5) // 13**4]) if valid else 0
        )
        mid_compare = _B5 - 1 - middle % _B5
    else:
        middle_as_top = (middle // _B5) * _B3 + (middle % _B5) // 169
        foul = middle_as_top < top or bottom < middle
        wheel = False
        mid_royalty = _five_card_royalty(middle, roy_mid)
        mid_compare = middle
    out[STRENGTH, 0] = top
    out[STRENGTH, 1] = mid_compare
    out[STRENGTH, 2] = bottom
    live = 0 if foul else 1
    out[ROYALTY, 0] = roy_top[top] * live
    out[ROYALTY, 1] = mid_royalty * live
    out[ROYALTY, 2] = _five_card_royalty(bottom, roy_bot) * live
    out[DEUCE, :] = 0
    if settings[DEUCE_RULE] > 0:
        for slot in range(13):
            if board[slot] == DEUCE_OF_SPADES:
                out[DEUCE, 0 if slot < 3 else (1 if slot < 8 else 2)] = 1
    category, rank = top // _B3, (top % _B3) // 169
    level = -1
    if category == TRIPS:
        level = 3
    elif category == PAIR and rank >= QUEEN:
        level = rank - QUEEN
    cards = settings[ENTRY + level + 1]
    if wheel and settings[WHEEL_ENTRY] > cards:
        cards = settings[WHEEL_ENTRY]
    out[FLAGS, FOUL] = 1 - live
    out[FLAGS, FANTASYLAND] = cards * live
    out[FLAGS, 2] = 0


@numba.njit(cache=True)
def points(a, b, settings) -> int:
    """What player ``a`` wins from player ``b`` (R4), from their showdowns; no table stakes."""
    foul_a, foul_b = a[FLAGS, FOUL] > 0, b[FLAGS, FOUL] > 0
    if foul_a and foul_b:
        return 0
    scoop, penalty = settings[SCOOP], settings[PENALTY]
    rows_a = rows_b = 0
    if foul_a:
        rows_b, bonus = 3, -(penalty - 3)
    elif foul_b:
        rows_a, bonus = 3, penalty - 3
    else:
        for row in range(3):
            if a[STRENGTH, row] > b[STRENGTH, row]:
                rows_a += 1
            elif a[STRENGTH, row] < b[STRENGTH, row]:
                rows_b += 1
        if scoop == 6:
            bonus = (3 if rows_a == 3 else 0) - (3 if rows_b == 3 else 0)
        else:
            bonus = (1 if rows_a >= 2 else 0) - (1 if rows_b >= 2 else 0)
    royalties = 0
    for row in range(3):
        diff = a[ROYALTY, row] - b[ROYALTY, row]
        if settings[DEUCE_RULE] > 0 and (a[DEUCE, row] > 0 or b[DEUCE, row] > 0):
            diff *= 2
        royalties += diff
    return rows_a - rows_b + bonus + royalties
