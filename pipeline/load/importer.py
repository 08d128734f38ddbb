"""One import run: files → staged Parquet → rules engine → DuckDB, atomically.

Under the import lock: find what is new in the files (``files``), stage it
on the chosen engine (``executors``), copy the database, load the staged
parts in one transaction (``store.load``), and swap the copy in
(``snapshot``). A run with nothing new changes nothing. A run stopped at any
moment leaves the database as it was; the next run removes its leftovers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import pwd
import shutil
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ofc_core import interrupts
from ofc_core.errors import UserError
from ofc_core.faults import storage_problem
from ofc_core.paths import as_text, check_folder_of, check_text_name
from ofc_core.rulesets import load_ruleset
from pipeline.load import database, store
from pipeline.load.executors import Task, run_tasks
from pipeline.load.files import (
    CHUNK_BYTES,
    Batch,
    Digest,
    FileToRead,
    SmallInput,
    feed,
    groups,
    holds_no_hands,
    input_files,
    listed_members,
    member_piece,
    pieces,
    prefix_sha256,
    to_read,
)
from pipeline.load.progress import Progress
from pipeline.load.recompute import ruleset_loader
from pipeline.load.snapshot import Paths, import_lock, remove_work, start_copy, swap_in
from pipeline.load.staging import StageOptions, StageResult
from pipeline.load.unreadable import stage_rejects, unreadable_reason


@dataclass(frozen=True)
class ImportOptions:
    """What ``ofc import`` was asked to do."""

    paths: tuple[str, ...]
    db: Path
    ruleset: str | None = None
    rules_file: str | None = None
    workers: int = 1
    engine: str = "local"
    scheduler: str | None = None
    reread: bool = False
    complete_only: bool = False  # --watch: leave a hand still being written for later
    finished: bool = False  # files written whole (uploads): an unended last line is not a cut
    chunk_bytes: int = CHUNK_BYTES
    confine_to: tuple[Path, ...] | None = None  # the dashboard's --import-dir folders


@dataclass(frozen=True)
class ImportSummary:
    """What a run did, for the closing summary."""

    db: Path
    files_read: int
    files_unchanged: int
    counts: store.LoadCounts | None  # None: nothing new, database untouched
    held_back: tuple[tuple[str, int], ...]
    seconds: float
    stage_seconds: float = 0.0  # parsing and scoring
    load_seconds: float = 0.0  # copying, loading, rebuilding metrics, swapping in
    upgraded_from: str | None = None  # the older schema version the database had
    fast_path_fallbacks: int = 0  # pieces the thorough reader read after a fast path error
    skipped: tuple[str, ...] = ()  # files with no hand history in them


@dataclass
class _FileProgress:
    """Results of one file's pieces, collected as they finish."""

    file: FileToRead
    hands_read: int = 0
    staged: int = 0  # hands and rejects staged, read again or not
    lines: int = 0
    end: int | None = None
    held_back_line: int | None = None
    fast_path_fallbacks: int = 0


def _check_options(options: ImportOptions) -> None:
    check_text_name(options.db, "--db")
    check_folder_of(options.db, "--db")
    if not options.paths and not options.db.exists():
        raise UserError(
            f"{options.db} does not exist and no files were named: "
            f"`ofc import PATH... --db {options.db}` creates it"
        )
    if options.db.exists() and options.db.is_dir():
        raise UserError(f"--db {options.db} is a folder; give a file name such as hands.duckdb")
    if options.db.is_file() and (problem := _write_problem(options.db)):
        raise UserError(problem)
    if options.ruleset is not None:
        load_ruleset(options.ruleset, options.rules_file)
    elif options.rules_file is not None:
        load_ruleset("pineapple-1-6-american", options.rules_file)  # checks the file parses


def _write_problem(db: Path) -> str | None:
    """Why this user cannot import into the database file ``db`` (None: they can): an import
    writes a new copy beside it and swaps it in, so it needs the file and its folder."""
    info = db.stat()
    mode = stat.S_IMODE(info.st_mode)
    if not mode & 0o222:  # by its mode, which root would ignore
        return (
            f"--db {db} is read-only (mode {mode:o}): an import replaces the file; make it"
            " writable (chmod u+w) to import into it"
        )
    if not os.access(db, os.W_OK):
        return (
            f"--db {db} belongs to {_owner_name(info.st_uid)} (mode {mode:o}) and cannot be"
            " written by this user: import as its owner, or into a copy of it"
        )
    if not os.access(db.parent, os.W_OK | os.X_OK):
        return (
            f"--db {db}: its folder {db.parent} cannot be written by this user (an import"
            " writes a new copy of the database beside it, then swaps it in): import into a"
            " copy in a folder you can write"
        )
    return None


def _owner_name(uid: int) -> str:
    """The name of the user ``uid`` (``uid N`` when it has none)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _tasks(
    files: list[FileToRead],
    chunk_bytes: int,
    complete_only: bool,
    owner: dict[int, tuple[str, int]],
    digests: dict[str, Digest],
) -> Iterator[Task]:
    """Numbered pieces of every file, and batches of small files and small zip members (a
    part number per file or member; an archive's bytes shared among its members).

    ``owner`` learns each part's file and byte count; ``digests`` gets each
    plain file's sha256, fed while the file is cut (its prefix first when the
    file has grown).
    """
    part = 0
    members = listed_members(files)
    shares = {f.path: f.size // max(len(members[f.path]), 1) for f in files if f.archive}
    for group in groups(files, chunk_bytes, complete_only, members):
        if len(group) > 1:
            for i, (file, _) in enumerate(group):
                owner[part + 1 + i] = (file.path, shares.get(file.path, file.size))
            yield part + 1, Batch(tuple(m or SmallInput(f.path, f.size) for f, m in group))
            part += len(group)
            continue
        [(file, member)] = group
        if member is not None:
            part += 1
            owner[part] = (file.path, shares[file.path])
            yield part, member_piece(member)
            continue
        digest = feed(hashlib.sha256(), file.path, file.start)
        digests[file.path] = digest
        for piece in pieces(file, chunk_bytes, digest):
            part += 1
            owner[part] = (file.path, piece.end - piece.start)
            yield part, piece


def _record(progress: _FileProgress, digest: Digest | None) -> store.FileRecord:
    file = progress.file
    end = file.size if progress.end is None else progress.end
    sha = digest.hexdigest() if digest is not None and end == file.size else None
    if sha is None:
        sha = prefix_sha256(file.path, end)
    grown = file.start > 0 and file.known is not None
    state = database.KnownFile(
        size_bytes=file.size,
        mtime_ns=file.mtime_ns,
        bytes_imported=end,
        lines_imported=file.first_line + progress.lines,
        prefix_sha256=sha,
        hands_read=progress.hands_read + (file.known.hands_read if grown else 0),
    )
    read_again = file.known is not None  # grown: from where it stopped; else from its start
    return store.FileRecord(file.path, state, file.first_line if read_again else None)


def _stage(
    files: list[FileToRead], options: ImportOptions, staging: Path, progress: Progress
) -> tuple[dict[str, _FileProgress], dict[str, Digest]]:
    """Stage every new piece; per file, what was taken, and the sha256 of what was read."""
    by_file = {f.path: _FileProgress(f) for f in files}
    owner: dict[int, tuple[str, int]] = {}
    digests: dict[str, Digest] = {}

    def on_result(result: StageResult) -> None:
        path, size = owner[result.part]
        state = by_file[path]
        state.hands_read += result.hands + result.rejects - result.read_again
        state.staged += result.hands + result.rejects
        state.lines += result.consumed_lines
        if result.consumed_end is not None:
            state.end = max(state.end or 0, result.consumed_end)
        if result.held_back_line is not None:
            state.held_back_line = result.held_back_line
        state.fast_path_fallbacks += result.fast_path_fallbacks
        progress.add(result.hands + result.rejects, result.rejects, size)

    stage_options = StageOptions(
        staging=str(staging),
        ruleset_override=options.ruleset,
        rules_file=options.rules_file,
        complete_only=options.complete_only,
        finished=options.finished,
    )
    run_tasks(
        _tasks(files, options.chunk_bytes, options.complete_only, owner, digests),
        stage_options,
        options.engine,
        options.workers,
        options.scheduler,
        on_result,
    )
    return by_file, digests


def run_import(options: ImportOptions, progress: Progress) -> ImportSummary:
    """Import what is new in ``options.paths`` into ``options.db`` (see the module docstring).

    A fault of the machine (a full disk, a read-only folder) is a UserError
    saying where, raised once the run's temporary files are removed.
    """
    try:
        return _run_import(options, progress)
    except UserError:
        raise
    except Exception as error:
        problem = storage_problem(error)
        if problem is None:
            raise
        raise UserError(
            f"the import into {options.db} stopped: {problem}; the database is unchanged"
            " and the import's temporary files are removed"
        ) from None


def _run_import(options: ImportOptions, progress: Progress) -> ImportSummary:
    began = time.monotonic()
    started_at = dt.datetime.now(dt.UTC)
    _check_options(options)
    paths = Paths(options.db.resolve())
    with import_lock(paths, on_wait=lambda: progress.phase("waiting for another import to finish")):
        upgrade = database.upgrade_from(paths.db)
        inputs = (
            input_files(list(options.paths), paths.db, options.complete_only, options.confine_to)
            if options.paths
            else []
        )
        known = database.known_files(paths.db)
        news = [
            f
            for f in (to_read(p, known.get(as_text(str(p))), options.reread) for p in inputs)
            if f is not None
        ]
        unchanged = len(inputs) - len(news)
        unreadable = {f.path: why for f in news if (why := unreadable_reason(f.path)) is not None}
        readable = [f for f in news if f.path not in unreadable]
        skipped = tuple(f.path for f in readable if holds_no_hands(f.path))  # only what is new
        reads = [f for f in readable if f.path not in skipped]
        if not reads and not unreadable:
            if upgrade is not None:
                _upgrade(paths, progress)
            seconds = time.monotonic() - began
            return ImportSummary(
                paths.db, 0, unchanged, None, (), seconds, upgraded_from=upgrade, skipped=skipped
            )
        run = _run_id()
        staging = paths.staging / run
        staging.mkdir(parents=True)
        try:
            if unreadable:
                stage_rejects(unreadable, staging)
            summary = _import(
                options,
                paths,
                reads,
                unchanged,
                staging,
                run,
                progress,
                began,
                started_at,
                must_load=bool(unreadable),
            )
            if summary.counts is None and upgrade is not None:
                _upgrade(paths, progress)
            files_read = summary.files_read + len(unreadable)
            return replace(summary, files_read=files_read, upgraded_from=upgrade, skipped=skipped)
        finally:
            with interrupts.deferred():  # a Ctrl-C now waits until nothing is left beside
                shutil.rmtree(paths.staging, ignore_errors=True)
                remove_work(paths, run)


def _run_id() -> str:
    return f"{os.getpid()}-{time.time_ns()}"


def _upgrade(paths: Paths, progress: Progress) -> None:
    """Nothing to import into a database of an older schema: upgrade a copy
    (``database.connect`` does) and swap it in, atomically like an import."""
    progress.phase(f"upgrading {paths.db.name} to schema version {database.SCHEMA_VERSION}")
    run = _run_id()
    try:
        work = start_copy(paths, run)
        con = database.connect(work)
        try:
            con.execute("CHECKPOINT")
        finally:
            con.close()
        swap_in(work, paths)
    finally:
        remove_work(paths, run)


def _import(
    options: ImportOptions,
    paths: Paths,
    reads: list[FileToRead],
    unchanged: int,
    staging: Path,
    run: str,
    progress: Progress,
    began: float,
    started_at: dt.datetime,
    must_load: bool = False,
) -> ImportSummary:
    """Stage ``reads`` and load them; the database is left alone (``counts`` None) when they
    held nothing to take, unless ``must_load`` (rejects staged already)."""
    total = sum(f.size - f.start for f in reads)
    progress.start(total)
    if total < options.chunk_bytes and options.engine == "local":
        options = replace(options, workers=1)  # starting worker processes costs more
    by_file, digests = _stage(reads, options, staging, progress)
    progress.close()
    held = tuple(
        (path, state.held_back_line)
        for path, state in by_file.items()
        if state.held_back_line is not None
    )
    if not must_load and not any(s.staged or s.lines or s.file.cut_back for s in by_file.values()):
        # e.g. --watch finding a hand still being written: read again next time, from here
        return ImportSummary(paths.db, 0, unchanged, None, held, time.monotonic() - began)
    records = [_record(state, digests.get(path)) for path, state in by_file.items()]
    staged = time.monotonic()
    progress.phase(f"loading into {paths.db.name}")
    work = start_copy(paths, run)
    con = database.connect(work)
    try:
        counts = store.load(
            con,
            staging,
            records,
            store.RunInfo(
                started_at=started_at,
                paths=" ".join(options.paths),
                ruleset_override=options.ruleset,
                engine=options.engine,
                workers=options.workers,
                files_read=len(reads),
                files_unchanged=unchanged,
            ),
            ruleset_loader(options.rules_file),
        )
        con.execute("CHECKPOINT")
    finally:
        con.close()
    interrupts.check()  # a Ctrl-C that compiled code swallowed still stops before the swap
    swap_in(work, paths)
    done = time.monotonic()
    return ImportSummary(
        paths.db,
        len(reads),
        unchanged,
        counts,
        held,
        done - began,
        stage_seconds=staged - began,
        load_seconds=done - staged,
        fast_path_fallbacks=sum(state.fast_path_fallbacks for state in by_file.values()),
    )


def _upgrade_note(summary: ImportSummary) -> str:
    return f"upgraded from schema version {summary.upgraded_from} to {database.SCHEMA_VERSION}"


def _nothing_new(summary: ImportSummary) -> str:
    """The summary of a run that imported nothing.

    >>> from pathlib import Path
    >>> _nothing_new(ImportSummary(Path("a.duckdb"), 0, 2, None, (), 0.1))
    'nothing new in 2 file(s) already imported; a.duckdb unchanged'
    >>> _nothing_new(ImportSummary(Path("a.duckdb"), 0, 0, None, (), 0.1, upgraded_from="1"))
    'no files to import; a.duckdb upgraded from schema version 1 to 7'
    """
    state = _upgrade_note(summary) if summary.upgraded_from else "unchanged"
    if summary.files_unchanged:
        return (
            f"nothing new in {summary.files_unchanged} file(s) already imported; "
            f"{summary.db} {state}"
        )
    return f"no files to import; {summary.db} {state}"


def _reject_lines(counts: store.LoadCounts) -> list[str]:
    """The most frequent reasons of this import's rejects, and where all of them are."""
    if not counts.rejects_added:
        return []
    lines = [f"    {n:>14,}  {reason}" for reason, n in counts.top_reject_reasons]
    shown = sum(n for _, n in counts.top_reject_reasons)
    rest = (
        f"the other {counts.rejects_added - shown:,} and " if shown < counts.rejects_added else ""
    )
    lines.append(
        f"    {rest}every reject's file, line and reason: table rejects, import_id = "
        f"{counts.import_id} (docs/schema.md; the dashboard's Import page)"
    )
    return lines


def summary_lines(summary: ImportSummary) -> list[str]:
    """The closing summary, as lines for people."""
    lines = []
    if summary.counts is None:
        lines.append(_nothing_new(summary))
    else:
        c = summary.counts
        rate = c.hands_read / summary.seconds if summary.seconds > 0 else 0.0
        lines += [
            f"import #{c.import_id} into {summary.db}: {summary.files_read} file(s) read, "
            f"{summary.files_unchanged} unchanged",
            f"  hands read       {c.hands_read:>12,}  ({rate:,.0f} hands/s; {summary.seconds:.1f} s: "
            f"{summary.stage_seconds:.1f} s reading and scoring, {summary.load_seconds:.1f} s loading)",
            f"  stored           {c.hands_added:>12,}",
            f"  already stored   {c.hands_duplicate:>12,}",
            f"  conflicts        {c.hands_conflict:>12,}  (same hand id, different content)",
            f"  rejected         {c.rejects_added:>12,}  (new rows in rejects)",
            *_reject_lines(c),
            f"  audit mismatches {c.mismatches_added:>12,}  (player-hands the room scored differently)",
        ]
        if summary.fast_path_fallbacks:
            lines.append(
                f"  fast path errors {summary.fast_path_fallbacks:>12,}  (pieces the thorough "
                "reader read instead: every hand is counted, more slowly; please report it)"
            )
        if summary.upgraded_from:
            lines.append(f"  database         {_upgrade_note(summary)}")
    lines += [f"  skipped: not a hand history: {path}" for path in summary.skipped]
    lines += [
        f"  waiting for the hand at {path}:{line} to be completed"
        for path, line in summary.held_back
    ]
    return lines
