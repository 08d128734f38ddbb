"""Benchmark: ``ofc import`` of 10,000,000 hands, then every dashboard page on its database.

The issue's archive-scale check, as ``ofc bench`` output: the input is ten copies
of the 1,000,000-hand ``en`` file of ``import_speed`` with the hand and match
numbers prefixed by the copy's number (every hand new to the import; 22 GB,
written into a temporary folder of ``out/bench/`` and removed after the run),
imported once by ``ofc import`` as a separate process on every core (time,
peak memory of the import and its workers, as ``import_speed`` measures). The
database it made is then timed page by page as ``dashboard`` times its own
(``dashboard.bench.pages.measure``: every page's queries, the slower of two
views, best of the repeats). It takes about half an hour and 26 GB of disk,
so ``ofc bench`` runs it only when asked: ``ofc bench --only ten_million``.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from pathlib import Path

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.histories import CACHE, simulated
from pipeline.benchkit.options import BenchOptions
from pipeline.cli.bench import import_speed

NAME = "ten_million"
TITLE = "ofc import of 10,000,000 en hands, and every dashboard page on that database"

HANDS = 10_000_000
COPIES = 10
QUICK_HANDS = 6_000
TARGET_S = 600.0


def run(options: BenchOptions) -> dict[str, Figure]:
    from dashboard.bench.pages import measure

    hands = options.sample(HANDS, QUICK_HANDS)
    base = simulated("import", "en", hands // COPIES, options.seed)
    workers = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(dir=CACHE) as folder:
        inputs = import_speed.copies(base, COPIES, Path(folder))
        db = Path(folder) / "ten-million.duckdb"
        result = import_speed.measure_import(inputs, db, workers)
        for path in inputs:
            path.unlink()  # 22 GB of disk given back before the pages are timed
        pages = measure(db, options, f"{hands:,} hands ({COPIES} copies of one file)")
    figures = import_speed.figures(result, hands, workers)
    figures["import_s"] = dataclasses.replace(
        figures["import_s"],
        target=TARGET_S,
        note=f"{hands:,} en hands in {COPIES} files, {workers} workers, one run",
    )
    return figures | pages
