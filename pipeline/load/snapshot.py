"""Atomic replacement of the database file, so an import never disturbs readers.

An import never opens ``FILE.duckdb`` for writing. Holding ``FILE.duckdb.lock``
(so imports queue), it copies the file to ``FILE.duckdb.importing-<run>``,
writes into the copy, closes it, flushes it to disk and swaps it in with
``os.replace``, which is atomic: a reader opens either the old file or the new
one, and a reader that already has the old one open keeps reading it (DuckDB's
read-only lock is on the old inode, which lives until closed). A run killed at
any moment leaves ``FILE.duckdb`` untouched; its leftovers are removed by the
next run, which holds the lock, so no other run can own them.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ofc_core.errors import UserError
from ofc_core.faults import storage_problem

LOCK_SUFFIX = ".lock"
WORK_INFIX = ".importing-"
STAGING_SUFFIX = ".staging"


@dataclass(frozen=True)
class Paths:
    """The database file and the files an import keeps next to it."""

    db: Path

    @property
    def lock(self) -> Path:
        return self.db.with_name(self.db.name + LOCK_SUFFIX)

    @property
    def staging(self) -> Path:
        return self.db.with_name(self.db.name + STAGING_SUFFIX)

    def work(self, run: str) -> Path:
        return self.db.with_name(f"{self.db.name}{WORK_INFIX}{run}")

    def own_files(self) -> list[Path]:
        """Paths an import creates, which must never be read as input."""
        return [self.db, self.lock, self.staging, self.db.with_name(self.db.name + ".wal")]

    def is_own(self, path: str) -> bool:
        """Whether ``path`` (resolved, as ``db`` is) is the database, one of the import's own
        files or inside one (the staging folder)."""
        if any(path == own or path.startswith(own + os.sep) for own in self._own_texts):
            return True
        return os.path.basename(path).startswith(self.db.name + WORK_INFIX)

    @cached_property
    def _own_texts(self) -> tuple[str, ...]:
        return tuple(map(str, self.own_files()))


@contextmanager
def import_lock(paths: Paths, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the import lock of ``paths.db`` (waiting for another import if needed).

    The lock file is removed when the lock is released, whether the import
    succeeded or failed. A waiter that then holds a lock on the removed file
    sees that the path no longer names it, and locks the file now there.
    """
    waited = False
    while True:
        # closed on release below, or when the file was removed under us
        try:
            handle = open(paths.lock, "a+")  # noqa: SIM115
        except OSError as error:
            raise folder_not_writable(paths, error) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None and not waited:
                on_wait()
            waited = True
            fcntl.flock(handle, fcntl.LOCK_EX)
        if _still_names(paths.lock, handle):
            break
        handle.close()  # the holder before us removed this file: lock the current one
    try:
        remove_leftovers(paths)
        yield
    finally:
        paths.lock.unlink(missing_ok=True)
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def folder_not_writable(paths: Paths, error: OSError) -> UserError:
    """The error for a database whose folder takes no new file (the lock, the work copy)."""
    why = storage_problem(OSError(error.errno, error.strerror))  # the file is named below
    if why is None:
        why = (error.strerror or str(error)).lower()
    why += f": {error.filename}" if error.filename else ""
    return UserError(
        f"--db {paths.db}: its folder {paths.db.parent} cannot be written ({why}); "
        "choose a --db in a folder you can write to"
    )


def _still_names(path: Path, handle) -> bool:
    """Whether ``path`` is still the file open as ``handle``."""
    try:
        return os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
    except FileNotFoundError:
        return False


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def remove_work(paths: Paths, run: str) -> None:
    """Delete one run's work copy with DuckDB's files beside it (``.wal``, ``.tmp/``)."""
    for leftover in paths.db.parent.glob(f"{paths.work(run).name}*"):
        _remove(leftover)


def remove_leftovers(paths: Paths) -> None:
    """Delete work copies and staged Parquet of runs that did not finish."""
    for leftover in paths.db.parent.glob(f"{paths.db.name}{WORK_INFIX}*"):
        _remove(leftover)
    shutil.rmtree(paths.staging, ignore_errors=True)


def start_copy(paths: Paths, run: str) -> Path:
    """A private copy of the database to write into (an empty path if there is none yet)."""
    wal = paths.db.with_name(paths.db.name + ".wal")
    if wal.exists():
        raise UserError(
            f"{wal} exists: another program has {paths.db} open for writing or crashed while "
            "writing it; close that program (or open the file once with duckdb and close it), "
            "then import again"
        )
    work = paths.work(run)
    if paths.db.exists():
        try:
            shutil.copyfile(paths.db, work)
        except OSError as error:
            if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                raise  # a full disk is told as such by the caller
            raise folder_not_writable(paths, error) from None
    return work


def swap_in(work: Path, paths: Paths) -> None:
    """Flush the finished copy to disk and atomically make it the database."""
    leftover_wal = work.with_name(work.name + ".wal")
    if leftover_wal.exists():
        raise RuntimeError(f"{leftover_wal} remains after closing the database: not swapping")
    with open(work, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(work, paths.db)
    directory = os.open(paths.db.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
