"""Reading and checking the Fantasyland hands given to ``ofc solve``.

Input is JSON Lines, one hand per line: ``{"cards": "Ah Kd ...", "dead": "...",
"fantasyland_repeats": 0}`` (``dead`` and ``fantasyland_repeats``, the stays
already made in a row, optional; cards as in ``ofc score``, a string or a
list). Every problem is a ``UserError`` naming the line and what to fix.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ofc_core.cards import format_card
from ofc_core.errors import UserError
from pipeline.rules.score_input import MAX_REPEATS, read_cards, strict_json

KEYS = ("cards", "dead", "fantasyland_repeats")


@dataclass(frozen=True)
class SolveRequest:
    """One Fantasyland hand to set: its input line, cards, dead cards, stays made in a row."""

    line: int
    cards: tuple[int, ...]
    dead: tuple[int, ...]
    repeats: int = 0


def read_requests(
    text: str, counts: tuple[int, ...], ruleset: str, fantasyland: bool = True
) -> list[SolveRequest]:
    """Every non-blank line as a request; ``counts``: the hand sizes the ruleset deals in
    Fantasyland (``fantasyland`` False: a ruleset without it, whose 13 cards are set as if
    dealt at once)."""
    where = "in Fantasyland" if fantasyland else "at once (it has no Fantasyland: R6)"
    requests = [
        _request(line, number, counts, f"ruleset {ruleset} deals {{dealt}} {where}")
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    if not requests:
        raise UserError('no input: give one JSON object per line, {"cards": "Ah Kd ..."}')
    return requests


def _request(line: str, number: int, counts: tuple[int, ...], deals: str) -> SolveRequest:
    label = f"line {number}"
    try:
        obj: Any = strict_json(line, label)
    except json.JSONDecodeError as error:
        raise UserError(f"{label}: malformed JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(obj, dict) or "cards" not in obj:
        raise UserError(
            f'{label}: expected an object with "cards", such as {{"cards": "Ah Kd ..."}}'
        )
    unknown = sorted(set(obj) - set(KEYS))
    if unknown:
        raise UserError(
            f'{label}: unknown key(s) {unknown}; expected "cards" and optionally "dead" and'
            ' "fantasyland_repeats"'
        )
    cards = read_cards(obj["cards"], f"{label}, cards")
    dead = read_cards(obj.get("dead", ""), f"{label}, dead")
    if len(cards) not in counts:
        dealt = " or ".join(str(c) for c in counts)
        raise UserError(f"{label}: {len(cards)} cards; {deals.format(dealt=dealt)}")
    _no_repeats(label, cards, dead)
    repeats = obj.get("fantasyland_repeats", 0)
    if isinstance(repeats, bool) or not isinstance(repeats, int) or not 0 <= repeats <= MAX_REPEATS:
        raise UserError(
            f"{label}: fantasyland_repeats must be a whole number from 0 to {MAX_REPEATS}, "
            f"not {repeats!r}"
        )
    return SolveRequest(number, tuple(cards), tuple(dead), repeats)


def _no_repeats(label: str, cards: list[int], dead: list[int]) -> None:
    seen: dict[int, str] = {}
    for where, group in (("cards", cards), ("dead", dead)):
        for card in group:
            if card in seen:
                also = "twice in " + where if seen[card] == where else "in cards and in dead"
                raise UserError(f"{label}: {format_card(card)} appears {also}")
            seen[card] = where
