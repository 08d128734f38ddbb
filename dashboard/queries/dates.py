"""Times the dashboard shows: those within the dates the parsers accept, else none.

A database written before dates were bounded (``parsers.bounds``) may hold the
year 0 or 9999, which Python's ``datetime`` (year 0) and the tables and
charts (pandas: 1677 to 2262) cannot take; such a time is shown as empty, an
honest "no plausible date", rather than stopping the page.
"""

from __future__ import annotations

from parsers.bounds import FIRST_DAY, LAST_DAY

_FIRST = f"TIMESTAMPTZ '{FIRST_DAY:%Y-%m-%d %H:%M:%S}+00'"
_LAST = f"TIMESTAMPTZ '{LAST_DAY:%Y-%m-%d %H:%M:%S}+00'"


def shown(expression: str, name: str) -> str:
    """``expression AS name``, null where the time is outside the plausible dates.

    >>> shown("p.played_at", "played_at")[:55]
    "CASE WHEN p.played_at BETWEEN TIMESTAMPTZ '2000-01-01 0"
    """
    return f"CASE WHEN {expression} BETWEEN {_FIRST} AND {_LAST} THEN {expression} END AS {name}"
