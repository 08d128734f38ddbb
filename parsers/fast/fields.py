"""Reading line parts that repeat across hands once per distinct text.

A table line's tail, a seat line's stack, the header's rule words or a
summary line differ little from hand to hand: the compiled scans file them
under codes of their distinct texts (``parsers.fast.intern``); here each
distinct text is matched against the ``en`` reader's own pattern once, and
the fields go back to every line by code.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from parsers import extract as ex
from parsers.fast.intern import Interned
from parsers.fast.text import Text


class DistinctTexts:
    """The distinct texts a scan filed, read by code (-1: none)."""

    def __init__(self, text: Text, interned: Interned) -> None:
        self.kind = interned.kind
        self.values = text.strings(interned.start, interned.end)
        self._with_null = pl.concat([self.values, pl.Series([None], dtype=pl.String)])

    def of(self, codes: np.ndarray) -> pl.Series:
        """The text of each code (null for -1)."""
        return self._with_null.gather(self._rows(codes))

    def fields(
        self, codes: np.ndarray, kind: int, pattern: str, fields: dict[str, pl.Expr]
    ) -> pl.DataFrame:
        """``fields`` (expressions of the groups ``g1``, ``g2``, ... of ``pattern``) of each
        code's text, read once per distinct text of ``kind``, and ``read``: whether the text
        matched (false, and the fields null, where not, and for -1). The first group must
        take part in every match."""
        frame = pl.DataFrame({"key": self.values}).with_row_index("j")
        matched, _ = ex.match_groups(frame.filter(pl.Series(self.kind == kind)), pattern, "key")
        read = matched.select(read=pl.lit(True), **fields)
        row = np.full(len(self.values) + 1, read.height, dtype=np.int64)
        row[matched.get_column("j").to_numpy()] = np.arange(read.height)
        read = pl.concat([read, read.clear(1)]).with_columns(pl.col("read").fill_null(False))
        return read[row[self._rows(codes)]]

    def _rows(self, codes: np.ndarray) -> np.ndarray:
        return np.where(codes >= 0, codes, len(self.values))
