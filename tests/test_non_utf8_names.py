"""File names that are not UTF-8 (bytes Python keeps as lone surrogates, PEP 383).

A history with such a name is read like any other and named in the tables
with its odd bytes as ``\\xNN`` (``ofc_core.paths.as_text``); a ``--db`` or
``--out`` with such a name is one line, exit code 2: DuckDB and Parquet files
take UTF-8 names only.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline.cli.main import main
from tests.import_support import ofc_import, query, simulate

ODD = os.fsdecode(b"caf\xe9")  # Latin-1 bytes in a UTF-8 file system


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with a history under a name that is not UTF-8 and another under a good one."""
    histories = tmp_path / "histories"
    histories.mkdir()
    simulate(histories / "good.txt", 6, seed=3)
    shutil.copy(simulate(tmp_path / "other.txt", 4, seed=4), histories / f"{ODD}.txt")
    return histories


def test_import_reads_it_names_it_and_knows_it_the_next_time(folder: Path, tmp_path: Path):
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(folder, "--db", db) == 0
    files = {Path(p).name for (p,) in query(db, "SELECT path FROM source_files")}
    assert files == {"good.txt", "caf\\xe9.txt"}
    stored = query(db, "SELECT source_file, count(*) FROM hands GROUP BY 1 ORDER BY 1")
    assert [(Path(f).name, n) for f, n in stored] == [("caf\\xe9.txt", 4), ("good.txt", 6)]
    assert ofc_import(folder, "--db", db) == 0  # nothing new: no second import recorded
    assert query(db, "SELECT import_id, files_read FROM imports") == [(1, 2)]


def test_such_a_file_rewritten_replaces_its_rejects(folder: Path, tmp_path: Path):
    """A file read again from its start drops its earlier rejects by name: the name as the
    tables write it."""
    odd = folder / f"{ODD}.txt"
    whole = odd.read_text(encoding="utf-8")
    odd.write_text(whole + "junk line\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(folder, "--db", db) == 0
    assert query(db, "SELECT count(*) FROM rejects") == [(1,)]
    rewritten = simulate(tmp_path / "new.txt", 3, seed=5).read_text(encoding="utf-8")
    odd.write_text(rewritten, encoding="utf-8")  # rewritten: other hands, no junk
    assert ofc_import(folder, "--db", db) == 0
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]


def test_parse_names_it_as_text(folder: Path, tmp_path: Path):
    assert main(["parse", str(folder), "--out", str(tmp_path / "out")]) == 0
    names = pl.read_parquet(tmp_path / "out" / "hands").get_column("source_file").unique()
    assert sorted(Path(n).name for n in names) == ["caf\\xe9.txt", "good.txt"]


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [("import", "--db", f"{ODD}.duckdb"), ("parse", "--out", f"{ODD}-dataset")],
)
def test_a_db_or_out_with_such_a_name_is_one_line(folder, tmp_path, capsys, command, option, name):
    assert main([command, str(folder), option, str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "caf\\xe9" in err and "not UTF-8" in err
    assert not (tmp_path / name).exists()
