"""Fast group-bys and lookups for the parsers' integer keys.

``grouped``: ``frame.group_by(...).agg(...)`` on a ``DataFrame`` runs in the
in-memory engine; the same query on a ``LazyFrame`` runs in the streaming
engine, which on one core is several times faster for integer keys and
simple aggregations (measured: 0.2 s against 0.03 s for a million rows).

``ranks``: each row's place within its run of equal keys of a sorted array, in one pass
(``np.searchsorted`` of the keys in themselves costs twice as much).

``lookup``: the rows of a frame whose integer key (a line number, a hand
number) equals each of many query keys, by direct indexing with numpy
rather than a hash join: the keys of a chunk are small and dense.
"""

from __future__ import annotations

import numpy as np
import polars as pl


def grouped(
    frame: pl.DataFrame, by: str | pl.Expr | list[str | pl.Expr], *aggs: pl.Expr, **named: pl.Expr
) -> pl.DataFrame:
    """``frame.group_by(by).agg(*aggs, **named)``, run lazily (group order unspecified)."""
    return frame.lazy().group_by(by).agg(*aggs, **named).collect()


def lookup(table: pl.DataFrame, key: str, queries: pl.Series) -> tuple[pl.DataFrame, np.ndarray]:
    """``table``'s rows whose ``key`` equals each query, and which queries were found.

    ``table[key]`` must be unique integers spanning a modest range (the
    lines or hands of one chunk). The returned frame
    has one row per *found* query, in query order.

    >>> t = pl.DataFrame({"n": [3, 5], "v": ["a", "b"]})
    >>> rows, found = lookup(t, "n", pl.Series([5, 4, 3]))
    >>> rows["v"].to_list(), found.tolist()
    (['b', 'a'], [True, False, True])
    """
    keys = table.get_column(key).to_numpy()
    wanted = queries.to_numpy()
    if len(keys) == 0 or len(wanted) == 0:
        return table.clear(), np.zeros(len(wanted), dtype=bool)
    low = min(keys.min(), wanted.min())
    position = np.full(int(max(keys.max(), wanted.max()) - low) + 1, -1, dtype=np.int64)
    position[keys - low] = np.arange(len(keys))
    rows = position[wanted - low]
    found = rows >= 0
    return table[rows[found]], found


def ranks(keys: np.ndarray) -> np.ndarray:
    """Each element's place (0, 1, ...) among the equal elements before it; ``keys`` sorted.

    >>> ranks(np.array([4, 4, 4, 7, 9, 9])).tolist()
    [0, 1, 2, 0, 0, 1]
    >>> ranks(np.array([], dtype=np.int64)).tolist()
    []
    """
    at = np.arange(len(keys))
    if len(keys) == 0:
        return at
    starts = np.empty(len(keys), dtype=bool)
    starts[0] = True
    np.not_equal(keys[1:], keys[:-1], out=starts[1:])
    return at - np.maximum.accumulate(np.where(starts, at, 0))
