"""A ``--db`` or ``--out`` that is a folder where a file is wanted, a file where a folder is
wanted, or in a folder that takes no new file: one line naming the option and what is wrong,
exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from ofc_core.errors import UserError
from pipeline.cli.main import main
from tests.import_support import ROOT

SAMPLE = ROOT / "data" / "sample" / "en"


def _one_line(capsys, *argv: object) -> str:
    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("not a folder\n", encoding="utf-8")
    return path


def test_parse_out_an_existing_file(capsys, a_file: Path) -> None:
    err = _one_line(capsys, "parse", SAMPLE, "--out", a_file)
    assert f"--out {a_file} is a file, not a folder" in err


def test_parse_out_under_a_file(capsys, a_file: Path) -> None:
    err = _one_line(capsys, "parse", SAMPLE, "--out", a_file / "parsed")
    assert f"{a_file} is a file, not a folder" in err and "--out" in err


def test_review_db_a_folder(capsys, tmp_path: Path) -> None:
    err = _one_line(capsys, "review", "--db", tmp_path, "--all")
    assert f"--db {tmp_path} is a folder, not a database file" in err
    assert "does not exist" not in err


def test_review_db_under_a_file(capsys, a_file: Path) -> None:
    err = _one_line(capsys, "review", "--db", a_file / "x.duckdb", "--all")
    assert f"{a_file} is a file, not a folder" in err


def test_import_db_under_a_file(capsys, a_file: Path) -> None:
    err = _one_line(capsys, "import", SAMPLE, "--db", a_file / "x.duckdb", "--workers", "1")
    assert f"--db {a_file / 'x.duckdb'}: {a_file} is a file, not a folder" in err
    assert "does not exist" not in err


def test_import_db_in_a_missing_folder_still_says_so(capsys, tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "x.duckdb"
    err = _one_line(capsys, "import", SAMPLE, "--db", db, "--workers", "1")
    assert "does not exist; create it first" in err


@pytest.mark.parametrize("who", [("--player", "Bob"), ("--all",)])
def test_report_out_under_a_file(capsys, a_file: Path, tmp_path: Path, who) -> None:
    err = _one_line(
        capsys, "report", "--db", tmp_path / "x.duckdb", *who, "--out", a_file / "h.html"
    )
    assert f"--out {a_file / 'h.html'}: {a_file} is a file, not a folder" in err


def test_dashboard_db_a_folder(tmp_path: Path) -> None:
    from pipeline.cli.commands.dashboard import checked_database

    with pytest.raises(UserError, match="is a folder, not a database file"):
        checked_database(tmp_path)


def test_import_db_in_a_folder_that_takes_no_file(capsys) -> None:
    """/proc takes no new file even for root: the lock cannot be made (it was a traceback)."""
    err = _one_line(capsys, "import", SAMPLE, "--db", "/proc/qa.duckdb", "--workers", "1")
    assert "--db /proc/qa.duckdb: its folder /proc cannot be written" in err
    assert "choose a --db in a folder you can write to" in err


@pytest.fixture
def a_broken_link(tmp_path: Path) -> Path:
    """A link to a folder that is not there (a drive not mounted)."""
    link = tmp_path / "reports"
    link.symlink_to(tmp_path / "unmounted" / "reports")
    return link


@pytest.mark.parametrize(
    "argv",
    [
        ("parse", SAMPLE, "--out", "{link}"),
        ("parse", SAMPLE, "--out", "{link}/parsed"),
        ("report", "--db", "{db}", "--all", "--out", "{link}"),
        ("report", "--db", "{db}", "--player", "Bob", "--out", "{link}"),
        ("import", SAMPLE, "--db", "{link}/x.duckdb", "--workers", "1"),
        ("review", "--db", "{link}", "--all"),
    ],
)
def test_a_link_to_nothing_is_named(capsys, tmp_path: Path, a_broken_link: Path, argv) -> None:
    args = [str(a).format(link=a_broken_link, db=tmp_path / "x.duckdb") for a in argv]
    err = _one_line(capsys, *args)
    assert f"{a_broken_link} is a link to {tmp_path / 'unmounted' / 'reports'}" in err, err
    assert "which does not exist" in err and "mount it, or give another path" in err


@pytest.mark.parametrize("who", [("--player", "Rock Rita"), ("--all",)])
def test_report_out_where_no_file_can_be_made(capsys, tmp_path: Path, who) -> None:
    db = tmp_path / "x.duckdb"
    assert main(["import", str(SAMPLE), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    capsys.readouterr()
    err = _one_line(capsys, "report", "--db", db, *who, "--out", "/proc/ofc-report")
    assert "none can be made there (/proc/ofc-report" in err, err
