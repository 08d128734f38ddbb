"""V: what staying in Fantasyland is worth, in points, as measured (docs/decisions.md).

The figures live in ``fantasyland_value.toml`` beside this module, per
preset with its 95% interval and sample size, and per variant for rulesets a
user defines; ``measure_fantasyland_value`` writes them.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from ofc_core.rulesets import Ruleset

_FILE = Path(__file__).with_name("fantasyland_value.toml")


@cache
def _measured() -> dict[str, dict[str, float]]:
    return tomllib.loads(_FILE.read_text(encoding="utf-8"))


def default_fantasyland_value(ruleset: Ruleset) -> float:
    """The measured V of the ruleset (a preset), else of its variant; 0 without Fantasyland.

    >>> from ofc_core.rulesets import load_ruleset
    >>> default_fantasyland_value(load_ruleset("classic-stars-2013"))
    0.0
    >>> default_fantasyland_value(load_ruleset("pineapple-1-6-american")) > 0
    True
    """
    if not ruleset.fantasyland.enabled:
        return 0.0
    data = _measured()
    preset = data["preset"].get(ruleset.name)
    return float(preset["value"] if preset else data["variant"][ruleset.variant])
