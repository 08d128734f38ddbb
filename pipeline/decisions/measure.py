"""Measure the advice: the expert bot against another style, and EV lost per decision.

``python -m pipeline.decisions.measure --hands 2000`` plays heads-up
Pineapple, ``expert`` against ``tight``, and prints the expert's points per
hand with a 95% interval (clustered by match, since Fantasyland links the
hands of a match), then replays a sample of the decisions of simulated
hands through ``decide`` to measure the value each style gives up per
decision (``value_best - value_chosen``, on the same rollouts). The figures
are in docs/decisions.md.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from ofc_core.cards import parse_card
from ofc_core.rulesets import Ruleset, load_ruleset
from pipeline.decisions.decide import decide
from pipeline.decisions.situation import Board, Opponent, Situation
from pipeline.simulator.run import simulate

RULESET = "pineapple-1-6-american"
Z95 = 1.96
_ROW = {"top": 0, "middle": 1, "bottom": 2}


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval and sample size."""

    mean: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:+.3f} (95% CI {self.low:+.3f} to {self.high:+.3f}, n = {self.n:,})"


def play(ruleset: str, bots: str, hands: int, seed: int, workers: int) -> dict[str, pl.DataFrame]:
    """Simulated hands, player-hands and placements of a heads-up run."""
    batches = list(simulate(ruleset, 2, hands, seed, bots=bots, workers=workers))
    return {
        name: pl.from_arrow(pa.concat_tables([getattr(b, name) for b in batches]))
        for name in ("hands", "player_hands", "placements")
    }


def points_per_hand(tables: dict[str, pl.DataFrame], player: str) -> Estimate:
    """The player's mean points per hand, with an interval clustered by match."""
    mine = tables["player_hands"].filter(pl.col("player") == player)
    by_match = (
        mine.join(tables["hands"].select("hand_id", "match_id"), on="hand_id")
        .group_by("match_id")
        .agg(pl.col("reported_points").sum().alias("points"), pl.len().alias("hands"))
    )
    n = int(by_match["hands"].sum())
    mean = float(by_match["points"].sum()) / n
    residual = by_match["points"].to_numpy() - mean * by_match["hands"].to_numpy()
    groups = len(residual)
    se = math.sqrt((residual**2).sum() * groups / max(groups - 1, 1)) / n
    return Estimate(mean, mean - Z95 * se, mean + Z95 * se, n)


def rates(tables: dict[str, pl.DataFrame], player: str) -> str:
    """The player's foul rate and share of hands that earn or keep Fantasyland."""
    mine = tables["player_hands"].filter(pl.col("player") == player)
    fouls = float(mine["reported_foul"].mean())
    fantasyland = float(mine["reported_fantasyland_next"].mean())
    return f"{player}: fouls {fouls:.1%}, earns or keeps Fantasyland {fantasyland:.1%}"


def decisions(
    tables: dict[str, pl.DataFrame], player: str, ruleset: Ruleset, limit: int
) -> list[tuple[Situation, tuple]]:
    """Up to ``limit`` of the player's regular street decisions: the situation it saw
    (the other player's rows placed before it acted) and the placement it chose."""
    ph = tables["player_hands"]
    regular = ph.filter(~pl.col("in_fantasyland") & ~pl.col("timed_out"))
    hands = regular.filter(pl.col("player") == player)["hand_id"].unique(maintain_order=True)
    placements = tables["placements"].filter(pl.col("hand_id").is_in(hands.to_list()))
    seats = {
        (r["hand_id"], r["seat"]): r
        for r in ph.filter(pl.col("hand_id").is_in(hands.to_list())).iter_rows(named=True)
    }
    out = []
    for (hand_id,), rows in placements.group_by(["hand_id"], maintain_order=True):
        hero_seat = next(s for (h, s), r in seats.items() if h == hand_id and r["player"] == player)
        out.extend(_hand_decisions(rows, hero_seat, seats, hand_id))
        if len(out) >= limit:
            break
    return out[:limit]


def _hand_decisions(rows: pl.DataFrame, hero: int, seats: dict, hand_id: str) -> list:
    boards: dict[int, list[list[int]]] = {s: [[], [], []] for h, s in seats if h == hand_id}
    discards: list[int] = []
    found = []
    for (street,), part in rows.group_by(["street"], maintain_order=True):
        for (seat,), acts in part.group_by(["seat"], maintain_order=True):
            cards = [parse_card(c) for c in acts["card"]]
            where = [_ROW.get(r, 3) for r in acts["row"]]
            board = boards[seat]
            if seat == hero and street > 0 and not acts["auto"].any():
                opponents = tuple(
                    Opponent(
                        None,
                        Board(*map(tuple, b))
                        if not seats[(hand_id, s)]["in_fantasyland"]
                        else Board(),
                        seats[(hand_id, s)]["in_fantasyland"],
                    )
                    for s, b in boards.items()
                    if s != hero
                )
                situation = Situation(
                    Board(*map(tuple, board)),
                    tuple(cards),
                    sum(w < 3 for w in where),
                    tuple(discards),
                    opponents,
                )
                found.append((situation, tuple(where)))
            for card, row in zip(cards, where, strict=True):
                if row < 3:
                    board[row].append(card)
                elif seat == hero:
                    discards.append(card)
    return found


def ev_loss(
    cases: list[tuple[Situation, tuple]], ruleset: Ruleset, rollouts: int, seed: int
) -> Estimate:
    """Mean ``value_best - value_chosen`` over decisions (0 when the choice is the best);
    ``value`` counts Fantasyland at the ruleset's default V, as ``decide`` ranks. The
    chosen placement gets every rollout, so both are measured on the same cards."""
    losses = []
    for i, (situation, chosen) in enumerate(cases):
        candidates = decide(situation, ruleset, rollouts, seed + i, follow=chosen)
        picked = next(c for c in candidates if c.rows_for(situation.dealt) == chosen)
        losses.append(candidates[0].value - picked.value)
    values = np.array(losses)
    se = values.std(ddof=1) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    mean = float(values.mean())
    return Estimate(mean, mean - Z95 * se, mean + Z95 * se, len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--rollouts", type=int, default=1000)
    parser.add_argument("--skip-match", action="store_true")
    args = parser.parse_args()
    ruleset = load_ruleset(RULESET)
    if not args.skip_match:
        started = time.process_time()
        tables = play(RULESET, "Expert=expert,Tight=tight", args.hands, args.seed, args.workers)
        cpu = time.process_time() - started
        print(f"expert vs tight, {RULESET}, heads-up: {points_per_hand(tables, 'Expert')}")
        print(f"{rates(tables, 'Expert')}; {rates(tables, 'Tight')}")
        print(f"CPU time of the match: {cpu:.0f} s (workers={args.workers})", flush=True)
    for styles in (("Random=random", "Aggro=aggressive"), ("Tight=tight", "Expert=expert")):
        tables = play(RULESET, ",".join(styles), 200, args.seed + 1, args.workers)
        for entry in styles:
            name = entry.split("=")[0]
            cases = decisions(tables, name, ruleset, args.decisions)
            print(
                f"EV loss per decision, {name}: {ev_loss(cases, ruleset, args.rollouts, args.seed)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
