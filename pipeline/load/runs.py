"""Runs of equal hand ids: a table holds each hand's rows together, in one run or a few.

Hashing a run's id once instead of every row's is the cheap way to key a table's rows
by hand (``placements`` has some fifty rows a hand).
"""

from __future__ import annotations

import numpy as np
import polars as pl


def id_runs(ids: pl.Series) -> tuple[np.ndarray, np.ndarray]:
    """Each row's run (0, 1, ...) and the index of each run's first row.

    >>> run, starts = id_runs(pl.Series(["a", "a", "b", "b", "b", "a"]))
    >>> run.tolist(), starts.tolist()
    ([0, 0, 1, 1, 1, 2], [0, 2, 5])
    """
    run = ids.rle_id().to_numpy()
    return run, np.flatnonzero(np.diff(run, prepend=-1))
