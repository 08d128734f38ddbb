"""``ofc demo``: the whole job on the sample archive: import, summarise, serve the dashboard.

Imports the folders of ``data/sample/`` (not its README) into a fresh DuckDB
file, prints the import summary, where the database is and the players'
results, then serves the dashboard on it with ``ofc dashboard`` when that
command is installed (``--no-serve`` stops after the summary). Without
``--db`` the database lives in a new temporary folder that is removed when
the demo ends; ``--db FILE`` (a file that does not exist yet) keeps it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sample", type=Path, default=SAMPLE, help=f"the archive to import (default {SAMPLE})"
    )
    parser.add_argument(
        "--db", type=Path, help="a new DuckDB file to create (default: one in a temporary folder)"
    )
    parser.add_argument("--no-serve", action="store_true", help="stop after the summary")
    parser.add_argument("--port", type=int, help="dashboard port (default: the dashboard's)")


def _fresh_db(db: Path | None) -> Path:
    from ofc_core.errors import UserError

    if db is None:
        return Path(tempfile.mkdtemp(prefix="ofc-demo-")) / "demo.duckdb"
    if db.exists():
        raise UserError(
            f"--db {db} already exists; the demo makes a fresh database: name a new file"
        )
    return db


def player_lines(db: Path) -> list[str]:
    """The players' results over all variants, most hands first."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT s.player, s.hands, s.points_per_hand, s.points_per_hand_ci_low, "
            "s.points_per_hand_ci_high, s.foul_rate, m.bottom_aggression, s.mismatches "
            "FROM player_summary AS s JOIN style_metrics AS m USING (player, variant) "
            "WHERE s.variant = 'all' ORDER BY s.hands DESC, s.player"
        ).fetchall()
    finally:
        con.close()
    width = max([len(r[0]) for r in rows] + [6])
    lines = [
        f"{'player':<{width}}  {'hands':>6}  {'points/hand [95% CI]':>24}  {'fouls':>6}  "
        f"{'bottom aggr.':>12}  {'audit':>5}"
    ]
    for name, hands, pph, low, high, fouls, aggression, mismatches in rows:
        ci = f"{pph:+.2f} [{low:+.2f}, {high:+.2f}]" if low is not None else f"{pph:+.2f}"
        lines.append(
            f"{name:<{width}}  {hands:>6,}  {ci:>24}  {fouls:>6.1%}  "
            f"{(aggression or 0):>12.1%}  {mismatches:>5}"
        )
    return lines


def _dashboard_available() -> bool:
    from importlib.util import find_spec

    from pipeline.cli.main import COMMANDS

    return "dashboard" in COMMANDS and find_spec("pipeline.cli.commands.dashboard") is not None


def run(args: argparse.Namespace) -> int:
    from ofc_core.errors import UserError

    if not args.sample.is_dir():
        raise UserError(f"no sample archive at {args.sample}; regenerate it with `make sample`")
    db = _fresh_db(args.db)
    try:
        return _demo(args, db)
    finally:
        if args.db is None:
            shutil.rmtree(db.parent, ignore_errors=True)


def _where(db: Path, kept: bool) -> str:
    if kept:
        return f"The database is {db}: explore it with `ofc dashboard --db {db}` or `ofc report`."
    return (
        f"The database is {db}, a temporary file removed when the demo ends "
        "(ofc demo --db FILE keeps one)."
    )


def _demo(args: argparse.Namespace, db: Path) -> int:
    from pipeline.cli.warmup import ensure_compiled
    from pipeline.load.importer import ImportOptions, run_import, summary_lines
    from pipeline.load.progress import Progress

    ensure_compiled()
    progress = Progress()
    folders = sorted(str(p) for p in args.sample.iterdir() if p.is_dir()) or [str(args.sample)]
    options = ImportOptions(paths=tuple(folders), db=db, workers=os.cpu_count() or 1)
    summary = run_import(options, progress)
    progress.close()
    print("\n".join(summary_lines(summary)))
    print()
    print("\n".join(player_lines(db)))
    print()
    print(_where(db, kept=args.db is not None), flush=True)
    if args.no_serve:
        return 0
    if not _dashboard_available():
        print("The dashboard is not installed; explore the database with DuckDB or `ofc report`.")
        return 0
    from pipeline.cli.main import build_parser

    argv = ["dashboard", "--db", str(db)] + (["--port", str(args.port)] if args.port else [])
    dashboard = build_parser(argv).parse_args(argv)
    print(f"\nServing the dashboard on {db} (Ctrl-C stops)", file=sys.stderr, flush=True)
    return dashboard.run(dashboard)
