"""The database file: connecting, its schema version, upgrading an older one, and reading
what it remembers of source files.

``connect`` creates the tables of docs/schema.md (``ddl.sql``) or upgrades a
database of an older schema version (``UPGRADABLE``) in place;
The metric tables are made by ``pipeline.load.metrics.refresh``, the
one-transaction load of an import by ``pipeline.load.store``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import duckdb
import polars as pl

from ofc_core.errors import UserError
from ofc_core.faults import storage_problem
from pipeline.load.metrics.refresh import rebuild
from pipeline.load.recompute import SETTLEMENT_COLUMNS

SCHEMA_VERSION = "7"
#: Schema versions ``connect`` upgrades in place (version 2: ``player_hands`` holds
#: the hand's stake, ``point_value`` and ``currency``, and what its pairwise
#: settlements say, ``pairings``, ``scoops`` and ``rows_won``; version 3: the
#: metric table ``player_metrics``; version 4: the ``decisions`` table of ``ofc review``;
#: version 5: ``player_hands.table_name``, the hand's table, for sessions without a join,
#: and the metric table ``player_pairs``; version 6: the metric tables ``player_days``,
#: ``pair_days`` and ``player_hours``; version 7: ``hand_no``, a hand's number, in ``hands``,
#: ``player_hands``, ``placements`` and ``pairwise``).
UPGRADABLE = ("1", "2", "3", "4", "5", "6")
#: DuckDB's memory limit during a load (the import's peak stays under 2 GB).
MEMORY_LIMIT = "1GB"


@dataclass(frozen=True)
class KnownFile:
    """What ``source_files`` remembers of a file."""

    size_bytes: int
    mtime_ns: int
    bytes_imported: int
    lines_imported: int
    prefix_sha256: str
    hands_read: int


def sql(name: str) -> str:
    return resources.files("pipeline.load").joinpath(name).read_text(encoding="utf-8")


def frame(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pl.DataFrame:
    """The result of a query as a polars frame."""
    return con.sql(sql, params=params).pl()


#: Where a DuckDB file says what it is: bytes 8 to 12 of its first block.
_DUCKDB_MAGIC = (8, b"DUCK")


def check_duckdb_file(path: Path, making: bool = False) -> None:
    """Refuse a ``--db`` file that is not a DuckDB database before DuckDB opens it: DuckDB
    would report a CSV or Parquet file as "cannot launch in-memory database", and try to
    download an extension for a SQLite one. A missing file is left to the caller, and an
    empty one too when ``making`` (a new database: an import's).

    >>> print(check_duckdb_file(Path(__file__)))
    Traceback (most recent call last):
    ofc_core.errors.UserError: ... is not a DuckDB database (a CSV, Parquet, SQLite or other file?): give the database file `ofc import --db` wrote
    """
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except (FileNotFoundError, IsADirectoryError):
        return
    if not head and not making:
        raise UserError(
            f"{path} is empty (0 bytes), not a database yet: give the database file"
            " `ofc import --db` wrote, or import hand histories into it first"
        )
    at, magic = _DUCKDB_MAGIC
    if head and head[at : at + len(magic)] != magic:
        raise UserError(
            f"{path} is not a DuckDB database (a CSV, Parquet, SQLite or other file?): give"
            " the database file `ofc import --db` wrote"
            + (", or a new name to make one" if making else "")
        )


def cannot_open(path: Path, error: duckdb.Error) -> UserError:
    """The error for a database file DuckDB could not open: a damaged or cut-short file (its
    headers or catalogue unreadable) told as such, with what to do; else DuckDB's words.

    >>> print(cannot_open(Path("c.duckdb"), duckdb.IOException("IO Error: Could not read "
    ...       'enough bytes from file "c.duckdb": attempted to read 262144 bytes')))
    the database file c.duckdb is damaged or cut short (restore it from a copy, or import the files again into a new database)
    """
    if (problem := storage_problem(error)) and "damaged" in problem:
        return UserError(
            f"the database file {path} is damaged or cut short (restore it from a copy, or "
            "import the files again into a new database)"
        )
    return UserError(f"cannot open {path} as a DuckDB database: {error}")


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection with the import's memory limit; when writable, creates the schema
    or upgrades an older one (``UPGRADABLE``) to ``SCHEMA_VERSION``."""
    check_duckdb_file(path, making=not read_only)
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as error:
        raise cannot_open(path, error) from None
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute("SET preserve_insertion_order = false")
    if not read_only:
        con.execute(sql("ddl.sql"))
        con.execute(
            "INSERT INTO meta SELECT * FROM (VALUES ('schema_version', ?), ('created_at', ?)) "
            "AS v(key, value) WHERE NOT EXISTS (SELECT 1 FROM meta)",
            [SCHEMA_VERSION, dt.datetime.now(dt.UTC).isoformat(timespec="seconds")],
        )
        _upgrade(con, path)
    return con


def stored_version(con: duckdb.DuckDBPyConnection, catalog: str | None = None) -> str | None:
    """The schema version recorded in table ``meta`` of the default database (or of the
    attached ``catalog``); None when there is no such table or row."""
    found = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'meta' "
        "AND schema_name = 'main' AND database_name = coalesce(?, current_database())",
        [catalog],
    ).fetchall()[0][0]
    if not found:
        return None
    meta = f"{catalog}.main.meta" if catalog else "main.meta"
    rows = con.execute(f"SELECT value FROM {meta} WHERE key = 'schema_version'").fetchall()
    return rows[0][0] if rows else None


def schema_problem(db: Path, version: str | None) -> str | None:
    """Why this ofc cannot read ``db`` stored at schema ``version``, and what to do;
    None when it can.

    >>> schema_problem(Path("a.duckdb"), SCHEMA_VERSION) is None
    True
    >>> print(schema_problem(Path("a.duckdb"), "1"))  # doctest: +NORMALIZE_WHITESPACE
    a.duckdb was made by an older version of ofc (schema version 1, now 7): upgrade it once
    with `ofc import --db a.duckdb` (it keeps every hand and needs no files), then open it again
    """
    if version == SCHEMA_VERSION:
        return None
    if version in UPGRADABLE:
        return (
            f"{db} was made by an older version of ofc (schema version {version}, "
            f"now {SCHEMA_VERSION}): upgrade it once with `ofc import --db {db}` "
            "(it keeps every hand and needs no files), then open it again"
        )
    if version is None:
        return f"{db} is not a database made by `ofc import`: give the file `ofc import` wrote"
    return (
        f"{db} was made by a newer version of ofc (schema version {version}; this one "
        f"knows {SCHEMA_VERSION}): update ofc to use it"
    )


#: Fills ``player_hands.pairings``, ``scoops`` and ``rows_won`` of the player-hands
#: found in ``pairwise`` (as ``recompute.settlements`` does at import).
_SETTLEMENTS_SQL = """
    UPDATE player_hands AS p
    SET pairings = s.pairings, scoops = s.scoops, rows_won = s.rows_won
    FROM (
        SELECT hand_id, position, count(*) AS pairings,
            count(*) FILTER (WHERE won = 3) AS scoops, sum(won) AS rows_won
        FROM (
            SELECT hand_id, position_a AS position, rows_a AS won FROM pairwise
            UNION ALL
            SELECT hand_id, position_b, rows_b FROM pairwise
        )
        GROUP BY hand_id, position
    ) AS s
    WHERE s.hand_id = p.hand_id AND s.position = p.position
"""


def _upgrade(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Bring a database of an older schema version to ``SCHEMA_VERSION``, in one transaction.

    Version 1 to 2: ``player_hands`` gets the hand's ``point_value`` and
    ``currency``, and ``SETTLEMENT_COLUMNS`` counted from ``pairwise`` (0 for a
    player-hand without a settlement); added last: readers go by column names.
    Version 2 to 3: the metric tables are rebuilt (``player_metrics`` is new).
    Version 3 to 4: the ``decisions`` table, empty (``ddl.sql`` creates it).
    Version 4 to 5: ``player_hands`` gets its hand's ``table_name``, added last, and the
    metric tables are rebuilt (``player_pairs`` is new).
    Version 5 to 6: the metric tables are rebuilt (``player_days``, ``pair_days`` and
    ``player_hours`` are new).
    Version 6 to 7: ``hand_no``, the hands numbered in the order they were stored, added
    last to the four tables of hands' rows (``_number_hands``, a copy of each).
    """
    version = stored_version(con)
    if version == SCHEMA_VERSION:
        return
    if version not in UPGRADABLE:
        raise UserError(schema_problem(path, version))
    con.execute("BEGIN TRANSACTION")
    if version == "1":
        _add_stakes_and_settlements(con)
    if version not in ("5", "6"):
        _add_table_names(con)
    _number_hands(con)
    rebuild(con)
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [SCHEMA_VERSION])
    con.execute("COMMIT")


def _add_stakes_and_settlements(con: duckdb.DuckDBPyConnection) -> None:
    """Version 1 to 2 (see ``_upgrade``)."""
    con.execute("ALTER TABLE player_hands ADD COLUMN point_value DOUBLE")
    con.execute("ALTER TABLE player_hands ADD COLUMN currency VARCHAR")
    con.execute(
        "UPDATE player_hands AS p SET point_value = h.point_value, currency = h.currency "
        "FROM hands AS h WHERE h.hand_id = p.hand_id"
    )
    for name in SETTLEMENT_COLUMNS:
        con.execute(f"ALTER TABLE player_hands ADD COLUMN {name} SMALLINT")
    con.execute(_SETTLEMENTS_SQL)
    con.execute(
        "UPDATE player_hands SET pairings = 0, scoops = 0, rows_won = 0 WHERE pairings IS NULL"
    )


def _add_table_names(con: duckdb.DuckDBPyConnection) -> None:
    """Version 4 to 5 (see ``_upgrade``)."""
    con.execute("ALTER TABLE player_hands ADD COLUMN table_name VARCHAR")
    con.execute(
        "UPDATE player_hands AS p SET table_name = h.table_name "
        "FROM hands AS h WHERE h.hand_id = p.hand_id"
    )


#: The tables holding a hand's rows.
_HAND_TABLES = ("hands", "player_hands", "placements", "pairwise")


def _number_hands(con: duckdb.DuckDBPyConnection) -> None:
    """Version 6 to 7 (see ``_upgrade``): the hands are numbered in the order they were
    stored, and each of the four tables is copied with ``hand_no`` added last, sorted back
    into its stored order (a join scatters rows: the dashboard's scans then skip fewer row
    groups), and takes the old one's place.

    A copy, not an ``UPDATE``: updating every row keeps each row's old value in memory
    until the transaction ends (more than the memory limit at 10,000,000 hands); a copy
    streams. The file keeps the old tables' space, which later imports reuse."""
    con.execute(
        "CREATE TEMP TABLE numbers AS "
        "SELECT hand_id, row_number() OVER (ORDER BY rowid) AS hand_no FROM hands"
    )
    for table in _HAND_TABLES:
        con.execute(
            f"CREATE TABLE numbered AS SELECT t.*, n.hand_no FROM {table} AS t "
            "LEFT JOIN numbers AS n USING (hand_id) ORDER BY t.rowid"
        )
        con.execute(f"DROP TABLE {table}")
        con.execute(f"ALTER TABLE numbered RENAME TO {table}")
    con.execute("DROP TABLE numbers")


def _open_read_only(db: Path, making: bool = False) -> duckdb.DuckDBPyConnection:
    check_duckdb_file(db, making)
    try:
        return duckdb.connect(str(db), read_only=True)
    except duckdb.Error as error:
        raise cannot_open(db, error) from None


def schema_version(db: Path, making: bool = False) -> str | None:
    """The schema version of the database file ``db`` (read-only); None when it does
    not exist yet or ``ofc import`` did not make it. ``making``: the caller would make a
    new database (an import), which a file that is not one is told it may name."""
    if not db.exists():
        return None
    con = _open_read_only(db, making)
    try:
        return stored_version(con)
    finally:
        con.close()


def upgrade_from(db: Path) -> str | None:
    """The older schema version ``db`` will be upgraded from by the next import (None:
    none, or no database yet); a UserError when a newer ofc made it."""
    version = schema_version(db, making=True)
    if version is None or version == SCHEMA_VERSION:
        return None
    if version not in UPGRADABLE:
        raise UserError(schema_problem(db, version))
    return version


def known_files(db: Path) -> dict[str, KnownFile]:
    """``source_files`` of an existing database (read-only), by path.

    A file that is not a DuckDB database, or a DuckDB database that ``ofc
    import`` did not make, is refused rather than written into.
    """
    if not db.exists():
        return {}
    con = _open_read_only(db, making=True)
    try:
        tables = {
            row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }
        if tables and "meta" not in tables:
            raise UserError(
                f"{db} is a DuckDB database that `ofc import` did not make; "
                "give --db a new file name"
            )
        if "source_files" not in tables:
            return {}
        rows = con.execute(
            "SELECT path, size_bytes, mtime_ns, bytes_imported, lines_imported, prefix_sha256, "
            "hands_read FROM source_files"
        ).fetchall()
    finally:
        con.close()
    return {row[0]: KnownFile(*row[1:]) for row in rows}
