"""Measure the bot styles: foul and Fantasyland entry rates per player (docs/simulator.md).

``python -m pipeline.simulator.measure --hands 20000`` plays each listed
preset heads-up, tight against aggressive, and prints a Markdown table of
the rates with the figures of docs/rules.md R6: the Fantasyland entry rate is
entries over live hands not played in Fantasyland.
"""

from __future__ import annotations

import argparse
import time

import polars as pl
import pyarrow as pa

from pipeline.simulator.run import default_workers, simulate

PRESETS = ("pineapple-1-6-american", "classic-1-6-american", "turbo-1-6-american", "pineapple-27")
ROSTER = "Tight=tight,Aggro=aggressive"


def style_rates(player_hands: pa.Table | pl.DataFrame) -> pl.DataFrame:
    """Per player: hands, foul rate, Fantasyland entry rate (R6) and hands played in it."""
    ph = player_hands if isinstance(player_hands, pl.DataFrame) else pl.from_arrow(player_hands)
    regular_live = ~pl.col("in_fantasyland") & ~pl.col("reported_foul")
    return (
        ph.group_by("player")
        .agg(
            pl.len().alias("hands"),
            pl.col("reported_foul").mean().alias("foul_rate"),
            (regular_live & pl.col("reported_fantasyland_next")).sum().alias("entries"),
            regular_live.sum().alias("live_regular"),
            pl.col("in_fantasyland").mean().alias("fantasyland_share"),
        )
        .with_columns((pl.col("entries") / pl.col("live_regular")).alias("entry_rate"))
        .sort("player")
    )


def measure(preset: str, hands: int, seed: int, workers: int) -> tuple[pl.DataFrame, float]:
    started = time.perf_counter()
    batches = list(simulate(preset, 2, hands, seed, bots=ROSTER, workers=workers))
    seconds = time.perf_counter() - started
    return style_rates(pa.concat_tables([b.player_hands for b in batches])), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--presets", default=",".join(PRESETS))
    args = parser.parse_args()
    print("| preset | player | hands | foul rate | FL entry rate | hands in FL | seconds |")
    print("|---|---|---|---|---|---|---|")
    for preset in args.presets.split(","):
        rates, seconds = measure(preset, args.hands, args.seed, args.workers)
        for row in rates.iter_rows(named=True):
            print(
                f"| `{preset}` | {row['player']} | {row['hands']} | {row['foul_rate']:.1%} | "
                f"{row['entry_rate']:.1%} | {row['fantasyland_share']:.1%} | {seconds:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
