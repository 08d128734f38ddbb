"""Small files read together: many one-table or one-hand files cost what one file does.

Rooms and export tools often write a file per table or per hand. Read one
by one, each file pays the reader's fixed cost (a few milliseconds of
column-wise set-up) for a handful of hands. Here the texts of consecutive
small files of one format are joined into one chunk, a blank line between
each two (so no hand runs into the next file), read once, and every row
is given back its own file and line: ``hands`` and ``rejects`` carry
``source_file`` and ``source_line``, mapped from the joined text's line
numbers by where each file starts.

The joined read is kept only when it is *clean*: no rejects, no hand
scored under a guessed ruleset, no fast path error. Otherwise the files a
reject falls in are read on their own (``parsers.run.parse_source``), which
gives exactly the per-file result (a repeated room id across files, stray
lines at a file's edge are per file matters), and the runs of files between
them are joined again; a guessed ruleset or a fast path error, which no line
names, splits the batch in halves instead, down to single files. A clean
archive, the common case, takes the fast route; a messy file costs one read
of its own and a joined read of the files around it.

>>> joined = Joined.of([SmallFile(Source("a"), "en", b"x\\ny"), SmallFile(Source("b"), "en", b"z\\n")])
>>> joined.data, joined.starts.tolist()
(b'x\\ny\\n\\nz\\n', [1, 4])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from parsers.lines import BOM, Source, as_utf8, choose_encoding, read_at_most

#: Files of at most this many bytes (uncompressed) are read in batches.
SMALL_FILE_BYTES = 1 << 20
#: A batch holds at most this many files.
BATCH_FILES = 4096


@dataclass(frozen=True)
class SmallFile:
    """A small source's whole text (UTF-8, as ``parsers.lines.read_chunks`` gives it) and format."""

    source: Source
    kind: str
    data: bytes


def read_small(source: Source) -> bytes | None:
    """The text of ``source`` as ``parsers.lines.read_chunks`` gives a file of one chunk
    (without a byte order mark, in UTF-8), or None when it is not small."""
    data = read_at_most(source, SMALL_FILE_BYTES + 1)
    if len(data) > SMALL_FILE_BYTES:
        return None
    if data.startswith(BOM):
        return data[len(BOM) :]
    return as_utf8(data, choose_encoding(data[: len(BOM) + (1 << 20)]))


@dataclass(frozen=True, eq=False)
class Joined:
    """The texts of a batch one after another; ``starts[i]``: the joined line number of file
    ``i``'s first line."""

    files: tuple[SmallFile, ...]
    data: bytes
    starts: np.ndarray

    @classmethod
    def of(cls, files: list[SmallFile]) -> Joined:
        parts, starts, lines = [], [], 1
        for file in files:
            text = file.data if file.data.endswith(b"\n") else file.data + b"\n"
            starts.append(lines)
            parts.append(text)
            parts.append(b"\n")
            lines += text.count(b"\n") + 1
        return cls(tuple(files), b"".join(parts[:-1]), np.array(starts, dtype=np.int64))

    def placed(self, tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
        """``tables`` with each ``hands`` and ``rejects`` row's ``source_file`` and
        ``source_line`` those of the file the row came from."""
        names = pl.Series([f.source.name for f in self.files], dtype=pl.String)
        out = dict(tables)
        for name in ("hands", "rejects"):
            table = tables[name]
            if not table.num_rows:
                continue
            line = table.column("source_line").to_numpy()
            at = np.searchsorted(self.starts, line, side="right") - 1
            placed = (
                pl.from_arrow(table)
                .with_columns(
                    source_file=names.gather(at),
                    source_line=pl.Series(line - self.starts[at] + 1, dtype=pl.Int64),
                )
                .to_arrow()
            )
            out[name] = placed.cast(table.schema)
        return out

    def owners(self, rows: pa.Table) -> np.ndarray:
        """Which file (index) each row of the joined read (before ``placed``) came from."""
        line = rows.column("source_line").to_numpy()
        return np.searchsorted(self.starts, line, side="right") - 1

    def hands_per_file(self, hands: pa.Table) -> list[int]:
        """How many of ``hands`` (rows of the joined read, before ``placed``) each file holds."""
        return np.bincount(self.owners(hands), minlength=len(self.files)).tolist()
