"""Read-only access to an ``ofc import`` database, following its readers' contract.

``docs/schema.md`` ("Reading while an import runs"): an import builds a copy
and swaps it in with ``os.replace``; a reader keeps the snapshot it opened and
reconnects when the file's inode or mtime changes. DuckDB's Python module
caches database instances by path, so a plain ``duckdb.connect(path)`` after a
swap would hand back the old snapshot: each snapshot is instead ATTACHed
read-only to its own in-memory instance. Every query runs on its own cursor
(sessions run in threads) with ``?`` parameters, never values pasted in SQL.
A database of another schema version is refused with a UserError saying
what to do (an older one: upgrade it with ``ofc import --db FILE``).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from ofc_core.errors import UserError
from pipeline.load.database import (
    cannot_open,
    check_duckdb_file,
    schema_problem,
    stored_version,
)

ALIAS = "ofc"
#: DuckDB's memory limit in the dashboard (a shared laptop, many sessions).
MEMORY_LIMIT = "2GB"


@dataclass(frozen=True)
class Stamp:
    """Which snapshot of the file: its inode and modification time."""

    inode: int
    mtime_ns: int


def stamp(path: Path) -> Stamp:
    """The current snapshot of ``path``; a UserError when the file is missing."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UserError(
            f"database {path} does not exist: create it with `ofc import --db {path} FILES...`"
        ) from None
    return Stamp(info.st_ino, info.st_mtime_ns)


def _open(path: Path) -> duckdb.DuckDBPyConnection:
    check_duckdb_file(path)
    connection = duckdb.connect(":memory:")
    connection.execute("SET TimeZone = 'UTC'")  # dates in filters are UTC days
    connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    try:
        connection.execute(f"ATTACH '{_quoted(path)}' AS {ALIAS} (READ_ONLY)")
    except duckdb.Error as error:
        connection.close()
        raise cannot_open(path, error) from None
    problem = schema_problem(path, stored_version(connection, ALIAS))
    if problem:
        connection.close()
        raise UserError(problem)
    return connection


def _quoted(path: Path) -> str:
    """A path inside a SQL string literal (ATTACH takes no parameters).

    >>> _quoted(Path("/tmp/o'brien.duckdb"))
    "/tmp/o''brien.duckdb"
    """
    return str(path).replace("'", "''")


class Database:
    """A database file, queried read-only; reconnects when an import swaps the file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).resolve()
        self._lock = threading.Lock()
        self._stamp: Stamp | None = None
        self._connection: duckdb.DuckDBPyConnection | None = None

    def stamp(self) -> Stamp:
        return stamp(self.path)

    def _current(self) -> duckdb.DuckDBPyConnection:
        now = self.stamp()
        with self._lock:
            if self._connection is None or now != self._stamp:
                self._connection = _open(self.path)
                self._stamp = now
            return self._connection

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor on the current snapshot, with the database as the default schema."""
        cursor = self._current().cursor()
        cursor.execute(f"USE {ALIAS}")
        return cursor

    def frame(self, sql: str, params: list[object] | None = None) -> pl.DataFrame:
        """The result of one query as a (small) polars frame."""
        cursor = self.cursor()
        try:
            return cursor.sql(sql, params=params or []).pl()
        finally:
            cursor.close()

    def rows(self, sql: str, params: list[object] | None = None) -> list[tuple]:
        cursor = self.cursor()
        try:
            return cursor.sql(sql, params=params or []).fetchall()
        finally:
            cursor.close()

    def value(self, sql: str, params: list[object] | None = None) -> object:
        """The first column of the first row (None when there is no row)."""
        rows = self.rows(sql, params)
        return rows[0][0] if rows else None
