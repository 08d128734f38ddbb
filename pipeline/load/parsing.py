"""Parsing a piece of a file with the project's parsers (``parsers.run``), as polars tables.

A text piece (``en``, ``ru``) is one ``parsers.lines.Chunk``: whole hands,
numbered from the piece's first line. A ``jsonl`` piece is one block
of lines for ``parsers.jsonl``, numbered from the piece's place in the file. An archive member is parsed whole by ``parsers.run.parse_source``.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from parsers.lines import Chunk, Source, as_utf8
from parsers.schema import TABLES, plain

Tables = dict[str, pl.DataFrame]


def _frames(tables: dict[str, pa.Table]) -> Tables:
    return {name: pl.from_arrow(plain(tables[name], name)) for name in TABLES}


def _concat(parts: list[dict[str, pa.Table]]) -> Tables:
    return _frames(
        {
            name: pa.concat_tables(
                [plain(p[name], name) for p in parts if name in p] or [schema.empty_table()]
            )
            for name, schema in TABLES.items()
        }
    )


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
) -> tuple[Tables, int]:
    """The model tables of a piece of text starting at line ``first_line`` of ``source_name``,
    and 1 when the fast path failed on it (the thorough reader read it), else 0."""
    if fmt == "jsonl":
        return _frames(_jsonl_lines(data, first_line, source_name)), 0
    from parsers.run import parse_chunk

    chunk = Chunk(as_utf8(data, encoding), first_line, encoding)
    read = parse_chunk(chunk, source_name, fmt, ruleset, None)
    return _frames(read.tables), int(read.fast_path_error is not None)


def parse_member(path: str, member: str | None, ruleset: str | None) -> tuple[Tables, int]:
    """The model tables of a whole archive (or archive member), and how many of its chunks
    the fast path failed on."""
    from parsers.run import Options, parse_source

    parts: list[dict[str, pa.Table]] = []
    current: dict[str, list[pa.Table]] = {name: [] for name in TABLES}

    def sink(name: str, rows: pa.Table) -> None:
        current[name].append(plain(rows, name))  # chunks differ in dictionary encoding

    summary = parse_source(Source(path, member), sink, Options(ruleset=ruleset))
    parts.append({name: pa.concat_tables(rows) for name, rows in current.items() if rows})
    return _concat(parts), summary.fast_path_fallbacks
