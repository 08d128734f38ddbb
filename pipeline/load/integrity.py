"""Whether a DuckDB file is whole: a file cut short (a copy that stopped, a full disk) opens
without complaint and fails only when a query reaches a missing block.

DuckDB records how many blocks the file holds; after its header (three 4 KiB
blocks) the file must be at least that long. Checked when a database is
opened, so a cut file is refused with one line instead of failing mid-query.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from ofc_core.errors import UserError

HEADER_BYTES = 3 * 4096


def expected_size(con: duckdb.DuckDBPyConnection, catalog: str | None = None) -> int:
    """The bytes the database ``catalog`` (default: the current one) must hold at least."""
    block_size, blocks = con.execute(
        "SELECT block_size, total_blocks FROM pragma_database_size() "
        "WHERE database_name = coalesce(?, current_database())",
        [catalog],
    ).fetchall()[0]
    return HEADER_BYTES + block_size * blocks


def check_whole(con: duckdb.DuckDBPyConnection, path: Path, catalog: str | None = None) -> None:
    """A UserError when the file at ``path`` is shorter than its database says it is."""
    expected, actual = expected_size(con, catalog), path.stat().st_size
    if actual < expected:
        raise UserError(
            f"{path} is damaged: it is cut short ({actual:,} of {expected:,} bytes); restore it"
            " from a copy, or import the hand histories into a new file"
        )
