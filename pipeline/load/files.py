"""Which files an import reads, from where, and in which pieces.

A file is keyed by its absolute path. Against what ``source_files``
remembers, a file is *unchanged* (same size and modification time: skipped,
even when a last hand cut short lies past ``bytes_imported``), *grown* (its
first ``bytes_imported`` bytes still hash to the stored sha256: read from
there on, line numbers continuing, the hand cut short again whole; cut back
to exactly those bytes, it has nothing to read, but the cut hand's reject
goes) or *new or
rewritten* (read from the start; hands already stored are recognised by
their id and fingerprint). Plain files are cut into pieces of about
``chunk_bytes`` between hands (after a blank line; after a line end in
``jsonl``), so one large file keeps every worker busy and memory flat;
each large ``.gz`` file and ``.zip`` member is one piece, read as a stream
(``pipeline.load.staging`` stages it a chunk at a time). Consecutive small
plain files read from their start are one task together (``Batch``, ``groups``),
and so are small members of zips and small ``.gz`` files, across archives and
files (``groups``).
"""

from __future__ import annotations

import hashlib
import os
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ofc_core.errors import UserError
from parsers.batch import BATCH_FILES, SMALL_FILE_BYTES
from parsers.detect import detect
from parsers.detect import holds_no_hands as detect_no_hands
from parsers.lines import (
    LOOK_BYTES,
    Source,
    archive_suffix,
    choose_encoding,
    count_lines,
    expand,
    read_at_most,
)
from parsers.real_paths import Resolver
from pipeline.load.confine import check_inside
from pipeline.load.database import KnownFile

CHUNK_BYTES = 16 << 20
_BLOCK = 8 << 20
_BOM = b"\xef\xbb\xbf"
_HAND_END = {"text": re.compile(rb"\n\r?\n"), "jsonl": re.compile(rb"\n")}
ARCHIVE_SUFFIXES = (".zip", ".gz")
_BLANK_END = (b"\n\n", b"\n\r\n")  # a piece ending so ends between hands


class Digest(Protocol):
    """A ``hashlib`` hash object."""

    def update(self, data: bytes, /) -> None: ...

    def hexdigest(self) -> str: ...


@dataclass(frozen=True)
class Piece:
    """One staging task's input: bytes ``start..end`` of a file, or a whole archive member."""

    path: str
    member: str | None
    start: int
    end: int | None  # None: the whole stream (archives)
    first_line: int
    fmt: str | None  # en, ru, jsonl; None: no hand header found (its lines become rejects)
    encoding: str  # utf-8 or cp1251 (archives: decided by the reader)
    last: bool  # the file's last piece: where a hand may still be being written
    continues: bool = False  # the piece before was cut inside a hand (``parsers.limits``)

    @property
    def separator(self) -> str:
        """What ends a hand: a blank line (``text``) or a line end (``jsonl``)."""
        return "jsonl" if self.fmt == "jsonl" else "text"


@dataclass(frozen=True)
class SmallInput:
    """A small plain file, a small member of a zip archive, or a small ``.gz`` file, read whole
    in a ``Batch``; ``size``: its bytes (uncompressed)."""

    path: str
    size: int
    member: str | None = None

    @property
    def source(self) -> Source:
        return Source(self.path, self.member)

    @property
    def plain(self) -> bool:
        """A plain file (read up to a point another import may go on from), not an archive's."""
        return self.member is None and not self.path.lower().endswith(ARCHIVE_SUFFIXES)


@dataclass(frozen=True)
class Batch:
    """Small whole files (or members of one archive) read as one staging task
    (``parsers.batch``): many one-hand files cost about what one file of their hands does."""

    files: tuple[SmallInput, ...]


@dataclass(frozen=True)
class FileToRead:
    """A file that has something new, and where reading starts."""

    path: str
    size: int
    mtime_ns: int
    start: int
    first_line: int
    archive: bool
    known: KnownFile | None

    @property
    def cut_back(self) -> bool:
        """Nothing to read: the file was cut back to what an import took (the last hand it
        found cut short is gone), so only its record and that hand's reject change."""
        return self.known is not None and self.start == self.size


def input_files(
    paths: list[str],
    exclude: Path | None = None,
    allow_empty: bool = False,
    confine_to: tuple[Path, ...] | None = None,
) -> list[str]:
    """Every file the user's paths name (folders recursively, globs), resolved, skipping
    ``exclude``'s own.

    ``allow_empty`` (``--watch``): a folder with no files yet is not an error.
    ``confine_to``: a file whose real location is outside these folders (a
    link out of them) is a UserError (``pipeline.load.confine``).
    """
    from pipeline.load.snapshot import Paths

    own = Paths(exclude) if exclude is not None else None
    resolve = Resolver()
    found: dict[str, None] = {}
    for raw in paths:
        if confine_to is not None:
            check_inside(Path(raw), confine_to, raw)
        if allow_empty and Path(raw).is_dir() and not any(Path(raw).rglob("*")):
            continue
        for source in expand([raw]):
            if confine_to is not None:
                check_inside(Path(source.path), confine_to)
            path = resolve(source.path)
            if own is None or not own.is_own(path):
                found[path] = None
    if not found and not allow_empty:
        raise UserError(f"no input files in {' '.join(paths)}")
    return list(found)


def feed(digest: Digest, path: str | Path, length: int) -> Digest:
    """``digest`` updated with the first ``length`` bytes of a file, read in blocks."""
    with open(path, "rb") as handle:
        remaining = length
        while remaining > 0:
            block = handle.read(min(_BLOCK, remaining))
            if not block:
                break
            digest.update(block)
            remaining -= len(block)
    return digest


def prefix_sha256(path: str | Path, length: int) -> str:
    """sha256 (hex) of the first ``length`` bytes of a file."""
    return feed(hashlib.sha256(), path, length).hexdigest()


def to_read(path: str | Path, known: KnownFile | None, reread: bool) -> FileToRead | None:
    """What to read of ``path`` (None: nothing new); see the module docstring."""
    stat = os.stat(path)
    archive = str(path).lower().endswith(ARCHIVE_SUFFIXES)
    start = first_line = 0
    if known is not None and not reread:
        same = known.size_bytes == stat.st_size and known.mtime_ns == stat.st_mtime_ns
        if same:  # a last hand cut short (before bytes_imported) waits for the file to grow
            return None
        grown = (
            not archive
            and stat.st_size >= known.bytes_imported
            and prefix_sha256(path, known.bytes_imported) == known.prefix_sha256
        )
        if grown:
            start, first_line = known.bytes_imported, known.lines_imported
            if start == stat.st_size == known.size_bytes:  # touched, no new byte
                return None
    return FileToRead(str(path), stat.st_size, stat.st_mtime_ns, start, first_line, archive, known)


def batchable(file: FileToRead, complete_only: bool) -> bool:
    """Whether ``file`` may be read in a ``Batch``: a small plain file read from its start,
    outside ``--watch`` (which may hold back a hand still being written)."""
    small = file.size <= SMALL_FILE_BYTES and not file.archive
    return small and file.start == 0 and not complete_only


#: What one task reads: a file's new part (``None``: the plain file) or one of its members.
Input = tuple[FileToRead, SmallInput | None]


def groups(
    files: list[FileToRead],
    chunk_bytes: int,
    complete_only: bool,
    members: dict[str, list[SmallInput]] | None = None,
) -> Iterator[list[Input]]:
    """The files' inputs in order (a plain file, or each member of an archive), consecutive
    small ones together, across files (up to ``BATCH_FILES`` of them or ``chunk_bytes``
    bytes), every other one alone. ``members``: each archive's, when already listed
    (``archive_members``).

    Small: a plain file read from its start outside ``--watch`` (``batchable``), a zip
    member or a ``.gz`` file of at most ``SMALL_FILE_BYTES`` unpacked (by its declared size:
    a ``.gz`` file that holds more is handed back, ``pipeline.load.tasks``).
    """
    members = members if members is not None else listed_members(files)

    def small(item: Input) -> bool:
        file, member = item
        return batchable(file, complete_only) if member is None else _small_member(member)

    def size(item: Input) -> int:
        file, member = item
        return file.size if member is None else member.size

    inputs = [(f, m) for f in files for m in (members[f.path] if f.archive else [None])]
    return _runs(inputs, small, size, chunk_bytes)


def listed_members(files: list[FileToRead]) -> dict[str, list[SmallInput]]:
    """The members of each archive among ``files``."""
    return {f.path: archive_members(f.path) for f in files if f.archive}


def _runs(
    items: list[Input],
    small: Callable[[Input], bool],
    size: Callable[[Input], int],
    chunk_bytes: int,
) -> Iterator[list[Input]]:
    """``items`` in order, consecutive small ones together (up to ``BATCH_FILES`` of them or
    ``chunk_bytes`` bytes), every other one alone."""
    pending: list[Input] = []
    pending_bytes = 0
    for item in items:
        if pending and (
            not small(item)
            or len(pending) >= BATCH_FILES
            or pending_bytes + size(item) > chunk_bytes
        ):
            yield pending
            pending, pending_bytes = [], 0
        if small(item):
            pending.append(item)
            pending_bytes += size(item)
        else:
            yield [item]
    if pending:
        yield pending


def archive_members(path: str) -> list[SmallInput]:
    """An archive's members with their declared sizes (a ``.gz`` file, or a zip that does not
    open: one member, ``None``, of unknown size), as ``parsers.lines.expand`` lists them."""
    sizes = _member_sizes(path)
    return [
        SmallInput(path, sizes.get(source.member or "", SMALL_FILE_BYTES + 1), source.member)
        for source in expand([path])
    ]


def member_piece(member: SmallInput) -> Piece:
    """An archive member (or a ``.gz`` file: ``member`` None) as one piece, read as a stream."""
    return Piece(member.path, member.member, 0, None, 1, None, "utf-8", True)


def _small_member(member: SmallInput) -> bool:
    """A zip member or ``.gz`` file of at most ``SMALL_FILE_BYTES`` unpacked (not a ``.gz``
    inside a zip)."""
    nested = (member.member or "").lower().endswith(".gz")
    return member.size <= SMALL_FILE_BYTES and not nested


def _member_sizes(path: str) -> dict[str, int]:
    """Each member's uncompressed bytes (a ``.gz`` file's under ``""``; none when ``path`` is
    not a zip that opens)."""
    if path.lower().endswith(".gz"):
        return {"": gzip_size(path)}
    if not path.lower().endswith(".zip"):
        return {}
    try:
        with zipfile.ZipFile(path) as archive:
            return {info.filename: info.file_size for info in archive.infolist()}
    except (zipfile.BadZipFile, OSError):
        return {}


def gzip_size(path: str) -> int:
    """The unpacked bytes of a ``.gz`` file of at most ``SMALL_FILE_BYTES`` (packed), as its
    trailer states them; ``SMALL_FILE_BYTES + 1`` for a larger file or one that does not read.

    The trailer states the size of the file's last member only (exact for a file of one
    member), so a batch reads at most ``SMALL_FILE_BYTES`` of a ``.gz`` file and hands a
    larger one back to be read on its own (``pipeline.load.tasks``).
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return SMALL_FILE_BYTES + 1
    try:
        size = os.fstat(fd).st_size
        if not _GZIP_TRAILER <= size <= SMALL_FILE_BYTES:
            return SMALL_FILE_BYTES + 1
        os.lseek(fd, size - 4, os.SEEK_SET)
        return int.from_bytes(os.read(fd, 4), "little")
    except OSError:
        return SMALL_FILE_BYTES + 1
    finally:
        os.close(fd)


#: The fewest bytes of a ``.gz`` file: a 10-byte header, an empty stream, an 8-byte trailer.
_GZIP_TRAILER = 20


def holds_no_hands(path: str) -> bool:
    """Whether a plain file has no hand header at all (a README, notes): it is skipped, not
    read. A file larger than what is looked at, or an archive (whatever its name), is read
    as usual."""
    if path.lower().endswith(ARCHIVE_SUFFIXES):
        return False
    head = read_at_most(Source(path), LOOK_BYTES)
    return len(head) < LOOK_BYTES and detect_no_hands(head) and archive_suffix(head) is None


def _file_kind(path: str) -> tuple[str, str | None]:
    """(encoding, format) of a plain file, from its first megabyte."""
    with open(path, "rb") as handle:
        head = handle.read(LOOK_BYTES)
    encoding = choose_encoding(head)
    return encoding, detect(head.decode(encoding, errors="replace"))


def _cut(buffer: bytearray, hand_end: re.Pattern, chunk_bytes: int) -> int:
    """Where a piece ends in ``buffer``: after a hand boundary past ``chunk_bytes`` (0: read on).

    Text with no boundary for four piece lengths (not a hand history) is cut
    at a line end, or anywhere, so memory stays bounded; a line cut anywhere
    is dropped up to its end (``pieces``).
    """
    if len(buffer) < chunk_bytes:
        return 0
    found = hand_end.search(buffer, chunk_bytes - 2)
    if found is not None:
        return found.end()
    if len(buffer) < 4 * chunk_bytes:
        return 0
    return buffer.rfind(b"\n") + 1 or len(buffer)


def _skip_line(buffer: bytearray) -> tuple[bool, int]:
    """Drop ``buffer``'s bytes up to its first line end: (still skipping, bytes dropped).

    The rest of a line cut for its length is no piece's: its start, in the
    piece before, stands for it (``parsers.limits``); it holds no line end,
    so line numbers stay right.
    """
    end = buffer.find(b"\n")
    dropped = len(buffer) if end < 0 else end
    del buffer[:dropped]
    return end < 0, dropped


def pieces(
    file: FileToRead, chunk_bytes: int = CHUNK_BYTES, digest: Digest | None = None
) -> Iterator[Piece]:
    """A plain file's new part in pieces, each ending after a hand (see the module docstring).

    ``digest`` (a ``hashlib`` object), when given, is fed every byte read, so
    the file's sha256 costs no second read.
    """
    encoding, fmt = _file_kind(file.path)
    hand_end = _HAND_END["jsonl" if fmt == "jsonl" else "text"]
    start, line = file.start, file.first_line + 1
    with open(file.path, "rb") as handle:
        handle.seek(start)
        buffer = bytearray()
        remaining = file.size - start
        skipping = False  # dropping the rest of a line cut for its length
        continues = False  # the last piece was cut inside a hand
        while remaining > 0:
            block = handle.read(min(_BLOCK, remaining))
            if not block:
                break
            if digest is not None:
                digest.update(block)
            remaining -= len(block)
            buffer += block
            if skipping:
                skipping, dropped = _skip_line(buffer)
                start += dropped
            while remaining > 0 and (cut := _cut(buffer, hand_end, chunk_bytes)):
                yield Piece(
                    file.path, None, start, start + cut, line, fmt, encoding, False, continues
                )
                line += count_lines(memoryview(buffer)[:cut])
                skipping = buffer[cut - 1] != ord("\n")  # cut inside an endless line
                continues = fmt != "jsonl" and not buffer.endswith(_BLANK_END, 0, cut)
                start += cut
                del buffer[:cut]
                if skipping:
                    skipping, dropped = _skip_line(buffer)
                    start += dropped
        yield Piece(
            file.path, None, start, start + len(buffer), line, fmt, encoding, True, continues
        )


def whole_file(path: str, size: int) -> Piece:
    """A small plain file as one piece (a file of a ``Batch`` read on its own)."""
    [piece] = pieces(FileToRead(path, size, 0, 0, 0, False, None), max(size, 1) + 1)
    return piece


def source_name(piece: Piece) -> str:
    """How the dataset names the piece's file (``archive.zip!/inner.txt`` for a member)."""
    return Source(piece.path, piece.member).name
