"""Cards as small integers, and the text notations of docs/rules.md R1.

A card is ``rank * 4 + suit`` with ranks ``2..A`` as ``0..12`` and suits
``s h d c`` as ``0..3``, so one deck is the integers ``0..51`` and numpy
arrays of cards are cheap to sort, compare and index.

>>> parse_card("Ah"), parse_card("10h"), parse_card("A♥")
(49, 33, 49)
>>> format_card(parse_card("10h"))
'Th'
>>> format_cards(parse_cards("Ah Kd 7c"))
'Ah Kd 7c'
"""

from __future__ import annotations

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
DECK_SIZE = 52

_RANK_WORDS = {r: i for i, r in enumerate(RANKS)} | {"10": RANKS.index("T")}
_SUIT_WORDS = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}

#: Every accepted spelling of every card, e.g. ``"Ah"``, ``"10h"``, ``"A♥"``.
CARD_CODES: dict[str, int] = {
    rank + suit: r * 4 + s for rank, r in _RANK_WORDS.items() for suit, s in _SUIT_WORDS.items()
}
#: The canonical spelling of each card code, e.g. ``CARD_NAMES[49] == "Ah"``.
CARD_NAMES: tuple[str, ...] = tuple(RANKS[c // 4] + SUITS[c % 4] for c in range(DECK_SIZE))


class CardError(ValueError):
    """A card or card list that does not follow docs/rules.md R1."""


def parse_card(text: str) -> int:
    """Return the code of one card written as in R1 (``Ah``, ``10h``, ``A♥``)."""
    code = CARD_CODES.get(text.strip())
    if code is None:
        raise CardError(
            f"unknown card {text!r}: expected a rank (2-9, T or 10, J, Q, K, A) "
            "and a suit (s h d c or ♠♥♦♣)"
        )
    return code


def parse_cards(text: str | list[str]) -> list[int]:
    """Return the codes of a space-separated card list (or a list of card strings).

    >>> parse_cards("Qs Qd 7c")
    [40, 42, 23]
    """
    words = text.split() if isinstance(text, str) else text
    return [parse_card(w) for w in words]


def format_card(code: int) -> str:
    """Return the canonical two-character name of a card code."""
    return CARD_NAMES[code]


def format_cards(codes: list[int] | np.ndarray) -> str:
    """Return cards as a space-separated list of canonical names."""
    return " ".join(CARD_NAMES[int(c)] for c in codes)


def rank_of(cards: np.ndarray) -> np.ndarray:
    """Ranks ``0..12`` (``2..A``) of an array of card codes."""
    return cards >> 2


def suit_of(cards: np.ndarray) -> np.ndarray:
    """Suits ``0..3`` (``s h d c``) of an array of card codes."""
    return cards & 3
