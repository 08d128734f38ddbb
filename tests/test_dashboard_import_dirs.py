"""The Import page reads the server's disk only inside the folders ``ofc dashboard --import-dir``
names (none by default), and a file that is not a hand history leaves no content behind.

An attack campaign imported ``/etc/passwd`` from the page and read its first
line back as a reject excerpt; these tests hold the page's checks and the
import's own confinement (symlinks and ``..`` out of an allowed folder).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from dashboard.importing import ImportJob, checked_folder
from dashboard.settings import app_settings
from ofc_core.errors import UserError
from pipeline.cli.commands.dashboard import streamlit_command
from pipeline.cli.main import main
from pipeline.load.importer import ImportOptions, run_import
from pipeline.load.progress import Progress
from tests.import_support import ofc_import, query, simulate

SECRET = "root:x:0:0:secret-first-line:/root:/bin/bash\nsecond:line\n"


@pytest.fixture
def allowed(tmp_path: Path) -> Path:
    folder = tmp_path / "allowed"
    folder.mkdir()
    simulate(folder / "hands.txt", 5, seed=3)
    return folder


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    path = outside / "passwd"
    path.write_text(SECRET)
    return path


def test_without_import_dirs_no_path_on_the_server_is_accepted(secret: Path) -> None:
    for text in ("/etc/passwd", str(secret), str(secret.parent), "/"):
        with pytest.raises(UserError, match="--import-dir"):
            checked_folder(text, ())


def test_a_path_inside_an_import_dir_is_accepted(allowed: Path) -> None:
    assert checked_folder(str(allowed), (allowed,)) == allowed.resolve()
    assert checked_folder(str(allowed / "hands.txt"), (allowed,)) == (allowed / "hands.txt")


def test_dot_dot_and_symlinks_cannot_leave_an_import_dir(allowed: Path, secret: Path) -> None:
    (allowed / "link").symlink_to(secret.parent)
    (allowed / "passwd-link").symlink_to(secret)
    escapes = [
        f"{allowed}/../outside/passwd",
        f"{allowed}/link",
        f"{allowed}/link/passwd",
        f"{allowed}/passwd-link",
        "/etc/passwd",
    ]
    for text in escapes:
        with pytest.raises(UserError, match="outside the folders"):
            checked_folder(text, (allowed,))


def test_a_link_to_outside_inside_an_allowed_folder_is_refused_by_the_import(
    allowed: Path, secret: Path, tmp_path: Path
) -> None:
    (allowed / "passwd-link").symlink_to(secret)
    db = tmp_path / "ofc.duckdb"
    job = ImportJob(db, [checked_folder(str(allowed), (allowed,))], confine_to=(allowed,))
    job.start().wait(120)
    assert job.error is not None and "outside the folders" in job.error
    assert "secret" not in job.error
    assert not db.exists()


def test_the_import_itself_refuses_files_outside_its_folders(secret: Path, tmp_path: Path) -> None:
    options = ImportOptions(
        paths=(str(secret),), db=tmp_path / "ofc.duckdb", confine_to=(tmp_path / "allowed",)
    )
    with pytest.raises(UserError, match="outside the folders"):
        run_import(options, Progress(quiet=True))


#: Past what is looked at to skip a file (1 MiB in ``ofc import``, 64 KiB in ``ofc parse``),
#: so the file is read, and rejected.
LONG_SECRET = SECRET * ((1 << 20) // len(SECRET) + 1)


def test_a_small_file_that_is_not_a_hand_history_is_skipped_unread(
    allowed: Path, tmp_path: Path
) -> None:
    (allowed / "passwd").write_text(SECRET)
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(allowed, "--db", db) == 0
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
    assert query(db, "SELECT hands_read, rejects_added FROM imports") == [(5, 0)]


def test_a_long_file_that_is_not_a_hand_history_leaves_no_content(
    allowed: Path, tmp_path: Path
) -> None:
    (allowed / "passwd").write_text(LONG_SECRET)
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(allowed, "--db", db) == 0
    rows = query(db, "SELECT source_file, source_line, reason, excerpt FROM rejects")
    assert len(rows) == 1
    file, line, reason, excerpt = rows[0]
    assert file.endswith("passwd") and line == 1
    assert "not a hand history" in reason
    assert excerpt in ("", None)
    assert "secret" not in repr(query(db, "SELECT * FROM rejects"))
    assert query(db, "SELECT hands_read, rejects_added FROM imports") == [(6, 1)]


def test_ofc_parse_stores_no_content_of_a_file_that_is_not_a_hand_history(
    secret: Path, tmp_path: Path
) -> None:
    secret.write_text(LONG_SECRET)
    out = tmp_path / "parsed"
    assert main(["parse", str(secret), "--out", str(out)]) == 0
    rejects = pl.read_parquet(out / "rejects").select("reason", "excerpt").rows()
    assert len(rejects) == 1 and "not a hand history" in rejects[0][0]
    assert rejects[0][1] in ("", None)


def test_import_dirs_reach_the_app(allowed: Path, tmp_path: Path) -> None:
    command = streamlit_command(tmp_path / "ofc.duckdb", 8501, "127.0.0.1", (allowed,))
    settings = app_settings(command[command.index("--") + 1 :])
    assert settings.import_dirs == (allowed.resolve(),)
    assert app_settings(["--db", "x.duckdb"]).import_dirs == ()


def test_ofc_dashboard_refuses_an_import_dir_that_is_not_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    db = tmp_path / "ofc.duckdb"
    simulate(tmp_path / "h.txt", 3, seed=1)
    assert ofc_import(tmp_path / "h.txt", "--db", db) == 0
    missing = tmp_path / "missing"
    assert main(["dashboard", "--db", str(db), "--import-dir", str(missing)]) == 2
    assert f"--import-dir {missing}" in capsys.readouterr().err
