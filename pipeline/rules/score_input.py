"""Reading and checking the hands given to ``ofc score`` (the user's calculator).

Input is one JSON object, or JSON Lines with one hand per line, each
``{"players": [{"name", "top", "middle", "bottom", "in_fantasyland", "stack",
"match_loss", "fantasyland_repeats"}, ...]}`` with players in order of action.
Every problem is reported as a ``UserError`` naming the hand, the player and
what to fix: JSON that is not strict JSON (``NaN``, ``Infinity``) or nested too
deeply, a name that is not text UTF-8 can write, a stack outside
``0..MAX_STACK``, a ``match_loss`` outside ``-MAX_STACK..MAX_STACK``, a
``fantasyland_repeats`` that is no whole number from 0 to ``MAX_REPEATS``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ofc_core.cards import CardError, format_card, parse_cards
from ofc_core.errors import UserError
from ofc_core.rulesets import Ruleset
from pipeline.rules.rows import ROW_SIZES

#: Fantasyland hands in a row a player can have played before this one (R6): far above play.
MAX_REPEATS = 1000
#: The stacks ``ofc score`` takes: what is at stake in a hand is never below nothing (R7).
MAX_STACK = 1_000_000


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
        return [_hand(strict_json(stripped, "hand 1"), "hand 1")]
    except json.JSONDecodeError as error:
        whole = error
    hands = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        label = f"hand {len(hands) + 1} (line {number})"
        try:
            hands.append(_hand(strict_json(line, label), label))
        except json.JSONDecodeError as error:
            if not hands and "\n" in stripped:  # one object over several lines, most likely
                raise UserError(_whole_problem(text, whole)) from None
            raise UserError(
                f"{label}: malformed JSON: {error.msg} at column {error.colno}"
            ) from None
    return hands


def _whole_problem(text: str, error: json.JSONDecodeError) -> str:
    """Where the input read as one JSON object over several lines went wrong, counting
    the lines of ``text`` (``error`` is of the text without its leading blank lines)."""
    line = error.lineno + text[: len(text) - len(text.lstrip())].count("\n")
    return f"hand 1: malformed JSON: {error.msg} at line {line}, column {error.colno}"


def strict_json(text: str, label: str) -> Any:
    """Strict JSON: no ``NaN`` or ``Infinity``, no nesting deeper than Python recurses, no
    number with more digits than Python reads."""
    try:
        return json.loads(text, parse_constant=_not_a_number(label))
    except RecursionError:
        raise UserError(f"{label}: the JSON is nested too deeply") from None
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise
        raise UserError(f"{label}: {error}") from None


def _not_a_number(label: str):
    def refuse(constant: str) -> None:
        raise UserError(f"{label}: {constant} is not a number JSON allows; give a finite number")

    return refuse


def _hand(obj: Any, label: str) -> InputHand:
    if not isinstance(obj, dict) or not isinstance(obj.get("players"), list):
        raise UserError(f'{label}: expected an object with a "players" list')
    return InputHand(label, obj["players"])


def _player_label(hand: InputHand, index: int, player: Any) -> str:
    name = player.get("name") if isinstance(player, dict) else None
    label = f"{hand.label}, player {index + 1}"
    if name is None:
        return label
    if not isinstance(name, str):
        raise UserError(f"{label}: name: expected text, got {name!r}")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise UserError(f"{label}: name {name!r} holds a lone surrogate, not text") from None
    return f"{label} ({name!r})"


def checked_rows(hand: InputHand, ruleset: Ruleset) -> list[dict[str, Any]]:
    """The hand's players as engine rows (canonical card names), or a UserError."""
    problem = ruleset.player_count_problem(len(hand.players))
    if problem:
        raise UserError(f"{hand.label}: {problem}")
    rows, seen = [], {}
    for index, player in enumerate(hand.players):
        label = _player_label(hand, index, player)
        if not isinstance(player, dict):
            raise UserError(f"{label}: expected an object")
        row: dict[str, Any] = {"position": index + 1}
        for name, size in ROW_SIZES.items():
            cards = read_cards(player.get(name), f"{label}, {name}")
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
        row["starting_stack"] = _stack(player.get("stack"), f"{label}, stack")
        row["fantasyland_repeats"] = _repeats(
            player.get("fantasyland_repeats"), f"{label}, fantasyland_repeats"
        )
        row["match_loss"] = _match_loss(player.get("match_loss"), f"{label}, match_loss")
        rows.append(row)
    return rows


def read_cards(value: Any, label: str) -> list[int]:
    """Card codes of a JSON value ("Ah Kd" or ["Ah", "Kd"]), or a UserError naming ``label``."""
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
        raise UserError(f"{label}: expected a number, got {_short(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise UserError(f"{label}: {_short(value)} is too large") from None
    if not math.isfinite(number):
        raise UserError(f"{label}: expected a finite number, got {value!r}")
    return number


def _stack(value: Any, label: str) -> float | None:
    """A stack from 0 to ``MAX_STACK`` (a negative one is no stake, R7)."""
    number = _number(value, label)
    if number is not None and not 0 <= number <= MAX_STACK:
        raise UserError(f"{label}: {_short(value)} is outside 0..{MAX_STACK:,}")
    return number


def _match_loss(value: Any, label: str) -> float:
    """Net points lost so far in the match (R7 loss cap), within ``±MAX_STACK`` (absent: 0)."""
    number = _number(value, label)
    if number is not None and not -MAX_STACK <= number <= MAX_STACK:
        raise UserError(f"{label}: {_short(value)} is outside -{MAX_STACK:,}..{MAX_STACK:,}")
    return number or 0.0


def _repeats(value: Any, label: str) -> int:
    """A whole number of Fantasyland repeats from 0 to ``MAX_REPEATS`` (absent: 0)."""
    number = _number(value, label)
    if number is None:
        return 0
    if not number.is_integer() or not 0 <= number <= MAX_REPEATS:
        raise UserError(f"{label}: expected a whole number from 0 to {MAX_REPEATS}, got {value!r}")
    return int(number)


def _short(value: Any) -> str:
    """A value as its JSON was written, cut to 40 characters.

    >>> _short(True), _short("x"), _short([1, None]), _short(10**50)
    ('true', '"x"', '[1, null]', 'a number')
    """
    text = (
        json.dumps(value, default=repr)
        if not isinstance(value, int) or abs(value) < 10**40
        else "a number"
    )
    return text if len(text) <= 40 else text[:40] + "…"
