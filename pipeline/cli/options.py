"""Command-line options several ``ofc`` commands share, defined once."""

from __future__ import annotations

import argparse

from ofc_core.rulesets import PRESET_NAMES

RULES_FILE_HELP = "a TOML file defining more rulesets (docs/rulesets.md)"


def add_ruleset(parser: argparse.ArgumentParser) -> None:
    """``--ruleset NAME`` (required) and ``--rules-file F``, as every calculator takes them."""
    parser.add_argument(
        "--ruleset",
        required=True,
        help=f"ruleset name: a preset ({', '.join(PRESET_NAMES)}) or one defined in --rules-file",
    )
    parser.add_argument("--rules-file", help=RULES_FILE_HELP)


def add_fantasyland_value(parser: argparse.ArgumentParser) -> None:
    """``--fantasyland-value V``: what staying in Fantasyland is worth, in points."""
    parser.add_argument(
        "--fantasyland-value",
        type=float,
        metavar="V",
        help="points a Fantasyland hand is worth over a normal one (default: the ruleset's "
        "measured value, docs/decisions.md)",
    )
