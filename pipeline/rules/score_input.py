"""Reading and checking the hands given to ``ofc score`` (the user's calculator).

Input is one JSON object, or JSON Lines with one hand per line, each
``{"players": [{"name", "top", "middle", "bottom", "in_fantasyland", "stack"}, ...]}``
with players in order of action. Every problem is reported as a
``UserError`` naming the hand, the player and what to fix.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ofc_core.cards import CardError, format_card, parse_cards
from ofc_core.errors import UserError
from pipeline.rules.rows import ROW_SIZES

MAX_PLAYERS = 4


@dataclass(frozen=True)
class InputHand:
    """One hand as given: where it came from and its players' JSON objects."""

    label: str
    players: list[dict[str, Any]]


def read_hands(text: str) -> list[InputHand]:
    """Split standard input into hands: one JSON object, or JSON Lines."""
    stripped = text.strip()
    if not stripped:
        raise UserError("no input: give one JSON hand, or JSON Lines with one hand per line")
    try:
        return [_hand(json.loads(stripped), "hand 1")]
    except json.JSONDecodeError:
        pass
    hands = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        label = f"hand {len(hands) + 1} (line {number})"
        try:
            hands.append(_hand(json.loads(line), label))
        except json.JSONDecodeError as error:
            raise UserError(
                f"{label}: malformed JSON: {error.msg} at column {error.colno}"
            ) from None
    return hands


def _hand(obj: Any, label: str) -> InputHand:
    if not isinstance(obj, dict) or not isinstance(obj.get("players"), list):
        raise UserError(f'{label}: expected an object with a "players" list')
    players = obj["players"]
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise UserError(f"{label}: {len(players)} players; a hand has 2 to {MAX_PLAYERS}")
    return InputHand(label, players)


def _player_label(hand: InputHand, index: int, player: Any) -> str:
    name = player.get("name") if isinstance(player, dict) else None
    return f"{hand.label}, player {index + 1}" + (f" ({name!r})" if name is not None else "")


def checked_rows(hand: InputHand) -> list[dict[str, Any]]:
    """The hand's players as engine rows (canonical card names), or a UserError."""
    rows, seen = [], {}
    for index, player in enumerate(hand.players):
        label = _player_label(hand, index, player)
        if not isinstance(player, dict):
            raise UserError(f"{label}: expected an object")
        row: dict[str, Any] = {"position": index + 1}
        for name, size in ROW_SIZES.items():
            cards = _cards(player.get(name), f"{label}, {name}")
            if len(cards) != size:
                raise UserError(f"{label}: {name} has {len(cards)} cards, expected {size}")
            for card in cards:
                if card in seen:
                    raise UserError(
                        f"{label}: {format_card(card)} appears twice (also {seen[card]})"
                    )
                seen[card] = f"{label}, {name}"
            row[name] = [format_card(c) for c in cards]
        row["in_fantasyland"] = _flag(
            player.get("in_fantasyland", False), f"{label}, in_fantasyland"
        )
        row["starting_stack"] = _number(player.get("stack"), f"{label}, stack")
        row["fantasyland_repeats"] = int(_number(player.get("fantasyland_repeats"), label) or 0)
        rows.append(row)
    return rows


def _cards(value: Any, label: str) -> list[int]:
    if isinstance(value, str | list) and all(isinstance(v, str) for v in value):
        try:
            return parse_cards(value)
        except CardError as error:
            raise UserError(f"{label}: {error}") from None
    raise UserError(f'{label}: expected cards such as "Ah Kd 7c", got {value!r}')


def _flag(value: Any, label: str) -> bool:
    if not isinstance(value, bool):
        raise UserError(f"{label}: expected true or false, got {value!r}")
    return value


def _number(value: Any, label: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UserError(f"{label}: expected a number, got {value!r}")
    return float(value)
