"""``ofc decide``: the value of every legal placement of a street, for situations on stdin."""

from __future__ import annotations

import argparse
import json
import sys

from ofc_core.errors import UserError
from ofc_core.rulesets import load_ruleset
from pipeline.cli.options import add_fantasyland_value, add_ruleset
from pipeline.decisions.decide import DEFAULT_ROLLOUTS, decide
from pipeline.decisions.situation import read_situations


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset(parser)
    add_fantasyland_value(parser)
    parser.add_argument(
        "--rollouts",
        type=int,
        default=DEFAULT_ROLLOUTS,
        help=f"rollouts of the best candidates (default {DEFAULT_ROLLOUTS}); "
        "clearly worse ones get fewer",
    )
    parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same output")


def run(args: argparse.Namespace) -> int:
    from pipeline.cli.warmup import DECIDE_MODULES, announce_compiling

    if args.rollouts < 2:
        raise UserError(f"--rollouts must be at least 2, not {args.rollouts}")
    ruleset = load_ruleset(args.ruleset, args.rules_file)
    announce_compiling("the decision kernels", DECIDE_MODULES)
    situations = read_situations(sys.stdin.read(), ruleset)
    for situation in situations:
        candidates = decide(situation, ruleset, args.rollouts, args.seed, args.fantasyland_value)
        print(json.dumps({"candidates": [c.to_json() for c in candidates]}), flush=True)
    return 0
