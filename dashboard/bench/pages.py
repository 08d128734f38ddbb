"""Benchmark: every dashboard page's queries on a 1,000,000-hand database.

The database (``dashboard_db``: the tables of docs/schema.md, metric tables
rebuilt by the import's own SQL) is built once and kept under
``out/bench/`` (about 400 MB; rebuilt when its builder or the schema
changes). Each page's queries (``dashboard.queries.pages``) run through the
query layer the app uses, without Streamlit's cache, for two views: the most
active player over everything (pre-aggregated tables), and the same player in
one variant, over the later half of the dates, at one stake (computed from
``player_hands``). A page's figure is the time of all its queries together
(each the best of the repeats, after one warm-up run) in the slower view:
what a user waits for when the page opens. A page that shows one of several
choices at a time (Breakdowns; Hands, one list at a time) runs only the chosen
one's queries: its figure counts the default choice, and a second figure the
page showing its slowest.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.histories import CACHE
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import best_of, runs

if TYPE_CHECKING:
    from dashboard.queries.pages import PageQuery

NAME = "dashboard"
TITLE = "Dashboard page queries on a 1,000,000-hand database (slowest query per page)"

HANDS = 1_000_000
QUICK_HANDS = 3_000
TARGET_MS = 500.0


def _fingerprint() -> str:
    """A hash of what the database's content depends on: its builder, the schema (its
    DDL and version), the metrics."""
    from pipeline.load.database import SCHEMA_VERSION

    digest = hashlib.sha256(SCHEMA_VERSION.encode())
    digest.update((Path(__file__).parent / "database.py").read_bytes())
    load = resources.files("pipeline.load")
    digest.update(load.joinpath("ddl.sql").read_bytes())
    for name in sorted(p.name for p in load.joinpath("metrics").iterdir() if p.is_file()):
        digest.update(load.joinpath("metrics", name).read_bytes())
    return digest.hexdigest()[:12]


def database(hands: int, seed: int) -> Path:
    """The benchmark database, built when missing or stale."""
    from dashboard.bench.database import build

    path = CACHE / f"dashboard-{hands}-{seed}-{_fingerprint()}.duckdb"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        for stale in CACHE.glob(f"dashboard-{hands}-{seed}-*.duckdb"):
            stale.unlink()
        partial = path.with_suffix(".building")
        build(partial, hands, seed)
        partial.rename(path)
    return path


#: Each view's queries of one page, with the seconds each took (best of the repeats).
Timed = dict[str, list[tuple["PageQuery", float]]]


def _waits(timed: Timed) -> list[tuple[str, str, float]]:
    """What a user waits for on a page, as (view, choice, seconds): every query of the
    page but its other choices, for each choice (the default first) in each view; the
    choice is "" on a page without choices."""
    waits = []
    for view, queries in timed.items():
        fixed = sum(seconds for query, seconds in queries if not query.choice)
        choices = [(q.name, fixed + s) for q, s in queries if q.choice] or [("", fixed)]
        waits += [(view, choice, seconds) for choice, seconds in choices]
    return waits


def _figure(seconds: float, note: str) -> Figure:
    return Figure(seconds * 1000, "ms", target=TARGET_MS, note=note)


def _figures(page: str, timed: Timed, note: str) -> dict[str, Figure]:
    """The page's figure (showing its default choice, in the slower view) and, for a page
    of choices, the page showing its slowest choice; ``note`` ends each figure's note."""
    waits = _waits(timed)
    default = waits[0][1]
    view, _, seconds = max((w for w in waits if w[1] == default), key=lambda w: w[2])
    query, where, slowest = max(
        ((q.name, v, s) for v, queries in timed.items() for q, s in queries), key=lambda q: q[2]
    )
    shown = f", showing its default choice ({default})" if default else ""
    figures = {
        f"{page}_ms": _figure(
            seconds,
            f"all the page's queries{shown}, {view} view (the slower); slowest query"
            f" {query} ({where} view) {slowest * 1000:,.0f} ms; {note}",
        )
    }
    if default:
        view, choice, seconds = max(waits, key=lambda w: w[2])
        figures[f"{page}_slowest_choice_ms"] = _figure(
            seconds, f"the page showing its slowest choice, {choice} ({view} view); {note}"
        )
    return figures


def run(options: BenchOptions) -> dict[str, Figure]:
    hands = options.sample(HANDS, QUICK_HANDS)
    return measure(database(hands, options.seed), options, f"{hands:,} hands")


def measure(path: Path, options: BenchOptions, what: str) -> dict[str, Figure]:
    """The figures of every page on the database at ``path`` (``what`` it holds, for the
    notes)."""
    from dashboard.queries.db import Database
    from dashboard.queries.pages import PAGES, page_queries, views

    db = Database(path)
    timed: dict[str, Timed] = {}
    for view, filters in views(db).items():
        for query in page_queries(db, filters):
            query.run()
            seconds = best_of(query.run, options.repeats)
            timed.setdefault(query.page, {}).setdefault(view, []).append((query, seconds))
    load = os.getloadavg()[0]
    note = f"{what}, best of {runs(options.repeats)}; load average {load:.1f}"
    figures = {}
    for page in PAGES:
        if page in timed:
            figures |= _figures(page, timed[page], note)
    return figures


def main(argv: list[str] | None = None) -> int:
    """Time the pages on any database: ``python -m dashboard.bench.pages --db FILE`` (the
    10,000,000-hand one of ``python -m pipeline.cli.bench.import_speed --keep FILE``)."""
    parser = argparse.ArgumentParser(description="time every dashboard page on a database")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=BenchOptions.repeat)
    args = parser.parse_args(argv)
    with duckdb.connect(str(args.db), read_only=True) as con:
        hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    what = f"{hands:,} hands in {args.db.name}"
    for name, figure in measure(args.db, BenchOptions(repeat=args.repeat), what).items():
        print(f"{name:28} {figure.value_text:>10} {figure.unit:4} {figure.verdict:7} {figure.note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
