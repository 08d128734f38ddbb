"""Errors meant for the user: what failed, where, and what to do."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class UserError(Exception):
    """A problem the user can fix; the CLI prints it as one line and exits with code 2."""


def did_you_mean(name: str, known: Iterable[str], n: int = 3) -> str:
    """``"; did you mean 'X'?"`` naming the known names closest to ``name`` (case does not
    count), or ``""`` when none is close: the one wording of every such hint.

    >>> did_you_mean("anna", ["Anna", "Bob"])
    "; did you mean 'Anna'?"
    >>> did_you_mean("Pineapple-1-6-American", ["pineapple-1-6-american", "pineapple-27"], n=1)
    "; did you mean 'pineapple-1-6-american'?"
    >>> did_you_mean("zzz", ["Anna"])
    ''

    Names that start with ``name`` come first (the start of a long name, typed short):

    >>> did_you_mean("pineapple", ["pineapple-27", "pineapple-1-6-american", "classic"], n=1)
    "; did you mean 'pineapple-1-6-american'?"
    """
    by_lower: dict[str, str] = {}
    for each in known:
        by_lower.setdefault(each.lower(), each)
    starting = sorted(
        k for k in by_lower if name and k.startswith(name.lower()) and k != name.lower()
    )
    close = starting[:n] or _closest(name.lower(), list(by_lower), n)
    return f"; did you mean {', '.join(repr(by_lower[c]) for c in close)}?" if close else ""


def _closest(name: str, known: list[str], n: int) -> list[str]:
    """The ``n`` names most like ``name``, whole or by their start (a typo in the start of
    a long name: ``pinapple`` for ``pineapple-...``), best first.

    >>> _closest("pinapple", ["pineapple-27", "pineapple-1-6-american", "classic"], 2)
    ['pineapple-1-6-american', 'pineapple-27']
    """
    scored = []
    for each in known:
        head = difflib.SequenceMatcher(None, name, each[: len(name)]).ratio()
        whole = difflib.SequenceMatcher(None, name, each).ratio()
        score = max(whole if whole >= CLOSE else 0.0, head if head >= CLOSE_START else 0.0)
        if score:
            scored.append((-score, each))
    return [each for _, each in sorted(scored)[:n]]


#: How alike two names must be (difflib's ratio) for one to be offered for the other: whole
#: (``difflib.get_close_matches``'s default), or by the other's start (a stricter bar: a
#: short start is like many names).
CLOSE, CLOSE_START = 0.6, 0.75
