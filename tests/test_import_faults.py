"""Faults of the machine during ``ofc import``, ``ofc parse`` and ``ofc report``: a full disk,
a read-only folder or database file, a damaged database, unreadable files and folders.

Each is one line saying what and where, exit code 2, no traceback, the
database untouched and no temporary file left behind; an unreadable file
or folder among readable ones is a reject and the rest is imported.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
from pathlib import Path

import pytest

from pipeline.cli.main import main
from tests.fault_support import Ran, ofc, one_line_error, small_disk
from tests.import_support import query, sha256, simulate


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("histories")
    return {
        "small": simulate(folder / "small.txt", 20, seed=5),
        "other": simulate(folder / "other.txt", 20, seed=6),
        "big": simulate(folder / "big.txt", 1500, seed=7),
    }


@pytest.fixture(scope="module")
def database(histories: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("db") / "ofc.duckdb"
    assert main(["import", str(histories["small"]), "--db", str(db), "--quiet"]) == 0
    return db


def leftovers(folder: Path, db: Path) -> list[str]:
    """Files an import leaves beside the database, but for the database and its lock."""
    keep = {db.name, db.name + ".lock", "filler"}
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


def test_disk_full_while_staging(histories: dict[str, Path], tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "2m") as disk:
        db = disk / "ofc.duckdb"
        line = one_line_error(ofc("import", histories["big"], "--db", db, "--quiet"))
        assert "no space left on the device" in line and str(db) in line
        assert not db.exists() and leftovers(disk, db) == []


def test_disk_full_while_copying_the_database(
    histories: dict[str, Path], database: Path, tmp_path: Path
) -> None:
    with small_disk(tmp_path / "disk", "6m") as disk:
        db = Path(shutil.copy(database, disk / "ofc.duckdb"))
        before = sha256(db)
        free = shutil.disk_usage(disk).free
        (disk / "filler").write_bytes(b"\0" * (free - db.stat().st_size // 2))
        line = one_line_error(ofc("import", histories["other"], "--db", db, "--quiet"))
        assert "no space left on the device" in line and str(db) in line
        assert sha256(db) == before and leftovers(disk, db) == []


def _file_size_limit(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_file_size_limit_reached_while_loading(
    histories: dict[str, Path], database: Path, tmp_path: Path
) -> None:
    db = Path(shutil.copy(database, tmp_path / "ofc.duckdb"))
    before = sha256(db)
    ran = ofc(
        "import",
        histories["big"],
        "--db",
        db,
        "--quiet",
        "--workers",
        "1",
        preexec=_file_size_limit(db.stat().st_size + (512 << 10)),
    )
    line = one_line_error(ran)
    assert "size limit" in line and str(db) in line
    assert sha256(db) == before and leftovers(tmp_path, db) == []


def test_ofc_parse_on_a_full_disk_removes_what_it_wrote(
    histories: dict[str, Path], tmp_path: Path
) -> None:
    with small_disk(tmp_path / "disk", "64k") as disk:
        out = disk / "parsed"
        line = one_line_error(ofc("parse", histories["big"], "--out", out))
        assert "no space left on the device" in line and str(out) in line
        assert not out.exists() or not list(out.rglob("*.parquet"))


def test_a_read_only_file_system_for_the_database(
    histories: dict[str, Path], tmp_path: Path
) -> None:
    with small_disk(tmp_path / "disk", "1m") as disk:
        os.system(f"mount -o remount,ro {disk}")
        db = disk / "ofc.duckdb"
        line = one_line_error(ofc("import", histories["small"], "--db", db, "--quiet"))
        assert "read-only" in line and str(db) in line


def test_a_read_only_folder_for_the_database(histories: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    db = folder / "ofc.duckdb"
    ran = ofc("import", histories["small"], "--db", db, "--quiet", bound_by_modes=True)
    line = one_line_error(ran)
    assert "permission denied" in line and str(db) in line
    assert list(folder.iterdir()) == []


def _import_into_theirs(
    histories: dict[str, Path], database: Path, folder: Path, theirs: str
) -> tuple[Path, str]:
    """A copy of ``database`` in ``folder``, whose file or folder (``theirs``) belongs to
    another user (nobody, uid 65534); an import into it, as this user bound by file modes:
    the copy and the import's one-line error."""
    folder.mkdir()
    db = Path(shutil.copy(database, folder / "ofc.duckdb"))
    os.chown(db if theirs == "file" else folder, 65534, 65534)
    ran = ofc("import", histories["other"], "--db", db, "--quiet", bound_by_modes=True)
    return db, one_line_error(ran)


def test_a_database_of_another_user_is_named_with_its_owner(
    histories: dict[str, Path], database: Path, tmp_path: Path
) -> None:
    """Mode 644 is writable, but not by this user: "chmod u+w" would not help."""
    db, line = _import_into_theirs(histories, database, tmp_path / "shared", "file")
    assert f"--db {db} belongs to " in line and "cannot be written by this user" in line, line
    assert "chmod" not in line


def test_a_database_in_a_folder_this_user_cannot_write_is_named(
    histories: dict[str, Path], database: Path, tmp_path: Path
) -> None:
    """The file is this user's, its folder is not: the import's copy cannot be made."""
    before = sha256(database)
    db, line = _import_into_theirs(histories, database, tmp_path / "theirs", "folder")
    folder = db.parent
    assert f"its folder {folder} cannot be written by this user" in line, line
    assert sha256(db) == before and sorted(p.name for p in folder.iterdir()) == ["ofc.duckdb"]


def test_a_read_only_database_file_is_left_untouched(
    histories: dict[str, Path], database: Path, tmp_path: Path
) -> None:
    db = Path(shutil.copy(database, tmp_path / "ofc.duckdb"))
    db.chmod(0o444)
    before = sha256(db), db.stat().st_ino
    line = one_line_error(ofc("import", histories["other"], "--db", db, "--quiet"))
    assert "read-only" in line and str(db) in line
    assert (sha256(db), db.stat().st_ino) == before
    assert stat.S_IMODE(db.stat().st_mode) == 0o444


def _damaged(database: Path, folder: Path) -> dict[str, Path]:
    data = database.read_bytes()
    cut = folder / "cut.duckdb"
    cut.write_bytes(data[: len(data) // 3])
    junk = folder / "junk.duckdb"
    junk.write_bytes(os.urandom(100_000))
    return {"cut": cut, "junk": junk}


@pytest.mark.parametrize("kind", ["cut", "junk"])
def test_a_damaged_database_is_named_by_import_report_and_dashboard(
    histories: dict[str, Path], database: Path, tmp_path: Path, kind: str
) -> None:
    db = _damaged(database, tmp_path)[kind]
    before = sha256(db)
    commands = [
        ("import", histories["other"], "--db", db, "--quiet"),
        ("report", "--db", db, "--all", "--out", tmp_path / "report"),
        ("dashboard", "--db", db, "--port", "1"),  # told before a server starts
    ]
    for command in commands:
        line = one_line_error(ofc(*command))
        assert str(db) in line or db.name in line, line
        assert "damaged" in line or "not a valid DuckDB" in line, line
    assert sha256(db) == before
    assert leftovers(tmp_path, db) == ["junk.duckdb" if kind == "cut" else "cut.duckdb"]


def _counts(db: Path) -> tuple[int, int, int]:
    return query(db, "SELECT sum(hands_read), sum(hands_added), sum(rejects_added) FROM imports")[0]


def test_an_unreadable_file_is_rejected_and_the_others_imported(
    histories: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(histories["small"], folder / "a.txt")
    locked = Path(shutil.copy(histories["other"], folder / "b.txt"))
    locked.chmod(0)
    db = tmp_path / "ofc.duckdb"
    ran: Ran = ofc("import", folder, "--db", db, "--quiet", "--workers", "1", bound_by_modes=True)
    assert ran.code == 0, ran.err
    read, stored, rejected = _counts(db)
    assert (read, stored, rejected) == (21, 20, 1)
    [(file, reason)] = query(db, "SELECT source_file, reason FROM rejects")
    assert file == str(locked) and "permission denied" in reason.lower()
    assert query(db, "SELECT count(*) FROM source_files WHERE path = ?", [str(locked)]) == [(0,)]
    locked.chmod(0o644)  # fixed: its hands are stored and its reject is gone
    ran = ofc("import", folder, "--db", db, "--quiet", "--workers", "1", bound_by_modes=True)
    assert ran.code == 0, ran.err
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
    assert query(db, "SELECT count(*) FROM hands WHERE source_file = ?", [str(locked)])[0][0] > 0


def test_an_unreadable_folder_is_reported(histories: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "in"
    (folder / "locked").mkdir(parents=True)
    shutil.copy(histories["small"], folder / "a.txt")
    shutil.copy(histories["other"], folder / "locked" / "b.txt")
    (folder / "locked").chmod(0)
    db = tmp_path / "ofc.duckdb"
    ran = ofc("import", folder, "--db", db, "--quiet", "--workers", "1", bound_by_modes=True)
    assert ran.code == 0, ran.err
    assert _counts(db) == (21, 20, 1)
    [(file, reason)] = query(db, "SELECT source_file, reason FROM rejects")
    assert file == str(folder / "locked") and "folder" in reason and "permission" in reason.lower()
    (folder / "locked").chmod(0o755)
    ran = ofc("import", folder, "--db", db, "--quiet", "--workers", "1", bound_by_modes=True)
    assert ran.code == 0, ran.err
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
