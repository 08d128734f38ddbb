"""Finding input files and reading them as numbered lines, in bounded chunks.

``expand`` turns the user's paths (files, folders searched recursively,
globs, ``.zip`` and ``.gz`` archives) into ``Source`` objects, one per text
stream; ``read_chunks`` reads one source as decoded text chunks of about
``chunk_bytes`` each, cut between hands, so a file of any size is read in
flat memory; ``line_frame`` turns a chunk into a polars frame of lines.

Decoding: a UTF-8 byte order mark means UTF-8; otherwise the first chunk is
UTF-8 when it decodes as UTF-8 with at most one bad byte in a thousand (a
little binary junk in an English file), or with more valid multi-byte
characters than bad bytes (Cyrillic UTF-8 with a damaged byte), or when it
holds the ``en`` hand header (``en`` files are UTF-8 only: their bad bytes
are damage); else Windows-1251 (the ``ru`` spec's older desktop exports). Bytes that do not decode become
U+FFFD, so damaged text is rejected hand by hand (``parsers.segment``), never
read as something else.
"""

from __future__ import annotations

import glob
import gzip
import io
import os
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numba
import numpy as np
import polars as pl
import pyarrow as pa

from ofc_core.errors import UserError
from ofc_core.paths import as_text
from parsers.archives import opened
from parsers.limits import last_blank
from parsers.real_paths import Resolver

#: About this much text is read at a time: below the 32 MB up to which ``malloc`` can reuse
#: freed memory (``parsers.memory``), so each chunk's buffers reuse the last one's.
CHUNK_BYTES = 24 << 20
#: What a byte that does not decode becomes.
UNDECODED = "\ufffd"
#: The ``en`` hand header: text holding it is UTF-8 (the ``en`` spec), never Windows-1251.
EN_HEADER = b"OFC Hand #"
BOM = b"\xef\xbb\xbf"
#: How UTF-16 text begins, and what a UTF-16 file is told.
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
UTF16 = (
    "the file is UTF-16 text; ofc reads UTF-8 (and Windows-1251 for ru): "
    "save it as UTF-8 and read it again"
)
_GLOB_CHARS = set("*?[")


class Utf16Text(UserError):
    """A source that starts with a UTF-16 byte order mark (``UTF16_BOMS``): ``UTF16``."""

    def __init__(self) -> None:
        super().__init__(UTF16)


#: The first bytes of an archive, and the suffix that has ofc open it.
ARCHIVE_SIGNATURES = ((b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"), (b"\x1f\x8b", "gz"))


def archive_suffix(head: bytes) -> str | None:
    """The suffix of the archive ``head`` begins (None: not an archive).

    >>> archive_suffix(b"\\x1f\\x8b\\x08"), archive_suffix(b"OFC Hand #1")
    ('gz', None)
    """
    return next((suffix for sign, suffix in ARCHIVE_SIGNATURES if head.startswith(sign)), None)


class PackedText(UserError):
    """A source whose text is an archive: one inside another archive (ofc opens one level),
    or a file whose name does not end in its archive's suffix."""

    def __init__(self, suffix: str) -> None:
        super().__init__(
            f"this is a .{suffix} archive inside another archive, or a file not named .{suffix};"
            f" ofc opens one level of archive: unpack it, or name it to end in .{suffix}, and"
            " read it again"
        )


#: Between an archive's path and a member's name in a source's name (``a.zip!/b.txt``).
MEMBER_SEPARATOR = "!/"


@dataclass(frozen=True)
class Source:
    """One text stream: a file, or a member of a ``.zip`` archive."""

    path: str
    member: str | None = None

    @property
    def name(self) -> str:
        """How the dataset names it: ``archive.zip!/inner.txt`` for a member (as text:
        ``ofc_core.paths.as_text``)."""
        return as_text(f"{self.path}{MEMBER_SEPARATOR}{self.member}" if self.member else self.path)

    def size(self) -> int:
        """Bytes to read (compressed size for ``.gz``), to balance work across processes."""
        if self.member is None:
            return os.stat(self.path).st_size
        with opened(self.path) as archive:
            return archive.getinfo(self.member).file_size


@dataclass(frozen=True)
class Chunk:
    """Whole lines as UTF-8 bytes (possibly with bad bytes); ``first_line`` numbers the first.

    ``encoding`` is what the file was read as (``utf-8`` or ``cp1251``); ``continues``: the
    chunk before was cut inside a hand (no blank line for four chunk lengths), so the first
    lines here, up to a blank line or header, are the rest of it (``parsers.limits``);
    ``newlines``: how many ``\\n`` ``data`` holds, when its reader counted them (None: not
    counted), so the parser need not count them again.
    """

    data: bytes
    first_line: int
    encoding: str
    continues: bool = False
    newlines: int | None = None


def expand(paths: list[str]) -> list[Source]:
    """Every text stream the given paths name, in a stable order.

    A path that matches nothing is a ``UserError``: a typo should not parse
    zero files quietly. A folder inside that cannot be listed is a source
    too, so reading it fails and is reported rather than skipped quietly. A
    file named more than once (``a.txt ./a.txt``, a folder and a file in it,
    a link to it) is read once.
    """
    sources: list[Source] = []
    named: set[str] = set()
    resolve = Resolver()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = _folder_files(path)
        elif path.is_file():
            files = [str(path)]
        elif _GLOB_CHARS & set(raw):
            found = sorted(Path(p) for p in glob.glob(raw, recursive=True) if Path(p).is_file())
            files = [str(p) for p in found]
        else:
            files = []
        if not files:
            raise UserError(
                f"{_nothing_at(raw, path)}: give files, folders, globs or .zip/.gz archives"
            )
        for file in files:
            if (where := resolve(file)) not in named:
                named.add(where)
                sources.extend(_streams(file))
    return sources


def _nothing_at(raw: str, path: Path) -> str:
    """What is wrong with a path that names no file."""
    if path.is_dir():
        return f"the folder {raw!r} holds no file"
    if _GLOB_CHARS & set(raw):
        return f"no file matches {raw!r}"
    return f"no file or folder at {raw!r}"


def _folder_files(folder: Path) -> list[str]:
    """The files under ``folder`` (recursively, sorted), and the folders that cannot be listed.

    Paths stay strings (a ``Path`` per file costs more than reading a one-hand file) and
    sort as ``pathlib`` sorts them, part by part. As ``os.walk`` does, links to folders are
    not followed; a file is known by its folder entry, without a ``stat`` of its own.
    """
    files: list[str] = []
    unlisted: list[str] = []
    _walk(os.fspath(folder), files, unlisted)
    return sorted(files, key=_parts) + sorted(unlisted, key=_parts)


def _walk(folder: str, files: list[str], unlisted: list[str]) -> None:
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        unlisted.append(folder)
        return
    for entry in entries:
        if _is_folder(entry):
            _walk(entry.path, files, unlisted)
        elif entry.is_file():
            files.append(entry.path)


def _is_folder(entry: os.DirEntry) -> bool:
    """A folder to descend into: not a link to one (``os.walk``'s rule)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _parts(path: str) -> list[str]:
    """A path's parts: its place in ``pathlib``'s order.

    >>> sorted(["a-b/x", "a/x"]), sorted(["a-b/x", "a/x"], key=_parts)
    (['a-b/x', 'a/x'], ['a/x', 'a-b/x'])
    """
    return path.split(os.sep)


def _streams(file: str) -> list[Source]:
    if not file.lower().endswith(".zip"):
        return [Source(file)]
    try:
        with zipfile.ZipFile(file) as archive:
            members = [i.filename for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError):
        return [Source(file)]  # read as it is: its lines are rejected, not lost
    return [Source(file, member) for member in sorted(members)]


@contextmanager
def open_binary(source: Source) -> Iterator[BinaryIO]:
    """The source's bytes, decompressed (``.gz`` files and members, ``.zip`` members).

    A ``.zip`` file given whole (``expand`` could not list its members) that starts as a
    zip archive is damaged or cut short: ``ArchiveDamaged``, rather than its compressed
    bytes read as text. A file named ``.zip`` that is not a zip archive is read as it is.
    """
    with _open_raw(source) as raw:
        name = source.member or source.path
        if source.member is None and name.lower().endswith(".zip"):
            _check_zip(raw)
        if name.lower().endswith(".gz"):
            with gzip.GzipFile(fileobj=raw) as unzipped:
                yield unzipped
        else:
            yield raw


def read_at_most(source: Source, size: int) -> bytes:
    """The first ``size`` bytes of the source (all of it when shorter), decompressed.

    A plain file is read with bare system calls: a buffered file object costs
    more than the read of a one-hand file (``docs/benchmarks.md``).
    """
    if source.member is not None or source.path.lower().endswith((".gz", ".zip")):
        with open_binary(source) as stream:
            return stream.read(size)
    fd = os.open(source.path, os.O_RDONLY)
    try:
        parts = []
        while size > 0 and (part := os.read(fd, size)):
            parts.append(part)
            size -= len(part)
        return b"".join(parts)
    finally:
        os.close(fd)


#: How a zip archive starts: a member, an empty archive's end record, a split archive's mark.
ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")


class ArchiveDamaged(zipfile.BadZipFile):
    """A zip archive whose list of members does not read (a copy or download cut short)."""


def _check_zip(raw: BinaryIO) -> None:
    """Raise ``ArchiveDamaged`` when ``raw`` (at its start, left there) is a zip archive that
    does not open. Python's ``zipfile`` reads members only through the list of members kept
    at an archive's end, so the members before the damage cannot be read here either."""
    if raw.read(4) not in ZIP_STARTS:
        raw.seek(0)
        return
    raw.seek(0)
    try:
        zipfile.ZipFile(raw).close()
    except (zipfile.BadZipFile, EOFError, ValueError) as error:
        raise ArchiveDamaged(
            f"zip archive damaged or truncated: its list of members, kept at its end, does not "
            f"read ({error}), so none of its members was read; copy or download it again "
            "(`zip -FF archive.zip --out repaired.zip` may recover the members before the "
            "damage)"
        ) from None
    finally:
        raw.seek(0)


@contextmanager
def _open_raw(source: Source) -> Iterator[BinaryIO]:
    if source.member is None:
        with open(source.path, "rb") as f:
            yield f
    else:
        with opened(source.path) as archive, archive.open(source.member) as f:
            yield f


def choose_encoding(head: bytes) -> str:
    """``utf-8`` or ``cp1251`` for a file that starts with ``head`` (see the module docstring).

    >>> choose_encoding("Раздача №1".encode()), choose_encoding("Раздача №1".encode("cp1251"))
    ('utf-8', 'cp1251')
    >>> choose_encoding("OFC Hand #1 Zoë".encode("latin-1"))  # en is UTF-8 only: bytes lost
    'utf-8'
    >>> choose_encoding("Раздача №1: Ольга".encode() + b"\\xa3")  # Cyrillic UTF-8, a bad byte
    'utf-8'
    """
    if head.startswith(BOM):
        return "utf-8"
    text = head.decode("utf-8", errors="replace")
    bad = text.count(UNDECODED)
    wide = len(head) - len(text)  # the bytes past the first of valid UTF-8 characters
    utf8 = bad * 1000 <= len(head) or wide > bad or EN_HEADER in head
    return "utf-8" if utf8 else "cp1251"


def read_chunks(stream: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> Iterator[Chunk]:
    """Decoded chunks of about ``chunk_bytes``, each ending after a blank line.

    A chunk ends at the last blank line inside it, so no hand is split;
    text with no blank line for four chunk lengths is cut at a line end.
    The stream is read into one buffer, reused block after block, and each
    chunk is copied out of it once (joined to the end of the block before,
    ``carry``): fresh memory for every block would cost the system a page
    fault per 4 KB. Nor is a chunk's text kept once the next is asked for,
    so at most one chunk's text is alive while the next is read (if the
    caller lets it go too).
    """
    carry = stream.read(len(BOM))
    bom = carry == BOM
    carry = b"" if bom else carry
    first_line = 1
    encoding = "utf-8" if bom else ""
    continues = False  # the last chunk was cut inside a hand
    view = memoryview(np.empty(chunk_bytes, dtype=np.uint8))  # pages touched only as filled
    at_eof = False
    while not at_eof:
        size, problem = _fill(stream, view)
        if isinstance(problem, EOFError):  # the whole hands, then ArchiveTruncated
            yield from _cut_short(carry + bytes(view[:size]), first_line, encoding, continues)
        elif problem is not None:
            data = carry + bytes(view[:size])
            encoding = encoding or choose_encoding(data[: 1 << 20])
            chunk = Chunk(as_utf8(data, encoding), first_line, encoding, continues)
            raise DataDamaged(str(problem), chunk) from problem
        at_eof = size == 0
        if not encoding and (carry or size):
            encoding = choose_encoding(carry + bytes(view[: min(size, 1 << 20)]))
        cut = _cut_block(view, size, chunk_bytes)
        if cut <= 0:
            carry += view[:size]
            cut = len(carry) if at_eof else _cut(carry, chunk_bytes)
            data, carry = carry[:cut], carry[cut:]
        else:
            data, carry = b"".join((carry, view[:cut])), bytes(view[cut:size])
        if data:
            newlines, continues_next = count_lines(data), not ends_hand(data)
            yield Chunk(as_utf8(data, encoding), first_line, encoding, continues, newlines)
            data = b""  # this chunk's text is not kept alive while the next is read
            first_line += newlines
            continues = continues_next


def ends_hand(data: bytes) -> bool:
    """Whether ``data`` ends with a blank line: a hand cannot run on past it.

    >>> ends_hand(b"a\\n\\n"), ends_hand(b"a\\r\\n\\r\\n"), ends_hand(b"a\\nb\\n")
    (True, True, False)
    """
    return data.endswith((b"\n\n", b"\n\r\n"))


class ArchiveTruncated(EOFError):
    """A compressed stream ends before its end marker (a download or copy cut short).

    ``line``: the first line of the hand the cut falls in (None: not known); ``header``:
    that line's text ("" when nothing of the hand was read).
    """

    def __init__(self, message: str, line: int | None = None, header: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.header = header


def _fill(stream: BinaryIO, view: memoryview) -> tuple[int, Exception | None]:
    """Read into ``view`` until it is full or the stream ends: the number of bytes read, and
    what stopped the reading early: ``EOFError`` (a compressed stream cut short), a
    ``DAMAGE_ERRORS`` (compressed data that fails its checks), or None."""
    size = 0
    while size < len(view):
        try:
            read = stream.readinto(view[size:])
        except (EOFError, *DAMAGE_ERRORS) as error:
            return size, error
        if not read:
            break
        size += read
    return size, None


#: What a compressed stream raises when its data fails its checks (a bad CRC, a broken
#: deflate stream); a zip archive whose list of members does not read is ``ArchiveDamaged``.
DAMAGE_ERRORS = (zlib.error, zipfile.BadZipFile, gzip.BadGzipFile)


class DataDamaged(ValueError):
    """Compressed data that failed its checks partway through a source. ``chunk``: the text
    decompressed since the last chunk handed out, which may be wrong anywhere."""

    def __init__(self, message: str, chunk: Chunk) -> None:
        super().__init__(message)
        self.chunk = chunk


def _cut_short(data: bytes, first_line: int, encoding: str, continues: bool) -> Iterator[Chunk]:
    """The whole hands of what a cut stream held (up to its last blank line), as one chunk,
    then ``ArchiveTruncated`` at the first line of the hand the cut falls in."""
    encoding = encoding or choose_encoding(data[: 1 << 20])
    blank = _last_blank(data)
    end = data.index(b"\n", blank + 1) + 1 if blank >= 0 else 0
    newlines = count_lines(data[:end])
    if end:
        yield Chunk(as_utf8(data[:end], encoding), first_line, encoding, continues, newlines)
    line, at = first_line + newlines, end
    while (stop := data.find(b"\n", at)) >= 0 and not data[at:stop].strip():
        line, at = line + 1, stop + 1  # blank lines before the cut hand
    stop = len(data) if stop < 0 else stop
    header = data[at : min(stop, at + 4096)].decode(encoding, errors="replace").rstrip("\r")
    raise ArchiveTruncated(
        CUT_INSIDE if data[at:].strip() else CUT_AFTER, line, header.strip() and header
    )


#: What ``ArchiveTruncated`` says when text of a hand was read past the last whole hand, and
#: when none was (the cut took the end of the text, or only the compressed stream's check).
CUT_INSIDE = "archive truncated: the compressed data ends inside this hand"
CUT_AFTER = (
    "archive truncated: the compressed data ends after the last whole hand, so the hands"
    " after it, if any, are missing"
)


def _cut_block(view: memoryview, size: int, chunk_bytes: int) -> int:
    """Where to end a chunk in a full block (its first ``size`` bytes): after its last blank
    line (0: no blank line in it, or not a full block). The last blank line of ``carry +
    block`` is then this one."""
    if size < chunk_bytes:
        return 0
    blank = _last_blank(view, end=size)
    if blank < 0:
        return 0
    return blank + 2 if view[blank + 1] == ord("\n") else blank + 3


def count_lines(data: bytes | bytearray | memoryview) -> int:
    """The number of ``\\n`` in ``data`` (a compiled loop: four to eight times faster than
    ``bytes.count``).

    >>> count_lines(b"a\\nb\\n"), count_lines(b"")
    (2, 0)
    """
    return int(_newlines(np.frombuffer(data, dtype=np.uint8)))


@numba.njit(cache=True, nogil=True)
def _newlines(buf: np.ndarray) -> int:
    count = 0
    for byte in buf:
        count += byte == 10
    return count


def as_utf8(data: bytes, encoding: str) -> bytes:
    """``data`` in UTF-8: as it is for a UTF-8 file (``line_frame`` checks it), else decoded."""
    if encoding == "utf-8":
        return data
    return data.decode(encoding, errors="replace").encode("utf-8")


def _cut(buffer: bytes, chunk_bytes: int) -> int:
    """Where to end a chunk in ``buffer``: after its last blank line (0: read more first)."""
    if len(buffer) < chunk_bytes:
        return 0
    blank = _last_blank(buffer)
    if blank >= 0:
        return buffer.index(b"\n", blank + 1) + 1
    if len(buffer) >= 4 * chunk_bytes:
        return buffer.rfind(b"\n") + 1
    return 0


def _last_blank(buffer: bytes | memoryview, window: int = 1 << 16, end: int | None = None) -> int:
    """Where the last blank line's preceding ``\\n`` is in ``buffer[:end]`` (-1: none),
    searching back from the end in growing windows (a blank line is almost always near the
    end).

    >>> _last_blank(b"a\\n\\nb\\r\\n\\r\\nc", window=2), _last_blank(b"abc")
    (5, -1)
    """
    end = len(buffer) if end is None else end
    start = end
    while start > 0:
        start = max(0, start - window)
        part = bytes(buffer[start:end])
        found = last_blank(part, 0, len(part))
        if found >= 0:
            return start + found
        window *= 4
    return -1


def line_frame(chunk: Chunk) -> pl.DataFrame:
    """The chunk's lines (``line``, without line ends) and their numbers (``n``).

    The lines are cut out of the chunk's bytes by the offsets of its newlines
    (numpy), with no Python object per line; Arrow checks the UTF-8 (fast),
    and only text that fails is decoded with U+FFFD for its bad bytes.

    >>> line_frame(Chunk(b"a\\r\\nb\\n", 7, "utf-8")).rows()
    [('a', 7), ('b', 8), ('', 9)]
    >>> line_frame(Chunk(b"ok\\n\\xff", 1, "utf-8")).rows()
    [('ok', 1), ('\ufffd', 2)]
    """
    array = _lines(chunk.data)
    try:
        array.validate(full=True)
    except pa.ArrowInvalid:
        array = _lines(chunk.data.decode("utf-8", errors="replace").encode("utf-8"))
    lines = pl.Series("line", array).str.strip_suffix("\n")
    if b"\r" in chunk.data:
        lines = lines.str.strip_suffix("\r")
    numbers = pl.int_range(chunk.first_line, chunk.first_line + len(lines), eager=True)
    return pl.DataFrame([lines, numbers.alias("n")])


def _lines(data: bytes) -> pa.LargeStringArray:
    """An Arrow string array of ``data``'s lines, each with its newline."""
    newlines = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    offsets = np.concatenate([[0], newlines + 1, [len(data)]]).astype(np.int64)
    return pa.LargeStringArray.from_buffers(
        len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data)
    )


#: How much of a file ``read_head`` reads to tell its encoding and format.
HEAD_BYTES = 64 << 10
#: How far a file whose head shows no hand is looked at (``read_on``) before it is called no
#: hand history, by ``ofc parse`` and ``ofc import`` alike.
LOOK_BYTES = 1 << 20


def read_head(stream: BinaryIO, size: int = HEAD_BYTES) -> tuple[bytes, BinaryIO]:
    """The first ``size`` bytes, and a stream that still yields everything from the start.

    A compressed stream cut short within them gives what it could decompress, and the
    stream returned raises its ``EOFError`` once that is read, as the stream itself would
    (``read_chunks`` then keeps the whole hands before the cut).
    """
    read = getattr(stream, "read1", stream.read)  # a cut stream hands out all it can first
    parts: list[bytes] = []
    got = 0
    try:
        while got < size and (part := read(size - got)):
            parts.append(part)
            got += len(part)
    except EOFError as error:
        head = b"".join(parts)
        return head, _Rejoined(head, _Ended(str(error)))
    head = b"".join(parts)
    return head, _Rejoined(head, stream, whole=got < size)


def read_on(head: bytes, stream: BinaryIO, size: int) -> tuple[bytes, BinaryIO]:
    """What ``read_head`` gave (``head``, ``stream``) read on to ``size`` bytes: a longer look
    at a file whose head told too little. A stream already seen to its end, or cut, is all
    there is."""
    if not isinstance(stream, _Rejoined) or stream.whole or isinstance(stream._rest, _Ended):
        return head, stream
    more, rest = read_head(stream._rest, size - len(head))
    assert isinstance(rest, _Rejoined)
    return head + more, _Rejoined(head + more, rest._rest, whole=rest.whole)


def seen_whole(stream: BinaryIO) -> bool:
    """Whether the head that ``read_head`` (or ``read_on``) gave with ``stream`` is the whole
    text: the stream ended within it, and not as a compressed stream cut short."""
    return isinstance(stream, _Rejoined) and stream.whole


class _Ended(io.RawIOBase):
    """The rest of a stream that was cut short: every read raises its ``EOFError``."""

    def __init__(self, message: str) -> None:
        self._message = message

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise EOFError(self._message)


#: Most bytes one read asks of the stream below ``_Rejoined``: a compressed stream checks
#: its data (a zip member's or gzip's CRC) at its end and raises instead of returning what
#: that last read decompressed, so a failed check drops at most this much text into the
#: "rest of the file" reject; every hand before it is rejected on its own.
READ_BLOCK = 256 << 10


class _Rejoined(io.RawIOBase):
    """Bytes already read, followed by the rest of a stream (read ``READ_BLOCK`` at most at a
    time)."""

    def __init__(self, head: bytes, rest: BinaryIO, whole: bool = False) -> None:
        self._head = head
        self._rest = rest
        self.whole = whole  # the stream ended within the head: ``rest`` holds nothing more

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            size = min(len(view), len(self._head))
            view[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        # one read of the stream below: a compressed stream cut short raises EOFError only
        # once it has handed out every byte it could decompress (``readinto`` would drop them)
        return getattr(self._rest, "readinto1", self._rest.readinto)(view[:READ_BLOCK])

    def read(self, size: int = -1) -> bytes:
        if self._head:
            if size < 0 or size >= len(self._head):
                data, self._head = self._head, b""
                more = self._rest.read(-1 if size < 0 else size - len(data))
                return data + more
            data, self._head = self._head[:size], self._head[size:]
            return data
        return self._rest.read(size)
