"""The benchmarks ``ofc bench`` knows, and choosing some of them by name.

>>> [b.name for b in select(["evaluate"])]
['evaluate']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.bench.figures import Figure
from pipeline.bench.options import BenchOptions
from pipeline.errors import UserError

#: Benchmark modules of ``pipeline.bench``, in the order they run and are reported.
#: Each defines ``NAME``, ``TITLE`` and ``run(options: BenchOptions) -> dict[str, Figure]``.
BENCHMARKS = (
    "evaluate",
    "engine",
    "parse",
    "dashboard",
    "import_speed",
    "simulate",
    "solve",
)


@dataclass(frozen=True)
class Benchmark:
    """A benchmark: its name, a one-line title, and the function that measures."""

    name: str
    title: str
    run: Callable[[BenchOptions], dict[str, Figure]]


def load(module_name: str) -> Benchmark:
    """The benchmark defined by ``pipeline.bench.<module_name>``."""
    module = importlib.import_module(f"pipeline.bench.{module_name}")
    return Benchmark(name=module.NAME, title=module.TITLE, run=module.run)


def select(only: list[str] | None = None) -> list[Benchmark]:
    """All benchmarks, or those named in ``only`` (in registry order)."""
    if not only:
        return [load(name) for name in BENCHMARKS]
    unknown = sorted(set(only) - set(BENCHMARKS))
    if unknown:
        raise UserError(
            f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHMARKS)}"
        )
    return [load(name) for name in BENCHMARKS if name in only]
