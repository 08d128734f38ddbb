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
what a user waits for when the page opens.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.histories import CACHE
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import best_of, runs

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


def run(options: BenchOptions) -> dict[str, Figure]:
    from dashboard.queries.db import Database
    from dashboard.queries.pages import PAGES, page_queries, views

    hands = options.sample(HANDS, QUICK_HANDS)
    db = Database(database(hands, options.seed))
    slowest: dict[str, tuple[float, str]] = {}
    page_time: dict[tuple[str, str], float] = {}
    for view, filters in views(db).items():
        for query in page_queries(db, filters):
            query.run()
            seconds = best_of(query.run, options.repeats)
            key = query.page
            page_time[key, view] = page_time.get((key, view), 0.0) + seconds
            if seconds > slowest.get(key, (-1.0, ""))[0]:
                slowest[key] = (seconds, f"{query.name} ({view} view)")
    figures = {}
    for page in PAGES:
        per_view = {view: t for (p, view), t in page_time.items() if p == page}
        if not per_view:
            continue
        worst = max(per_view, key=per_view.get)
        figures[f"{page}_ms"] = Figure(
            per_view[worst] * 1000,
            "ms",
            target=TARGET_MS,
            note=f"all the page's queries, {worst} view (the slower);"
            f" slowest query {slowest[page][1]} {slowest[page][0] * 1000:,.0f} ms;"
            f" {hands:,} hands, best of {runs(options.repeats)}",
        )
    return figures
