"""The one-transaction load of an import's staged Parquet parts into the database.

``load`` moves the staged parts into the tables of docs/schema.md in a
single transaction: it sorts every copy of every hand into new, duplicate
(same id, same fingerprint) or conflict (same id, different fingerprint; the
stored or first-read copy is kept), except that a full copy replaces a hand
stored incomplete by an older version (a summary line cut short); inserts the
new hands with their rows (numbered on from the last stored ``hand_no``),
records rejects and conflicts once each (the rejects of a grown file past
where the last import stopped, of a last hand it found cut short, are
replaced by this read's), re-scores hands whose Fantasyland repeats change
once their whole match is known (``pipeline.load.rescore``),
refreshes the metric tables where the import changed them
(``pipeline.load.metrics.refresh``) and writes the run's row in ``imports``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from ofc_core.paths import as_text
from parsers.lines import MEMBER_SEPARATOR
from pipeline.load import unreadable
from pipeline.load.database import KnownFile
from pipeline.load.metrics.refresh import Touched
from pipeline.load.recompute import RulesetLoader
from pipeline.load.rescore import rescore_matches


@dataclass(frozen=True)
class FileRecord:
    """A ``source_files`` row to write: a file's path and what to remember of it."""

    path: str
    state: KnownFile
    #: A file read again from after this line (0: a rewritten file or archive, read again
    #: from its start; a grown file: where the last import stopped): its rejects past it
    #: (a last hand cut short, read again now) are replaced by what this read finds.
    read_after_line: int | None = None


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
    #: The most frequent reasons among the rejects added, with their counts.
    top_reject_reasons: tuple[tuple[str, int], ...] = ()


def _parquet(staging: Path, table: str) -> str:
    pattern = str(staging / "*" / f"{table}.parquet").replace("'", "''")
    return f"read_parquet('{pattern}')"


def _classify(con: duckdb.DuckDBPyConnection, staging: Path) -> None:
    """Temp table ``verdicts``: every copy of every hand read, with new/duplicate/conflict,
    or ``replace``: the first copy read of a hand stored incomplete (``_INCOMPLETE``)."""
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
        ),
        stored AS (
            SELECT h.hand_id, h.fingerprint, h.source_file, h.source_line
            FROM hands AS h SEMI JOIN copies USING (hand_id)
            WHERE h.hand_id NOT IN ({_INCOMPLETE})
        ),
        replaced AS (SELECT hand_id FROM hands SEMI JOIN copies USING (hand_id)
            WHERE hand_id IN ({_INCOMPLETE}))
        SELECT o.*,
            coalesce(h.fingerprint, o.first_fingerprint) AS kept_fingerprint,
            coalesce(h.source_file, o.first_file) AS kept_file,
            coalesce(h.source_line, o.first_line) AS kept_line,
            CASE
                WHEN h.hand_id IS NULL AND o.k = 1 AND r.hand_id IS NOT NULL THEN 'replace'
                WHEN h.hand_id IS NULL AND o.k = 1 THEN 'new'
                WHEN o.fingerprint = coalesce(h.fingerprint, o.first_fingerprint) THEN 'duplicate'
                ELSE 'conflict'
            END AS verdict
        FROM ordered AS o
        LEFT JOIN stored AS h USING (hand_id)
        LEFT JOIN replaced AS r USING (hand_id)
    """)


#: Hands stored incomplete by older versions: a summary line cut short (no money at a
#: table played for money, ``parsers.validate.cut_summaries``). A full copy replaces them.
_INCOMPLETE = (
    "SELECT hand_id FROM player_hands WHERE currency IS NOT NULL AND reported_money IS NULL"
)


_REPLACED = "SELECT hand_id FROM verdicts WHERE verdict = 'replace'"
_ADDED = "SELECT hand_id FROM verdicts WHERE verdict IN ('new', 'replace')"


def _drop_replaced(con: duckdb.DuckDBPyConnection) -> None:
    """Delete the stored rows of hands a full copy replaces."""
    for table in ("hands", "player_hands", "placements", "pairwise"):
        con.execute(f"DELETE FROM {table} WHERE hand_id IN ({_REPLACED})")


#: Each part's first ``hand_no``: past every stored one, its hands after the earlier parts'.
_PART_OFFSETS = """
    CREATE OR REPLACE TEMP TABLE part_offsets AS
    SELECT part, (SELECT coalesce(max(hand_no), 0) + 1 FROM hands)
        + coalesce(sum(numbers) OVER (ORDER BY part ROWS UNBOUNDED PRECEDING EXCLUDE CURRENT ROW), 0)
        AS first_no
    FROM (SELECT part, max(hand_no) + 1 AS numbers FROM {hands} GROUP BY part)
"""


def _insert_new(con: duckdb.DuckDBPyConnection, staging: Path, import_id: int) -> None:
    """Insert the new hands and their rows, each hand's ``hand_no`` its part's offset plus
    its number within the part (a hand's rows are inserted together: a lookup by number
    reads one row group of each table)."""
    all_new = con.execute(
        "SELECT count(*) FILTER (WHERE verdict NOT IN ('new', 'replace')) = 0 FROM verdicts"
    ).fetchall()[0][0]
    keep = (
        ""
        if all_new
        else "SEMI JOIN (SELECT part, hand_id FROM verdicts WHERE verdict IN ('new', 'replace')) "
        "AS n "
        "ON s.part = n.part AND s.hand_id = n.hand_id"
    )
    con.execute(_PART_OFFSETS.format(hands=_parquet(staging, "hands")))
    numbered = "JOIN part_offsets AS o USING (part)"
    hand_no = "o.first_no + s.hand_no AS hand_no"
    con.execute(
        f"INSERT INTO hands BY NAME SELECT s.* EXCLUDE (part, hand_no), {hand_no}, "
        f"{import_id} AS import_id FROM {_parquet(staging, 'hands')} AS s {numbered} {keep}"
    )
    for table in ("player_hands", "placements", "pairwise"):
        con.execute(
            f"INSERT INTO {table} BY NAME SELECT s.* EXCLUDE (part, hand_no), {hand_no} "
            f"FROM {_parquet(staging, table)} AS s {numbered} {keep}"
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


def _top_reject_reasons(
    con: duckdb.DuckDBPyConnection, import_id: int, count: int = 3
) -> tuple[tuple[str, int], ...]:
    rows = con.execute(
        "SELECT reason, count(*) AS n FROM rejects WHERE import_id = ? "
        "GROUP BY reason ORDER BY n DESC, reason LIMIT ?",
        [import_id, count],
    ).fetchall()
    return tuple((reason, n) for reason, n in rows)


def _forget_rejects_read_again(con: duckdb.DuckDBPyConnection, files: list[FileRecord]) -> None:
    """Drop the rejects of the part of a file read again (a rewritten file or archive, its
    members too; the last hand an earlier import found cut short, past a grown file's
    ``bytes_imported``): this read's rejects replace them. A reject sits at its problem's
    line, not its hand's first, so it is matched by line range, not by the hand stored."""
    for file in files:
        if file.read_after_line is not None:
            path = as_text(file.path)
            con.execute(
                "DELETE FROM rejects WHERE (source_file = ? OR starts_with(source_file, ?))"
                " AND source_line > ?",
                [path, f"{path}{MEMBER_SEPARATOR}", file.read_after_line],
            )


def _forget_unreadable_rejects(con: duckdb.DuckDBPyConnection, files: list[FileRecord]) -> None:
    """Drop the rejects of a file, or a folder, an earlier import could not read
    (``pipeline.load.unreadable``, at its ``LINE``) when this import read the file, or a
    file in the folder: its permissions were fixed, and this read accounts for its hands."""
    con.execute(
        "DELETE FROM rejects WHERE source_line = $line AND EXISTS ("
        " SELECT 1 FROM (SELECT unnest($paths::VARCHAR[]) AS path)"
        " WHERE path = source_file OR starts_with(path, source_file || '/'))",
        {"line": unreadable.LINE, "paths": [as_text(file.path) for file in files]},
    )


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


def _write_files(con: duckdb.DuckDBPyConnection, files: list[FileRecord], import_id: int) -> None:
    if not files:
        return
    frame = pl.DataFrame(
        [{"path": as_text(f.path)} | vars(f.state) for f in files],
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
    touched = Touched(con, adding=verdicts.get("new", 0) + verdicts.get("replace", 0))
    touched.rows_of(_REPLACED)
    _drop_replaced(con)
    _insert_new(con, staging, import_id)
    rejects_read = con.execute(f"SELECT count(*) FROM {_parquet(staging, 'rejects')}").fetchall()[
        0
    ][0]
    _forget_rejects_read_again(con, files)
    _forget_unreadable_rejects(con, files)
    rejects_added = _insert_rejects(con, staging, import_id)
    _forget_fixed_rejects(con, import_id)
    _insert_conflicts(con, import_id)
    rescored = rescore_matches(con, import_id, load_ruleset)
    _write_files(con, files, import_id)
    touched.rows_of(f"{_ADDED} UNION ALL SELECT hand_id FROM stale_hands")  # stale: re-scored
    touched.refresh()
    mismatches = con.execute(
        "SELECT count(*) FROM audit_mismatches SEMI JOIN "
        "(SELECT hand_id FROM hands WHERE import_id = ?) USING (hand_id)",
        [import_id],
    ).fetchall()[0][0]
    counts = LoadCounts(
        import_id=import_id,
        hands_read=sum(verdicts.values()) + rejects_read,
        hands_added=verdicts.get("new", 0) + verdicts.get("replace", 0),
        hands_duplicate=verdicts.get("duplicate", 0),
        hands_conflict=verdicts.get("conflict", 0),
        rejects_added=rejects_added,
        mismatches_added=mismatches,
        rescored=rescored,
        top_reject_reasons=_top_reject_reasons(con, import_id),
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
