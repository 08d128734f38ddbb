"""Faults of the machine rather than of the input, told as one line: a full disk, a file
over the size limit, no permission, a read-only file system, a damaged database file, a
place where no file can be made (``/proc/x``).

The libraries report them in their own ways: Python as ``OSError`` with an
``errno``, polars and DuckDB as their own exceptions whose text carries the
system's message. ``storage_problem`` recognises all of them.

>>> import errno
>>> storage_problem(OSError(errno.ENOSPC, "No space left on device", "/data/x"))
'no space left on the device (writing /data/x)'
>>> storage_problem(RuntimeError("parquet: underlying IO error: No space left on device (os error 28)"))
'no space left on the device'
>>> storage_problem(FileNotFoundError(errno.ENOENT, "No such file or directory", "/proc/x"))
'no such file or folder, and none can be made there (/proc/x)'
>>> storage_problem(ValueError("year 0 is out of range")) is None
True
"""

from __future__ import annotations

import errno
import re

#: errno -> what it means for the user.
_ERRNO = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "a file grew over the size limit of this system (ulimit -f)",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "no such file or folder, and none can be made there",  # /proc/x
}
#: The same faults as other libraries word them (polars, pyarrow, DuckDB).
_TEXTS = (
    (re.compile(r"No space left on device|os error 28", re.I), errno.ENOSPC),
    (re.compile(r"Disk quota exceeded|os error 122", re.I), errno.EDQUOT),
    (re.compile(r"File too large|os error 27", re.I), errno.EFBIG),
    (re.compile(r"Read-only file system|os error 30", re.I), errno.EROFS),
    (re.compile(r"Permission denied|os error 13", re.I), errno.EACCES),
)
_DAMAGED = re.compile(
    r"Could not read enough bytes|Corrupt database file|not a valid DuckDB database", re.I
)
_QUOTED_FILE = re.compile(r'file "([^"]+)"')


def storage_problem(error: BaseException) -> str | None:
    """What the fault behind ``error`` is, for the user (None: not a fault of the machine)."""
    if isinstance(error, OSError) and error.errno in _ERRNO:
        where = f" (writing {error.filename})" if error.filename else ""
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT) and error.filename:
            where = f" ({error.filename})"
        return _ERRNO[error.errno] + where
    text = str(error)
    if _DAMAGED.search(text):
        found = _QUOTED_FILE.search(text)
        where = f" {found.group(1)}" if found else ""
        return f"the database file{where} is damaged or cut short (restore it from a copy)"
    for pattern, code in _TEXTS:
        if pattern.search(text):
            found = _QUOTED_FILE.search(text)
            return _ERRNO[code] + (f" ({found.group(1)})" if found else "")
    return None
