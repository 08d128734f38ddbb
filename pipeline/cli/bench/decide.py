"""Benchmark: ``ofc decide``'s rollouts, and a whole decision at the default precision.

The rollout figure is the compiled kernel alone (``rollout_kernel``): the
hero's first-street candidates of a 3-handed Pineapple hand
(``pineapple-1-6-american``), each finished with 12 random cards (4 streets
of 3, 2 kept) by the rollout policy, scored and settled against the two
opponents' boards of the same rollout. It counts finished hero boards per
CPU second (user + system of this process: neighbours on the shared machine
stretch wall time, not the work done); the opponents' boards, finished once
per rollout and shared by every candidate, are timed apart. A decision is
``decide`` end to end (legal placements, random cards, opponents, successive
halving) at the default rollouts, on random first-street and third-street
situations; its figure is the median CPU time, with the median standard
error of the best candidate's ``ev``.
"""

from __future__ import annotations

import time

import numpy as np

from ofc_core.rulesets import load_ruleset
from pipeline.benchkit.figures import Figure
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import runs
from pipeline.decisions import rollout_kernel
from pipeline.decisions.decide import DEFAULT_ROLLOUTS, decide, rollout_knobs
from pipeline.decisions.future import deal_plan
from pipeline.decisions.placements import legal_placements
from pipeline.decisions.showdown import ShowdownRules
from pipeline.decisions.situation import Board, Opponent, Situation

NAME = "decide"
TITLE = "ofc decide: rollouts of 3-handed Pineapple boards, and whole decisions"
RULESET = "pineapple-1-6-american"
TARGET_BOARDS_PER_S = 1_000_000


def _situation(rng: np.random.Generator, hero_cards: int) -> Situation:
    """A 3-handed situation: the hero with ``hero_cards`` placed, opponents alike."""
    deck = [int(c) for c in rng.permutation(52)]

    def board(n: int) -> Board:
        rows = {0: 1, 5: (1, 2, 2), 9: (2, 3, 4)}[n] if n else (0, 0, 0)
        cards = [deck.pop() for _ in range(n)]
        return Board(
            tuple(cards[: rows[0]]),
            tuple(cards[rows[0] : rows[0] + rows[1]]),
            tuple(cards[rows[0] + rows[1] :]),
        )

    hero = board(hero_cards)
    dealt = tuple(deck.pop() for _ in range(5 if hero_cards == 0 else 3))
    discards = tuple(deck.pop() for _ in range(0 if hero_cards == 0 else (hero_cards - 5) // 2))
    opponents = tuple(Opponent(None, board(hero_cards)) for _ in range(2))
    return Situation(hero, dealt, 5 if hero_cards == 0 else 2, discards, opponents)


def _cpu(job) -> tuple[float, object]:
    start = time.process_time()
    out = job()
    return time.process_time() - start, out


def _rollout_rate(options: BenchOptions) -> tuple[float, float]:
    """Hero boards and opponents' boards finished per CPU second (best of the repeats)."""
    ruleset = load_ruleset(RULESET)
    situation = _situation(np.random.default_rng(options.seed), 0)
    boards = legal_placements(situation.hero.slots(), np.array(situation.dealt), 5).boards
    plan = deal_plan(situation, ruleset)
    unknown = np.flatnonzero(~situation.seen())
    rng = np.random.default_rng(options.seed)
    samples = options.sample(4000, 200)
    deals = np.array([rng.permutation(unknown)[: plan.total] for _ in range(samples)])
    rules = ShowdownRules.of(ruleset).arrays()
    knobs = rollout_knobs(ruleset)
    seen = np.stack([o.board.slots() for o in situation.opponents])
    which = np.arange(len(boards))
    hero_best = opponents_best = 0.0
    for _ in range(options.repeats + 1):  # the first run loads the compiled code
        seconds, table = _cpu(
            lambda: rollout_kernel.finish_opponents(
                seen, plan.opponents, plan.offsets, deals, knobs, *rules
            )
        )
        opponents_best = max(opponents_best, table.shape[0] * table.shape[1] / max(seconds, 1e-9))
        seconds, _ = _cpu(
            lambda t=table: rollout_kernel.hero_rollouts(
                boards, which, deals, plan.hero, knobs, t, *rules
            )
        )
        hero_best = max(hero_best, len(which) * samples / max(seconds, 1e-9))
    return hero_best, opponents_best


def _decisions(options: BenchOptions, hero_cards: int) -> tuple[float, float]:
    """Median CPU milliseconds of a decision at the default rollouts; median se of the best."""
    ruleset = load_ruleset(RULESET)
    rng = np.random.default_rng(options.seed + hero_cards)
    times, errors = [], []
    decide(_situation(rng, hero_cards), ruleset, 64)  # loads the compiled code
    for i in range(options.sample(20, 2)):
        seconds, candidates = _cpu(
            lambda seed=i: decide(_situation(rng, hero_cards), ruleset, DEFAULT_ROLLOUTS, seed)
        )
        times.append(seconds * 1000)
        errors.append(candidates[0].se)
    return float(np.median(times)), float(np.median(errors))


def run(options: BenchOptions) -> dict[str, Figure]:
    hero, opponents = _rollout_rate(options)
    first_ms, first_se = _decisions(options, 0)
    third_ms, third_se = _decisions(options, 9)
    context = f"best of {runs(options.repeats)}, CPU time of one process"
    return {
        "rollout_boards_per_cpu_s": Figure(
            hero,
            "boards/s",
            target=TARGET_BOARDS_PER_S,
            better="higher",
            note=f"hero boards finished, scored, settled against 2 opponents; {context}",
        ),
        "opponent_boards_per_cpu_s": Figure(
            opponents,
            "boards/s",
            better="higher",
            note="opponents finished once per rollout, 17 cards each",
        ),
        "first_street_decision_ms": Figure(
            first_ms,
            "ms",
            note=f"232 candidates, {DEFAULT_ROLLOUTS} rollouts for the best; median CPU",
        ),
        "first_street_best_se": Figure(
            first_se, "points", note="median se of the best candidate's ev"
        ),
        "third_street_decision_ms": Figure(
            third_ms,
            "ms",
            note=f"27 candidates, {DEFAULT_ROLLOUTS} rollouts for the best; median CPU",
        ),
        "third_street_best_se": Figure(
            third_se, "points", note="median se of the best candidate's ev"
        ),
    }
