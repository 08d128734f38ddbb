"""A measured figure: its value, unit and the target the project holds it to.

>>> Figure(0.12, "s", target=1.0).meets_target
True
>>> Figure(8e5, "player-hands/s", target=1e6, better="higher").target_text
'>= 1,000,000 player-hands/s'
>>> Figure(None, "s", target=1.0, note="phevaluator is not installed").meets_target is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


def format_number(value: float) -> str:
    """A number for people: thousands separators, about three significant digits.

    >>> format_number(2598960), format_number(0.09197), format_number(12.5), format_number(3.0)
    ('2,598,960', '0.092', '12.5', '3')
    """
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


@dataclass(frozen=True)
class Figure:
    """One number a benchmark measured; ``value`` is None when it could not be measured."""

    value: float | None
    unit: str
    target: float | None = None
    better: Literal["lower", "higher"] = "lower"
    note: str = ""

    @property
    def meets_target(self) -> bool | None:
        """Whether the value is on the right side of the target; None without both."""
        if self.value is None or self.target is None:
            return None
        return self.value <= self.target if self.better == "lower" else self.value >= self.target

    @property
    def value_text(self) -> str:
        return "n/a" if self.value is None else format_number(self.value)

    @property
    def target_text(self) -> str:
        if self.target is None:
            return ""
        sign = "<=" if self.better == "lower" else ">="
        return f"{sign} {format_number(self.target)} {self.unit}"

    @property
    def verdict(self) -> str:
        """``met``, ``MISSED`` or empty when there is nothing to judge."""
        return {True: "met", False: "MISSED", None: ""}[self.meets_target]

    def to_dict(self) -> dict[str, object]:
        return {
            "value": self.value,
            "unit": self.unit,
            "target": self.target,
            "better": self.better,
            "meets_target": self.meets_target,
            "note": self.note,
        }
