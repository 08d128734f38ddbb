"""Where numba keeps the compiled kernels: one folder per version of the sources they read.

numba's cache (``cache=True``) takes a kernel's compiled code as current
while the file that defines the kernel is unchanged. A kernel also holds
what it was compiled with from other files: the functions it calls (an
inlined helper, ``parsers.fast.sections.code`` in the line pass of
``parsers.fast.text``) and the global arrays it reads (frozen in as
constants: the hand tables of ``pipeline.rules.evaluate`` in
``pipeline.decisions.showdown``). After an update that changes only such a
file (a ``git pull``), numba would run the old code.

So the kernels are cached in a folder named for a digest of every source
file under ``SOURCES``: a change to any of them starts a new folder (the
kernels compile again, about 80 s of CPU, which ``make install`` does ahead:
``pipeline.cli.warmup``), and the folders of older versions are removed.
The folder is ``.numba-cache/`` beside the packages, or the user's cache
folder (``~/.cache/ofc/numba``) when the packages' folder is read-only, or
this user's ``ofc-numba-<uid>`` in the temporary folder when neither can be
written; a ``NUMBA_CACHE_DIR`` set by the user is kept (if it can be
written), with the digest below it.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

#: The folders (below the packages' folder) whose files compiled kernels can read.
SOURCES = ("ofc_core", "parsers", "pipeline/rules", "pipeline/simulator", "pipeline/decisions")
#: The files of those folders that count: code, and the data (rulesets) code loads.
SUFFIXES = (".py", ".toml", ".json")
#: The folder beside the packages that holds one folder per digest.
FOLDER = ".numba-cache"
ROOT = Path(__file__).resolve().parent.parent


def digest(root: Path = ROOT) -> str:
    """A digest of the files under ``SOURCES`` in ``root``: their paths and bytes.

    >>> len(digest()), digest() == digest()
    (16, True)
    """
    hashed = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                hashed.update(path.relative_to(root).as_posix().encode() + b"\0")
                hashed.update(path.read_bytes() + b"\0")
    return hashed.hexdigest()[:16]


def folder(root: Path = ROOT) -> Path:
    """The cache folder of this version of the sources (see the module docstring): below
    the first of the candidate folders that can be written."""
    name = f"ofc-{digest(root)}"
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and Path(chosen).name == name:  # set by ``use`` here or in a parent process
        return Path(chosen)
    for base in [Path(chosen)] if chosen else [root / FOLDER, _user_cache()]:
        if _writable(base):
            return base / name
    return _private_temp() / name


def _user_cache() -> Path:
    """``ofc/numba`` in the user's cache folder."""
    try:
        home = Path.home()
    except RuntimeError:  # no home folder known
        home = Path("/nonexistent")
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "ofc" / "numba"


def _writable(base: Path) -> bool:
    """Whether ``base`` is (or could be made) a folder this process can write in."""
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(base, os.W_OK | os.X_OK)


def _private_temp() -> Path:
    """The last resort, when neither the packages' folder nor the user's cache folder can be
    written (a service account without a home): a folder of this user's own in the
    temporary folder, kept from run to run; or, when that name is taken by a folder that
    is not safely this user's (its cached code would be run), a new one for this process,
    removed when it ends."""
    base = Path(tempfile.gettempdir()) / f"ofc-numba-{os.getuid()}"
    try:
        base.mkdir(mode=0o700, exist_ok=True)
        info = base.lstat()
    except OSError:
        info = None
    ours = info and stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
    if ours and not info.st_mode & 0o077:
        return base
    made = Path(tempfile.mkdtemp(prefix="ofc-numba-"))
    atexit.register(shutil.rmtree, made, ignore_errors=True)
    return made


def use(root: Path = ROOT) -> Path:
    """Point numba's cache at ``folder(root)`` and remove the folders of older versions; the
    folder. Called on import by the packages whose modules define kernels, before any is
    defined (numba places a kernel's cache when it is defined). numba reads
    ``NUMBA_CACHE_DIR`` when it is imported (its configuration is set too when it already
    is); worker processes inherit it."""
    path = folder(root)
    if os.environ.get("NUMBA_CACHE_DIR") != str(path):
        os.environ["NUMBA_CACHE_DIR"] = str(path)
        _remove_others(path)
    if (numba := sys.modules.get("numba")) is not None:
        numba.config.CACHE_DIR = str(path)
    return path


def _remove_others(path: Path) -> None:
    """Remove the cache folders of other versions beside ``path`` (once ``path`` exists, no
    process of this version needs them)."""
    try:
        if path.is_dir() or not path.parent.is_dir():
            return
        others = [other for other in path.parent.glob("ofc-*") if other != path]
    except OSError:  # a folder this user cannot list: nothing of theirs to remove
        return
    for other in others:  # another process of this version may have just made ``path``
        shutil.rmtree(other, ignore_errors=True)
