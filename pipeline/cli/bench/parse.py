"""Benchmark: ``parsers.parse_files`` on one core, room text to the Parquet dataset.

The input is simulated once with ``ofc simulate`` (3-handed
``pineapple-1-6-american``, random bots: the parser does the same work
whatever the bots' skill) and kept in ``out/bench/``; simulating is not
timed. Each timed run is a separate process pinned to one core with one
polars thread (``POLARS_MAX_THREADS=1``) that parses the file into a new
dataset with one worker, after a warm-up parse of another file of more than one
chunk of text in the same process (which loads the compiled code of
``parsers.fast`` from its cache and grows the heap to a chunk's working set:
costs paid once per process, reported beside the figure as ``start_cpu_s``),
so the timed parse runs as every file after the first of an archive does;
the figure is hands per CPU second of the timed parse (user + system), the
best of the runs. CPU time, not wall time, because the
machine is shared: other jobs stretch wall time but not the work done. Both
formats go through the compiled path and are held to the same target, measured
one after the other in the same run (compare them within a run, not across runs).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from parsers.memory import keep_freed_memory
from pipeline.benchkit.figures import Figure
from pipeline.benchkit.histories import simulated
from pipeline.benchkit.options import BenchOptions
from pipeline.benchkit.timing import runs

NAME = "parse"
TITLE = "ofc parse on one core: 3-handed Pineapple room text to Parquet"

HANDS = {"en": 50_000, "ru": 50_000}
QUICK_HANDS = {"en": 1_000, "ru": 200}
#: Warm-up files hold more than one chunk of text (``parsers.lines.CHUNK_BYTES``): the
#: warm-up loads the compiled code and grows the heap to a chunk's working set, so the
#: timed parse runs as every file after the first of an archive does.
WARM_UP_HANDS = {"en": 12_000, "ru": 9_000}
TARGET_HANDS_PER_S = 50_000
AIM_HANDS_PER_S = 100_000


def measure_once(path: Path, warm_up: Path) -> dict[str, float]:
    """Parse ``path`` once in a new one-core process, after ``warm_up``; its hands, CPU and
    wall seconds."""
    env = {**os.environ, "POLARS_MAX_THREADS": "1"}
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "pipeline.cli.bench.parse", str(path), folder]
        command += ["--warm-up", str(warm_up)]
        done = subprocess.run(command, check=True, env=env, capture_output=True, text=True)
    return json.loads(done.stdout)


def best_run(path: Path, warm_up: Path, repeat: int) -> dict[str, float]:
    """The run with the least CPU time of ``repeat`` runs."""
    runs_ = (measure_once(path, warm_up) for _ in range(max(repeat, 1)))
    return min(runs_, key=lambda r: r["cpu_s"])


def run(options: BenchOptions) -> dict[str, Figure]:
    sizes = QUICK_HANDS if options.quick else HANDS
    repeat = min(options.repeats, 3)
    figures: dict[str, Figure] = {}
    for fmt, hands in sizes.items():
        warm_up_hands = QUICK_HANDS[fmt] if options.quick else WARM_UP_HANDS[fmt]
        warm_up = simulated(NAME, fmt, warm_up_hands, options.seed + 1)
        result = best_run(simulated(NAME, fmt, hands, options.seed), warm_up, repeat)
        context = (
            f"{result['read']:,.0f} hands ({result['mb']:.0f} MB), one core, one polars thread, "
            f"best of {runs(repeat)}"
        )
        rate = result["read"] / result["cpu_s"]
        figures[f"{fmt}_hands_per_cpu_s"] = Figure(
            rate,
            "hands/s",
            target=TARGET_HANDS_PER_S,
            better="higher",
            note=f"aim {AIM_HANDS_PER_S:,}; {context}",
        )
        figures[f"{fmt}_cpu_s"] = Figure(result["cpu_s"], "s", note="user + system, timed parse")
        figures[f"{fmt}_start_cpu_s"] = Figure(
            result["start_cpu_s"],
            "s",
            note=f"the warm-up parse of {warm_up_hands:,} hands: once per process",
        )
        figures[f"{fmt}_wall_hands_per_s"] = Figure(
            result["read"] / result["wall_s"],
            "hands/s",
            better="higher",
            note="wall clock: stretched by other jobs on a shared machine",
        )
    return figures


def main(argv: list[str] | None = None) -> int:
    """One timed run (the child process of ``measure_once``): prints its figures as JSON."""
    parser = argparse.ArgumentParser(description="one timed parse of a file, for ofc bench")
    parser.add_argument("path", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--warm-up", type=Path, required=True, help="a small file parsed first")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    keep_freed_memory()  # as the ofc command does
    from parsers.run import parse_files

    start = resource.getrusage(resource.RUSAGE_SELF)
    parse_files([args.warm_up], args.out / "warm-up", workers=1)
    before, started = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    summary = parse_files([args.path], args.out / "dataset", workers=1)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if summary.rejected:
        raise SystemExit(f"the benchmark file has {summary.rejected} rejected hands")
    result = {
        "read": summary.read,
        "cpu_s": cpu,
        "start_cpu_s": (before.ru_utime - start.ru_utime) + (before.ru_stime - start.ru_stime),
        "wall_s": wall,
        "mb": _bytes(args.path) / 2**20,
    }
    print(json.dumps(result))
    return 0


def _bytes(path: Path) -> int:
    """The size of a file, or of the files of a folder."""
    if path.is_dir():
        return sum(p.stat().st_size for p in path.iterdir())
    return path.stat().st_size


if __name__ == "__main__":
    sys.exit(main())
