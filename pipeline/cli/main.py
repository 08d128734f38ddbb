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
import threading
from importlib import metadata

from ofc_core import interrupts
from ofc_core.errors import UserError
from ofc_core.faults import storage_problem
from parsers.memory import keep_freed_memory

#: The commands, in the order ``ofc --help`` lists them, with what each does. The module
#: of a command (``pipeline.cli.commands.<name>``; ``import`` is ``import_``) defines
#: ``add_arguments(parser)`` and ``run(args) -> int``; it is imported only when its command
#: runs, since some import heavy packages (the decision kernels, the simulator).
COMMANDS: dict[str, str] = {
    "score": "Score hands read as JSON (one object, or JSON Lines) from standard input.",
    "decide": (
        "Rank every legal placement of a street's cards by expected points (Monte Carlo "
        "rollouts), one JSON situation per line on standard input."
    ),
    "solve": "Set Fantasyland hands exactly: the board worth most, royalties plus V if it stays.",
    "bench": "Measure the speed of the engine and its parts against the project's targets.",
    "simulate": "Simulate OFC hands played by bots of several styles and write them as a hand history.",
    "parse": "Parse hand histories (files, folders, globs, .zip/.gz) into a Parquet dataset.",
    "import": "Import hand histories (files, folders, archives) into a DuckDB database.",
    "review": "Value every decision of the hands in a database against the best play (ofc decide).",
    "report": (
        "Write offline HTML reports: one self-contained page (charts inline), or every player's"
        " page with the chart library once beside them (--all); no network needed."
    ),
    "audit": "A player's metrics with 95% intervals against the population, and their leaks.",
    "dashboard": "Serve the dashboard on a database made by `ofc import` (127.0.0.1 only unless --host).",
    "demo": "Import the sample archive into a fresh database, print a summary, serve the dashboard.",
}


def _module(command: str) -> str:
    """The module of ``command`` (``import`` is a Python keyword).

    >>> _module("import"), _module("score")
    ('pipeline.cli.commands.import_', 'pipeline.cli.commands.score')
    """
    return "pipeline.cli.commands." + (f"{command}_" if command == "import" else command)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the command ``argv`` names (its first word), with that command's
    options; of every command with its options when ``argv`` is None; else (``ofc
    --help``, a mistyped command) of every command by name and help alone, which imports
    no command's module."""
    parser = argparse.ArgumentParser(
        prog="ofc", description="Open Face Chinese poker analytics: parse, score, import, explore."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = argv[0] if argv and argv[0] in COMMANDS else None
    for command, text in COMMANDS.items():
        if named not in (None, command):
            continue
        cmd = sub.add_parser(
            command, help=text.replace("%", "%%"), description=text, allow_abbrev=False
        )
        if argv is None or named:
            module = importlib.import_module(_module(command))
            module.add_arguments(cmd)
            cmd.set_defaults(run=module.run, command_parser=cmd)
    return parser


def _version() -> str:
    """The installed package's version (``pyproject.toml``), or why there is none."""
    try:
        return metadata.version("ofc-analytics")
    except metadata.PackageNotFoundError:
        return "(not installed: run `make install`)"


def command_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every registered command's own parser, by name."""
    for action in parser._subparsers._group_actions:  # argparse keeps them only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


#: What ``ofc`` takes before a command.
_TOP_OPTIONS = ["-h", "--help", "--version"]


def _parse(argv: list[str] | None) -> argparse.Namespace:
    """Parse ``argv``; an unknown option gets the command's usage, and a close match."""
    words = sys.argv[1:] if argv is None else argv
    top = build_parser(words)
    if words and words[0].startswith("-") and words[0] not in _TOP_OPTIONS:
        close = difflib.get_close_matches(words[0], _TOP_OPTIONS, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        top.error(f"unrecognized option {words[0]}{hint}: give a command first, such as ofc import")
    if words and words[0] in COMMANDS:  # a typo is told before the options it leaves missing
        command = command_parsers(top)[words[0]]
        _refuse(command, unknown_options(command, words[1:]))
    args, extra = top.parse_known_args(words)
    _refuse(args.command_parser, extra)
    return args


def _refuse(parser: argparse.ArgumentParser, extra: list[str]) -> None:
    """The usage of ``parser`` and the arguments it does not take (each with a close option
    name), unless there are none."""
    if not extra:
        return
    known = _option_names(parser)
    hints = [difflib.get_close_matches(word.split("=")[0], known, n=1) for word in extra]
    hint = "; ".join(f"did you mean {h[0]}?" for h in hints if h)
    parser.error(f"unrecognized arguments: {' '.join(extra)}" + (f" ({hint})" if hint else ""))


def unknown_options(parser: argparse.ArgumentParser, words: list[str]) -> list[str]:
    """The words that look like options and are none of ``parser``'s (``--name=value``
    counts as ``--name``; a negative number, ``-`` and what follows ``--`` are values).

    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--seed", type=int)
    >>> unknown_options(parser, ["--seed", "-1", "-inf", "-", "--sed=2", "--", "--x"])
    ['--sed=2']
    """
    known = set(_option_names(parser))
    unknown = []
    for word in words:
        if word == "--":
            break
        option = word.startswith("-") and word != "-" and not _number(word)
        if option and word.split("=")[0] not in known:
            unknown.append(word)
    return unknown


def _option_names(parser: argparse.ArgumentParser) -> list[str]:
    """Every option string ``parser`` takes (``--db``, ``-h``, ...)."""
    return [o for action in parser._actions for o in action.option_strings]


def _number(word: str) -> bool:
    """Whether ``word`` reads as a number (``-1``, ``-0.5``, ``-inf``): a value, which the
    option's own check judges."""
    try:
        float(word)
    except ValueError:
        return False
    return True


def _quiet_closed_pipe() -> int:
    """The reader of our output has gone (``| head``): stop without a traceback.

    Standard output is pointed at /dev/null so that the interpreter's last
    flush does not fail again; the exit code is the one a shell gives a
    program stopped by SIGPIPE.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 128 + 13


def interrupted_query(error: Exception) -> bool:
    """Whether ``error`` is DuckDB's answer to Ctrl-C during a query: it takes the signal
    itself and raises this instead of ``KeyboardInterrupt``.

    >>> interrupted_query(RuntimeError("Query interrupted")), interrupted_query(RuntimeError("x"))
    (True, False)
    """
    return type(error) is RuntimeError and str(error) == "Query interrupted"


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    keep_freed_memory()
    if threading.current_thread() is threading.main_thread():
        interrupts.install()
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
        if interrupted_query(error) or interrupts.seen():  # compiled code swallowed Ctrl-C
            print(f"ofc {args.command}: interrupted", file=sys.stderr)
            return 130
        problem = storage_problem(error)
        if problem is None:
            raise
        print(f"ofc {args.command}: {problem}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
