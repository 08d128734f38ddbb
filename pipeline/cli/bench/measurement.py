"""The outcome of running one benchmark: its figures and how long it took."""

from __future__ import annotations

import time
from dataclasses import dataclass

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.options import BenchOptions
from pipeline.cli.bench.registry import Benchmark


@dataclass(frozen=True)
class Measurement:
    """Figures of one benchmark run, with its name and title."""

    name: str
    title: str
    figures: dict[str, Figure]
    wall_s: float

    def to_dict(self) -> dict[str, object]:
        return {
            "title": self.title,
            "wall_s": self.wall_s,
            "figures": {key: figure.to_dict() for key, figure in self.figures.items()},
        }


def measure(benchmark: Benchmark, options: BenchOptions) -> Measurement:
    """Run one benchmark."""
    start = time.perf_counter()
    figures = benchmark.run(options)
    return Measurement(benchmark.name, benchmark.title, figures, time.perf_counter() - start)
