"""Hand categories (docs/rules.md R1, R3): their order and their names.

A category is a small integer, higher beats lower; a row's strength
(``pipeline.rules.evaluate``) starts with it. Three-card rows (the top) make
only ``HIGH_CARD``, ``PAIR`` or ``TRIPS``. ``Category`` is an ``IntEnum``, so
its members are plain integers to numpy (the evaluator's arrays hold ints).

>>> Category.FULL_HOUSE, Category.FULL_HOUSE.label
(<Category.FULL_HOUSE: 6>, 'full house')
>>> Category(3).label, CATEGORY_NAMES[FULL_HOUSE]
('trips', 'full house')
>>> TRIPS < STRAIGHT < STRAIGHT_FLUSH
True
"""

from __future__ import annotations

from enum import IntEnum


class Category(IntEnum):
    """A hand category, in order of strength."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category's name in the rules' words (``"full house"``)."""
        return CATEGORY_NAMES[self]


HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = Category
#: The rules' name of each category, indexed by it.
CATEGORY_NAMES: tuple[str, ...] = tuple(c.name.lower().replace("_", " ") for c in Category)
