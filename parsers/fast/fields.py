"""Reading line parts that repeat across hands once per distinct text.

A table line's tail, a seat line's stack, the header's rule words or a
summary line differ little from hand to hand: the compiled scans file them
under codes of their distinct texts (``parsers.fast.intern``); a
``Reading`` matches each text against the format reader's own pattern and
field expressions once, and remembers the fields, so later chunks of an
archive only read texts never seen before. The fields go back to every line
by code.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from parsers.fast.intern import Interned
from parsers.fast.text import Text

#: A reading forgets what it learnt when it knows this many texts (memory stays flat).
MOST_KNOWN = 200_000


class Reading:
    """The fields (expressions of the named groups of ``pattern``) of texts, and ``read``:
    whether a text matched and its numbers are within their bounds (an expression of the
    groups, ``problem``: null when they are; ``parsers.bounds``). The fields are null where
    a text did not match. The first group must take part in every match.

    >>> digit = Reading(r"^a(?P<digit>\\d)$", {"d": pl.col("digit")})
    >>> digit.rows(["a1", "b"], unread=1).rows()
    [(True, '1'), (False, None), (False, None)]
    """

    def __init__(
        self, pattern: str, fields: dict[str, pl.Expr], problem: pl.Expr | None = None
    ) -> None:
        self.pattern = pattern
        self.fields = fields
        self.fine = pl.lit(True) if problem is None else problem.is_null()
        self.known: dict[str, tuple] = {}
        self.schema = self._read([]).schema
        self.unread = (False,) + (None,) * (len(self.schema) - 1)

    def rows(self, texts: list[str], unread: int = 0) -> pl.DataFrame:
        """One row per text, in order, then ``unread`` rows that did not read."""
        new = [t for t in dict.fromkeys(texts) if t not in self.known]
        if new:
            if len(self.known) + len(new) > MOST_KNOWN:
                self.known.clear()
            self.known.update(zip(new, self._read(new).iter_rows(), strict=True))
        rows = [self.known[t] for t in texts] + [self.unread] * unread
        return pl.DataFrame(rows, self.schema, orient="row")

    def _read(self, texts: list[str]) -> pl.DataFrame:
        """The row of each text, in one pass over the groups (rows that did not match have
        null fields and ``read`` false)."""
        groups = pl.col("key").str.extract_groups(self.pattern)
        frame = pl.DataFrame({"key": texts}, schema={"key": pl.String})
        out = frame.with_columns(groups.alias("_g")).unnest("_g")
        first = out.columns[1]
        matched = pl.col(first).is_not_null()
        fields = {name: pl.when(matched).then(expr) for name, expr in self.fields.items()}
        return out.select(read=matched & self.fine.fill_null(False), **fields)


class DistinctTexts:
    """The distinct texts a scan filed, read by code (-1: none)."""

    def __init__(self, text: Text, interned: Interned) -> None:
        self.kind = interned.kind
        self.values = text.strings(interned.start, interned.end)
        self._with_null = pl.concat([self.values, pl.Series([None], dtype=pl.String)])

    def of(self, codes: np.ndarray) -> pl.Series:
        """The text of each code (null for -1)."""
        return self._with_null.gather(self._rows(codes))

    def fields(self, codes: np.ndarray, kind: int, reading: Reading) -> pl.DataFrame:
        """``reading``'s row for each code's text (of ``kind``), and for -1 a row that did
        not read (fields null)."""
        of_kind = np.flatnonzero(self.kind == kind)
        table = reading.rows(self.values.gather(of_kind).to_list(), unread=1)
        row = np.full(len(self.values) + 1, len(of_kind), dtype=np.int64)
        row[of_kind] = np.arange(len(of_kind))
        return table[row[self._rows(codes)]]

    def _rows(self, codes: np.ndarray) -> np.ndarray:
        return np.where(codes >= 0, codes, len(self.values))
