"""Reading line fields that repeat across hands once per distinct value.

A table line's tail, a seat line's stack, the header's rule words or a
summary line differ little from hand to hand: each distinct text is matched
against the ``en`` reader's own pattern once, and the fields go back to
every line holding it through a join.
"""

from __future__ import annotations

import polars as pl

from parsers import extract as ex


def by_distinct(values: pl.Series, pattern: str, fields: dict[str, pl.Expr]) -> pl.DataFrame:
    """``fields`` (expressions of the groups ``g1``, ``g2``, ... of ``pattern``) for each value.

    One row per value, in order, with ``read`` (false: the pattern does not
    match, and the fields are null). The first group must take part in every match.

    >>> by_distinct(pl.Series(["a1", "b", "a1"]), r"^a(\\d)$", {"d": pl.col("g1")}).rows()
    [(True, '1'), (False, None), (True, '1')]
    """
    frame = pl.DataFrame({"key": values})
    matched, _ = ex.match_groups(frame.unique(), pattern, column="key")
    read = matched.select("key", read=pl.lit(True), **fields)
    return (
        frame.join(read, on="key", how="left", maintain_order="left", nulls_equal=True)
        .drop("key")
        .with_columns(pl.col("read").fill_null(False))
    )
