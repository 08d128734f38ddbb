"""Zip archives kept open while their members are read one after another.

Opening a ``.zip`` reads its whole list of members, so an archive of one
file per hand opened once per member costs time that grows with the
square of its members: 1,000 one-hand members took 7 s to parse, 10,000
over ten minutes to import. Inside ``archives_kept_open`` an archive, once
opened, stays open for the next member (up to ``KEPT`` archives, the
least recently used closed first, so an input of many archives does not
run out of file handles); outside, each use opens and closes its own.

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

import zipfile
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: Archives kept open at most (each holds a file handle).
KEPT = 16

#: The archives open in an ``archives_kept_open`` block, least recently used first.
_kept: OrderedDict[Any, zipfile.ZipFile] | None = None


@contextmanager
def archives_kept_open() -> Iterator[None]:
    """Within the block, ``opened`` keeps archives open; they are closed when it ends. A block
    inside another changes nothing."""
    global _kept
    if _kept is not None:
        yield
        return
    _kept = OrderedDict()
    try:
        yield
    finally:
        kept, _kept = _kept, None
        for archive in kept.values():
            archive.close()


@contextmanager
def opened(path: Any) -> Iterator[zipfile.ZipFile]:
    """The archive at ``path`` (a file name or a file object), open for the block."""
    if _kept is None:
        with zipfile.ZipFile(path) as archive:
            yield archive
        return
    archive = _kept.get(path)
    if archive is None:
        archive = zipfile.ZipFile(path)
        _kept[path] = archive
        if len(_kept) > KEPT:
            _kept.popitem(last=False)[1].close()
    else:
        _kept.move_to_end(path)
    yield archive
