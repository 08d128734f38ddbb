"""Fast group-bys and lookups for the parsers' integer keys.

``grouped``: ``frame.group_by(...).agg(...)`` on a ``DataFrame`` runs in the
in-memory engine; the same query on a ``LazyFrame`` runs in the streaming
engine, which on one core is several times faster for integer keys and
simple aggregations (measured: 0.2 s against 0.03 s for a million rows).

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
