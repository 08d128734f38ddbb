"""The ``expert`` bot (issue 10): ``ofc decide``'s best placement on every street."""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

from ofc_core.cards import parse_cards
from ofc_core.rulesets import load_ruleset
from pipeline.decisions import measure
from pipeline.decisions.decide import decide
from pipeline.decisions.fantasyland_solver import solve_fantasyland
from pipeline.rules.engine import score_hands
from pipeline.simulator import simulate
from pipeline.simulator.candidates import patterns
from pipeline.simulator.expert import EXPERT_ROLLOUTS, expert_choices, situation_seen
from pipeline.simulator.fantasyland_set import set_hands
from pipeline.simulator.street_view import StreetView
from pipeline.simulator.styles import style_index


def tables(ruleset: str, hands: int, seed: int, bots: str = "Expert=expert,Tight=tight"):
    batches = [b.as_dict() for b in simulate(ruleset, 2, hands, seed, bots=bots)]
    return {k: pl.from_arrow(pa.concat_tables([b[k] for b in batches])) for k in batches[0]}


def test_expert_plays_the_best_candidate_of_decide():
    ruleset = load_ruleset("pineapple-1-6-american")
    board = np.full(13, -1, dtype=np.int8)
    board[[0, 3, 4, 8, 9]] = parse_cards("2c Qs Qd 9h 9c")
    opponent = np.full(13, -1, dtype=np.int8)
    opponent[[0, 3, 8, 9, 10]] = parse_cards("3d Jh 5c 5s 8d")
    dealt = np.array([parse_cards("Ks 9d 4h")], dtype=np.int8)
    known = np.zeros((1, 52), dtype=bool)
    known[0, [c for c in (*board, *opponent, *dealt[0]) if c >= 0]] = True
    view = StreetView(
        board[None],
        dealt,
        2,
        known,
        np.array([style_index("expert")]),
        opponent[None, None],
        np.array([[False]]),
    )
    [chosen] = expert_choices(view, np.array([0]), ruleset, np.random.default_rng(5))
    seed = int(np.random.default_rng(5).integers(2**62))
    best = decide(situation_seen(view, 0), ruleset, EXPERT_ROLLOUTS, seed)[0]
    rows = patterns(3, 2)[chosen]
    where = {c: r for r, row in enumerate((best.top, best.middle, best.bottom)) for c in row}
    assert rows.tolist() == [where.get(int(c), 3) for c in dealt[0]]


@pytest.mark.parametrize(
    "ruleset",
    ["pineapple-1-6-american", "classic-1-6-american", "turbo-1-6-american", "pineapple-27"],
)
def test_expert_hands_are_legal_and_scored_by_the_engine(ruleset):
    rules = load_ruleset(ruleset)
    played = tables(ruleset, 12, 3)
    ph = played["player_hands"]
    assert set(ph["player"]) == {"Expert", "Tight"}
    result = score_hands(ph, rules).player_hands
    assert (result["points"] == ph["reported_points"]).all()
    expert = ph.filter(pl.col("player") == "Expert")
    assert expert.height == 12
    for row in expert.iter_rows(named=True):
        cards = row["top"] + row["middle"] + row["bottom"]
        assert len(cards) == 13 == len(set(cards))


def test_expert_is_deterministic_with_the_seed():
    a = tables("pineapple-1-6-american", 6, 11)
    b = tables("pineapple-1-6-american", 6, 11)
    assert a["placements"].equals(b["placements"])


def test_ev_loss_of_the_expert_is_small_and_of_random_large():
    """Replayed through decide, the expert's own choices lose little; random's lose points."""
    ruleset = load_ruleset("pineapple-1-6-american")
    played = tables("pineapple-1-6-american", 10, 21, bots="Expert=expert,Random=random")
    expert = measure.ev_loss(measure.decisions(played, "Expert", ruleset, 20), ruleset, 256, 1)
    rand = measure.ev_loss(measure.decisions(played, "Random", ruleset, 20), ruleset, 256, 1)
    assert expert.n == rand.n == 20
    assert rand.low > 0  # random gives up points, beyond doubt
    assert expert.mean < rand.mean


@pytest.mark.parametrize(
    ("ruleset", "cards", "repeats"),
    [
        ("pineapple-1-6-american", 14, 0),
        ("pineapple-progressive-american", 16, 0),
        ("pineapple-2-4-pokerbet", 14, 1),  # the repeat limit reached: staying is worth nothing
        ("pineapple-27", 14, 0),
    ],
)
def test_expert_sets_fantasyland_by_the_exact_solver(ruleset, cards, repeats):
    """In Fantasyland the expert sets ``ofc solve``'s board, row for row."""
    rules = load_ruleset(ruleset)
    rng = np.random.default_rng(8)
    hands = np.array([rng.permutation(52)[:cards] for _ in range(12)], dtype=np.int8)
    style = np.full(len(hands), style_index("expert"))
    rows = set_hands(hands, style, rules, rng, np.full(len(hands), repeats))
    for hand, placed in zip(hands, rows, strict=True):
        best = solve_fantasyland(hand, rules, repeats=repeats)
        for row, expected in enumerate((best.top, best.middle, best.bottom, best.discards)):
            assert sorted(hand[placed == row].tolist()) == sorted(expected)


def test_expert_fantasyland_hands_in_play_are_the_solvers():
    """Played: every Fantasyland hand the expert sets (2-7, no repeat limit) is the solver's
    board of its cards in the order dealt."""
    rules = load_ruleset("pineapple-27")
    played = tables("pineapple-27", 40, 4, bots="Expert=expert,Aggro=aggressive")
    ph = played["player_hands"]
    sets = ph.filter(
        (pl.col("player") == "Expert") & pl.col("in_fantasyland") & ~pl.col("timed_out")
    )
    assert sets.height >= 5
    for row in sets.iter_rows(named=True):
        cards = played["placements"].filter(
            (pl.col("hand_id") == row["hand_id"]) & (pl.col("seat") == row["seat"])
        )
        best = solve_fantasyland(parse_cards(cards["card"].to_list()), rules)
        for name in ("top", "middle", "bottom"):
            assert sorted(parse_cards(row[name])) == sorted(getattr(best, name))
