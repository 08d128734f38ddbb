"""Command-line options several ``ofc`` commands share, defined once."""

from __future__ import annotations

import argparse
import math
import re

from ofc_core.errors import UserError
from ofc_core.rulesets import PRESET_NAMES

RULES_FILE_HELP = "a TOML file defining more rulesets (docs/rulesets.md)"

#: The largest ``--fantasyland-value`` taken: the measured values are 7 to 18 points
#: (docs/decisions.md, "Fantasyland value"); far above, the Fantasyland term drowns the
#: points of the hand itself.
MAX_FANTASYLAND_VALUE = 1000.0

#: What argparse should read as a (negative) number, not as an option: ``-1e9``, ``-.5``,
#: ``-inf``, ``-nan`` too (argparse's own pattern knows only ``-1`` and ``-1.5``), so that
#: the option's type can say what is wrong with it.
_NEGATIVE_NUMBER = re.compile(
    r"^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^-(inf|infinity|nan)$", re.IGNORECASE
)


def read_negative_numbers(parser: argparse.ArgumentParser) -> None:
    """Let ``parser`` take ``-1e9`` or ``-inf`` as an option's value (the parser has no option
    that looks like a number, so nothing is lost)."""
    parser._negative_number_matcher = _NEGATIVE_NUMBER  # argparse reads it only from here


def finite_float(text: str) -> float:
    """An argparse ``type``: a number, not nan or infinite.

    >>> finite_float("2.5")
    2.5
    >>> finite_float("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 'nan' is not a finite number: give one such as 2.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number: give one such as 2.5")
    return value


def float_range(low: float, high: float | None = None, *, low_open: bool = False):
    """An argparse ``type``: a finite number from ``low`` (excluded if ``low_open``) up to
    ``high``."""

    def parse(text: str) -> float:
        value = finite_float(text)
        if value < low or (low_open and value == low):
            bound = f"more than {low:g}" if low_open else f"{low:g} or more"
            raise argparse.ArgumentTypeError(f"{text!r}: give a number {bound}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{text!r}: give a number of at most {high:g}")
        return value

    parse.__name__ = "number"  # argparse names the type in "invalid number value"
    return parse


def int_range(low: int, high: int | None = None):
    """An argparse ``type``: a whole number from ``low`` up to ``high``.

    >>> int_range(2, 10)("5")
    5
    >>> int_range(0)("-3")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-3': give a whole number of 0 or more
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            bound = f"of {low:,} or more" if high is None else f"from {low:,} to {high:,}"
            raise argparse.ArgumentTypeError(f"{text!r}: give a whole number {bound}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in "invalid ... value"
    return parse


#: The most rollouts ``--rollouts`` takes: each candidate holds a few hundred bytes a
#: rollout, so a million is about 300 MB per decision (docs/decisions.md).
MAX_ROLLOUTS = 1_000_000


def add_rollouts(parser: argparse.ArgumentParser, default: int, help: str) -> None:
    """``--rollouts K``: 2 to ``MAX_ROLLOUTS``."""
    parser.add_argument(
        "--rollouts",
        type=int_range(2, MAX_ROLLOUTS),
        default=default,
        metavar="K",
        help=f"{help} (default {default:,}; 2 to {MAX_ROLLOUTS:,})",
    )


def add_seed(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seed S``: a whole number, 0 or more (numpy's generators take no negative seed)."""
    read_negative_numbers(parser)
    parser.add_argument("--seed", type=int_range(0), default=0, metavar="S", help=help)


def fantasyland_value(text: str) -> float:
    """An argparse ``type``: points staying in Fantasyland is worth, 0 to
    ``MAX_FANTASYLAND_VALUE``.

    >>> fantasyland_value("12.5")
    12.5
    >>> fantasyland_value("-1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-1': staying in Fantasyland is worth 0 points or more (0: ignore Fantasyland); the measured values are in docs/decisions.md
    """
    value = finite_float(text)
    if not 0 <= value <= MAX_FANTASYLAND_VALUE:
        bound = (
            "0 points or more (0: ignore Fantasyland)"
            if value < 0
            else (f"at most {MAX_FANTASYLAND_VALUE:g} points")
        )
        raise argparse.ArgumentTypeError(
            f"{text!r}: staying in Fantasyland is worth {bound}; the measured values are in "
            "docs/decisions.md"
        )
    return value


def add_ruleset(parser: argparse.ArgumentParser) -> None:
    """``--ruleset NAME`` (required) and ``--rules-file F``, as every calculator takes them."""
    parser.add_argument(
        "--ruleset",
        required=True,
        help=f"ruleset name: a preset ({', '.join(PRESET_NAMES)}) or one defined in --rules-file",
    )
    parser.add_argument("--rules-file", help=RULES_FILE_HELP)


def add_fantasyland_value(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--fantasyland-value V``: what staying in Fantasyland is worth, in points (0 to
    ``MAX_FANTASYLAND_VALUE``)."""
    read_negative_numbers(parser)
    parser.add_argument(
        "--fantasyland-value",
        type=fantasyland_value,
        metavar="V",
        help=help
        or "points a Fantasyland hand is worth over a normal one, 0 or more (default: the "
        "ruleset's measured value, docs/decisions.md)",
    )


def dask_scheduler(engine: str, scheduler: str | None) -> str | None:
    """The Dask scheduler to use (None: local processes), from ``--engine`` and
    ``--scheduler``, which only go together.

    >>> dask_scheduler("dask", "tcp://10.0.0.5:8786"), dask_scheduler("local", None)
    ('tcp://10.0.0.5:8786', None)
    """
    if engine == "dask" and not scheduler:
        raise UserError("--engine dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    if scheduler and engine != "dask":
        raise UserError(
            f"--scheduler {scheduler} is a Dask scheduler: add --engine dask to use it"
            " (without it the work runs in local processes)"
        )
    return scheduler
