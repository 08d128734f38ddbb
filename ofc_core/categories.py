"""Hand categories (RULES.md R1, R3): their order and their names.

A category is a small integer, higher beats lower; a row's strength
(``pipeline.rules.evaluate``) starts with it. Three-card rows (the top) make
only ``HIGH_CARD``, ``PAIR`` or ``TRIPS``.

>>> CATEGORY_NAMES[FULL_HOUSE]
'full house'
>>> TRIPS < STRAIGHT < STRAIGHT_FLUSH
True
"""

from __future__ import annotations

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)
