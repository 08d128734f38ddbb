"""Writing the hand model as a Parquet dataset in bounded batches.

The dataset is one folder per table (``hands/``, ``player_hands/``,
``placements/``, ``rejects/``) of ``part-<writer>-<n>.parquet`` files.
Repeated strings are written from dictionary arrays (``parsers.schema.encoded``,
which spares the writer hashing every row), and no Arrow schema is stored:
every reader sees the contract's types (``parsers.schema.TABLES``). A
writer buffers each table's chunks and writes a part whenever a table holds
``batch_rows`` rows, so memory stays flat whatever the input size; several
writers (one per process) can fill one dataset side by side.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from parsers.schema import TABLES, encoded

BATCH_ROWS = 1_000_000
COMPRESSION = "zstd"
#: Columns with a value of their own on (almost) every row: no dictionary is tried for them
#: (the writer would hash every value, then give up on the dictionary).
ROW_VALUES = {"hands": ("hand_id", "room_hand_id", "played_at", "source_line")}


def dictionary_columns(table: str, schema: pa.Schema) -> list[str]:
    """Parquet paths of the columns of ``table`` written with a dictionary: all but its
    ``ROW_VALUES``.

    A list column's values sit at ``<name>.list.element`` in the file: naming the list
    itself would leave its cards without a dictionary (twice the writing time of the
    ``player_hands`` card columns, and a larger file).

    >>> dictionary_columns("hands", pa.schema([("hand_id", pa.string()), ("variant", pa.string())]))
    ['variant']
    >>> dictionary_columns("player_hands", pa.schema([("top", pa.list_(pa.string()))]))
    ['top.list.element']
    """
    return [
        f"{f.name}.list.element" if pa.types.is_list(f.type) else f.name
        for f in schema
        if f.name not in ROW_VALUES.get(table, ())
    ]


def statistics_columns(schema: pa.Schema) -> list[str]:
    """Columns whose Parquet statistics are kept: all but text (plain or dictionary) and lists.

    Min/max statistics of strings cost a third of the writing time of a
    ``placements`` part and prune little (hand ids are not ordered).

    >>> statistics_columns(pa.schema([("hand_id", pa.string()), ("seat", pa.int8())]))
    ['seat']
    """
    return [
        f.name
        for f in schema
        if not (pa.types.is_string(f.type) or pa.types.is_large_string(f.type))
        and not pa.types.is_list(f.type)
        and not pa.types.is_dictionary(f.type)
    ]


class DatasetWriter:
    """Buffers the four tables and writes them in parts of at most about ``batch_rows`` rows."""

    def __init__(self, out_dir: str | Path, name: str, batch_rows: int = BATCH_ROWS) -> None:
        self.out_dir = Path(out_dir)
        self.name = name
        self.batch_rows = batch_rows
        self._buffers: dict[str, list[pa.Table]] = {t: [] for t in TABLES}
        self._rows = dict.fromkeys(TABLES, 0)
        self._parts = dict.fromkeys(TABLES, 0)
        for table in TABLES:
            (self.out_dir / table).mkdir(parents=True, exist_ok=True)

    def add(self, table: str, rows: pa.Table) -> None:
        """Buffer rows of one table; write a part when the buffer is full."""
        if rows.num_rows == 0:
            return
        self._buffers[table].append(rows.cast(encoded(table)))
        self._rows[table] += rows.num_rows
        if self._rows[table] >= self.batch_rows:
            self._flush(table)

    def close(self) -> None:
        """Write whatever is buffered."""
        for table in TABLES:
            self._flush(table)

    def _flush(self, table: str) -> None:
        if not self._buffers[table]:
            return
        data = pa.concat_tables(self._buffers[table])
        path = self.out_dir / table / f"part-{self.name}-{self._parts[table]:05d}.parquet"
        pq.write_table(
            data,
            path,
            compression=COMPRESSION,
            use_dictionary=dictionary_columns(table, data.schema),
            write_statistics=statistics_columns(data.schema),
            store_schema=False,
        )
        self._buffers[table] = []
        self._rows[table] = 0
        self._parts[table] += 1

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def prepare(out_dir: str | Path, overwrite: bool = False) -> list[Path]:
    """Make sure ``out_dir`` can take a new dataset; with ``overwrite``, remove old parts.

    Returns the old part files that are in the way (empty when none are, or
    when they were removed).
    """
    out = Path(out_dir)
    old = sorted(p for t in TABLES for p in (out / t).glob("*.parquet"))
    if old and overwrite:
        for path in old:
            path.unlink()
        return []
    return old


def finish(out_dir: str | Path) -> None:
    """Give every table folder at least one (possibly empty) part, so readers find its schema."""
    out = Path(out_dir)
    for table, schema in TABLES.items():
        folder = out / table
        folder.mkdir(parents=True, exist_ok=True)
        if not any(folder.glob("*.parquet")):
            pq.write_table(schema.empty_table(), folder / "part-empty.parquet")


def discard(out_dir: str | Path) -> None:
    """Remove a dataset a run could not finish: its parts, and the folders left empty."""
    out = Path(out_dir)
    for table in TABLES:
        folder = out / table
        for part in folder.glob("*.parquet"):
            part.unlink(missing_ok=True)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    if out.is_dir() and not any(out.iterdir()):
        out.rmdir()
