"""Zip archives kept open while their members are read one after another.

Opening a ``.zip`` reads its whole list of members, so an archive of one
file per hand opened once per member costs time that grows with the
square of its members: 1,000 one-hand members took 7 s to parse, 10,000
over ten minutes to import. Inside ``archives_kept_open`` an archive, once
opened, stays open for the next member (up to ``KEPT`` archives, the
least recently used closed first, so an input of many archives does not
run out of file handles); outside, each use opens and closes its own. Each
thread keeps its own (the dashboard imports in a thread of its own).

>>> import io, zipfile
>>> data = io.BytesIO()
>>> with zipfile.ZipFile(data, "w") as archive:
...     archive.writestr("a.txt", "hand")
>>> with archives_kept_open():
...     with opened(data) as first, opened(data) as again:
...         first is again, first.read("a.txt")
(True, b'hand')
"""

from __future__ import annotations

import threading
import zipfile
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: Archives kept open at most (each holds a file handle).
KEPT = 16


class _Kept(threading.local):
    """The archives a thread keeps open in an ``archives_kept_open`` block (None outside one),
    least recently used first."""

    archives: OrderedDict[Any, zipfile.ZipFile] | None = None


_kept = _Kept()


def kept_open() -> int | None:
    """How many archives this thread keeps open (None: outside an ``archives_kept_open``
    block)."""
    return None if _kept.archives is None else len(_kept.archives)


@contextmanager
def archives_kept_open() -> Iterator[None]:
    """Within the block, ``opened`` keeps archives open; they are closed when it ends. A block
    inside another changes nothing."""
    if _kept.archives is not None:
        yield
        return
    _kept.archives = OrderedDict()
    try:
        yield
    finally:
        archives, _kept.archives = _kept.archives, None
        for archive in archives.values():
            archive.close()


@contextmanager
def opened(path: Any) -> Iterator[zipfile.ZipFile]:
    """The archive at ``path`` (a file name or a file object), open for the block."""
    archives = _kept.archives
    if archives is None:
        with zipfile.ZipFile(path) as archive:
            yield archive
        return
    archive = archives.get(path)
    if archive is None:
        archive = zipfile.ZipFile(path)
        archives[path] = archive
        if len(archives) > KEPT:
            archives.popitem(last=False)[1].close()
    else:
        archives.move_to_end(path)
    yield archive
