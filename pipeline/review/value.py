"""One decision valued: the chosen placement against the best, with the standard error of
the difference (``ofc decide`` for a street, ``ofc solve`` for a Fantasyland set).

A street is passed to ``decide`` with the chosen placement followed (it gets
every rollout, on the same random cards as the best: common random numbers);
the standard error of the loss is that of the per-rollout differences.
Values are ``decide``'s ``value``: expected points against the table plus
``V`` times the probability of earning Fantasyland. A Fantasyland set is
valued as ``ofc solve`` ranks boards: royalties plus ``V`` if it stays; the
chosen board's royalties and stay are the engine's (a foul earns neither).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ofc_core.cards import format_card, parse_cards
from ofc_core.rulesets import Ruleset
from pipeline.decisions.decide import decide
from pipeline.decisions.fantasyland_solver import solve_fantasyland
from pipeline.decisions.fantasyland_value import default_fantasyland_value
from pipeline.decisions.placements import legal_placements
from pipeline.decisions.situation import Board, Opponent, Situation
from pipeline.review.spots import Spot

ROW_INDEX = {"top": 0, "middle": 1, "bottom": 2, "discard": 3}
Rows = dict[str, list[str]]


@dataclass(frozen=True)
class Reviewed:
    """One row of the ``decisions`` table (docs/schema.md)."""

    hand_id: str
    player: str
    seat: int
    street: int
    kind: str
    played_at: object
    ruleset: str
    dealt: list[str]
    chosen: Rows
    best: Rows
    ev_chosen: float
    ev_best: float
    ev_loss: float
    se_loss: float
    fantasyland_chosen: float
    fantasyland_best: float
    fantasyland_value: float
    candidates: int | None  # None for a Fantasyland set (the solver searches every board)
    rollouts: int | None


def seed_of(spot: Spot) -> int:
    """A seed fixed by the decision's key, so a review is reproducible.

    >>> seed_of(Spot("h", "p", 1, 2, None, "r", None, (), (), (), ())) == seed_of(
    ...     Spot("h", "p", 1, 2, None, "r", None, (), (), (), ()))
    True
    """
    digest = hashlib.sha256("\x1f".join(map(str, spot.key)).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 2


def has_choice(spot: Spot) -> bool:
    """Whether ``spot`` is a decision: a Fantasyland set, or a street whose cards have more
    than one legal placement (a Classic street's card when one row is left open has one: it
    loses nothing and would only dilute the loss per decision).

    >>> from pipeline.review.spots import Board as Rows
    >>> full = ("2c", "3c", "4c", "5c", "6c")
    >>> last = Spot("h", "p", 1, 5, None, "r", Rows(("Ah", "Ad"), full, full), ("Kd",),
    ...             ("top",), (), ())
    >>> first = Spot("h", "p", 1, 1, None, "r", Rows(), ("Kd", "Qd", "Jd", "Td", "9d"),
    ...              ("bottom", "bottom", "middle", "middle", "top"), (), ())
    >>> has_choice(last), has_choice(first)
    (False, True)
    """
    if spot.street == 0:
        return True
    situation = _situation(spot)
    dealt = np.array(situation.dealt, dtype=np.int8)
    return len(legal_placements(situation.hero.slots(), dealt, situation.placed)) > 1


def review_spot(spot: Spot, ruleset: Ruleset, rollouts: int, worth: float | None) -> Reviewed:
    """The value of the chosen and of the best play of ``spot``."""
    worth = default_fantasyland_value(ruleset) if worth is None else worth
    if spot.street == 0:
        return _fantasyland(spot, ruleset, worth)
    return _street(spot, ruleset, rollouts, worth)


def _codes(cards: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(parse_cards(list(cards))) if cards else ()


def _board(board) -> Board:
    return Board(_codes(board.top), _codes(board.middle), _codes(board.bottom))


def _situation(spot: Spot) -> Situation:
    dealt = _codes(spot.dealt)
    placed = sum(1 for row in spot.chosen if row != "discard")
    opponents = tuple(Opponent(None, _board(o.board), o.in_fantasyland) for o in spot.opponents)
    return Situation(_board(spot.board), dealt, placed, _codes(spot.discards), opponents)


def _street(spot: Spot, ruleset: Ruleset, rollouts: int, worth: float) -> Reviewed:
    situation = _situation(spot)
    chosen_rows = tuple(ROW_INDEX[row] for row in spot.chosen)
    candidates = decide(situation, ruleset, rollouts, seed_of(spot), worth, follow=chosen_rows)
    best = candidates[0]
    chosen = next(c for c in candidates if c.rows_for(situation.dealt) == chosen_rows)
    loss = max(0.0, best.value - chosen.value)
    se = best.se_paired or 0.0  # from the per-rollout differences from the chosen
    return _row(
        spot,
        _rows_of(chosen.top, chosen.middle, chosen.bottom, chosen.discard),
        _rows_of(best.top, best.middle, best.bottom, best.discard),
        (chosen.value, best.value, loss, se, chosen.fantasyland, best.fantasyland),
        worth,
        len(candidates),
        best.rollouts,
    )


def _fantasyland(spot: Spot, ruleset: Ruleset, worth: float) -> Reviewed:
    best = solve_fantasyland(_codes(spot.dealt), ruleset, worth, repeats=spot.fantasyland_repeats)
    chosen = {
        row: [c for c, r in zip(spot.dealt, spot.chosen, strict=True) if r == row]
        for row in ROW_INDEX
    }
    limit = ruleset.fantasyland.repeat_limit
    may_stay = ruleset.fantasyland.enabled and (limit == 0 or spot.fantasyland_repeats < limit)
    stay_worth = worth if may_stay else 0.0
    chosen_value = spot.chosen_value + stay_worth * spot.chosen_stays
    return _row(
        spot,
        {"top": chosen["top"], "middle": chosen["middle"], "bottom": chosen["bottom"],
         "discards": chosen["discard"]},
        _rows_of(best.top, best.middle, best.bottom, best.discards),
        (chosen_value, best.value, max(0.0, best.value - chosen_value), 0.0,
         float(spot.chosen_stays), float(best.stays)),
        worth,
        None,
        None,
    )  # fmt: skip


def _rows_of(top, middle, bottom, discards) -> Rows:
    def text(cards) -> list[str]:
        return [format_card(int(c)) for c in cards]

    return {
        "top": text(top),
        "middle": text(middle),
        "bottom": text(bottom),
        "discards": text(discards),
    }


def _row(
    spot: Spot,
    chosen: Rows,
    best: Rows,
    values: tuple,
    worth: float,
    count: int | None,
    rollouts: int | None,
) -> Reviewed:
    ev_chosen, ev_best, loss, se, fl_chosen, fl_best = values
    return Reviewed(
        spot.hand_id, spot.player, spot.seat, spot.street, spot.kind, spot.played_at,
        spot.ruleset, list(spot.dealt), chosen, best, float(ev_chosen), float(ev_best),
        float(loss), float(se), float(fl_chosen), float(fl_best), float(worth), count, rollouts,
    )  # fmt: skip
