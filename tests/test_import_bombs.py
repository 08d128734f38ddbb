"""Archives that expand to far more than they hold, and endless lines, cost bounded memory:
a ``.gz`` or ``.zip`` of zeros and a plain file of one huge line are read as streams and the
line is refused (``parsers.limits``), with peak memory measured in a separate process."""

from __future__ import annotations

import gzip
import subprocess
import sys
import zipfile
from pathlib import Path

import polars as pl
import pytest

from parsers.limits import MAX_LINE_BYTES
from tests.import_support import ROOT, query, simulate

EXPANDED = 384 << 20  # bytes of zeros each bomb expands to
#: Peak resident memory allowed above that of importing a small history (DuckDB, polars and
#: the parser's compiled code alone take about 400 MB): one piece of text and its parse,
#: well below the expanded size (the .gz bomb took 1,425 MB before streams were bounded).
MARGIN = 192 << 20


def _zeros(stream, size: int) -> None:
    block = b"\0" * (8 << 20)
    for _ in range(size // len(block)):
        stream.write(block)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    gz = folder / "zeros.txt.gz"
    with gzip.open(gz, "wb", compresslevel=1) as out:
        _zeros(out, EXPANDED)
    zipped = folder / "zeros.zip"
    with (
        zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("zeros.txt", "w", force_zip64=True) as out,
    ):
        _zeros(out, EXPANDED)
    plain = folder / "line.txt"
    with plain.open("wb") as out:
        _zeros(out, EXPANDED)
        out.write(b"\n")
    return {"gz": gz, "zip": zipped, "plain": plain}


def _peak_of(*args: str | Path) -> tuple[int, str]:
    """Run ``ofc ARGS`` in a child; its exit code and peak resident memory (bytes)."""
    code = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(done.returncode, peak * 1024, done.stderr.replace(chr(10), ' | '))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, sys.executable, "-m", "pipeline.cli", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    returncode, peak, err = done.stdout.split(" ", 2)
    assert int(returncode) == 0, err
    return int(peak), err


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> int:
    """Peak memory of importing a small history."""
    folder = tmp_path_factory.mktemp("baseline")
    history = simulate(folder / "h.txt", 20, seed=31)
    return _peak_of("import", history, "--db", folder / "ofc.duckdb", "--workers", "1")[0]


@pytest.mark.parametrize("kind", ["gz", "zip", "plain"])
def test_a_bomb_is_refused_in_bounded_memory(
    bombs: dict[str, Path], baseline: int, tmp_path: Path, kind: str
) -> None:
    db = tmp_path / "ofc.duckdb"
    peak, _ = _peak_of("import", bombs[kind], "--db", db, "--workers", "1", "--quiet")
    assert peak < baseline + MARGIN, f"{peak >> 20} MB, small import {baseline >> 20} MB"
    read, stored, rejected = query(
        db, "SELECT hands_read, hands_added, rejects_added FROM imports"
    )[0]
    assert (read, stored, rejected) == (1, 0, 1)
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert f"over the limit of {MAX_LINE_BYTES:,} bytes for one line" in reason


def test_ofc_parse_reads_a_bomb_in_bounded_memory(
    bombs: dict[str, Path], baseline: int, tmp_path: Path
) -> None:
    peak, _ = _peak_of("parse", bombs["gz"], "--out", tmp_path / "out")
    assert peak < baseline + MARGIN, f"{peak >> 20} MB, small import {baseline >> 20} MB"
    summary = pl.read_parquet(tmp_path / "out" / "rejects")
    assert summary.height == 1 and "over the limit" in summary.item(0, "reason")


def test_the_limit_is_documented() -> None:
    docs = (ROOT / "docs" / "parsers.md").read_text(encoding="utf-8")
    assert f"{MAX_LINE_BYTES:,} bytes" in docs
