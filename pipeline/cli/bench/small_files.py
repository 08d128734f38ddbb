"""Benchmark: ``ofc parse`` and ``ofc import`` of many one-hand files against one file of them.

Rooms and export tools often write one file per hand. The simulated ``en``
file of the ``parse`` benchmark's kind (3-handed ``pineapple-1-6-american``)
is cut into one file per hand in ``out/bench/``; each timed run parses, in a
new one-core process after the same warm-up as ``parse`` (see
``pipeline.cli.bench.parse``), the folder of one-hand files, then (in
another process) the one file, alternately, so both see the same load of a
shared machine. The figures are the CPU seconds (user + system) of each,
best of the runs, and their ratio, held to the target: many small files
cost at most 3 times the one file. ``files_100k_minutes`` extrapolates the
per-file cost to 100,000 one-hand files on two workers (two cores). The
same folder, the same hands as one ``.gz`` file each, and the one file are
then imported with ``ofc import`` (one run each, wall seconds of the whole
process), held to the same ratio.
"""

from __future__ import annotations

import gzip
import os
import tempfile
from pathlib import Path

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.histories import CACHE, simulated
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import runs
from pipeline.cli.bench.import_speed import measure_import
from pipeline.cli.bench.parse import WARM_UP_HANDS, measure_once

NAME = "small_files"
TITLE = "ofc parse (one core) and ofc import of one-hand files against one file of the same hands"

HANDS, QUICK_HANDS = 10_000, 100
TARGET_RATIO = 3.0
TARGET_100K_MINUTES = 2.0


def one_hand_files(source: Path, packed: bool = False) -> Path:
    """A folder next to ``source`` with one file per hand of it (``packed``: each a ``.gz``
    file), made once."""
    folder = CACHE / f"{source.stem}-one-hand-{'gz-' if packed else ''}files"
    if not folder.exists():
        partial = folder.with_suffix(".partial")
        partial.mkdir(parents=True, exist_ok=True)
        hands = [h for h in source.read_text(encoding="utf-8").split("\n\n") if h.strip()]
        for i, hand in enumerate(hands):
            data = (hand.strip("\n") + "\n").encode()
            name = f"hand-{i:06d}.txt" + (".gz" if packed else "")
            (partial / name).write_bytes(gzip.compress(data, mtime=0) if packed else data)
        partial.rename(folder)
    return folder


def run(options: BenchOptions) -> dict[str, Figure]:
    hands = QUICK_HANDS if options.quick else HANDS
    one_file = simulated(NAME, "en", hands, options.seed)
    many = one_hand_files(one_file)
    warm_up = simulated("parse", "en", QUICK_HANDS if options.quick else WARM_UP_HANDS["en"], 1)
    repeat = min(options.repeats, 3)
    best: dict[str, dict[str, float]] = {}
    for _ in range(max(repeat, 1)):  # alternately, so both see the same machine
        for name, path in (("many", many), ("one", one_file)):
            result = measure_once(path, warm_up)
            if name not in best or result["cpu_s"] < best[name]["cpu_s"]:
                best[name] = result
    many_s, one_s = best["many"]["cpu_s"], best["one"]["cpu_s"]
    read = best["many"]["read"]
    context = f"{read:,.0f} hands, one core, one polars thread, best of {runs(repeat)}"
    per_file = many_s / max(read, 1)
    packed = one_hand_files(one_file, packed=True)
    return _parse_figures(many_s, one_s, per_file, read, context) | _import_figures(
        many, packed, one_file
    )


def _parse_figures(
    many_s: float, one_s: float, per_file: float, read: float, context: str
) -> dict[str, Figure]:
    return {
        "many_files_cpu_s": Figure(many_s, "s", note=f"{read:,.0f} one-hand files; {context}"),
        "one_file_cpu_s": Figure(one_s, "s", note=f"the same hands in one file; {context}"),
        "many_over_one": Figure(
            many_s / one_s if one_s > 0 else None,
            "x",
            target=TARGET_RATIO,
            note="CPU seconds of the one-hand files over those of the one file",
        ),
        "files_100k_minutes": Figure(
            per_file * 100_000 / 2 / 60,
            "min",
            target=TARGET_100K_MINUTES,
            note="100,000 one-hand files on two workers, extrapolated from the CPU per file",
        ),
    }


def _import_figures(many: Path, packed: Path, one_file: Path) -> dict[str, Figure]:
    """``ofc import`` of the folder, of the folder of ``.gz`` files, then of the one file, into
    new databases (one run each, whole processes on all cores: listing and checking every
    file, reading, loading)."""
    workers = os.cpu_count() or 1
    seconds = {}
    with tempfile.TemporaryDirectory(dir=CACHE) as folder:
        for name, path in (("many", many), ("packed", packed), ("one", one_file)):
            result = measure_import([path], Path(folder) / f"{name}.duckdb", workers)
            seconds[name] = result["seconds"]
    context = f"{workers} workers, one run"
    return {
        "import_many_files_s": Figure(
            seconds["many"], "s", note=f"ofc import of the folder; {context}"
        ),
        "import_one_file_s": Figure(
            seconds["one"], "s", note=f"ofc import of the one file; {context}"
        ),
        "import_many_over_one": Figure(
            seconds["many"] / seconds["one"],
            "x",
            target=TARGET_RATIO,
            note="wall seconds of importing the one-hand files over those of the one file",
        ),
        "import_many_gz_files_s": Figure(
            seconds["packed"],
            "s",
            note=f"ofc import of the same hands, one .gz file each; {context}",
        ),
        "import_gz_over_one": Figure(
            seconds["packed"] / seconds["one"],
            "x",
            target=TARGET_RATIO,
            note="wall seconds of importing the one-hand .gz files over those of the one file",
        ),
    }
