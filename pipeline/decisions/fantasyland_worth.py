"""What Fantasyland is worth to ``ofc decide`` by default, in points (``--fantasyland-value``).

``value = ev + V * fantasyland`` ranks placements: ``V`` is what a
Fantasyland hand is worth over a normal hand. These provisional figures are
round numbers in line with what strong players quote for each variant
(Pineapple's 14 cards are worth more than Classic's 13 from a weaker start);
they are replaced by the values ``ofc solve`` measures by simulation, which
are kept in this one place.
"""

from __future__ import annotations

from ofc_core.rulesets import Ruleset

#: Points a Fantasyland hand is worth over a normal hand, by variant.
BY_VARIANT = {"pineapple": 8.0, "pineapple-27": 8.0, "classic": 5.0, "turbo": 5.0}


def default_fantasyland_value(ruleset: Ruleset) -> float:
    """The default ``V`` of a ruleset: 0 without Fantasyland.

    >>> from ofc_core.rulesets import load_ruleset
    >>> default_fantasyland_value(load_ruleset("classic-stars-2013"))
    0.0
    """
    if not ruleset.fantasyland.enabled:
        return 0.0
    return BY_VARIANT[ruleset.variant]
