"""Measuring V, the points staying in Fantasyland is worth, with the simulator.

``python -m pipeline.decisions.measure_fantasyland_value --hands 15000 --write``
plays each preset with Fantasyland heads-up (two ``aggressive`` bots: they
reach Fantasyland often enough to measure it) and reads, per player-hand,
the points the engine settled and the Fantasyland flags:

- ``delta``: mean points of a hand played in Fantasyland minus of a hand not;
- ``entry``: share of hands not in Fantasyland that earn it for the next hand;
- ``stay``: share of Fantasyland hands that may repeat and do.

The next hand after a stay is a Fantasyland hand instead of a normal one,
and the hands after that differ too (a normal hand may itself earn
Fantasyland; a Fantasyland hand may repeat), so V is the difference in all
future points between the two, from the chain of hands: with no repeat
limit ``V = delta / (1 - stay + entry)``; with one repeat allowed, staying
leads to a hand that cannot repeat, and ``V = delta - entry * D1`` with
``D1 = delta * (1 + stay) / (1 + entry + stay * entry)`` (docs/decisions.md).
The 95% interval is a bootstrap over blocks of 40 consecutive hands (the
simulator's tables), so Fantasyland chains stay inside a block.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from ofc_core.rulesets import PRESET_NAMES, load_ruleset
from pipeline.simulator import simulate

BOTS = ("aggressive", "aggressive")
BLOCK_HANDS = 40
BOOTSTRAP = 2000
#: Heads-up bots reach Fantasyland about 20 times less often in Classic and Turbo
#: (one card a street leaves little to chase with): those presets play more hands.
HANDS_SCALE = {"classic": 3, "turbo": 3}
OUT = Path(__file__).with_name("fantasyland_value.toml")
#: The preset whose V stands for a variant in rulesets a user defines.
VARIANT_PRESETS = {
    "classic": "classic-1-6-american",
    "turbo": "turbo-1-6-american",
    "pineapple": "pineapple-1-6-american",
    "pineapple-27": "pineapple-27",
}
#: Block sums, in this order: points and count of Fantasyland hands, of other hands,
#: entries from other hands, stays, and Fantasyland hands that may repeat.
COLUMNS = ("points_fl", "hands_fl", "points_other", "hands_other", "entries", "stays", "may_stay")


@dataclass(frozen=True)
class MeasuredValue:
    """V of one ruleset with its 95% interval and what it was measured from."""

    ruleset: str
    value: float
    low: float
    high: float
    hands: int
    fantasyland_hands: int
    delta: float
    entry: float
    stay: float
    seconds: float


def stay_value(delta, entry, stay, repeat_limit: int):
    """V from the one-hand difference and the entry and stay rates (works on arrays)."""
    if repeat_limit == 1:
        fresh = delta * (1 + stay) / (1 + entry + stay * entry)
        return delta - entry * fresh
    return delta / (1 - stay + entry)


def block_sums(ruleset: str, hands: int, seed: int) -> np.ndarray:
    """``(blocks, len(COLUMNS))`` sums over blocks of ``BLOCK_HANDS`` consecutive hands."""
    table = pa.concat_tables(
        batch.player_hands for batch in simulate(ruleset, 2, hands, seed, bots=list(BOTS))
    )
    hand_ids = table["hand_id"].to_numpy(zero_copy_only=False)
    _, first, hand_index = np.unique(hand_ids, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))  # hands numbered in the order they were played
    block = order[hand_index] // BLOCK_HANDS
    fl = table["in_fantasyland"].to_numpy(zero_copy_only=False)
    points = table["reported_points"].to_numpy()
    stays = table["reported_fantasyland_stay"].to_numpy(zero_copy_only=False)
    nxt = table["reported_fantasyland_next"].to_numpy(zero_copy_only=False)
    repeat_limit = load_ruleset(ruleset).fantasyland.repeat_limit
    # With one repeat allowed, a hand right after a stay cannot repeat: count those out.
    may_stay = fl if repeat_limit != 1 else fl & ~_after_stay(table, stays)
    values = np.stack(
        [points * fl, fl, points * ~fl, ~fl, nxt & ~fl, stays, may_stay], axis=1
    ).astype(np.float64)
    sums = np.zeros((block.max() + 1, len(COLUMNS)))
    np.add.at(sums, block, values)
    return sums


def _after_stay(table: pa.Table, stays: np.ndarray) -> np.ndarray:
    """Per player-hand: the same player stayed in Fantasyland in their previous hand."""
    players = table["player"].to_numpy(zero_copy_only=False)
    after = np.zeros(len(stays), dtype=bool)
    last: dict[str, int] = {}
    for row, player in enumerate(players):
        if player in last:
            after[row] = stays[last[player]]
        last[player] = row
    return after


def _estimate(sums: np.ndarray, repeat_limit: int) -> tuple[np.ndarray, ...]:
    """V, delta, entry, stay from column totals (``sums``: ``(..., len(COLUMNS))``)."""
    points_fl, hands_fl, points_other, hands_other, entries, stays, may_stay = np.moveaxis(
        sums, -1, 0
    )
    with np.errstate(divide="ignore", invalid="ignore"):  # a resample with no stay chance
        delta = points_fl / hands_fl - points_other / hands_other
        entry, stay = entries / hands_other, np.where(may_stay > 0, stays / may_stay, 0.0)
        return stay_value(delta, entry, stay, repeat_limit), delta, entry, stay


def measure(ruleset: str, hands: int, seed: int) -> MeasuredValue:
    started = time.process_time()
    sums = block_sums(ruleset, hands, seed)
    repeat_limit = load_ruleset(ruleset).fantasyland.repeat_limit
    value, delta, entry, stay = _estimate(sums.sum(axis=0), repeat_limit)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(sums), np.full(len(sums), 1 / len(sums)), size=BOOTSTRAP)
    boot = _estimate(weights @ sums, repeat_limit)[0]
    low, high = np.nanpercentile(boot, [2.5, 97.5])
    return MeasuredValue(
        ruleset=ruleset,
        value=float(value),
        low=float(low),
        high=float(high),
        hands=hands,
        fantasyland_hands=int(sums[:, 1].sum()),
        delta=float(delta),
        entry=float(entry),
        stay=float(stay),
        seconds=time.process_time() - started,
    )


def toml_text(results: list[MeasuredValue], hands: int, seed: int) -> str:
    lines = [
        "# V, the points staying in Fantasyland is worth, per preset (and per variant for",
        "# rulesets a user defines). Written by `python -m pipeline.decisions.measure_",
        f"# fantasyland_value --hands {hands} --seed {seed} --write`; docs/decisions.md,",
        '# section "Fantasyland value". low/high: 95% interval (block bootstrap).',
        "",
    ]
    for r in results:
        lines += [
            f"[preset.{r.ruleset}]",
            f"value = {r.value:.2f}",
            f"low = {r.low:.2f}",
            f"high = {r.high:.2f}",
            f"hands = {r.hands}",
            f"fantasyland_hands = {r.fantasyland_hands}",
            "",
        ]
    by_name = {r.ruleset: r for r in results}
    lines.append("[variant]")
    for variant, preset in VARIANT_PRESETS.items():
        lines.append(f'"{variant}" = {by_name[preset].value:.2f}')
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=15_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    args = parser.parse_args(argv)
    names = [n for n in PRESET_NAMES if load_ruleset(n).fantasyland.enabled]
    results = []
    print("ruleset | V | 95% interval | delta | entry | stay | FL hands | player-hands | cpu s")
    for name in names:
        r = measure(name, args.hands * HANDS_SCALE.get(load_ruleset(name).variant, 1), args.seed)
        results.append(r)
        print(
            f"{r.ruleset} | {r.value:.2f} | {r.low:.2f} to {r.high:.2f} | {r.delta:.2f} | "
            f"{r.entry:.3f} | {r.stay:.3f} | {r.fantasyland_hands:,} | {2 * r.hands:,} | "
            f"{r.seconds:.0f}",
            flush=True,
        )
    if args.write:
        OUT.write_text(toml_text(results, args.hands, args.seed), encoding="utf-8")


if __name__ == "__main__":
    main()
