"""The variants and their street plans (docs/rules.md R2): who is dealt how many cards, when.

Every street deals each regular player some cards and has them place some;
the rest are discarded face down (Pineapple's third card). ``Variant`` is a
``StrEnum``: a member is the string the hand model and the rulesets use. Where
variants become table data (polars would make an ``Enum`` column of members),
pass plain strings: ``VARIANTS``, or ``variant.value``.

>>> Variant("pineapple-27"), Variant.TURBO == "turbo", VARIANTS[0]
(<Variant.PINEAPPLE_27: 'pineapple-27'>, True, 'classic')
>>> [(s.number, s.dealt, s.placed) for s in STREETS["pineapple"]][:2]
[(1, 5, 5), (2, 3, 2)]
>>> sum(s.placed for s in STREETS["turbo"]), sum(s.dealt for s in STREETS["pineapple"])
(13, 17)
>>> [s.discards for s in STREETS["classic"]][:3]
[0, 0, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Variant(StrEnum):
    """An OFC variant (R2, R9)."""

    CLASSIC = "classic"
    PINEAPPLE = "pineapple"
    TURBO = "turbo"
    PINEAPPLE_27 = "pineapple-27"


#: The variants as plain strings, as the hand model spells them.
VARIANTS: tuple[str, ...] = tuple(v.value for v in Variant)


@dataclass(frozen=True)
class Street:
    """One street of a variant: how many cards each player is dealt and places."""

    number: int
    dealt: int
    placed: int

    @property
    def discards(self) -> int:
        return self.dealt - self.placed


def _streets(later: int, dealt: int, placed: int) -> tuple[Street, ...]:
    return (Street(1, 5, 5), *(Street(n, dealt, placed) for n in range(2, 2 + later)))


#: R2: classic 5 then 8x1; pineapple 5 then 4x3 (place 2, discard 1); turbo 5 then 2x4.
#: Keys are plain strings (a ``Variant`` finds its entry: it equals its string).
STREETS: dict[str, tuple[Street, ...]] = {
    Variant.CLASSIC.value: _streets(8, 1, 1),
    Variant.PINEAPPLE.value: _streets(4, 3, 2),
    Variant.TURBO.value: _streets(2, 4, 4),
    Variant.PINEAPPLE_27.value: _streets(4, 3, 2),
}
#: R2: players a table of each variant seats.
MAX_PLAYERS: dict[str, int] = {
    Variant.CLASSIC.value: 4,
    Variant.PINEAPPLE.value: 3,
    Variant.TURBO.value: 4,
    Variant.PINEAPPLE_27.value: 3,
}
