"""A history saved as UTF-16 (as some Windows editors do): one reject that says so, in
``ofc parse`` and ``ofc import``, and the other files read as usual."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline.cli.main import main
from tests.import_support import ofc_import, query, simulate

SAYS = "the file is UTF-16 text; ofc reads UTF-8 (and Windows-1251 for ru): save it as UTF-8"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    histories = tmp_path / "histories"
    histories.mkdir()
    simulate(histories / "good.txt", 5, seed=6)
    text = simulate(tmp_path / "other.txt", 3, seed=7).read_text(encoding="utf-8")
    (histories / "wide.txt").write_bytes(text.encode("utf-16"))
    return histories


def test_parse_rejects_it_saying_why(folder: Path, tmp_path: Path) -> None:
    assert main(["parse", str(folder), "--out", str(tmp_path / "out")]) == 0
    rejects = pl.read_parquet(tmp_path / "out" / "rejects")
    assert [Path(f).name for f in rejects.get_column("source_file")] == ["wide.txt"]
    assert rejects.get_column("reason").str.starts_with(SAYS).all()
    assert pl.read_parquet(tmp_path / "out" / "hands").height == 5


def test_import_rejects_it_saying_why(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(folder, "--db", db) == 0
    [(file, reason)] = query(db, "SELECT source_file, reason FROM rejects")
    assert Path(file).name == "wide.txt" and reason.startswith(SAYS)
    assert query(db, "SELECT count(*) FROM hands") == [(5,)]
