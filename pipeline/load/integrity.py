"""Telling a database file cut short (a copy or download that stopped) before a query
reaches its missing part.

DuckDB opens a cut file and answers queries until one reads a block past
the end, so a damaged file would show only on some page of the dashboard.
Its file is three 4 KiB headers followed by blocks of ``block_size`` bytes;
``pragma_storage_info`` lists the block of every stored column segment from
the catalog alone (no data read). The file must reach the end of the last
block its tables use; free blocks at the end may be trimmed, so the block
count in the header is not compared.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from ofc_core.faults import storage_problem

#: Bytes before the first block: the main header and the two database headers.
HEADER_BYTES = 3 * 4096


def cut_short(db: Path) -> str | None:
    """What is wrong with ``db`` and what to do, when it is cut short or unreadable; None
    when every block its tables use is in the file."""
    try:
        needed = _bytes_used(db)
    except duckdb.Error as error:
        return storage_problem(error) or f"cannot read the database file {db}: {error}"
    size = os.path.getsize(db)
    if needed <= size:
        return None
    return (
        f"the database file {db} is damaged or cut short: its tables use {needed:,} bytes,"
        f" the file holds {size:,} (restore it from a copy, or import the files again into"
        " a new database)"
    )


def _bytes_used(db: Path) -> int:
    """How long ``db`` must be to hold every block its tables use."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        [(block_size,)] = con.execute("SELECT block_size FROM pragma_database_size()").fetchall()
        tables = [t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        last = -1
        for table in tables:
            [(block,)] = con.execute(
                "SELECT max(block_id) FROM pragma_storage_info(?) WHERE block_id >= 0", [table]
            ).fetchall()
            last = max(last, -1 if block is None else block)
    finally:
        con.close()
    return HEADER_BYTES + (last + 1) * block_size
