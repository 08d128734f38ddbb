"""Clock labels of the room text formats and the time zones they stand for.

Stored times are UTC (``docs/schema.md``); the files print local clocks:

* ``en``: ``UTC``; ``ET`` is US Eastern time **with** daylight saving
  (``America/New_York``: EST in winter, EDT in summer), as the spec says;
  ``CET`` is the **fixed** offset UTC+01:00: the spec marks daylight saving
  for ``ET`` only, and a clock labelled ``CET`` in July is read literally
  rather than guessed to be CEST; an offset such as ``+03:00`` is itself.
* ``ru``: ``МСК`` is Moscow time, UTC+03:00 (fixed since 2014); ``UTC`` and
  ``UTC+05:00``-style labels are their offsets.

A US Eastern clock reading that happens twice (the autumn change) is taken
as the first; one that never happens (the spring change) makes the hand a
reject with a reason that says so.

>>> en_zone("ET"), en_zone("CET"), en_zone("+03:00"), ru_zone("МСК"), ru_zone("UTC-04:30")
('America/New_York', '+01:00', '+03:00', '+03:00', '-04:30')

The zones these give are fixed offsets (``offset_minutes``), converted to UTC
by subtraction (``parsers.resolve.utc``: the time zone database polars uses
refuses half-hour offsets such as ``-04:30``), or named zones.
"""

from __future__ import annotations

import re

EN_ZONES = {"UTC": "UTC", "ET": "America/New_York", "CET": "+01:00"}
RU_ZONES = {"МСК": "+03:00", "UTC": "UTC"}

_OFFSET = re.compile(r"([+-])([01]\d|2[0-3]):([0-5]\d)")


def en_zone(label: str) -> str | None:
    """The zone an ``en`` clock label stands for, or None for an unknown label."""
    if label in EN_ZONES:
        return EN_ZONES[label]
    return label if _OFFSET.fullmatch(label) else None


def ru_zone(label: str) -> str | None:
    """The zone an ``ru`` clock label (inside the brackets) stands for, or None."""
    if label in RU_ZONES:
        return RU_ZONES[label]
    offset = label.removeprefix("UTC")
    return offset if offset != label and _OFFSET.fullmatch(offset) else None


def offset_minutes(zone: str) -> int | None:
    """How many minutes ahead of UTC a fixed-offset zone (``+03:00``, ``UTC``) is; None for a
    named zone.

    >>> [offset_minutes(z) for z in ("+03:00", "-05:30", "UTC", "America/New_York")]
    [180, -330, 0, None]
    """
    if zone == "UTC":
        return 0
    found = _OFFSET.fullmatch(zone)
    if found is None:
        return None
    sign = 1 if found[1] == "+" else -1
    return sign * (int(found[2]) * 60 + int(found[3]))
