"""A finished row in words ("pair of 3s", "flush"), and which row makes a hand foul.

Rows are named by the rules engine's evaluator (``pipeline.rules.evaluate``): the
category, with the ranks that matter for pairs, trips, two pair, full houses,
quads and high cards.

>>> row_name(["3h", "3d", "Ks"]), row_name(["Kh", "Kd", "7s", "7c", "2d"])
('pair of 3s', 'two pair, Ks and 7s')
>>> row_name(["5h", "5d", "5s", "Kc", "Kd"]), row_name(["Ah", "9h", "7h", "4h", "2h"])
('full house, 5s full of Ks', 'flush')
>>> row_name(["Ah", "Td", "4s"]), row_name(["Ah", "Td"])
('ace high', '')
>>> fouling_row(["Qh", "Qd", "2s"], ["Jh", "Jd", "9s", "8c", "2d"], ["Ah", "Ad", "Ks", "Kc", "2c"])
'middle'
>>> fouling_row(["2h", "3d", "4s"], ["Jh", "Jd", "9s", "8c", "7d"], ["Ah", "Kd", "9c", "5c", "3c"])
'bottom'
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ofc_core.cards import parse_cards
from ofc_core.categories import CATEGORY_NAMES
from pipeline.rules.evaluate import as_top, category3, category5, strength3, strength5

RANK_WORDS = dict(
    zip(
        "23456789TJQKA",
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
        strict=True,
    )
)
HIGH_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}


def _ranks_by_count(cards: list[str]) -> list[tuple[str, int]]:
    order = "23456789TJQKA"
    counts = Counter(c[0] for c in cards)
    return sorted(counts.items(), key=lambda rc: (-rc[1], -order.index(rc[0])))


def _plural(rank: str) -> str:
    return f"{RANK_WORDS[rank]}s"


def _strength(cards: list[str]) -> tuple[int, int] | None:
    """(category, strength) of a full row (3 or 5 cards); None for anything else."""
    if len(cards) not in (3, 5):
        return None
    codes = np.array([parse_cards(cards)])
    if len(cards) == 3:
        strength = strength3(codes)
        return int(category3(strength)[0]), int(strength[0])
    strength = strength5(codes)
    return int(category5(strength)[0]), int(strength[0])


def row_name(cards: list[str]) -> str:
    """The row in words; empty when the row is not complete."""
    found = _strength(list(cards))
    if found is None:
        return ""
    category = CATEGORY_NAMES[found[0]]
    ranks = _ranks_by_count(list(cards))
    first = ranks[0][0]
    if category == "high card":
        return f"{HIGH_WORDS.get(first, RANK_WORDS[first])} high"
    if category in ("pair", "trips", "quads"):
        return f"{category} of {_plural(first)}"
    if category == "two pair":
        return f"two pair, {_plural(first)} and {_plural(ranks[1][0])}"
    if category == "full house":
        return f"full house, {_plural(first)} full of {_plural(ranks[1][0])}"
    return category


def fouling_row(top: list[str], middle: list[str], bottom: list[str]) -> str | None:
    """The row that breaks the order bottom ≥ middle ≥ top (the middle when it is weaker
    than the top, else the bottom when it is weaker than the middle); None when none
    does or a row is incomplete. Under 2-7 rules the middle is a low hand: not named."""
    rows = [_strength(list(r or [])) for r in (top, middle, bottom)]
    if any(r is None for r in rows):
        return None
    (_, t), (_, m), (_, b) = rows
    if int(as_top(np.array([m]))[0]) < t:
        return "middle"
    if b < m:
        return "bottom"
    return None
