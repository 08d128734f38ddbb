"""Benchmark: strengths of all 2,598,960 five-card hands (``pipeline.rules.evaluate.strength5``).

The same job is timed through the Python APIs of two other evaluators,
phevaluator and treys (optional ``bench`` dependencies). They evaluate one
hand per Python call, so they are timed on a random sample of hands and the
time is extrapolated to all hands. Their answers are checked to order the
sample exactly as ``strength5`` does, so every timing is of the same job.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ofc_core.cards import CARD_NAMES, DECK_SIZE
from pipeline.benchkit.figures import Figure
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import best_of, runs
from pipeline.cli.bench.deals import combinations
from pipeline.rules.evaluate import strength5

NAME = "evaluate"
TITLE = "Strengths of all 2,598,960 five-card hands"

ALL_HANDS = 2_598_960
TARGET_SECONDS = 1.0
AIM_SECONDS = 0.3


@dataclass(frozen=True)
class OtherEvaluator:
    """Another library's evaluator: its integer for each of our card codes, and a
    function ranking a list of hands (lists of those integers), smaller is stronger."""

    card_ids: list[int]
    rank: Callable[[list[list[int]]], list[int]]


def _phevaluator() -> OtherEvaluator:
    from phevaluator import evaluate_5cards
    from phevaluator.card import Card

    def rank(hands: list[list[int]]) -> list[int]:
        return [evaluate_5cards(*hand) for hand in hands]

    return OtherEvaluator([Card.to_id(name) for name in CARD_NAMES], rank)


def _treys() -> OtherEvaluator:
    from treys import Card, Evaluator

    evaluator = Evaluator()

    def rank(hands: list[list[int]]) -> list[int]:
        return [evaluator.evaluate(hand[:2], hand[2:]) for hand in hands]

    return OtherEvaluator([Card.new(name) for name in CARD_NAMES], rank)


OTHER_EVALUATORS = {"phevaluator": _phevaluator, "treys": _treys}


def _dense_rank(values: np.ndarray) -> np.ndarray:
    return np.unique(values, return_inverse=True)[1]


def _time_other(
    package: str, sample: np.ndarray, ours: np.ndarray, seconds: float, repeat: int
) -> dict[str, Figure]:
    """Time another evaluator on ``sample``, extrapolated to all hands, and its slowdown."""
    how = (
        f"{package} Python API, one call per hand, {len(sample):,} random hands, "
        f"best of {runs(repeat)}"
    )
    if importlib.util.find_spec(package) is None:
        missing = f"{package} is not installed (pip install -e '.[bench]'): not measured"
        return {
            f"{package}_all_hands_s": Figure(None, "s", note=missing),
            f"{package}_vs_strength5": Figure(None, "x", note=missing),
        }
    other = OTHER_EVALUATORS[package]()
    hands = np.asarray(other.card_ids)[sample].tolist()
    theirs = np.asarray(other.rank(hands))
    if not np.array_equal(_dense_rank(-theirs), _dense_rank(ours)):
        raise RuntimeError(f"{package} orders the benchmark sample differently from strength5")
    extrapolated = best_of(lambda: other.rank(hands), repeat) * ALL_HANDS / len(sample)
    return {
        f"{package}_all_hands_s": Figure(
            extrapolated, "s", note=f"extrapolated to {ALL_HANDS:,} hands from {how}"
        ),
        f"{package}_vs_strength5": Figure(
            extrapolated / seconds, "x", note=f"{package} time / strength5 time"
        ),
    }


def run(options: BenchOptions) -> dict[str, Figure]:
    hands = combinations(DECK_SIZE, 5)
    seconds = best_of(lambda: strength5(hands), options.repeats)
    figures = {
        "strength5_all_hands_s": Figure(
            seconds,
            "s",
            target=TARGET_SECONDS,
            note=f"best of {runs(options.repeats)}, aim {AIM_SECONDS} s; "
            "excludes building the hands array",
        ),
        "strength5_hands_per_s": Figure(len(hands) / seconds, "hands/s", better="higher"),
    }
    rng = np.random.default_rng(options.seed)
    sample = hands[rng.choice(len(hands), options.sample(200_000, 2_000), replace=False)]
    ours = strength5(sample)
    repeat = min(options.repeats, 3)
    for package in OTHER_EVALUATORS:
        figures |= _time_other(package, sample, ours, seconds, repeat)
    return figures
