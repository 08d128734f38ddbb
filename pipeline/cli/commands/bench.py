"""``ofc bench``: measure the speed of the engine and its parts against the targets.

Prints a table (or, with ``--json``, one JSON object) of every benchmark's
figures; ``--write PATH`` also writes them into the benchmarks page
(``make bench`` writes ``docs/benchmarks.md``). Benchmarks live in
``pipeline.cli.bench``; ``--only`` picks some by name.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ofc_core.errors import UserError
from pipeline.benchkit.options import BenchOptions
from pipeline.cli.bench.docs_page import write_page
from pipeline.cli.bench.machine import describe_machine, machine_line
from pipeline.cli.bench.measurement import measure
from pipeline.cli.bench.registry import BENCHMARKS, select
from pipeline.cli.bench.table import text_table
from pipeline.cli.options import add_seed, int_range


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help=f"run only these benchmarks (repeat or comma-separate): {', '.join(BENCHMARKS)}",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--write", type=Path, metavar="PATH", help="write figures into this page")
    parser.add_argument(
        "--quick", action="store_true", help="tiny samples, one run: a smoke test, not figures"
    )
    parser.add_argument(
        "--repeat", type=int_range(1), default=5, help="timed runs per figure (best of)"
    )
    add_seed(parser, "seed of the random samples (default 0)")


def _names(only: list[str] | None) -> list[str] | None:
    if not only:
        return None
    return [name.strip() for item in only for name in item.split(",") if name.strip()]


def run(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {args.repeat}")
    if args.quick and args.write:
        raise UserError("--quick figures are not meaningful: drop --quick to --write a page")
    benchmarks = select(_names(args.only))
    options = BenchOptions(quick=args.quick, repeat=args.repeat, seed=args.seed)
    machine = describe_machine()
    measurements = []
    for benchmark in benchmarks:
        print(f"ofc bench: running {benchmark.name}: {benchmark.title}", file=sys.stderr)
        measurements.append(measure(benchmark, options))
    if args.json:
        report = {
            "machine": machine,
            "quick": args.quick,
            "benchmarks": {m.name: m.to_dict() for m in measurements},
        }
        print(json.dumps(report, indent=2))
    else:
        print(f"Machine: {machine_line(machine)}" + (" (quick run)" if args.quick else ""))
        print(text_table(measurements))
    if args.write:
        try:
            write_page(args.write, measurements, machine)
        except OSError as error:
            raise UserError(
                f"cannot write {args.write}: {error.strerror}; give a writable file path"
            ) from error
        print(f"ofc bench: wrote {args.write}", file=sys.stderr)
    return 0
