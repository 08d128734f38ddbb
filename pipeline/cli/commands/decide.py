"""``ofc decide``: the value of every legal placement of a street, for situations on stdin."""

from __future__ import annotations

import argparse
import json

from ofc_core.rulesets import load_ruleset
from pipeline.cli.options import add_fantasyland_value, add_rollouts, add_ruleset, add_seed
from pipeline.cli.stdin import read_text
from pipeline.decisions.decide import DEFAULT_ROLLOUTS, decide
from pipeline.decisions.situation import read_situations


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_ruleset(parser)
    add_fantasyland_value(parser)
    add_rollouts(
        parser, DEFAULT_ROLLOUTS, "rollouts of the best candidates; clearly worse ones get fewer"
    )
    add_seed(parser, "the same seed gives the same output (default 0)")


def run(args: argparse.Namespace) -> int:
    from pipeline.cli.warmup import DECIDE_MODULES, announce_compiling

    ruleset = load_ruleset(args.ruleset, args.rules_file)
    situations = read_situations(read_text(), ruleset)
    announce_compiling("the decision kernels", DECIDE_MODULES)  # once the input reads
    for situation in situations:
        candidates = decide(situation, ruleset, args.rollouts, args.seed, args.fantasyland_value)
        print(json.dumps({"candidates": [c.to_json() for c in candidates]}), flush=True)
    return 0
