"""The exact Fantasyland set: the best 13 of the 13-17 cards dealt (RULES.md R3, R5, R6, R9).

A player in Fantasyland sees all its cards at once and sets a whole board.
``solve_fantasyland`` finds, among every board that does not foul, the one
with the largest ``value = royalties + V * stays`` (``stays``: the ruleset's
stay rule, R6; ``V``: what staying is worth in points, by default the
measured figure of ``fantasyland_value``), ties going to the stronger
bottom, then middle (in Pineapple 2-7 the better low), then top. The search
is exact (branch and bound, ``fantasyland_kernel``); the tests prove it
against every board the engine scores.

The repeat limit (R6) is applied from ``repeats``, the stays the player has
already made in a row: past the limit nothing stays, and V counts for nothing.

>>> from ofc_core.cards import parse_cards
>>> from ofc_core.rulesets import load_ruleset
>>> cards = parse_cards("As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h")
>>> best = solve_fantasyland(cards, load_ruleset("pineapple-1-6-american"), 10.0)
>>> row = best.to_json()
>>> row["top"], row["middle"], row["bottom"], row["discards"]
('Ad Ah As', 'Kc 9c 9d 9h 9s', '7h 6h 5h 4h 3h', 'Kd')
>>> best.royalties, best.stays, best.value
(57, True, 67.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ofc_core.cards import format_cards
from ofc_core.rulesets import Ruleset
from pipeline.decisions.fantasyland_kernel import search
from pipeline.decisions.fantasyland_tables import SearchTables, build_tables
from pipeline.decisions.fantasyland_value import default_fantasyland_value

#: Cards a Fantasyland hand is dealt by variant, for rulesets without Fantasyland (R6).
VARIANT_CARDS = {"classic": 13, "turbo": 13, "pineapple": 14, "pineapple-27": 14}


@dataclass(frozen=True)
class FantasylandSet:
    """A set Fantasyland board: card codes per row, the cards discarded, what it earns."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]
    discards: tuple[int, ...]
    royalties: int
    stays: bool
    value: float
    fouled: bool = False

    def to_json(self) -> dict[str, object]:
        """The set as ``ofc solve`` prints it: rows as card strings, strongest card first."""
        rows = {
            name: format_cards(sorted(cards, reverse=True))
            for name, cards in (
                ("top", self.top),
                ("middle", self.middle),
                ("bottom", self.bottom),
                ("discards", self.discards),
            )
        }
        value = int(self.value) if float(self.value).is_integer() else round(self.value, 6)
        return rows | {
            "royalties": self.royalties,
            "stays": self.stays,
            "value": value,
            "fouled": self.fouled,
        }


def fantasyland_card_counts(ruleset: Ruleset) -> tuple[int, ...]:
    """How many cards the ruleset deals a Fantasyland hand, every level (R6, R9).

    >>> from ofc_core.rulesets import load_ruleset
    >>> fantasyland_card_counts(load_ruleset("pineapple-progressive-american"))
    (14, 15, 16, 17)
    >>> fantasyland_card_counts(load_ruleset("classic-stars-2013"))
    (13,)
    """
    rules = ruleset.fantasyland
    if not rules.enabled:
        return (VARIANT_CARDS[ruleset.variant],)
    counts = {*rules.entry.values(), *rules.lowball_entry.values(), rules.stay_cards}
    return tuple(sorted(c for c in counts if c > 0))


def solve_fantasyland(
    cards: Sequence[int] | np.ndarray,
    ruleset: Ruleset,
    fantasyland_value: float | None = None,
    dead: Sequence[int] = (),
    repeats: int = 0,
) -> FantasylandSet:
    """The best board of the Fantasyland hand ``cards`` (13-17 card codes) under ``ruleset``.

    ``fantasyland_value`` is V, the points staying is worth (default: the
    measured value for the ruleset). ``dead`` cards (seen elsewhere) cannot
    change a set that meets no opponent before showdown; they are only
    checked not to be among ``cards``. ``repeats``: stays already made in a
    row (R6 repeat limit).
    """
    codes = np.asarray(cards, dtype=np.int64)
    _check(codes, dead)
    if fantasyland_value is None:
        fantasyland_value = default_fantasyland_value(ruleset)
    rules = ruleset.fantasyland
    may_stay = rules.enabled and (rules.repeat_limit == 0 or repeats < rules.repeat_limit)
    value = float(fantasyland_value) if may_stay else 0.0
    tables = build_tables(codes, ruleset, value)
    bottom, middle, top, _ = search(*_kernel_arguments(tables, len(codes), value, ruleset))
    if bottom < 0:
        return _fouled(codes)
    return _board(codes, tables, bottom, middle, top, value, may_stay)


def _check(codes: np.ndarray, dead: Sequence[int]) -> None:
    if not 13 <= len(codes) <= 17:
        raise ValueError(f"a Fantasyland hand has 13 to 17 cards, not {len(codes)}")
    if len(set(codes.tolist())) != len(codes):
        raise ValueError("a card appears twice in the hand")
    if set(codes.tolist()) & set(dead):
        raise ValueError("a card of the hand is also dead")


def _kernel_arguments(t: SearchTables, n: int, value: float, ruleset: Ruleset) -> tuple:
    five, three = t.five, t.three
    return (
        five.mask, five.strength, five.top_scale,
        five.bottom_royalty, five.bottom_bits, t.bottom_bound, t.bottom_order,
        five.middle_royalty, five.middle_key, five.middle_bits, t.middle_bound, t.middle_order,
        t.top_cap, t.top_cap_bits,
        three.index, three.strength, three.royalty, three.bits,
        n, value, np.int64(t.stay.wanted), t.stay.every, ruleset.lowball_middle,
    )  # fmt: skip


def _board(
    codes: np.ndarray,
    t: SearchTables,
    bottom: int,
    middle: int,
    top: int,
    value: float,
    may_stay: bool,
) -> FantasylandSet:
    five, three = t.five, t.three
    used = np.concatenate([five.positions[bottom], five.positions[middle], three.positions[top]])
    royalties = int(five.bottom_royalty[bottom] + five.middle_royalty[middle] + three.royalty[top])
    bits = five.bottom_bits[bottom] | five.middle_bits[middle] | three.bits[top]
    stays = may_stay and bool(t.stay.met(bits))
    return FantasylandSet(
        top=tuple(codes[three.positions[top]].tolist()),
        middle=tuple(codes[five.positions[middle]].tolist()),
        bottom=tuple(codes[five.positions[bottom]].tolist()),
        discards=tuple(np.delete(codes, used).tolist()),
        royalties=royalties,
        stays=stays,
        value=royalties + (value if stays else 0.0),
    )


def _fouled(codes: np.ndarray) -> FantasylandSet:
    """No board is legal (a 2-7 hand with no 2-7 low): set by rank, fouled, worth nothing."""
    ranked = np.sort(codes)[::-1]
    return FantasylandSet(
        top=tuple(ranked[10:13].tolist()),
        middle=tuple(ranked[5:10].tolist()),
        bottom=tuple(ranked[:5].tolist()),
        discards=tuple(ranked[13:].tolist()),
        royalties=0,
        stays=False,
        value=0.0,
        fouled=True,
    )
