"""The DuckDB side of an import: schema, reading state, and the one-transaction load.

``load`` moves the staged Parquet parts into the tables of docs/schema.md in a
single transaction: it sorts every copy of every hand into new, duplicate
(same id, same fingerprint) or conflict (same id, different fingerprint; the
stored or first-read copy is kept), inserts the new hands with their rows,
records rejects and conflicts once each, re-scores hands whose Fantasyland
repeats change once their whole match is known, rebuilds the metric tables
and writes the run's row in ``imports``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import duckdb
import polars as pl

from parsers.schema import PLAYER_HANDS
from pipeline.errors import UserError
from pipeline.load.integrity import check_whole
from pipeline.load.recompute import HAND_CONTEXT, SETTLEMENT_COLUMNS, RulesetLoader, recompute
from pipeline.load.tables import PLAYER_HANDS_STAGED, conform

SCHEMA_VERSION = "2"
#: Schema versions ``connect`` upgrades in place (version 2: ``player_hands`` holds
#: the hand's stake, ``point_value`` and ``currency``, and what its pairwise
#: settlements say, ``pairings``, ``scoops`` and ``rows_won``).
UPGRADABLE = ("1",)
METRICS = ("audit_mismatches", "player_summary", "style_metrics")
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


@dataclass(frozen=True)
class FileRecord:
    """A ``source_files`` row to write: a file's path and what to remember of it."""

    path: str
    state: KnownFile


@dataclass(frozen=True)
class RunInfo:
    """What an ``imports`` row says about the run, besides counts found by the load."""

    started_at: dt.datetime
    paths: str
    ruleset_override: str | None
    engine: str
    workers: int
    files_read: int
    files_unchanged: int


@dataclass(frozen=True)
class LoadCounts:
    """What the load stored."""

    import_id: int
    hands_read: int
    hands_added: int
    hands_duplicate: int
    hands_conflict: int
    rejects_added: int
    mismatches_added: int
    rescored: int


def _sql(name: str) -> str:
    return resources.files("pipeline.load").joinpath(name).read_text(encoding="utf-8")


def frame(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pl.DataFrame:
    """The result of a query as a polars frame."""
    return con.sql(sql, params=params).pl()


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection with the import's memory limit; when writable, creates the schema
    or upgrades an older one (``UPGRADABLE``) to ``SCHEMA_VERSION``."""
    try:
        con = duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as error:
        raise UserError(f"cannot open {path} as a DuckDB database: {error}") from None
    try:
        check_whole(con, path)
    except UserError:
        con.close()
        raise
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute("SET preserve_insertion_order = false")
    if not read_only:
        con.execute(_sql("ddl.sql"))
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
    a.duckdb was made by an older version of ofc (schema version 1, now 2): upgrade it once
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
    """
    version = stored_version(con)
    if version == SCHEMA_VERSION:
        return
    if version not in UPGRADABLE:
        raise UserError(schema_problem(path, version))
    con.execute("BEGIN TRANSACTION")
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
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [SCHEMA_VERSION])
    con.execute("COMMIT")


def _open_read_only(db: Path) -> duckdb.DuckDBPyConnection:
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as error:
        raise UserError(f"cannot open {db} as a DuckDB database: {error}") from None
    try:
        check_whole(con, db)
    except UserError:
        con.close()
        raise
    return con


def schema_version(db: Path) -> str | None:
    """The schema version of the database file ``db`` (read-only); None when it does
    not exist yet or ``ofc import`` did not make it."""
    if not db.exists():
        return None
    con = _open_read_only(db)
    try:
        return stored_version(con)
    finally:
        con.close()


def upgrade_from(db: Path) -> str | None:
    """The older schema version ``db`` will be upgraded from by the next import (None:
    none, or no database yet); a UserError when a newer ofc made it."""
    version = schema_version(db)
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
    con = _open_read_only(db)
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


def _parquet(staging: Path, table: str) -> str:
    pattern = str(staging / "*" / f"{table}.parquet").replace("'", "''")
    return f"read_parquet('{pattern}')"


def _classify(con: duckdb.DuckDBPyConnection, staging: Path) -> None:
    """Temp table ``verdicts``: every copy of every hand read, with new/duplicate/conflict."""
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE verdicts AS
        WITH copies AS (
            SELECT hand_id, fingerprint, source_file, source_line, part
            FROM {_parquet(staging, "hands")}
        ),
        ordered AS (
            SELECT *,
                row_number() OVER w AS k,
                first_value(fingerprint) OVER w AS first_fingerprint,
                first_value(source_file) OVER w AS first_file,
                first_value(source_line) OVER w AS first_line
            FROM copies
            WINDOW w AS (PARTITION BY hand_id ORDER BY part, source_line)
        )
        SELECT o.*,
            coalesce(h.fingerprint, o.first_fingerprint) AS kept_fingerprint,
            coalesce(h.source_file, o.first_file) AS kept_file,
            coalesce(h.source_line, o.first_line) AS kept_line,
            CASE
                WHEN h.hand_id IS NULL AND o.k = 1 THEN 'new'
                WHEN o.fingerprint = coalesce(h.fingerprint, o.first_fingerprint) THEN 'duplicate'
                ELSE 'conflict'
            END AS verdict
        FROM ordered AS o
        LEFT JOIN hands AS h USING (hand_id)
    """)


def _insert_new(con: duckdb.DuckDBPyConnection, staging: Path, import_id: int) -> None:
    all_new = con.execute(
        "SELECT count(*) FILTER (WHERE verdict <> 'new') = 0 FROM verdicts"
    ).fetchall()[0][0]
    keep = (
        ""
        if all_new
        else "SEMI JOIN (SELECT part, hand_id FROM verdicts WHERE verdict = 'new') AS n "
        "ON s.part = n.part AND s.hand_id = n.hand_id"
    )
    con.execute(
        f"INSERT INTO hands BY NAME SELECT s.* EXCLUDE (part), {import_id} AS import_id "
        f"FROM {_parquet(staging, 'hands')} AS s {keep}"
    )
    for table in ("player_hands", "placements", "pairwise"):
        con.execute(
            f"INSERT INTO {table} BY NAME SELECT s.* EXCLUDE (part) "
            f"FROM {_parquet(staging, table)} AS s {keep}"
        )


def _insert_rejects(con: duckdb.DuckDBPyConnection, staging: Path, import_id: int) -> int:
    before = con.execute("SELECT count(*) FROM rejects").fetchall()[0][0]
    con.execute(f"""
        INSERT INTO rejects BY NAME
        SELECT DISTINCT r.source_file, r.source_line, r.room_hand_id, r.reason, r.excerpt,
            {import_id} AS import_id
        FROM {_parquet(staging, "rejects")} AS r
        WHERE NOT EXISTS (
            SELECT 1 FROM rejects AS x
            WHERE x.source_file IS NOT DISTINCT FROM r.source_file
              AND x.source_line IS NOT DISTINCT FROM r.source_line
              AND x.reason IS NOT DISTINCT FROM r.reason
        )
    """)
    return con.execute("SELECT count(*) FROM rejects").fetchall()[0][0] - before


def _forget_fixed_rejects(con: duckdb.DuckDBPyConnection, import_id: int) -> None:
    """Drop rejects of hands now stored (e.g. scored once ``--rules-file`` defined their ruleset)."""
    con.execute(
        "DELETE FROM rejects WHERE (source_file, source_line) IN "
        "(SELECT source_file, source_line FROM hands WHERE import_id = ?)",
        [import_id],
    )


def _insert_conflicts(con: duckdb.DuckDBPyConnection, import_id: int) -> None:
    con.execute(f"""
        INSERT INTO conflicts BY NAME
        SELECT DISTINCT v.hand_id, {import_id} AS import_id, v.source_file, v.source_line,
            v.fingerprint, v.kept_fingerprint AS stored_fingerprint,
            v.kept_file AS stored_source_file, v.kept_line AS stored_source_line
        FROM verdicts AS v
        WHERE v.verdict = 'conflict' AND NOT EXISTS (
            SELECT 1 FROM conflicts AS c
            WHERE c.hand_id = v.hand_id AND c.fingerprint = v.fingerprint
              AND c.source_file IS NOT DISTINCT FROM v.source_file
              AND c.source_line IS NOT DISTINCT FROM v.source_line
        )
    """)


_MATCH_REPEATS_SQL = """
    CREATE OR REPLACE TEMP TABLE match_repeats AS
    WITH added AS (
        SELECT h.match_id, v.part FROM hands AS h JOIN verdicts AS v USING (hand_id)
        WHERE h.import_id = $import_id AND v.verdict = 'new' AND h.match_id IS NOT NULL
    ),
    affected AS (
        -- a match read whole in one part was counted right by its worker
        SELECT match_id FROM added GROUP BY match_id HAVING count(DISTINCT part) > 1
        UNION
        SELECT DISTINCT match_id FROM hands
        WHERE import_id <> $import_id AND match_id IN (SELECT match_id FROM added)
    ),
    seq AS (
        SELECT ph.hand_id, ph.seat, ph.player, ph.in_fantasyland, ph.fantasyland_repeats,
            h.match_id, h.played_at,
            sum(CASE WHEN ph.in_fantasyland THEN 0 ELSE 1 END) OVER (
                PARTITION BY ph.player, h.match_id ORDER BY h.played_at, ph.hand_id
                ROWS UNBOUNDED PRECEDING
            ) AS run
        FROM player_hands AS ph
        JOIN hands AS h USING (hand_id)
        WHERE h.match_id IN (SELECT match_id FROM affected)
    )
    SELECT hand_id, seat, fantasyland_repeats AS used,
        CASE WHEN in_fantasyland THEN coalesce(sum(in_fantasyland::INTEGER) OVER (
            PARTITION BY player, match_id, run ORDER BY played_at, hand_id
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ), 0) ELSE 0 END::SMALLINT AS repeats
    FROM seq
"""


def _rescore_matches(con: duckdb.DuckDBPyConnection, import_id: int, load: RulesetLoader) -> int:
    """Re-score hands whose Fantasyland repeats change once their whole match is known.

    Workers count repeats (RULES.md R6) within what they read; a match split
    between files, parts or imports is only whole in the database.
    """
    con.execute(_MATCH_REPEATS_SQL, {"import_id": import_id})
    con.execute(
        "CREATE OR REPLACE TEMP TABLE stale_hands AS "
        "SELECT DISTINCT hand_id FROM match_repeats WHERE repeats <> used"
    )
    stale = con.execute("SELECT count(*) FROM stale_hands").fetchall()[0][0]
    if stale == 0:
        return 0
    model = ", ".join(f"ph.{name}" for name in PLAYER_HANDS.names)
    players = frame(
        con,
        f"SELECT {model}, mr.repeats AS fantasyland_repeats FROM player_hands AS ph "
        "JOIN match_repeats AS mr USING (hand_id, seat) SEMI JOIN stale_hands USING (hand_id)",
    )
    hands = frame(
        con,
        f"SELECT {', '.join(HAND_CONTEXT)} FROM hands SEMI JOIN stale_hands USING (hand_id)",
    )
    result = recompute(hands, players, load)
    features = frame(
        con,
        "SELECT hand_id, seat, first_street_bottom, top_qq_plus_by_street2 FROM player_hands "
        "SEMI JOIN stale_hands USING (hand_id)",
    )
    rows = conform(
        result.player_hands.join(features, on=["hand_id", "seat"], how="left"),
        {k: v for k, v in PLAYER_HANDS_STAGED.items() if k != "part"},
    )
    con.register("rescored_rows", rows)
    con.register("rescored_pairs", result.pairwise)
    rescored = "(SELECT DISTINCT hand_id FROM rescored_rows)"
    con.execute(f"DELETE FROM player_hands WHERE hand_id IN {rescored}")
    con.execute(f"DELETE FROM pairwise WHERE hand_id IN {rescored}")
    con.execute("INSERT INTO player_hands BY NAME SELECT * FROM rescored_rows")
    con.execute("INSERT INTO pairwise BY NAME SELECT * FROM rescored_pairs")
    con.unregister("rescored_rows")
    con.unregister("rescored_pairs")
    return stale


def refresh_metrics(con: duckdb.DuckDBPyConnection) -> None:
    """Rebuild ``audit_mismatches``, ``player_summary`` and ``style_metrics``."""
    for name in METRICS:
        con.execute(_sql(f"metrics/{name}.sql"))


def _write_files(con: duckdb.DuckDBPyConnection, files: list[FileRecord], import_id: int) -> None:
    if not files:
        return
    frame = pl.DataFrame(
        [{"path": f.path} | vars(f.state) for f in files],
        schema={
            "path": pl.String,
            "size_bytes": pl.Int64,
            "mtime_ns": pl.Int64,
            "bytes_imported": pl.Int64,
            "lines_imported": pl.Int64,
            "prefix_sha256": pl.String,
            "hands_read": pl.Int64,
        },
    ).with_columns(import_id=pl.lit(import_id, pl.Int32))
    con.register("file_records", frame)
    con.execute("DELETE FROM source_files WHERE path IN (SELECT path FROM file_records)")
    con.execute("INSERT INTO source_files BY NAME SELECT * FROM file_records")
    con.unregister("file_records")


def load(
    con: duckdb.DuckDBPyConnection,
    staging: Path,
    files: list[FileRecord],
    run: RunInfo,
    load_ruleset: RulesetLoader,
) -> LoadCounts:
    """Load the staged parts into the database in one transaction (see the module docstring)."""
    con.execute("BEGIN TRANSACTION")
    import_id = con.execute("SELECT coalesce(max(import_id), 0) + 1 FROM imports").fetchall()[0][0]
    _classify(con, staging)
    verdicts = dict(con.execute("SELECT verdict, count(*) FROM verdicts GROUP BY ALL").fetchall())
    _insert_new(con, staging, import_id)
    rejects_read = con.execute(f"SELECT count(*) FROM {_parquet(staging, 'rejects')}").fetchall()[
        0
    ][0]
    rejects_added = _insert_rejects(con, staging, import_id)
    _forget_fixed_rejects(con, import_id)
    _insert_conflicts(con, import_id)
    rescored = _rescore_matches(con, import_id, load_ruleset)
    _write_files(con, files, import_id)
    refresh_metrics(con)
    mismatches = con.execute(
        "SELECT count(*) FROM audit_mismatches SEMI JOIN "
        "(SELECT hand_id FROM hands WHERE import_id = ?) USING (hand_id)",
        [import_id],
    ).fetchall()[0][0]
    counts = LoadCounts(
        import_id=import_id,
        hands_read=sum(verdicts.values()) + rejects_read,
        hands_added=verdicts.get("new", 0),
        hands_duplicate=verdicts.get("duplicate", 0),
        hands_conflict=verdicts.get("conflict", 0),
        rejects_added=rejects_added,
        mismatches_added=mismatches,
        rescored=rescored,
    )
    _write_import(con, run, counts)
    con.execute("COMMIT")
    return counts


def _write_import(con: duckdb.DuckDBPyConnection, run: RunInfo, counts: LoadCounts) -> None:
    finished = dt.datetime.now(dt.UTC)
    con.execute(
        "INSERT INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            counts.import_id,
            run.started_at,
            finished,
            run.paths,
            run.ruleset_override,
            run.engine,
            run.workers,
            run.files_read,
            run.files_unchanged,
            counts.hands_read,
            counts.hands_added,
            counts.hands_duplicate,
            counts.hands_conflict,
            counts.rejects_added,
            counts.mismatches_added,
            (finished - run.started_at).total_seconds(),
        ],
    )
