"""``ofc import``: hand histories into a DuckDB database, incrementally and atomically.

Files are parsed into staged Parquet next to the database, scored by the
rules engine and loaded in one transaction into a copy of the database that
then replaces it atomically (docs/schema.md, "DuckDB database"): importing
the same files again adds nothing, a stopped import changes nothing, and the
dashboard may read the database all the while. ``--watch`` keeps importing
what room clients append. Without paths, it only upgrades a database made by
an older ofc to the current schema.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ofc_core.rulesets import PRESET_NAMES
from pipeline.cli.no_histories import nothing_read
from pipeline.cli.options import dask_scheduler, float_range, read_negative_numbers

#: The shortest --watch --interval: a look at the files costs a little CPU, and looking
#: without a pause would take a whole core.
MIN_INTERVAL = 0.1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    read_negative_numbers(parser)
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files, folders, globs or archives; none: only upgrade an existing --db "
        "made by an older ofc",
    )
    parser.add_argument(
        "--db", required=True, type=Path, metavar="FILE", help="the DuckDB file (created if absent)"
    )
    parser.add_argument(
        "--ruleset",
        help=f"score every hand with this ruleset instead of the one its header names "
        f"(presets: {', '.join(PRESET_NAMES)}, or one defined in --rules-file)",
    )
    parser.add_argument(
        "--rules-file", help="a TOML file defining more rulesets (docs/rulesets.md)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="parallel worker processes for the local engine (default: the number of cores)",
    )
    parser.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="where parsing and scoring run: local processes, or a Dask cluster (--scheduler)",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786"
    )
    parser.add_argument(
        "--reread",
        action="store_true",
        help="read every file again even if already imported (stored hands are not duplicated)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="keep running: import new and grown files as a room client writes them (Ctrl-C stops)",
    )
    parser.add_argument(
        "--interval",
        type=float_range(MIN_INTERVAL),
        default=2.0,
        help=f"--watch: seconds between looks at the files, {MIN_INTERVAL:g} or more (default 2)",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no progress output, only the closing summary"
    )


def run(args: argparse.Namespace) -> int:
    from ofc_core.errors import UserError
    from pipeline.load.importer import ImportOptions, run_import, summary_lines
    from pipeline.load.progress import Progress
    from pipeline.load.watch import watch

    if args.workers < 1:
        raise UserError("--workers must be 1 or more")
    if args.watch and not args.paths:
        raise UserError(
            f"--watch needs the files or folders to watch: ofc import PATH... --db {args.db} --watch"
        )
    scheduler = dask_scheduler(args.engine, args.scheduler)
    options = ImportOptions(
        paths=tuple(args.paths),
        db=args.db,
        ruleset=args.ruleset,
        rules_file=args.rules_file,
        workers=args.workers,
        engine=args.engine,
        scheduler=scheduler,
        reread=args.reread,
        complete_only=args.watch,
    )
    progress = Progress(quiet=args.quiet)
    if args.paths:
        from pipeline.cli.warmup import ensure_compiled

        ensure_compiled(quiet=args.quiet)
    if args.watch:
        return watch(options, progress, args.interval)
    existed = args.db.exists()
    summary = run_import(options, progress)
    progress.close()
    if args.paths and not existed and not args.db.exists():
        raise UserError(nothing_read(args.paths, summary.skipped, f"{args.db} not made"))
    print("\n".join(summary_lines(summary) + _ruleset_note(args, summary)), file=sys.stdout)
    return 0


def _ruleset_note(args: argparse.Namespace, summary) -> list[str]:
    """What ``--ruleset`` did not do: rescore hands stored before (a hand is stored once)."""
    counts = summary.counts
    if args.ruleset is None or (counts is not None and not counts.hands_duplicate):
        return []
    return [
        f"  note: --ruleset {args.ruleset} scores the hands this import stores; hands stored"
        " before keep the ruleset they were scored with (to score every hand with it, import"
        " into a new database: --db NEW.duckdb)"
    ]
