"""The variants and their street plans (RULES.md R2): who is dealt how many cards, when.

Every street deals each regular player some cards and has them place some;
the rest are discarded face down (Pineapple's third card).

>>> [(s.number, s.dealt, s.placed) for s in STREETS["pineapple"]][:2]
[(1, 5, 5), (2, 3, 2)]
>>> sum(s.placed for s in STREETS["turbo"]), sum(s.dealt for s in STREETS["pineapple"])
(13, 17)
>>> [s.discards for s in STREETS["classic"]][:3]
[0, 0, 0]
"""

from __future__ import annotations

from dataclasses import dataclass

#: The variants, as the hand model and the rulesets spell them.
VARIANTS: tuple[str, ...] = ("classic", "pineapple", "turbo", "pineapple-27")


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
STREETS: dict[str, tuple[Street, ...]] = {
    "classic": _streets(8, 1, 1),
    "pineapple": _streets(4, 3, 2),
    "turbo": _streets(2, 4, 4),
    "pineapple-27": _streets(4, 3, 2),
}
#: R2: players a table of each variant seats.
MAX_PLAYERS: dict[str, int] = {"classic": 4, "pineapple": 3, "turbo": 4, "pineapple-27": 3}
