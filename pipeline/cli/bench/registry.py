"""The benchmarks ``ofc bench`` knows, and choosing some of them by name.

>>> [b.name for b in select(["evaluate"])]
['evaluate']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from ofc_core.errors import UserError
from pipeline.benchkit.figures import Figure
from pipeline.benchkit.options import BenchOptions

#: Benchmark modules by name, in the order they run and are reported; each defines
#: ``NAME``, ``TITLE`` and ``run(options: BenchOptions) -> dict[str, Figure]``. They are
#: imported only when chosen; the dashboard's benchmark lives with the dashboard.
MODULES = {
    "evaluate": "pipeline.cli.bench.evaluate",
    "engine": "pipeline.cli.bench.engine",
    "parse": "pipeline.cli.bench.parse",
    "small_files": "pipeline.cli.bench.small_files",
    "dashboard": "dashboard.bench.pages",
    "import_speed": "pipeline.cli.bench.import_speed",
    "simulate": "pipeline.cli.bench.simulate",
    "decide": "pipeline.cli.bench.decide",
    "solve": "pipeline.cli.bench.solve",
    "review": "pipeline.cli.bench.review",
    "ten_million": "pipeline.cli.bench.ten_million",
}
BENCHMARKS = tuple(MODULES)
#: Benchmarks too long for every ``ofc bench`` (half an hour, tens of GB of disk): they run
#: only when named in ``--only``.
ON_REQUEST = ("ten_million",)


@dataclass(frozen=True)
class Benchmark:
    """A benchmark: its name, a one-line title, and the function that measures."""

    name: str
    title: str
    run: Callable[[BenchOptions], dict[str, Figure]]


def load(name: str) -> Benchmark:
    """The benchmark called ``name`` (a key of ``MODULES``)."""
    module = importlib.import_module(MODULES[name])
    return Benchmark(name=module.NAME, title=module.TITLE, run=module.run)


def select(only: list[str] | None = None) -> list[Benchmark]:
    """All benchmarks but those run on request, or those named in ``only`` (in registry
    order)."""
    if not only:
        return [load(name) for name in BENCHMARKS if name not in ON_REQUEST]
    unknown = sorted(set(only) - set(BENCHMARKS))
    if unknown:
        raise UserError(
            f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHMARKS)}"
        )
    return [load(name) for name in BENCHMARKS if name in only]
