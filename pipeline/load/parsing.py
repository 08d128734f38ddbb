"""Parsing a piece of a file with the project's parsers (``parsers.run``), as polars tables.

A text piece (``en``, ``ru``) is one ``parsers.lines.Chunk``: whole hands,
numbered from the piece's first line. A ``jsonl`` piece is one block
of lines for ``parsers.jsonl``, numbered from the piece's place in the file. Small files are read together
(``parse_files_together``, as ``ofc parse`` does). An archive member is read as a stream by
``parsers.run.parse_source``, chunk by chunk, and each chunk's tables are handed on as
soon as they are read (``parse_member``), so memory does not grow with the member.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
import pyarrow as pa

from parsers.lines import Chunk, Source, as_utf8
from parsers.schema import TABLES, plain
from pipeline.load.placement_enums import placements_frame

Tables = dict[str, pl.DataFrame]


def _frames(tables: dict[str, pa.Table]) -> Tables:
    frames = {
        name: pl.from_arrow(plain(tables[name], name)) for name in TABLES if name != "placements"
    }
    return frames | {"placements": placements_frame(tables["placements"])}


def _jsonl_lines(data: bytes, first_line: int, source_name: str) -> dict[str, pa.Table]:
    """An ``ofc-jsonl`` piece through ``parsers.jsonl.read_block`` (lines numbered from ``first_line``).

    ``parsers.jsonl`` reads whole files (``iter_jsonl``) a block of lines at a
    time; a piece of a file is one such block.
    """
    from parsers.jsonl import read_block

    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return read_block(source_name, first_line, lines)


def parse_bytes(
    data: bytes,
    first_line: int,
    source_name: str,
    fmt: str | None,
    encoding: str,
    ruleset: str | None,
    continues: bool = False,
    newlines: int | None = None,
) -> tuple[Tables, int]:
    """The model tables of a piece of text starting at line ``first_line`` of ``source_name``,
    and 1 when the fast path failed on it (the thorough reader read it), else 0.
    ``continues``: the piece starts inside a hand the piece before began; ``newlines``: how
    many ``\\n`` ``data`` holds, when the caller counted them."""
    if fmt == "jsonl":
        return _frames(_jsonl_lines(data, first_line, source_name)), 0
    from parsers.run import packed_rejects, parse_chunk

    if first_line == 1 and (packed := packed_rejects(source_name, data)) is not None:
        return _frames(packed), 0  # a .gz not named .gz, say: read as ofc parse reads it

    chunk = Chunk(as_utf8(data, encoding), first_line, encoding, continues, newlines)
    read = parse_chunk(chunk, source_name, fmt, ruleset, None)
    return _frames(read.tables), int(read.fast_path_error is not None)


def parse_member(
    path: str, member: str | None, ruleset: str | None, on_chunk: Callable[[Tables], None]
) -> int:
    """Read an archive (or archive member) chunk by chunk, handing each chunk's model tables
    to ``on_chunk``; how many of its chunks the fast path failed on."""
    from parsers.run import Options, parse_source

    summary = parse_source(Source(path, member), _PerChunk(on_chunk), Options(ruleset=ruleset))
    return summary.fast_path_fallbacks


class _PerChunk:
    """A ``parse_source`` sink that hands on a chunk's tables once all of them arrived (each
    chunk passes every table of ``parsers.schema.TABLES`` once, in any order)."""

    def __init__(self, on_chunk: Callable[[Tables], None]) -> None:
        self._on_chunk = on_chunk
        self._tables: dict[str, pa.Table] = {}

    def __call__(self, name: str, rows: pa.Table) -> None:
        self._tables[name] = rows
        if len(self._tables) == len(TABLES):
            tables, self._tables = self._tables, {}
            self._on_chunk(_frames(tables))


def parse_files_together(
    sources: list[Source], ruleset: str | None
) -> tuple[Tables, dict[str, int], set[str]]:
    """The model tables of small files (or archive members) read as one chunk where they read
    cleanly (``parsers.run.parse_sources``); per file (by its ``Source.name``), the chunks
    the fast path failed on; and the names of the sources not read here, to be read on their
    own (larger than their declared size, or not room text)."""
    from parsers.run import Options, parse_sources

    parts: dict[str, list[pa.Table]] = {name: [] for name in TABLES}
    apart: set[str] = set()

    def sink(name: str, rows: pa.Table) -> None:
        parts[name].append(plain(rows, name))

    summaries = parse_sources(
        sources, sink, Options(ruleset=ruleset), lambda source: apart.add(source.name)
    )
    tables = {
        name: pa.concat_tables(rows or [TABLES[name].empty_table()]) for name, rows in parts.items()
    }
    return _frames(tables), {f.name: f.fast_path_fallbacks for f in summaries}, apart
