"""The ``ofc`` command line: one subcommand per module in ``pipeline.cli.commands``.

Errors a user can fix (bad input, unknown ruleset, missing file) are raised as
``UserError`` and printed as one line with exit code 2, never a traceback; so
are faults of the machine (a full disk, no permission: ``ofc_core.faults``).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ofc_core.errors import UserError
from ofc_core.faults import storage_problem
from parsers.memory import keep_freed_memory

#: Subcommand modules, in the order ``ofc --help`` lists them. Each defines
#: ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
COMMANDS = (
    "score",
    "bench",
    "simulate",
    "parse",
    "import_",
    "report",
    "dashboard",
    "demo",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ofc", description="Open Face Chinese poker analytics: parse, score, import, explore."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"pipeline.cli.commands.{name}")
        cmd = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    keep_freed_memory()
    try:
        return args.run(args)
    except UserError as error:
        print(f"ofc {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"ofc {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a fault of the machine (full disk...) is told, not traced
        problem = storage_problem(error)
        if problem is None:
            raise
        print(f"ofc {args.command}: {problem}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
