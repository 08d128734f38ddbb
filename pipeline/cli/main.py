"""The ``ofc`` command line: one subcommand per module in ``pipeline.cli.commands``.

Errors a user can fix (bad input, unknown ruleset, missing file) are raised as
``UserError`` and printed as one line with exit code 2, never a traceback; so
are faults of the machine (a full disk, no permission: ``ofc_core.faults``). A
mistyped option is answered with the command's own usage. Output piped into
a reader that stops early (``ofc score ... | head``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys

from ofc_core.errors import UserError
from ofc_core.faults import storage_problem
from parsers.memory import keep_freed_memory

#: Subcommand modules, in the order ``ofc --help`` lists them. Each defines
#: ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
COMMANDS = (
    "score",
    "decide",
    "solve",
    "bench",
    "simulate",
    "parse",
    "import_",
    "review",
    "report",
    "audit",
    "dashboard",
    "demo",
)


def _named(command: str) -> str | None:
    """The module of the command ``command`` (``import`` is ``import_``), or None.

    >>> _named("import"), _named("score"), _named("nonsense")
    ('import_', 'score', None)
    """
    return next((name for name in COMMANDS if name.rstrip("_") == command), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; given ``argv`` whose first word names a command, of that
    command alone: a command's module may import heavy packages (the decision kernels,
    the simulator) that the others need not load at every start."""
    parser = argparse.ArgumentParser(
        prog="ofc", description="Open Face Chinese poker analytics: parse, score, import, explore."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    only = _named(argv[0]) if argv else None
    for name in [only] if only else COMMANDS:
        module = importlib.import_module(f"pipeline.cli.commands.{name}")
        listed = module.HELP.replace("%", "%%")  # argparse formats a help with %
        cmd = sub.add_parser(module.NAME, help=listed, description=module.HELP)
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run, command_parser=cmd)
    return parser


def command_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every registered command's own parser, by name."""
    for action in parser._subparsers._group_actions:  # argparse keeps them only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    """Parse ``argv``; an unknown option gets the command's usage, and a close match."""
    words = sys.argv[1:] if argv is None else argv
    args, extra = build_parser(words).parse_known_args(words)
    if extra:
        parser: argparse.ArgumentParser = args.command_parser
        known = [o for action in parser._actions for o in action.option_strings]
        hints = [difflib.get_close_matches(word.split("=")[0], known, n=1) for word in extra]
        hint = "; ".join(f"did you mean {h[0]}?" for h in hints if h)
        parser.error(f"unrecognized arguments: {' '.join(extra)}" + (f" ({hint})" if hint else ""))
    return args


def _quiet_closed_pipe() -> int:
    """The reader of our output has gone (``| head``): stop without a traceback.

    Standard output is pointed at /dev/null so that the interpreter's last
    flush does not fail again; the exit code is the one a shell gives a
    program stopped by SIGPIPE.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + 13


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    keep_freed_memory()
    try:
        code = args.run(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return _quiet_closed_pipe()
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
