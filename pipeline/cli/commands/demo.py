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


def _rate(value: float | None, low: float | None, high: float | None) -> str:
    """A rate with its 95% Wilson interval: ``4.4% [3.8, 5.0]``."""
    if value is None:
        return "–"
    if low is None or high is None:
        return f"{value:.1%}"
    return f"{value:.1%} [{100 * low:.1f}, {100 * high:.1f}]"


def player_lines(db: Path) -> list[str]:
    """The players' results over all variants, most hands first: each rate and mean with its
    95% interval (``intervals``: t for points per hand, Wilson for the rates) and its n."""
    import duckdb

    from pipeline.load.metrics.definitions import BOTTOM_AGGRESSION, FOUL_RATE, with_figures

    rates = (FOUL_RATE, BOTTOM_AGGRESSION)
    con = duckdb.connect(str(db), read_only=True)
    try:
        stats = con.sql(
            "SELECT s.player, s.hands, s.points_per_hand, s.points_per_hand_ci_low, "
            "s.points_per_hand_ci_high, s.mismatches, "
            + ", ".join(f"m.{c}" for r in rates for c in r.columns())
            + " FROM player_summary AS s JOIN player_metrics AS m USING (player, variant) "
            "WHERE s.variant = 'all' ORDER BY s.hands DESC, s.player"
        ).pl()
    finally:
        con.close()
    rows = with_figures(stats, rates).iter_rows(named=True)
    width = max([len(r) for r in stats["player"]] + [6])
    lines = [
        f"{'player':<{width}}  {'hands':>6}  {'points/hand [95% CI]':>24}  "
        f"{'fouls [95% CI]':>18}  {'bottom aggr. [95% CI]':>21}  {'setups':>6}  {'audit':>5}"
    ]
    for r in rows:
        pph, low, high = (
            r["points_per_hand"],
            r["points_per_hand_ci_low"],
            r["points_per_hand_ci_high"],
        )
        ci = f"{pph:+.2f} [{low:+.2f}, {high:+.2f}]" if low is not None else f"{pph:+.2f}"
        fouls = _rate(r["foul_rate"], r["foul_rate_low"], r["foul_rate_high"])
        aggression = _rate(
            r["bottom_aggression"], r["bottom_aggression_low"], r["bottom_aggression_high"]
        )
        lines.append(
            f"{r['player']:<{width}}  {r['hands']:>6,}  {ci:>24}  {fouls:>18}  "
            f"{aggression:>21}  {r['bottom_aggression_n'] or 0:>6,.0f}  {r['mismatches']:>5}"
        )
    lines.append(
        "n: points per hand and fouls are over the hands; bottom aggression over the"
        " first-street setups outside Fantasyland (setups)."
    )
    return lines


def _dashboard_available() -> bool:
    from importlib.util import find_spec

    from pipeline.cli.main import COMMANDS

    return "dashboard" in COMMANDS and find_spec("pipeline.cli.commands.dashboard") is not None


def run(args: argparse.Namespace) -> int:
    from ofc_core.errors import UserError

    if not args.sample.is_dir():
        if args.sample.resolve() == SAMPLE:
            raise UserError(f"no sample archive at {SAMPLE}; regenerate it with `make sample`")
        raise UserError(f"--sample {args.sample}: no such folder")
    if not args.no_serve and _dashboard_available():
        from pipeline.cli.commands.dashboard import DEFAULT_PORT, LOCALHOST, check_port

        check_port(LOCALHOST, args.port or DEFAULT_PORT)  # before the import, not after it
    db = _fresh_db(args.db)
    try:
        return _demo(args, db)
    finally:
        if args.db is None:
            shutil.rmtree(db.parent, ignore_errors=True)


def _where(db: Path, kept: bool, serving: bool) -> str:
    """Where the demo's database is, and for how long."""
    if kept:
        return f"The database is {db}: explore it with `ofc dashboard --db {db}` or `ofc report`."
    if not serving:
        return (
            "The demo's database was temporary and is removed now (ofc demo --db FILE keeps one)."
        )
    return (
        f"The database is {db}, a temporary file removed when the demo ends "
        "(ofc demo --db FILE keeps one)."
    )


def _has_hands(db: Path) -> bool:
    """Whether the import made ``db`` with at least one player-hand."""
    import duckdb

    if not db.is_file():
        return False
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        return "player_summary" in tables and bool(
            con.execute("SELECT count(*) FROM player_summary").fetchall()[0][0]
        )
    finally:
        con.close()


def _demo(args: argparse.Namespace, db: Path) -> int:
    from ofc_core.errors import UserError
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
    if not _has_hands(db):
        raise UserError(f"--sample {args.sample} holds no hand histories: nothing to show")
    print()
    print("\n".join(player_lines(db)))
    print()
    serving = not args.no_serve and _dashboard_available()
    print(_where(db, kept=args.db is not None, serving=serving), flush=True)
    if not serving:
        if not args.no_serve:
            print("The dashboard is not installed; explore a kept database with `ofc report`.")
        return 0
    from pipeline.cli.main import build_parser

    argv = ["dashboard", "--db", str(db)] + (["--port", str(args.port)] if args.port else [])
    dashboard = build_parser(argv).parse_args(argv)
    print(f"\nServing the dashboard on {db} (Ctrl-C stops)", file=sys.stderr, flush=True)
    return dashboard.run(dashboard)
