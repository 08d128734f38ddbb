"""``ofc solve``: the exact Fantasyland set of each hand read as JSON Lines on standard input."""

from __future__ import annotations

import argparse
import json

from ofc_core.errors import UserError
from ofc_core.rulesets import load_ruleset
from pipeline.cli.options import add_fantasyland_value, add_ruleset
from pipeline.cli.stdin import read_text
from pipeline.decisions.fantasyland_solver import fantasyland_card_counts, solve_fantasyland
from pipeline.decisions.fantasyland_value import default_fantasyland_value
from pipeline.decisions.solve_input import read_requests


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset(parser)
    add_fantasyland_value(parser)


def run(args: argparse.Namespace) -> int:
    from pipeline.cli.warmup import SOLVE_MODULES, announce_compiling

    ruleset = load_ruleset(args.ruleset, args.rules_file)
    value = args.fantasyland_value
    if value is None:
        value = default_fantasyland_value(ruleset)
    counts = fantasyland_card_counts(ruleset)
    if not all(13 <= count <= 17 for count in counts):
        raise UserError(
            f"ruleset {args.ruleset} deals {', '.join(map(str, counts))} cards in Fantasyland; "
            "ofc solve sets hands of 13 to 17 cards"
        )
    requests = read_requests(
        read_text(), counts, args.ruleset, fantasyland=ruleset.fantasyland.enabled
    )
    announce_compiling("the Fantasyland solver", SOLVE_MODULES)  # once the input reads
    for request in requests:
        best = solve_fantasyland(request.cards, ruleset, value, request.dead, request.repeats)
        print(json.dumps(best.to_json()), flush=True)
    return 0
