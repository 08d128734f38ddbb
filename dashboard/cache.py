"""Caching of queries across reruns and sessions, keyed on the database snapshot.

A query's result is kept until the database file changes: the cache key holds
the file's inode and mtime (an import swaps in a new file, docs/schema.md), so
the first run after an import queries the new snapshot.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import streamlit as st

from dashboard.queries.db import Database

R = TypeVar("R")


@st.cache_resource(show_spinner=False)
def database(path: str) -> Database:
    """The one ``Database`` of this server for ``path`` (it reconnects by itself)."""
    return Database(Path(path))


@st.cache_data(show_spinner=False, max_entries=1024)
def _run(
    _query: Callable[..., R],
    name: str,
    _db: Database,
    path: str,
    inode: int,
    mtime_ns: int,
    *args: object,
) -> R:
    """One cache for every query: the key is the query's name, the snapshot and the args."""
    return _query(_db, *args)


def cached(query: Callable[..., R]) -> Callable[..., R]:
    """``query(db, *args)`` cached on (file, inode, mtime, args)."""

    name = f"{query.__module__}.{query.__qualname__}"

    @functools.wraps(query)
    def call(db: Database, *args: object) -> R:
        snapshot = db.stamp()
        return _run(query, name, db, str(db.path), snapshot.inode, snapshot.mtime_ns, *args)

    return call
