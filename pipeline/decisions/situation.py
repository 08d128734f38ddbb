"""One street decision as ``ofc decide`` reads it: the hero's board and cards, the table.

A situation is one JSON object per line::

    {"hero": {"top": "..", "middle": "..", "bottom": "..", "cards": "..", "discards": ".."},
     "opponents": [{"name": "..", "top": "..", "middle": "..", "bottom": "..",
                    "in_fantasyland": false}],
     "dead": ".."}

Rows are card lists as in R1 (``"Ah Kd"``, or a list of card strings; ``""``
for an empty row). ``read_situations`` checks everything a rollout relies on
(cards known and distinct, rows within their size, the dealt cards those of
a street of the ruleset's variant, R2) and reports the first problem as a
``UserError`` naming the line, like ``ofc score``.

>>> from ofc_core.rulesets import load_ruleset
>>> line = ('{"hero": {"top": "", "middle": "", "bottom": "", "cards": "Ah Ad 7c 7d 2s"},'
...         ' "opponents": [{"name": "V", "top": "", "middle": "", "bottom": ""}]}')
>>> [s] = read_situations(line, load_ruleset("pineapple-1-6-american"))
>>> s.placed, len(s.opponents), s.hero_count
(5, 1, 0)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from ofc_core.cards import DECK_SIZE, CardError, format_card, parse_cards
from ofc_core.errors import UserError
from ofc_core.rulesets import Ruleset
from ofc_core.variants import MAX_PLAYERS, STREETS
from pipeline.decisions.future import deal_plan
from pipeline.rules.rows import ROW_SIZES

ROWS = ("top", "middle", "bottom")
Cards = tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """A player's three rows as card codes (each may be partly filled)."""

    top: Cards = ()
    middle: Cards = ()
    bottom: Cards = ()

    @property
    def count(self) -> int:
        return len(self.top) + len(self.middle) + len(self.bottom)

    def slots(self) -> np.ndarray:
        """The 13-slot board the kernels read: top 0-2, middle 3-7, bottom 8-12, -1 empty."""
        out = np.full(13, -1, dtype=np.int8)
        for start, row in zip((0, 3, 8), (self.top, self.middle, self.bottom), strict=True):
            out[start : start + len(row)] = row
        return out

    def cards(self) -> Cards:
        return self.top + self.middle + self.bottom


@dataclass(frozen=True)
class Opponent:
    """An opponent as the hero sees them: rows placed so far, and Fantasyland."""

    name: str | None
    board: Board
    in_fantasyland: bool = False


@dataclass(frozen=True)
class Situation:
    """The hero's decision on one street: board, dealt cards, and what else is known."""

    hero: Board
    dealt: Cards
    placed: int  # how many of the dealt cards are placed (the rest discarded)
    discards: Cards = ()
    opponents: tuple[Opponent, ...] = ()
    dead: Cards = ()

    @property
    def hero_count(self) -> int:
        return self.hero.count

    def seen(self) -> np.ndarray:
        """``(52,)`` bool: every card the hero knows is not in the deck."""
        known = np.zeros(DECK_SIZE, dtype=bool)
        cards = [*self.hero.cards(), *self.dealt, *self.discards, *self.dead]
        for opponent in self.opponents:
            cards += opponent.board.cards()
        known[list(cards)] = True
        return known


def placed_on_street(ruleset: Ruleset, board_count: int) -> tuple[int, int]:
    """Cards dealt and placed on the street a board of ``board_count`` cards plays (R2)."""
    streets = STREETS[ruleset.variant]
    street = streets[0] if board_count == 0 else streets[-1]
    return street.dealt, street.placed


def reachable_counts(variant: str) -> set[int]:
    """Board sizes a player can have between streets of the variant (R2)."""
    sizes, total = {0}, 0
    for street in STREETS[variant]:
        total += street.placed
        sizes.add(total)
    return sizes


def read_situations(text: str, ruleset: Ruleset) -> list[Situation]:
    """Every situation of JSON Lines ``text``; a ``UserError`` naming the line otherwise."""
    situations = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise UserError(
                f"line {number}: malformed JSON: {error.msg} at column {error.colno}"
            ) from None
        except RecursionError:
            raise UserError(f"line {number}: the JSON is nested too deeply") from None
        try:
            situations.append(situation_of(obj, ruleset))
        except UserError as error:
            raise UserError(f"line {number}: {error}") from None
    if not situations:
        raise UserError("no input: give one JSON situation per line (docs/decisions.md)")
    return situations


#: The keys of a situation, of its hero and of an opponent (docs/decisions.md): any other
#: is refused, so that a misspelt one ("discard", "deadd") cannot leave its cards in the deck.
KEYS = ("hero", "opponents", "dead")
HERO_KEYS = (*ROWS, "cards", "discards")
OPPONENT_KEYS = ("name", *ROWS, "in_fantasyland")


def _known_keys(obj: dict, keys: tuple[str, ...], label: str) -> None:
    unknown = sorted(set(obj) - set(keys))
    if unknown:
        expected = ", ".join(f'"{k}"' for k in keys)
        raise UserError(f"{label}: unknown key(s) {unknown}; expected {expected}")


def situation_of(obj: Any, ruleset: Ruleset) -> Situation:
    """A checked ``Situation`` from one parsed JSON object (``UserError`` if it is not one)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("hero"), dict):
        raise UserError('expected an object with a "hero" object')
    _known_keys(obj, KEYS, "situation")
    hero_obj = obj["hero"]
    _known_keys(hero_obj, HERO_KEYS, "hero")
    hero = _board(hero_obj, "hero")
    dealt = _cards(hero_obj.get("cards"), "hero, cards")
    opponents_obj = obj.get("opponents", [])
    if not isinstance(opponents_obj, list):
        raise UserError('"opponents" must be a list of objects')
    most = MAX_PLAYERS[ruleset.variant] - 1
    if not 1 <= len(opponents_obj) <= most:
        raise UserError(f"{len(opponents_obj)} opponents; {ruleset.variant} has 1 to {most}")
    placed = _check_street(ruleset, hero, dealt)
    situation = Situation(
        hero=hero,
        dealt=dealt,
        placed=placed,
        discards=_discards(hero_obj.get("discards", ""), ruleset, hero.count),
        opponents=tuple(
            _opponent(o, i, ruleset, hero.count, placed)
            for i, o in enumerate(opponents_obj, start=1)
        ),
        dead=_cards(obj.get("dead", ""), "dead"),
    )
    _check_distinct(situation)
    needed, unseen = deal_plan(situation, ruleset).total, int((~situation.seen()).sum())
    if needed > unseen:
        raise UserError(
            f"the remaining streets need {needed} unseen cards but only {unseen} are left "
            "(too many dead cards or discards?)"
        )
    return situation


def _check_street(ruleset: Ruleset, hero: Board, dealt: Cards) -> int:
    if hero.count == 13:
        raise UserError("the hero's board is complete: no decision is left")
    if hero.count not in reachable_counts(ruleset.variant):
        raise UserError(
            f"the hero has {hero.count} cards placed, which no street of "
            f"{ruleset.variant} leaves (R2)"
        )
    cards, placed = placed_on_street(ruleset, hero.count)
    if len(dealt) != cards:
        street = "the first street" if hero.count == 0 else "this street"
        hint = (
            "; 13 to 17 cards dealt at once are a Fantasyland hand: set it with `ofc solve`"
            if hero.count == 0 and 13 <= len(dealt) <= 17
            else ""
        )
        raise UserError(
            f"hero, cards: {len(dealt)} dealt, but {ruleset.variant} deals {cards} on {street}"
            f" (R2){hint}"
        )
    return placed


def discards_before(variant: str, board_count: int) -> int:
    """How many cards a player with ``board_count`` cards placed has discarded (R2).

    >>> discards_before("pineapple", 7), discards_before("classic", 7), discards_before("pineapple", 0)
    (1, 0, 0)
    """
    placed = discarded = 0
    for street in STREETS[variant]:
        if placed >= board_count:
            break
        placed += street.placed
        discarded += street.discards
    return discarded


def _discards(value: Any, ruleset: Ruleset, board_count: int) -> Cards:
    """The hero's earlier discards: at most as many as the streets played so far (R2)."""
    cards = _cards(value, "hero, discards")
    most = discards_before(ruleset.variant, board_count)
    if len(cards) > most:
        raise UserError(
            f"hero, discards: {len(cards)} card{'s' if len(cards) != 1 else ''}, but a"
            f" {ruleset.variant} player with {board_count} placed has discarded {most} (R2)"
        )
    return cards


def _opponent(obj: Any, index: int, ruleset: Ruleset, hero_count: int, placed: int) -> Opponent:
    """An opponent's rows, checked: at the hero's street, either before placing its cards
    (acting after the hero) or after (acting before), or in Fantasyland (R2, R6)."""
    label = f"opponent {index}"
    if not isinstance(obj, dict):
        raise UserError(f"{label}: expected an object")
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise UserError(f"{label}, name: expected text, got {name!r}")
    if name is not None:
        label += f" ({name!r})"
    _known_keys(obj, OPPONENT_KEYS, label)
    board = _board(obj, label)
    in_fl = obj.get("in_fantasyland", False)
    if not isinstance(in_fl, bool):
        raise UserError(f"{label}, in_fantasyland: expected true or false, got {in_fl!r}")
    if in_fl and board.count not in (0, 13):
        raise UserError(
            f"{label}: in Fantasyland the rows are hidden until the showdown: "
            "give them all empty or all complete"
        )
    if in_fl and not ruleset.fantasyland.enabled:
        raise UserError(f"{label}: in Fantasyland, but ruleset {ruleset.name} has no Fantasyland")
    if not in_fl and board.count not in (hero_count, hero_count + placed):
        raise UserError(
            f"{label}: {board.count} cards placed, but on the hero's street (the hero has "
            f"{hero_count}) an opponent has {hero_count} (acting after the hero) or "
            f"{hero_count + placed} (acting before) (R2)"
        )
    return Opponent(name, board, in_fl)


def _board(obj: dict, label: str) -> Board:
    rows = {}
    for row in ROWS:
        cards = _cards(obj.get(row, ""), f"{label}, {row}")
        if len(cards) > ROW_SIZES[row]:
            raise UserError(f"{label}: {row} has {len(cards)} cards, at most {ROW_SIZES[row]}")
        rows[row] = cards
    return Board(**rows)


def _cards(value: Any, label: str) -> Cards:
    if isinstance(value, str | list) and all(isinstance(v, str) for v in value):
        try:
            return tuple(parse_cards(value))
        except CardError as error:
            raise UserError(f"{label}: {error}") from None
    raise UserError(f'{label}: expected cards such as "Ah Kd 7c", got {value!r}')


def _check_distinct(situation: Situation) -> None:
    places: dict[int, str] = {}
    groups = [
        ("the hero's rows", situation.hero.cards()),
        ("the hero's cards", situation.dealt),
        ("the hero's discards", situation.discards),
        ("dead", situation.dead),
    ]
    groups += [
        (f"opponent {i}'s rows", o.board.cards()) for i, o in enumerate(situation.opponents, 1)
    ]
    for where, cards in groups:
        for card in cards:
            if places.get(card) == where:
                raise UserError(f"{format_card(card)} appears twice among {where}")
            if card in places:
                raise UserError(f"{format_card(card)} appears twice ({places[card]} and {where})")
            places[card] = where
