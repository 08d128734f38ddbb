"""Benchmark: ``ofc import`` end to end, 3-handed Pineapple hands in the ``en`` and ``ru`` formats.

The inputs are simulated once with ``ofc simulate`` (random bots: the parser
and the engine do the same work whatever the bots' skill) and kept under
``out/bench/``. A figure is one run of ``ofc import FILE --db NEW.duckdb``
as a separate process, from start to exit: reading, parsing, scoring,
loading DuckDB, rebuilding the metric tables and swapping the file in. Peak
memory is the largest sum of the resident memory of the import and its
worker processes, sampled every 0.1 s. The same hands in the ``ru`` format
(the Russian rooms' text, a third longer) are imported right after the
``en`` ones, so the two compare within one run.

Larger one-off runs (``python -m pipeline.cli.bench.import_speed --hands N``)
build their input from copies of the 1,000,000-hand file with the hand and
match numbers prefixed by the copy's number, so every hand is new to the
import while simulating stays affordable.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.histories import CACHE, simulated
from pipeline.benchkit.options import BenchOptions

NAME = "import_speed"
TITLE = "ofc import end to end: 3-handed Pineapple hands in the en and ru formats into DuckDB"

HANDS = 1_000_000
QUICK_HANDS = 5_000
TARGET_S = 120.0
AIM_S = 60.0
FORMATS = ("en", "ru")
TARGET_MEMORY_MB = 2048.0
SAMPLE_SECONDS = 0.1
_PHASES = re.compile(r"([\d.]+) s reading and scoring, ([\d.]+) s loading")
#: What comes right before a hand's and a match's number in each format's text.
NUMBERED = {
    "en": (b"OFC Hand #", b"Match #"),
    "ru": ("Раздача №".encode(), "Матч №".encode()),
}


def copies(base: Path, count: int, folder: Path, fmt: str = "en") -> list[Path]:
    """``count`` copies of ``base`` (text in format ``fmt``) whose hand and match numbers are
    prefixed by the copy's number."""
    paths = []
    for k in range(count):
        path = folder / f"copy-{k:03d}.txt"
        if not path.exists():
            data = base.read_bytes()
            prefix = f"{k:03d}".encode()
            for words in NUMBERED[fmt]:
                data = data.replace(words, words + prefix)
            path.write_bytes(data)
        paths.append(path)
    return paths


def _tree_rss(process) -> int:
    """Resident bytes of a process and all its descendants."""
    import psutil

    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


def measure_import(inputs: list[Path], db: Path, workers: int) -> dict[str, float]:
    """Run ``ofc import`` once as a process: seconds, peak memory, phase times, hands."""
    import psutil

    command = [sys.executable, "-m", "pipeline.cli", "import", *map(str, inputs)]
    command += ["--db", str(db), "--workers", str(workers), "--quiet"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watched = psutil.Process(process.pid)
    peak = 0
    while process.poll() is None:
        try:
            peak = max(peak, _tree_rss(watched))
        except psutil.NoSuchProcess:
            break
        time.sleep(SAMPLE_SECONDS)
    out, err = process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(f"ofc import failed ({process.returncode}): {err.strip()[-500:]}")
    phases = _PHASES.search(out)
    stored = re.search(r"stored\s+([\d,]+)", out)
    return {
        "seconds": seconds,
        "peak_mb": peak / 2**20,
        "stage_s": float(phases.group(1)) if phases else float("nan"),
        "load_s": float(phases.group(2)) if phases else float("nan"),
        "hands": float(stored.group(1).replace(",", "")) if stored else float("nan"),
        "db_mb": db.stat().st_size / 2**20,
    }


def figures(
    result: dict[str, float], hands: int, workers: int, fmt: str = "en"
) -> dict[str, Figure]:
    """The figures of one run (named with a ``ru_`` prefix for the ``ru`` format); the time
    target applies to the 1,000,000-hand run only."""
    context = f"{hands:,} {fmt} hands, {workers} workers, one run"
    named = {
        "import_s": Figure(
            result["seconds"],
            "s",
            target=TARGET_S if hands == HANDS else None,
            note=f"target and aim ({AIM_S:.0f} s) for {HANDS:,} hands; {context}",
        ),
        "hands_per_s": Figure(
            result["hands"] / result["seconds"], "hands/s", better="higher", note=context
        ),
        "peak_memory_mb": Figure(
            result["peak_mb"],
            "MB",
            target=TARGET_MEMORY_MB,
            note="import process and its workers, summed",
        ),
        "reading_and_scoring_s": Figure(result["stage_s"], "s", note="parse, engine, Parquet"),
        "loading_s": Figure(
            result["load_s"], "s", note="DuckDB load, metric tables, checkpoint, swap"
        ),
        "database_mb": Figure(result["db_mb"], "MB", note="the DuckDB file"),
    }
    prefix = "" if fmt == "en" else f"{fmt}_"
    return {prefix + name: figure for name, figure in named.items()}


def run(options: BenchOptions) -> dict[str, Figure]:
    hands = options.sample(HANDS, QUICK_HANDS)
    workers = os.cpu_count() or 1
    results = {}
    for fmt in FORMATS:
        source = simulated("import", fmt, hands, options.seed)
        with tempfile.TemporaryDirectory(dir=CACHE) as folder:
            results[fmt] = measure_import([source], Path(folder) / "bench.duckdb", workers)
    out = {}
    for fmt, result in results.items():
        out |= figures(result, hands, workers, fmt)
    out["ru_over_en"] = Figure(
        results["ru"]["seconds"] / results["en"]["seconds"],
        "x",
        note="ru import time over en's, the same hands one after the other in this run",
    )
    return out


def main(argv: list[str] | None = None) -> int:
    """The one-off large run: ``python -m pipeline.cli.bench.import_speed --hands 10000000``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=FORMATS, default="en", dest="fmt")
    parser.add_argument(
        "--keep", type=Path, help="keep the database here (for `python -m dashboard.bench.pages`)"
    )
    args = parser.parse_args(argv)
    base_hands = min(args.hands, HANDS)
    base = simulated("import", args.fmt, base_hands, args.seed)
    workers = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(dir=CACHE) as folder:
        inputs = (
            copies(base, -(-args.hands // base_hands), Path(folder), args.fmt)
            if args.hands > HANDS
            else [base]
        )
        db = Path(folder) / "bench.duckdb"
        result = measure_import(inputs, db, workers)
        if args.keep:
            shutil.move(db, args.keep)
    for name, figure in figures(result, args.hands, workers, args.fmt).items():
        print(f"{name:24} {figure.value_text:>12} {figure.unit:8} {figure.verdict:7} {figure.note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
