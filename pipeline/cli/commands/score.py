"""``ofc score``: the calculator: score hands given as JSON on standard input."""

from __future__ import annotations

import argparse
import json

import polars as pl

from ofc_core.rulesets import load_ruleset
from pipeline.cli.options import add_ruleset
from pipeline.cli.stdin import read_text
from pipeline.rules.engine import score_hands
from pipeline.rules.score_input import checked_rows, read_hands


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset(parser)


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 6)


def _player_json(name: object, result: dict) -> dict:
    return {
        "name": name,
        "points": _number(result["points"]),
        "foul": result["foul"],
        "royalties": {
            "top": result["royalties_top"],
            "middle": result["royalties_middle"],
            "bottom": result["royalties_bottom"],
            "total": result["royalties"],
        },
        "categories": {row: result[f"category_{row}"] for row in ("top", "middle", "bottom")},
        "fantasyland_next": result["fantasyland_next"],
        "fantasyland_cards": result["fantasyland_next_cards"],
    }


def run(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset, args.rules_file)
    hands = read_hands(read_text())
    rows = [
        {"hand_id": number, **row}
        for number, hand in enumerate(hands)
        for row in checked_rows(hand, ruleset)
    ]
    frame = pl.DataFrame(
        rows, schema_overrides={"starting_stack": pl.Float64, "match_loss": pl.Float64}
    )
    results = iter(score_hands(frame, ruleset).player_hands.iter_rows(named=True))
    for hand in hands:
        players = [_player_json(p.get("name"), next(results)) for p in hand.players]
        print(json.dumps({"players": players}, ensure_ascii=False, allow_nan=False))
    return 0
