"""Royalty tables (docs/rules.md R5, R9) compiled from data into lookup arrays.

A table written as plain data (``top_pair``, ``top_trips``, ``middle``,
``bottom``, optional ``middle_lowball``) becomes arrays indexed by what the
evaluator computes, so royalties for a whole batch are one ``take`` each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ofc_core.cards import RANKS
from ofc_core.categories import CATEGORY_NAMES, PAIR, TRIPS

ROYAL = len(CATEGORY_NAMES)  # index 9 of a 5-card table: the royal flush
FIVE_CARD_KEYS = (*CATEGORY_NAMES, "royal flush")
_B3 = 13**3


@dataclass(frozen=True, eq=False)
class RoyaltyTable:
    """Royalties by row, as arrays: ``top[strength3]``, ``middle[category]`` (9 = royal)."""

    name: str
    top: np.ndarray = field(repr=False)
    middle: np.ndarray = field(repr=False)
    bottom: np.ndarray = field(repr=False)
    middle_lowball: np.ndarray | None = field(default=None, repr=False)
    lowball_75432: int = 0


def _rank_map(name: str, spec: dict[str, Any], key: str) -> dict[int, int]:
    values = spec.get(key, {})
    bad = [k for k in values if str(k) not in RANKS]
    if bad:
        raise ValueError(
            f"royalty table {name!r}: {key} keys must be ranks {list(RANKS)}, not {bad}"
        )
    return {RANKS.index(str(k)): int(v) for k, v in values.items()}


def _top_array(name: str, spec: dict[str, Any]) -> np.ndarray:
    """Royalty of every 3-card strength: by pair rank or trips rank (kickers don't matter)."""
    table = np.zeros(4 * _B3, dtype=np.int32)
    strengths = np.arange(4 * _B3)
    category, leading = strengths // _B3, (strengths % _B3) // 169
    for rank, value in _rank_map(name, spec, "top_pair").items():
        table[(category == PAIR) & (leading == rank)] = value
    for rank, value in _rank_map(name, spec, "top_trips").items():
        table[(category == TRIPS) & (leading == rank)] = value
    return table


def _five_card_array(name: str, spec: dict[str, Any], row: str) -> np.ndarray:
    values = spec.get(row, {})
    bad = set(values) - set(FIVE_CARD_KEYS)
    if bad:
        raise ValueError(
            f"royalty table {name!r}: {row} keys must be among {list(FIVE_CARD_KEYS)}, "
            f"not {sorted(bad)}"
        )
    return np.array([int(values.get(k, 0)) for k in FIVE_CARD_KEYS], dtype=np.int32)


def _lowball(name: str, spec: dict[str, Any]) -> tuple[np.ndarray | None, int]:
    values = spec.get("middle_lowball")
    if values is None:
        return None, 0
    by_rank = {k: v for k, v in values.items() if k != "75432"}
    table = np.zeros(13, dtype=np.int32)
    for rank, value in _rank_map(name, {"middle_lowball": by_rank}, "middle_lowball").items():
        table[rank] = value
    return table, int(values.get("75432", table[RANKS.index("7")]))


def compile_royalty_table(name: str, spec: dict[str, Any]) -> RoyaltyTable:
    """Compile one royalty table from its data (already merged with what it extends)."""
    known = {"top_pair", "top_trips", "middle", "bottom", "middle_lowball"}
    unknown = set(spec) - known
    if unknown:
        raise ValueError(
            f"royalty table {name!r}: unknown key(s) {sorted(unknown)}; known: {sorted(known)}"
        )
    lowball, best = _lowball(name, spec)
    return RoyaltyTable(
        name=name,
        top=_top_array(name, spec),
        middle=_five_card_array(name, spec, "middle"),
        bottom=_five_card_array(name, spec, "bottom"),
        middle_lowball=lowball,
        lowball_75432=best,
    )
