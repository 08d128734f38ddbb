"""Wall-clock timing of a job inside the process."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(job: Callable[[], object], repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` runs of ``job`` (``time.perf_counter``).

    >>> best_of(lambda: sum(range(10)), 3) >= 0
    True
    """
    fastest = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        job()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def runs(count: int) -> str:
    """``"1 run"``, ``"5 runs"``: how many timed runs a figure is the best of.

    >>> runs(1), runs(5)
    ('1 run', '5 runs')
    """
    return f"{count} run" + ("" if count == 1 else "s")
