"""Checks of the paths a user names (``--db``, ``--out``), told as the one thing wrong."""

from __future__ import annotations

from pathlib import Path

from ofc_core.errors import UserError


def file_in_the_way(path: Path) -> Path | None:
    """The nearest existing folder above ``path`` when it is in fact a file (or another
    non-folder), else None.

    >>> file_in_the_way(Path("/proc/self/status/x.duckdb"))
    PosixPath('/proc/self/status')
    >>> file_in_the_way(Path("/tmp/no-such-folder/x.duckdb")) is None
    True
    """
    for parent in Path(path).parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def check_not_under_a_file(path: Path, option: str) -> None:
    """A UserError when a folder above ``path`` is a file, naming ``option`` and that file."""
    blocker = file_in_the_way(path)
    if blocker is not None:
        raise UserError(
            f"{option} {path}: {blocker} is a file, not a folder; give a path inside a folder"
        )


def check_not_a_folder(db: Path) -> None:
    """A UserError when ``--db`` names a folder rather than the database file ``ofc import``
    made, naming the database files the folder holds."""
    if Path(db).is_dir():
        found = sorted(p.name for p in Path(db).glob("*.duckdb"))
        hint = f" (it holds {', '.join(found)})" if found else ", such as hands.duckdb"
        raise UserError(
            f"--db {db} is a folder, not a database file; give the file `ofc import` made{hint}"
        )


def check_folder_of(path: Path, option: str) -> None:
    """A UserError unless the folder ``path`` goes into exists (a file in the way said so)."""
    check_not_under_a_file(path, option)
    if not Path(path).parent.is_dir():
        raise UserError(f"the folder of {option} {path} does not exist; create it first")
