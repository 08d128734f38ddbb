"""An ``ofc-jsonl`` line over the line limit of ``parsers.limits`` is one reject saying so, read
in bounded memory, in ``ofc parse`` and ``ofc import``; the lines around it are stored and the
counts add up (read = stored + rejected)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest

from parsers import parse_files
from parsers.jsonl import jsonl_bytes
from parsers.limits import MAX_LINE_BYTES
from pipeline.simulator import simulate
from tests.import_support import ofc_import, query
from tests.test_import_bombs import _peak_of

#: What a line of ``JUNK`` bytes is rejected for.
REASON = f"bytes or more, over the limit of {MAX_LINE_BYTES:,} bytes for one line (docs/parsers.md)"


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    batch = next(iter(simulate("pineapple-1-6-american", 3, 6, seed=61)))
    return jsonl_bytes(**batch.as_dict()).splitlines()


def _file(lines: list[bytes], folder: Path, junk: int, name: str = "long.jsonl") -> Path:
    """The lines with one of ``junk`` bytes (a JSON string that never ends) as line 4."""
    long = b'{"hand_id": "' + b"x" * junk
    path = folder / name
    path.write_bytes(b"\n".join([*lines[:3], long, *lines[3:]]) + b"\n")
    return path


@pytest.mark.parametrize("junk", [MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES])
def test_ofc_parse_rejects_a_long_line_once(lines: list[bytes], tmp_path: Path, junk: int) -> None:
    summary = parse_files([_file(lines, tmp_path, junk)], tmp_path / "out")
    assert (summary.read, summary.stored, summary.rejected) == (7, 6, 1)
    [reject] = pl.read_parquet(tmp_path / "out" / "rejects").to_dicts()
    assert reject["source_line"] == 4 and REASON in reject["reason"], reject
    assert reject["reason"].startswith("line too long: "), reject
    assert json.loads(lines[3])["hand_id"] in pl.read_parquet(tmp_path / "out" / "hands")["hand_id"]


@pytest.mark.parametrize("junk", [MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES])
def test_ofc_import_rejects_a_long_line_once(lines: list[bytes], tmp_path: Path, junk: int) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(_file(lines, tmp_path, junk), "--db", db) == 0
    assert query(db, "SELECT hands_read, hands_added, rejects_added FROM imports") == [(7, 6, 1)]
    [(line, reason)] = query(db, "SELECT source_line, reason FROM rejects")
    assert line == 4 and reason.startswith("line too long: ") and REASON in reason, reason


@pytest.mark.parametrize("command", ["parse", "import"])
def test_a_huge_line_costs_bounded_memory(lines: list[bytes], tmp_path: Path, command: str) -> None:
    """A 384 MB line in a ``.gz``: peak memory as for a small file plus a margin (the line was
    held whole, and parsed, before)."""
    small = _peak_of("parse", _file(lines, tmp_path, 10, "small.jsonl"), "--out", tmp_path / "s")
    plain = _file(lines, tmp_path, 384 << 20)
    archive = tmp_path / "long.jsonl.gz"
    with plain.open("rb") as source, gzip.open(archive, "wb", compresslevel=1) as out:
        while block := source.read(8 << 20):
            out.write(block)
    plain.unlink()
    out = ["--out", tmp_path / "out"] if command == "parse" else ["--db", tmp_path / "ofc.duckdb"]
    peak, _ = _peak_of(command, archive, *out)
    assert peak < small[0] + (192 << 20), f"{peak >> 20} MB, small file {small[0] >> 20} MB"
