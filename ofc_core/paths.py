"""Paths as text, and checks of the paths a user names (``--db``, ``--out``), told as the
one thing wrong."""

from __future__ import annotations

import os
from pathlib import Path

from ofc_core.errors import UserError


def as_text(path: str) -> str:
    """``path`` as valid text for a table or a message: bytes of a file name that are not
    UTF-8 (which Python keeps as lone surrogates, PEP 383) written as ``\\xNN``.

    >>> as_text("caf\\udce9.txt"), as_text("café.txt")
    ('caf\\\\xe9.txt', 'café.txt')
    """
    if path.isascii():
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def check_text_name(path: Path, option: str) -> None:
    """A UserError when ``path``'s name holds bytes that are not UTF-8: the databases and
    Parquet files ``ofc`` writes take only UTF-8 names."""
    shown = as_text(str(path))
    if shown != str(path):
        raise UserError(
            f"{option} {shown}: the name holds bytes that are not UTF-8; give a name in UTF-8"
        )


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


def broken_link(path: Path) -> Path | None:
    """``path`` or the nearest folder above it that is a symbolic link to nothing (a drive
    not mounted, a folder moved), else None.

    >>> broken_link(Path("/tmp/no-such-folder/x.duckdb")) is None
    True
    """
    for place in (Path(path), *Path(path).parents):
        if place.is_symlink() and not place.exists():
            return place
    return None


def check_not_under_a_file(path: Path, option: str) -> None:
    """A UserError when a folder above ``path`` is a file, naming ``option`` and that file, or
    when ``path`` or a folder above it is a link to nothing (``broken_link``)."""
    blocker = file_in_the_way(path)
    if blocker is not None:
        raise UserError(
            f"{option} {path}: {blocker} is a file, not a folder; give a path inside a folder"
        )
    link = broken_link(path)
    if link is not None:
        raise UserError(
            f"{option} {path}: {link} is a link to {os.readlink(link)}, which does not exist "
            "(a drive not mounted?); mount it, or give another path"
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
