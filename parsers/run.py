"""Parsing files into the hand model dataset: the engine behind ``ofc parse``.

``parse_files`` expands the inputs, spreads them over worker processes
(largest first onto the least loaded worker), and in each process reads
every source chunk by chunk: detect the format, cut lines into hands, read
them (``parsers.formats.en`` / ``parsers.formats.ru`` / ``parsers.jsonl``), bind, validate,
build the model and hand it to a ``DatasetWriter``. It returns a
``Summary`` with, per file, hands read, stored and rejected.

Nothing a file holds can stop the run: unreadable archives, binary junk and
broken hands become ``rejects`` rows; a chunk that trips an unexpected error
is retried hand by hand so only the hand at fault is rejected.
"""

from __future__ import annotations

import gzip
import itertools
import os
import re
import shutil
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import NamedTuple

import polars as pl
import pyarrow as pa

from ofc_core.errors import UserError
from ofc_core.faults import storage_problem
from ofc_core.paths import check_not_under_a_file, check_text_name
from ofc_core.rulesets import load_ruleset
from parsers import batch, dataset, fast, jsonl, model
from parsers.archives import archives_kept_open
from parsers.detect import detect, holds_no_hands
from parsers.extract import EXCERPT_CHARS
from parsers.formats import TEXT_FORMATS
from parsers.limits import (
    MAX_LINE_BYTES,
    LineLimited,
    hand_too_long,
    has_long_paragraph,
    long_hands,
    without_continued_hand,
    without_long_lines,
)
from parsers.lines import (
    CHUNK_BYTES,
    CUT_AFTER,
    CUT_INSIDE,
    DAMAGE_ERRORS,
    LOOK_BYTES,
    UTF16_BOMS,
    ArchiveDamaged,
    ArchiveTruncated,
    Chunk,
    DataDamaged,
    PackedText,
    Source,
    Utf16Text,
    archive_suffix,
    choose_encoding,
    expand,
    line_frame,
    open_binary,
    read_chunks,
    read_head,
    read_on,
    seen_whole,
)
from parsers.memory import start_up_frozen
from parsers.resolve import bind
from parsers.schema import REJECTS, TABLES
from parsers.seen_ids import SeenIds
from parsers.validate import validate
from parsers.workers import start_worker

FORMAT_CHOICES = ("auto", *TEXT_FORMATS, "jsonl")
#: What a file with no hand history in it is: skipped, not counted as hands read.
NOT_HANDS = "skipped: not a hand history"
#: The first words of a hand in every text format: where the rest of a cut hand ends.
HEADER_PREFIXES = tuple(f.header_prefix for f in TEXT_FORMATS.values())
READ_ERRORS = (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile, UnicodeError)


@dataclass(frozen=True)
class FileSummary:
    """What became of one source's hands."""

    name: str
    format: str | None
    read: int
    stored: int
    rejected: int
    seconds: float
    note: str = ""
    fast_path_fallbacks: int = 0  # chunks the thorough reader read after a fast path error


@dataclass(frozen=True)
class Summary:
    """What became of every source's hands, and how long it took."""

    files: tuple[FileSummary, ...]
    seconds: float
    out_dir: str

    @property
    def read(self) -> int:
        return sum(f.read for f in self.files)

    @property
    def stored(self) -> int:
        return sum(f.stored for f in self.files)

    @property
    def rejected(self) -> int:
        return sum(f.rejected for f in self.files)

    @property
    def fast_path_fallbacks(self) -> int:
        return sum(f.fast_path_fallbacks for f in self.files)

    @property
    def hands_per_second(self) -> float:
        return self.read / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Options:
    """How to parse: forced format, ruleset override, chunk and batch sizes."""

    fmt: str = "auto"
    ruleset: str | None = None
    chunk_bytes: int = CHUNK_BYTES
    batch_rows: int = dataset.BATCH_ROWS


def _check_out(out_dir: Path) -> None:
    """``--out`` must be a folder, or a path where one can be made."""
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(
            f"--out {out_dir} is a file, not a folder; give a folder for the dataset "
            "(it is made if absent)"
        )
    check_text_name(Path(out_dir), "--out")
    check_not_under_a_file(out_dir, "--out")


@start_up_frozen()
@archives_kept_open()
def parse_files(
    paths: list[str] | list[Path],
    out_dir: str | Path,
    *,
    fmt: str = "auto",
    workers: int = 1,
    ruleset: str | None = None,
    overwrite: bool = False,
    chunk_bytes: int = CHUNK_BYTES,
    batch_rows: int = dataset.BATCH_ROWS,
) -> Summary:
    """Parse hand history files into the Parquet dataset ``out_dir``; see the module docstring."""
    if fmt not in FORMAT_CHOICES:
        raise UserError(f"unknown format {fmt!r}: use one of {', '.join(FORMAT_CHOICES)}")
    if ruleset is not None:
        load_ruleset(ruleset)  # an unknown name is a UserError naming the known ones
    started = time.perf_counter()
    sources = expand([str(p) for p in paths])
    _check_out(Path(out_dir))
    old = dataset.prepare(out_dir, overwrite)
    if old:
        raise UserError(
            f"{out_dir} already holds a dataset ({old[0]}); choose an empty folder or pass --overwrite"
        )
    options = Options(fmt, ruleset, chunk_bytes, batch_rows)
    groups = _balance(sources, max(1, workers))
    try:
        if len(groups) == 1:
            results = [_work(0, groups[0], str(out_dir), options)]
        else:
            results = _in_processes(groups, str(out_dir), options)
        dataset.finish(out_dir)
    except UserError:
        raise
    except Exception as error:
        problem = storage_problem(error)
        if problem is None:
            raise
        dataset.discard(out_dir)
        raise UserError(
            f"writing the dataset to {out_dir} stopped: {problem}; the parts written are removed"
        ) from None
    files = tuple(f for group in results for f in group)
    order = {s.name: i for i, s in enumerate(sources)}
    files = tuple(sorted(files, key=lambda f: order.get(f.name, 0)))
    return Summary(files, time.perf_counter() - started, str(out_dir))


def _balance(sources: list[Source], workers: int) -> list[list[Source]]:
    """Sources split into at most ``workers`` groups of similar size (largest first)."""
    sized = sorted(((_size(s), s) for s in sources), key=lambda p: -p[0])
    groups: list[list[Source]] = [[] for _ in range(min(workers, len(sources)) or 1)]
    loads = [0] * len(groups)
    for size, source in sized:
        i = loads.index(min(loads))
        groups[i].append(source)
        loads[i] += size
    return groups


def _size(source: Source) -> int:
    try:
        return source.size()
    except (OSError, zipfile.BadZipFile, KeyError):
        return 0


def _in_processes(
    groups: list[list[Source]], out_dir: str, options: Options
) -> list[list[FileSummary]]:
    """Run each group in its own process, each with one polars thread (the processes share the cores)."""
    previous = os.environ.get("POLARS_MAX_THREADS")
    os.environ["POLARS_MAX_THREADS"] = "1"
    try:
        with ProcessPoolExecutor(
            len(groups),
            mp_context=get_context("spawn"),
            initializer=start_worker,  # dies with this process
            initargs=(os.getpid(),),
        ) as pool:
            futures = [pool.submit(_work, i, g, out_dir, options) for i, g in enumerate(groups)]
            return [f.result() for f in futures]
    finally:
        if previous is None:
            os.environ.pop("POLARS_MAX_THREADS", None)
        else:
            os.environ["POLARS_MAX_THREADS"] = previous


def _work(index: int, sources: list[Source], out_dir: str, options: Options) -> list[FileSummary]:
    """Parse a group of sources into one writer's parts."""
    with dataset.DatasetWriter(out_dir, f"w{index:02d}", options.batch_rows) as writer:
        return parse_sources(sources, writer.add, options)


@start_up_frozen()
@archives_kept_open()
def parse_sources(
    sources: list[Source],
    sink: Sink,
    options: Options,
    read_apart: Callable[[Source], None] | None = None,
) -> list[FileSummary]:
    """Parse sources in order: consecutive small files of one text format together
    (``parsers.batch``), every other source on its own, or, with ``read_apart``, not here:
    each is given to ``read_apart`` (a caller that keeps the tables in memory reads a large
    source as a stream instead)."""
    summaries: list[FileSummary] = []
    pending: list[batch.SmallFile] = []
    size = 0  # bytes pending
    for source in sources:
        small = _small_file(source, options)
        if pending and (
            small is None or small.kind != pending[0].kind or len(pending) >= batch.BATCH_FILES
            or size + len(small.data) > options.chunk_bytes
        ):  # fmt: skip
            summaries += _parse_batch(pending, sink, options)
            pending, size = [], 0
        if small is None and read_apart is not None:
            read_apart(source)
        elif small is None:
            summaries.append(parse_source(source, sink, options))
        else:
            pending.append(small)
            size += len(small.data)
    if pending:
        summaries += _parse_batch(pending, sink, options)
    return summaries


def _small_file(source: Source, options: Options) -> batch.SmallFile | None:
    """A small source of a room text format, read whole; None for any other source (or one
    that does not read: ``parse_source`` reports why)."""
    try:
        data = batch.read_small(source)
    except READ_ERRORS:
        return None
    if data is None:
        return None
    kind = (
        options.fmt if options.fmt != "auto" else detect(data[: 64 << 10].decode(errors="replace"))
    )
    return batch.SmallFile(source, kind, data) if kind in TEXT_FORMATS else None


def _parse_batch(files: list[batch.SmallFile], sink: Sink, options: Options) -> list[FileSummary]:
    """Small files read as one chunk, each row given back its file and line; when the joined
    read is not clean (``parsers.batch``), the files a reject falls in are read on their own
    and the runs between them joined again (a read no line names as at fault: each half read
    so, down to single files): a messy file costs a read of its own, never its batch's clean
    files."""
    if len(files) == 1:
        return [parse_source(files[0].source, sink, options)]
    started = time.perf_counter()
    joined = batch.Joined.of(files)
    whole = Chunk(joined.data, 1, "utf-8")
    read = parse_chunk(whole, "", files[0].kind, options.ruleset, None, options.fmt == "auto")
    if read.guessed or read.fast_path_error is not None:
        half = len(files) // 2
        return _parse_batch(files[:half], sink, options) + _parse_batch(files[half:], sink, options)
    if read.tables["rejects"].num_rows:
        messy = set(joined.owners(read.tables["rejects"]).tolist())
        return _parse_around(files, messy, sink, options)
    for name, rows in joined.placed(read.tables).items():
        sink(name, rows)
    counts = joined.hands_per_file(read.tables["hands"])
    share = (time.perf_counter() - started) / max(len(joined.data), 1)
    return [
        FileSummary(f.source.name, f.kind, count, count, 0, share * len(f.data))
        for f, count in zip(files, counts, strict=True)
    ]


def _parse_around(
    files: list[batch.SmallFile], messy: set[int], sink: Sink, options: Options
) -> list[FileSummary]:
    """The ``messy`` files (indexes) read on their own, the runs of files between them read
    joined, in file order."""
    summaries: list[FileSummary] = []
    for is_messy, run in itertools.groupby(range(len(files)), key=messy.__contains__):
        group = [files[i] for i in run]
        if is_messy:
            summaries += [parse_source(f.source, sink, options) for f in group]
        else:
            summaries += _parse_batch(group, sink, options)
    return summaries


Sink = Callable[[str, pa.Table], None]


class WriteFailed(Exception):
    """Writing parsed rows failed (a full disk...): the run stops; the file read is not at fault."""


class _Tally:
    """What one source's tables added up to so far; hands go on to ``sink``."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.stored = self.rejected = self.fallbacks = 0
        self.guessed: dict[str, int] = {}
        self.fast_path_error: str | None = None  # the first, for the summary

    def __call__(self, tables: dict[str, pa.Table], guessed: dict[str, int] | None = None) -> None:
        for name, rows in tables.items():
            try:
                self.sink(name, rows)
            except Exception as error:  # writing failed: not a fault of the file being read
                raise WriteFailed(str(error)) from error
        self.stored += tables["hands"].num_rows
        self.rejected += tables["rejects"].num_rows
        for ruleset, count in (guessed or {}).items():
            self.guessed[ruleset] = self.guessed.get(ruleset, 0) + count


def parse_source(source: Source, sink: Sink, options: Options) -> FileSummary:
    """Parse one source, passing its tables to ``sink(table_name, rows)``."""
    started = time.perf_counter()
    tally = _Tally(sink)
    kind: str | None = None
    notes = []
    line = 1  # the line after the last chunk read whole
    try:
        with open_binary(source) as raw:
            head, stream = read_head(raw)
            if head.startswith(UTF16_BOMS):
                raise Utf16Text
            if (suffix := archive_suffix(head)) is not None:
                raise PackedText(suffix)
            looks = _looks(head)
            if looks is None and options.fmt == "auto":  # look as far as ofc import does
                head, stream = read_on(head, stream, LOOK_BYTES)
                looks = _looks(head)
            whole = seen_whole(stream)
            stream = LineLimited(stream)  # an endless line costs no more memory than a short one
            kind = options.fmt if options.fmt != "auto" else looks
            if kind != looks and looks is not None:
                notes.append(
                    f"read as {kind} (--format), though it looks like {looks}: "
                    "--format auto reads each file in the format it looks like"
                )
            if kind is None and whole and holds_no_hands(head):
                return FileSummary(
                    source.name, None, 0, 0, 0, time.perf_counter() - started, NOT_HANDS
                )
            if kind == "jsonl":
                emit_jsonl(source, tally)
            else:
                seen = SeenIds()
                for chunk in read_chunks(stream, options.chunk_bytes):
                    read = parse_chunk(
                        chunk, source.name, kind, options.ruleset, seen, options.fmt == "auto"
                    )
                    tally(read.tables, read.guessed)
                    if read.fast_path_error is not None:
                        tally.fallbacks += 1
                        tally.fast_path_error = tally.fast_path_error or read.fast_path_error
                    seen = seen.plus(read.stored)
                    line = chunk.first_line + _newlines(chunk)
                    del chunk  # its text is freed before the next chunk is read
    except DataDamaged as error:
        notes.append(f"stopped reading: {error}")
        tally(
            {"rejects": _damaged_rejects(error, source.name, kind, options, seen)}
            | _empty("hands", "player_hands", "placements")
        )
    except JsonlDamaged as error:
        notes.append(f"stopped reading: {error}")
        rest = _reject(source.name, error.line, f"{_damage(error)}: {REST_UNREAD}")
        tally({"rejects": rest} | _empty("hands", "player_hands", "placements"))
    except (*READ_ERRORS, UserError) as error:
        notes.append(f"stopped reading: {error}")
        tally(
            {"rejects": _read_failed(source.name, line, kind, error)}
            | _empty("hands", "player_hands", "placements")
        )
    if kind is None and not notes:
        notes.append("no hand header in its first MiB: read as en")
    notes += [
        f"{count} hand(s) name no ruleset preset exactly in their header; scored as {name}"
        " (docs/rules.md R10; --ruleset chooses another)"
        for name, count in sorted(tally.guessed.items())
    ]
    if tally.fallbacks:
        notes.append(
            f"the fast path failed on {tally.fallbacks} chunk(s) ({tally.fast_path_error}); "
            "the thorough reader read them, every hand is accounted for: please report it"
        )
    seconds = time.perf_counter() - started
    read = tally.stored + tally.rejected
    return FileSummary(
        source.name,
        kind,
        read,
        tally.stored,
        tally.rejected,
        seconds,
        "; ".join(notes),
        tally.fallbacks,
    )


def _read_failed(source_name: str, line: int, kind: str | None, error: Exception) -> pa.Table:
    """The reject of a source that stopped reading at ``line`` (the line after the last chunk
    read whole). A cut archive's reject is at the first line of the hand the cut falls in,
    with its room id (read loosely) and that line as excerpt (none for text of no known
    format, whose content is never kept); a damaged archive's is the error's own words."""
    if isinstance(error, ArchiveTruncated):
        reason = (
            f"{error}; the hands before it are kept (copy or download the file again for the rest)"
        )
        header = error.header if kind in TEXT_FORMATS else ""
        room = re.match(TEXT_FORMATS[kind].id_pattern, header) if header else None
        return _reject(
            source_name,
            line if error.line is None else error.line,
            reason,
            header[:EXCERPT_CHARS],
            room and room.group(1),
        )
    if isinstance(error, ArchiveDamaged | Utf16Text | PackedText):
        return _reject(source_name, line, str(error))
    return _reject(source_name, line, f"cannot read the rest of the file: {error}")


def _damaged_rejects(
    error: DataDamaged, source_name: str, kind: str | None, options: Options, seen: SeenIds
) -> pa.Table:
    """The rejects of a source whose compressed data failed its checks: every hand of the
    text read since the last chunk (the damage may be anywhere in it), at its header, then
    the rest of the source, which did not read, at the line after that text."""
    damage = _damage(error)
    chunk = error.chunk
    read = parse_chunk(chunk, source_name, kind, options.ruleset, seen, options.fmt == "auto")
    stored = pl.from_arrow(read.tables["hands"])
    lines = pl.Series(chunk.data.split(b"\n")).cast(pl.String, strict=False)
    headers = lines.gather(stored.get_column("source_line") - chunk.first_line)
    hands = stored.with_columns(
        source_file=pl.lit(source_name),
        excerpt=headers.str.strip_suffix("\r").str.slice(0, EXCERPT_CHARS),
    )
    seen_here = _read_as_damaged(hands, read.tables["rejects"], damage)
    rest = _reject(
        source_name, chunk.first_line + chunk.data.count(b"\n"), f"{damage}: {REST_UNREAD}"
    )
    return pa.concat_tables([seen_here.to_arrow().cast(REJECTS), rest])


#: What the hands of text whose compressed data failed its checks are told, and the rest.
NOT_STORED = "not stored, its text may be wrong; copy or download the file again"
REST_UNREAD = "the rest of the file did not read; copy or download the file again"


def _damage(error: Exception) -> str:
    return f"compressed data damaged ({error})"


class JsonlDamaged(ValueError):
    """An ofc-jsonl source whose compressed data failed its checks after ``line`` - 1 whole
    lines, which were read and rejected (their text may be wrong anywhere)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def _damaged_jsonl(tables: dict[str, pa.Table], error: JsonlDamaged) -> dict[str, pa.Table]:
    """The tables of ofc-jsonl lines read before ``error``: every hand a reject, as
    ``_damaged_rejects`` makes them of text, and every reject saying so."""
    hands = pl.from_arrow(tables["hands"]).with_columns(excerpt=pl.lit(""))
    rejects = _read_as_damaged(hands, tables["rejects"], _damage(error))
    return {"rejects": rejects.to_arrow().cast(REJECTS)} | _empty(
        "hands", "player_hands", "placements"
    )


def _read_as_damaged(hands: pl.DataFrame, rejects: pa.Table, damage: str) -> pl.DataFrame:
    """The rejects of text whose compressed data failed its checks, by line: each hand read
    from it (``hands``: its ``source_file``, ``source_line``, ``room_hand_id``, ``excerpt``)
    not stored, and each reject of it saying so too."""
    not_stored = hands.select(
        "source_file",
        "source_line",
        "room_hand_id",
        reason=pl.lit(f"{damage}: {NOT_STORED}"),
        excerpt="excerpt",
    )
    own = pl.from_arrow(rejects).with_columns(reason=pl.format("{}: {}", pl.lit(damage), "reason"))
    return pl.concat([not_stored, own], how="diagonal_relaxed").sort("source_line")


def _newlines(chunk: Chunk) -> int:
    return chunk.data.count(b"\n") if chunk.newlines is None else chunk.newlines


def _looks(head: bytes) -> str | None:
    """The format the beginning of a source looks like (None: no hand header in it)."""
    return detect(head.decode(choose_encoding(head), errors="replace"))


def emit_jsonl(source: Source, emit: _Tally) -> None:
    """Read an ofc-jsonl source with ``parsers.jsonl``; archive members go through a temporary file."""
    if source.member is None and not source.path.lower().endswith(".gz"):
        for tables in jsonl.iter_jsonl(source.path):
            emit(tables)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "member.jsonl"
        stopped = _copy_whole_lines(source, path)
        named = pl.lit(source.name)
        for tables in jsonl.iter_jsonl(path):
            tables = tables | {
                name: pl.from_arrow(tables[name])
                .with_columns(source_file=named)
                .to_arrow()
                .cast(TABLES[name])
                for name in ("hands", "rejects")
            }
            emit(_damaged_jsonl(tables, stopped) if isinstance(stopped, JsonlDamaged) else tables)
        if stopped is not None:
            raise stopped


def _copy_whole_lines(source: Source, path: Path) -> ArchiveTruncated | JsonlDamaged | None:
    """Copy the lines of ``source`` to ``path``; when its compressed data is cut short or
    fails its checks, keep the whole lines before and give the error naming the line it
    falls in (None: the source was whole)."""
    with open_binary(source) as raw, open(path, "wb") as out:
        try:
            shutil.copyfileobj(LineLimited(raw), out, 1 << 20)  # no endless line on disk
            return None
        except EOFError:
            damage = None
        except DAMAGE_ERRORS as error:
            damage = error
    with open(path, "r+b") as out:
        size = out.seek(0, os.SEEK_END)
        out.seek(max(size - MAX_LINE_BYTES - 1, 0))
        tail = out.read()
        cut = tail[tail.rfind(b"\n") + 1 :]  # a line the cut fell in
        out.truncate(size - len(cut))
        out.seek(0)
        lines = sum(block.count(b"\n") for block in iter(lambda: out.read(1 << 20), b""))
    if damage is not None:
        return JsonlDamaged(str(damage), lines + 1)
    return ArchiveTruncated(CUT_INSIDE if cut.strip() else CUT_AFTER, lines + 1)


class ChunkRead(NamedTuple):
    """What ``parse_chunk`` made of one chunk."""

    tables: dict[str, pa.Table]
    stored: pl.DataFrame  # room ids of the hands stored
    guessed: dict[str, int]  # ruleset -> stored hands whose header names no preset exactly
    fast_path_error: str | None = None  # the fast path failed: the thorough reader read all


def parse_chunk(
    chunk: Chunk,
    source_name: str,
    kind: str | None,
    ruleset: str | None,
    seen: SeenIds | None,
    by_format: bool = True,
) -> ChunkRead:
    """The model tables of one chunk, the room ids it stored, and its guessed rulesets.

    A line over ``parsers.limits.MAX_LINE_BYTES`` is replaced by a note
    before parsing, and the rest of a hand an earlier chunk began is dropped
    (``parsers.limits``). With ``by_format`` (the file's format was detected, not
    forced), a chunk read with rejects that holds hands of another text format (a file
    mixing ``en`` and ``ru``) is read again, each run of one format by its own reader.
    """
    data = without_long_lines(chunk.data)
    if chunk.continues:
        data = without_continued_hand(data, HEADER_PREFIXES)
    if data is not chunk.data:
        chunk = Chunk(data, chunk.first_line, chunk.encoding)
    if has_long_paragraph(chunk.data):
        read = _around_long_hands(chunk, source_name, kind, ruleset, seen)
    else:
        read = _parse_chunk(chunk, source_name, kind, ruleset, seen)
    if not by_format or kind not in TEXT_FORMATS or not read.tables["rejects"].num_rows:
        return read
    runs = format_runs(chunk, kind)
    if [run_kind for _, run_kind in runs] == [kind]:
        return read
    reads = []
    for run, run_kind in runs:
        reads.append(parse_chunk(run, source_name, run_kind, ruleset, seen, by_format=False))
        seen = (seen or SeenIds()).plus(reads[-1].stored)
    return _merged(reads)


def _around_long_hands(
    chunk: Chunk, source_name: str, kind: str | None, ruleset: str | None, seen: SeenIds | None
) -> ChunkRead:
    """``parse_chunk`` of a chunk holding hands over the size limits (``parsers.limits``):
    each is one reject made from its bytes alone (no frame of its lines), and the text
    between them is read as usual."""
    reads: list[ChunkRead] = []
    line = chunk.first_line
    id_pattern = TEXT_FORMATS[kind or "en"].id_pattern
    for span in long_hands(chunk.data, HEADER_PREFIXES):
        data = chunk.data[span.start : span.end]
        if span.long:
            reads.append(_long_hand(data, line, source_name, id_pattern))
        else:
            part = Chunk(data, line, chunk.encoding)
            reads.append(_parse_chunk(part, source_name, kind, ruleset, seen))
            seen = (seen or SeenIds()).plus(reads[-1].stored)
        line += data.count(b"\n")
    return _merged(reads)


def _long_hand(data: bytes, line: int, source_name: str, id_pattern: str) -> ChunkRead:
    """The one reject of a hand over the size limits, starting at ``line``."""
    header = data[: data.find(b"\n")].decode("utf-8", errors="replace").rstrip("\r")
    lines, size = data.count(b"\n"), len(data)
    reason = pl.select(hand_too_long(pl.lit(lines), pl.lit(size))).item()
    room = re.match(id_pattern, header)
    reject = _reject(source_name, line, reason, header[:EXCERPT_CHARS], room and room.group(1))
    return ChunkRead(
        {"rejects": reject} | _empty("hands", "player_hands", "placements"),
        pl.DataFrame(schema={"room_hand_id": pl.String, "n": pl.Int64}),
        {},
    )


def _merged(reads: list[ChunkRead]) -> ChunkRead:
    """One ``ChunkRead`` of the reads of consecutive parts of a chunk."""
    tables = {
        name: pa.concat_tables([r.tables[name].cast(TABLES[name]) for r in reads])
        for name in TABLES
    }
    guessed: dict[str, int] = {}
    for read in reads:
        for name, count in read.guessed.items():
            guessed[name] = guessed.get(name, 0) + count
    errors = [r.fast_path_error for r in reads if r.fast_path_error is not None]
    return ChunkRead(
        tables,
        pl.concat([r.stored for r in reads], how="vertical_relaxed"),
        guessed,
        errors[0] if errors else None,
    )


#: The start of a line that begins a hand, in any text format, and which format.
_HEADER_LINE = re.compile(
    b"^(" + b"|".join(re.escape(f.header_prefix.encode()) for f in TEXT_FORMATS.values()) + b")",
    re.MULTILINE,
)
_KIND_OF_PREFIX = {f.header_prefix.encode(): kind for kind, f in TEXT_FORMATS.items()}


def format_runs(chunk: Chunk, kind: str) -> list[tuple[Chunk, str]]:
    """``chunk`` cut before each hand header whose format differs from the hand before's
    (the text before the first header is read as ``kind``, the file's format).

    >>> text = "OFC Hand #1: x\\n\\nРаздача №2 x\\n\\nРаздача №3 x\\n".encode()
    >>> [(c.first_line, k) for c, k in format_runs(Chunk(text, 10, "utf-8"), "en")]
    [(10, 'en'), (12, 'ru')]
    >>> [(c.first_line, k) for c, k in format_runs(Chunk(text[16:], 12, "utf-8"), "en")]
    [(12, 'ru')]
    """
    runs: list[tuple[int, str]] = [(0, kind)]
    for header in _HEADER_LINE.finditer(chunk.data):
        found = _KIND_OF_PREFIX[header.group(1)]
        if found == runs[-1][1]:
            continue
        if header.start() == runs[-1][0]:  # no text before it in the run: the run is its
            runs[-1] = (header.start(), found)
        else:
            runs.append((header.start(), found))
    ends = [at for at, _ in runs[1:]] + [len(chunk.data)]
    return [
        (
            Chunk(
                chunk.data[start:end],
                chunk.first_line + chunk.data.count(b"\n", 0, start),
                chunk.encoding,
                chunk.continues and start == 0,
            ),
            run_kind,
        )
        for (start, run_kind), end in zip(runs, ends, strict=True)
    ]


def _parse_chunk(
    chunk: Chunk, source_name: str, kind: str | None, ruleset: str | None, seen: SeenIds | None
) -> ChunkRead:
    """``parse_chunk`` of a chunk with no over-long line, read as ``kind``.

    Room text goes through the fast path first (``parsers.fast``), which
    stores the plain hands and hands the others back; those (or the whole
    chunk, for other formats, or when the fast path cannot read it) go
    through the thorough reader. An error of the fast path (a bug, never bad
    input) is not fatal: the chunk is read the thorough way, and the error is
    returned so the summaries count and show it. Text of no known format
    (``kind`` None) is read as ``en``, and its stray lines are rejected as not
    a hand history, keeping none of their content. A Windows-1251 chunk with
    stray lines is read the thorough way: its reason names UTF-8 text among them.
    """
    if kind is None:
        read = _parse_chunk(chunk, source_name, "en", ruleset, seen)
        rejects = model.not_a_hand_history(read.tables["rejects"])
        return read._replace(tables=read.tables | {"rejects": rejects})
    error = None
    if kind in fast.FORMATS:
        try:
            part = fast.read(
                chunk.data, chunk.first_line, source_name, ruleset, seen, kind, chunk.newlines
            )
        except Exception as failure:  # see the docstring
            part, error = None, f"{type(failure).__name__}: {failure}"
        if part is not None:
            read = ChunkRead(*_with_rest(part, source_name, kind, ruleset, seen))
            if not (chunk.encoding == "cp1251" and _has_strays(read)):
                return read
    return ChunkRead(*read_thoroughly(line_frame(chunk), source_name, kind, ruleset, seen), error)


def _has_strays(read: ChunkRead) -> bool:
    """Whether ``read`` rejected lines outside any hand (rejects without a room id)."""
    return read.tables["rejects"].column("room_hand_id").null_count > 0


def _with_rest(
    part: fast.Part, source_name: str, kind: str, ruleset: str | None, seen: SeenIds | None
) -> tuple[dict[str, pa.Table], pl.DataFrame, dict[str, int]]:
    """The fast path's tables joined by the thorough reader's tables of the hands it handed back."""
    if not part.numbers.size:
        return part.tables, part.stored_ids, part.guessed
    frame = line_frame(Chunk(part.rest, 1, "utf-8")).with_columns(n=pl.Series(part.numbers))
    tables, ids, guessed = read_thoroughly(frame, source_name, kind, ruleset, seen)
    merged = {
        name: pa.concat_tables([part.tables[name], tables[name].cast(part.tables[name].schema)])
        for name in TABLES
    }
    for name in ("hands", "rejects"):
        merged[name] = merged[name].sort_by("source_line")
    counts = dict(part.guessed)
    for name, count in guessed.items():
        counts[name] = counts.get(name, 0) + count
    return merged, pl.concat([part.stored_ids, ids]), counts


def read_thoroughly(
    frame: pl.DataFrame, source_name: str, kind: str, ruleset: str | None, seen: SeenIds | None
) -> tuple[dict[str, pa.Table], pl.DataFrame, dict[str, int]]:
    """``parse_chunk`` with the thorough reader alone, on a frame of lines (``line``, ``n``).

    An unexpected error (a bug, not bad input) is retried hand by hand, and a
    hand that still fails is rejected with the error's text.
    """
    try:
        return _tables(frame, source_name, kind, ruleset, seen)
    except Exception:  # see the docstring: no input may stop the run
        tables, ids = _hand_by_hand(frame, source_name, kind, ruleset, seen)
        return tables, ids, {}


def _tables(
    frame: pl.DataFrame, source_name: str, kind: str, ruleset: str | None, seen: SeenIds | None
) -> tuple[dict[str, pa.Table], pl.DataFrame, dict[str, int]]:
    fmt = TEXT_FORMATS[kind]
    seg = fmt.segment_lines(frame)
    x = fmt.extract(seg)
    r = bind(x, ruleset)
    v = validate(x, r)
    t = model.build(
        x,
        r,
        v,
        seg.lines,
        source_file=source_name,
        source_format=kind,
        id_pattern=fmt.id_pattern,
        seen=seen,
    )
    tables = {
        "hands": t.hands,
        "player_hands": t.player_hands,
        "placements": t.placements,
        "rejects": t.rejects,
    }
    return tables, t.stored_ids, t.guessed


def _hand_by_hand(
    frame: pl.DataFrame, source_name: str, kind: str, ruleset: str | None, seen: SeenIds | None
) -> tuple[dict[str, pa.Table], pl.DataFrame]:
    """``_tables`` on each hand (and each run of stray lines) of the chunk alone."""
    seg = TEXT_FORMATS[kind].segment_lines(frame)
    starts = sorted({*seg.hands.get_column("n").to_list(), *seg.strays.get_column("n").to_list()})
    bounds = [*starts, frame.get_column("n").max() + 1] if starts else []
    parts: list[dict[str, pa.Table]] = []
    stored = seen or SeenIds()
    new_ids: list[pl.DataFrame] = []
    for lo, hi in itertools.pairwise(bounds):
        piece = frame.filter(pl.col("n").is_between(lo, hi - 1))
        try:
            tables, ids, _ = _tables(piece, source_name, kind, ruleset, stored)
        except Exception as error:  # the hand at fault is rejected, the run goes on
            reason = f"internal error while reading this hand ({type(error).__name__}: {error}); please report it"
            tables = {
                "rejects": _reject(source_name, lo, reason, piece.get_column("line")[0])
            } | _empty("hands", "player_hands", "placements")
            ids = pl.DataFrame(schema={"room_hand_id": pl.String, "n": pl.Int64})
        stored = stored.plus(ids)
        new_ids.append(ids)
        parts.append(tables)
    merged = {
        name: pa.concat_tables([p[name] for p in parts] or [TABLES[name].empty_table()])
        for name in TABLES
    }
    return merged, pl.concat(new_ids) if new_ids else pl.DataFrame(
        schema={"room_hand_id": pl.String, "n": pl.Int64}
    )


def _reject(
    source_name: str, line: int, reason: str, excerpt: str = "", room_hand_id: str | None = None
) -> pa.Table:
    return pa.Table.from_pylist(
        [
            {
                "source_file": source_name,
                "source_line": line,
                "room_hand_id": room_hand_id,
                "reason": reason,
                "excerpt": excerpt,
            }
        ],
        schema=REJECTS,
    )


def _empty(*names: str) -> dict[str, pa.Table]:
    return {name: TABLES[name].empty_table() for name in names}


def packed_rejects(source_name: str, head: bytes) -> dict[str, pa.Table] | None:
    """The tables of a source whose text is an archive (``PackedText``): one reject at line 1;
    None when ``head`` (the source's first bytes) is not an archive's."""
    suffix = archive_suffix(head)
    if suffix is None:
        return None
    rejects = _read_failed(source_name, 1, None, PackedText(suffix))
    return {"rejects": rejects} | _empty("hands", "player_hands", "placements")
