"""``decide``: the expected value of every legal placement of one street (issue 10).

For a ``Situation`` (``situation.py``) every legal placement of the dealt
cards (``placements.py``) is a candidate. The cards the hero has not seen are
dealt at random; the hero's and the opponents' remaining streets are finished
by the rollout policy (``policy.py``) and every finished board is settled
against every opponent by the ruleset's rules (``showdown.py``, R3-R6):

* all candidates read the same random cards (common random numbers);
* successive halving: every candidate gets ``FIRST_ROUND`` rollouts, then
  the better half (by value, at least ``FINALISTS``, and those the leader is
  not clearly ahead of) twice as many, and so on until the finalists have
  ``rollouts``; each candidate is listed with the rollouts it had and its
  standard error, best first (the candidates that went furthest first, then
  by value);
* with nothing left to deal (the last street, every opponent complete) the
  one outcome is exact: one rollout, ``se`` 0; with few cards left to deal
  (no more ordered draws of them than ``rollouts``) every candidate reads
  every draw once, and is exact too (``se`` 0), as is the ranking;
* a ``follow``ed placement (a review's chosen one) gets every rollout, and
  every candidate's ``se_paired`` is the standard error of its value minus
  the followed one's, from the per-rollout differences (common random numbers
  make the two estimates correlated, so this is much smaller than the two
  ``se`` combined as if independent).

>>> from ofc_core.rulesets import load_ruleset
>>> from pipeline.decisions.situation import situation_of
>>> rs = load_ruleset("pineapple-1-6-american")
>>> s = situation_of({"hero": {"top": "2c 3d", "middle": "Kc Kd 9h 8h 8c", "bottom": "As Ah Ad 4c",
...     "cards": "Ac 3h 7s"}, "opponents": [{"top": "Qs Jd 5h", "middle": "Th Tc 6s 6d 2h",
...     "bottom": "9s 9c 9d 5c 5d"}]}, rs)
>>> best = decide(s, rs)[0]
>>> best.cards_text("bottom"), best.discard_text, best.ev, best.se
('As Ah Ad 4c Ac', '7s', 10.0, 0.0)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ofc_core.cards import format_cards
from ofc_core.rulesets import Ruleset
from pipeline.decisions import rollout_kernel
from pipeline.decisions.fantasyland_value import default_fantasyland_value
from pipeline.decisions.future import deal_plan
from pipeline.decisions.placements import Placements, legal_placements
from pipeline.decisions.policy import style_knobs
from pipeline.decisions.showdown import ShowdownRules
from pipeline.decisions.situation import Situation
from pipeline.simulator.styles import STYLES
from pipeline.simulator.value import chase_rank

#: Rollouts the best candidates get by default (``--rollouts``).
DEFAULT_ROLLOUTS = 2000
#: Rollouts every candidate gets before the first halving.
FIRST_ROUND = 32
#: The halving keeps at least this many candidates to the last round, so that the best
#: is chosen among several measured on every rollout (Classic has 3 candidates a street).
FINALISTS = 4
#: A candidate in the worse half is kept while it is behind the leader by fewer standard
#: errors than this (of the per-rollout difference of their values).
CLEARLY = 2.0
#: The finishing players' style: the simulator's ``balanced`` rollout knobs.
ROLLOUT_STYLE = "balanced"
CHASER_MIDDLE = 0.5  # as pipeline.simulator.street_view: chasers like middle pairs in Pineapple


@dataclass(frozen=True)
class Candidate:
    """One placement and what it is worth: points against the table, Fantasyland, value."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]
    discard: tuple[int, ...]
    ev: float  # expected points of the hand against all opponents (R4)
    se: float  # standard error of ev
    fantasyland: float  # probability the hero earns Fantasyland
    value: float  # ev + V * fantasyland
    rollouts: int
    se_paired: float | None = None  # se of value minus the followed placement's (None: none)

    def cards_text(self, row: str) -> str:
        return format_cards(getattr(self, row))

    @property
    def discard_text(self) -> str:
        return format_cards(self.discard)

    def rows_for(self, dealt: tuple[int, ...]) -> tuple[int, ...]:
        """The row each of the street's ``dealt`` cards went to: 0 top, 1 middle, 2 bottom,
        3 discarded (the simulator's patterns)."""
        rows = (self.top, self.middle, self.bottom)
        where = {card: r for r, row in enumerate(rows) for card in row}
        return tuple(where.get(card, 3) for card in dealt)

    def to_json(self) -> dict:
        """The candidate as ``ofc decide`` prints it."""
        return {
            "top": self.cards_text("top"),
            "middle": self.cards_text("middle"),
            "bottom": self.cards_text("bottom"),
            "discard": self.discard_text,
            "ev": round(self.ev, 4),
            "se": round(self.se, 4),
            "fantasyland": round(self.fantasyland, 4),
            "value": round(self.value, 4),
            "rollouts": self.rollouts,
        }


def decide(
    situation: Situation,
    ruleset: Ruleset,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    fantasyland_value: float | None = None,
    follow: tuple[int, ...] | None = None,
) -> list[Candidate]:
    """Every legal placement of the situation's cards with its value, best first.

    ``follow`` (the rows of one placement, as ``Candidate.rows_for`` gives them:
    a review's chosen placement) gets every rollout whatever the halving says,
    so that it is compared with the best on the same cards.
    """
    if fantasyland_value is None:
        fantasyland_value = default_fantasyland_value(ruleset)
    setup = prepare(situation, ruleset, rollouts, seed)
    followed = _index_of(setup.placements, follow)
    stats = _halving(setup, fantasyland_value, followed)
    exact = stats.n == len(setup.deals) if setup.exhaustive else np.zeros(len(stats.n), bool)
    return _candidates(setup.placements, stats, fantasyland_value, len(followed) > 0, exact)


@dataclass(frozen=True)
class Setup:
    """What every candidate's rollouts read: the placements, the random cards (one row per
    rollout), the hero's plan, the policy's knobs, the opponents' finished showdowns and
    the ruleset's compiled rules."""

    placements: Placements
    deals: np.ndarray
    plan: np.ndarray
    style: np.ndarray
    table: np.ndarray
    rules: tuple
    exhaustive: bool = False  # ``deals`` holds every possible draw once

    def rollouts(self, which: np.ndarray, part: slice = slice(None)) -> tuple:
        """Points and Fantasyland cards ``(len(which), samples)`` of the candidates ``which``
        over the rollouts ``part``."""
        return rollout_kernel.hero_rollouts(
            self.placements.boards, which, self.deals[part], self.plan, self.style,
            self.table[part], *self.rules,
        )  # fmt: skip


def prepare(situation: Situation, ruleset: Ruleset, rollouts: int, seed: int) -> Setup:
    """The candidates of ``situation`` and the rollouts they share (common random numbers)."""
    placements = legal_placements(
        situation.hero.slots(), np.array(situation.dealt), situation.placed
    )
    plan = deal_plan(situation, ruleset)
    unknown = np.flatnonzero(~situation.seen()).astype(np.int8)
    draws = math.perm(len(unknown), plan.total)
    exhaustive = draws <= rollouts
    deals = (
        _every_deal(unknown, plan.total, seed)
        if exhaustive
        else _deals(unknown, plan.total, rollouts, seed)
    )
    rules = ShowdownRules.of(ruleset).arrays()
    style = rollout_knobs(ruleset)
    boards = np.array([o.board.slots() for o in situation.opponents], dtype=np.int8).reshape(-1, 13)
    table = rollout_kernel.finish_opponents(
        boards, plan.opponents, plan.offsets, deals, style, *rules
    )
    return Setup(placements, deals, plan.hero, style, table, rules, exhaustive)


def _index_of(placements: Placements, rows: tuple[int, ...] | None) -> np.ndarray:
    """The index of the placement with these rows (empty for None)."""
    if rows is None:
        return np.zeros(0, dtype=np.int64)
    found = np.flatnonzero((placements.rows == np.array(rows)).all(axis=1))
    if len(found) != 1:
        raise ValueError(f"rows {rows} are not a legal placement of the dealt cards")
    return found


def rollout_knobs(ruleset: Ruleset) -> np.ndarray:
    """The compiled policy's style for the ruleset (``ROLLOUT_STYLE``)."""
    style = STYLES[ROLLOUT_STYLE]
    chooses = ruleset.variant in ("pineapple", "pineapple-27")
    return style_knobs(
        style.chase_top,
        style.flush_draw,
        CHASER_MIDDLE * chooses * style.chase_top,
        ruleset.lowball_middle,
        chase_rank(ruleset),
    )


def _every_deal(unknown: np.ndarray, total: int, seed: int) -> np.ndarray:
    """Every ordered draw of ``total`` distinct unknown cards once, in random order (so the
    first rounds of the halving read a random sample of them).

    >>> _every_deal(np.array([7, 8, 9]), 2, 0).shape, _every_deal(np.array([7]), 0, 0).shape
    ((6, 2), (1, 0))
    """
    if total == 0:  # nothing to deal: one empty draw
        return np.zeros((1, 0), dtype=np.int64)
    every = np.array(list(itertools.permutations(unknown.tolist(), total)), dtype=np.int64)
    return every[np.random.default_rng(seed).permutation(len(every))]


def _deals(unknown: np.ndarray, total: int, samples: int, seed: int) -> np.ndarray:
    """``(samples, total)`` random ordered draws of distinct unknown cards."""
    keys = np.random.default_rng(seed).random((samples, len(unknown)))
    return unknown[np.argsort(keys, axis=1)[:, :total]].astype(np.int64)


@dataclass
class _Stats:
    """Running sums per candidate; ``paired`` and ``paired_squares`` sum the per-rollout
    differences of its value from the followed candidate's."""

    n: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    fantasyland: np.ndarray
    paired: np.ndarray
    paired_squares: np.ndarray
    stage: np.ndarray  # the halving round the candidate reached

    def value(self, worth: float) -> np.ndarray:
        n = np.maximum(self.n, 1)
        return (self.total + worth * self.fantasyland) / n


def _halving(setup: Setup, worth: float, followed: np.ndarray) -> _Stats:
    """Rollouts of every candidate, by successive halving over the samples (the
    ``followed`` candidates are always kept); every candidate reads every sample when
    they are every possible deal (the ranking is then exact too)."""
    count, samples = len(setup.placements.boards), len(setup.deals)
    stats = _Stats(*(np.zeros(count) for _ in range(6)), np.zeros(count, dtype=np.int64))
    active = np.arange(count)
    first = samples if setup.exhaustive else min(FIRST_ROUND, samples)
    done, target, stage = 0, first, 0
    while True:
        points, fantasyland = setup.rollouts(active, slice(done, target))
        earned = fantasyland > 0
        values = points + worth * earned
        stats.n[active] += target - done
        stats.total[active] += points.sum(axis=1)
        stats.squares[active] += (points**2).sum(axis=1)
        stats.fantasyland[active] += earned.sum(axis=1)
        if len(followed):
            difference = values - values[np.searchsorted(active, followed[0])]
            stats.paired[active] += difference.sum(axis=1)
            stats.paired_squares[active] += (difference**2).sum(axis=1)
        stats.stage[active] = stage
        if target == samples:
            return stats
        active = np.union1d(_survivors(active, stats.value(worth)[active], values), followed)
        done, target, stage = target, min(2 * target, samples), stage + 1


def _survivors(active: np.ndarray, value: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The candidates of ``active`` (their ``value`` so far; ``values``: each one's
    values on this round's rollouts) that go on to the next round.

    The better half by value, at least ``FINALISTS``; and below them, while the
    survivors are fewer than twice that half, those not clearly worse than the
    leader: by less than ``CLEARLY`` standard errors of their difference on this
    round's rollouts (the same cards for both, so the difference is measured
    precisely). A near tie is not settled on a few dozen rollouts.
    """
    order = np.argsort(-value, kind="stable")
    keep = min(len(active), max(FINALISTS, (len(active) + 1) // 2))
    leader = values[order[0]]
    difference = values[order[keep:]] - leader
    samples = difference.shape[1]
    spread = difference.std(axis=1, ddof=1) if samples > 1 else np.zeros(len(difference))
    behind = value[order[keep:]] - value[order[0]]
    close = order[keep:][behind + CLEARLY * spread / math.sqrt(samples) >= 0]
    return active[np.concatenate([order[:keep], close[:keep]])]


def _standard_error(total: np.ndarray, squares: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Standard error of a mean from the sum and the sum of squares of ``n`` values."""
    m = np.maximum(n, 1)
    mean = total / m
    variance = np.where(n > 1, (squares - m * mean**2) / np.maximum(m - 1, 1), 0.0)
    return np.sqrt(np.maximum(variance, 0.0) / m)


def _candidates(
    placements: Placements, stats: _Stats, worth: float, paired: bool, exact: np.ndarray
) -> list[Candidate]:
    """The candidates, best first; ``exact``: those whose rollouts were every possible deal
    (their ``se`` is 0: the mean is the expectation itself)."""
    n = np.maximum(stats.n, 1)
    ev = stats.total / n
    se = np.where(exact, 0.0, _standard_error(stats.total, stats.squares, stats.n))
    se_paired = np.where(exact, 0.0, _standard_error(stats.paired, stats.paired_squares, stats.n))
    fantasyland = stats.fantasyland / n
    value = ev + worth * fantasyland
    order = np.lexsort((-value, -stats.stage))
    out = []
    for i in order:
        board = placements.boards[i]
        out.append(
            Candidate(
                top=_row(board[:3]),
                middle=_row(board[3:8]),
                bottom=_row(board[8:]),
                discard=tuple(int(c) for c in placements.discards[i]),
                ev=float(ev[i]),
                se=float(se[i]),
                fantasyland=float(fantasyland[i]),
                value=float(value[i]),
                rollouts=int(stats.n[i]),
                se_paired=float(se_paired[i]) if paired else None,
            )
        )
    return out


def _row(cards: np.ndarray) -> tuple[int, ...]:
    return tuple(int(c) for c in cards if c >= 0)
