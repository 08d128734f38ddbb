"""The Import page's uploads: safe names, a size cap, written only inside a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dashboard.importing import ImportJob, Upload, checked_folder, safe_name, save_uploads
from ofc_core.errors import UserError
from tests.import_support import query, simulate


@given(st.text(max_size=60))
def test_safe_names_stay_in_their_folder(name: str) -> None:
    safe = safe_name(name)
    assert safe and "/" not in safe and "\\" not in safe
    assert not safe.startswith(".")
    assert set(safe) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def test_uploads_are_written_inside_a_new_temporary_folder() -> None:
    uploads = [Upload("../../evil.txt", b"a"), Upload("/etc/passwd", b"b"), Upload("h.jsonl", b"c")]
    folder = save_uploads(uploads)
    try:
        written = sorted(p.name for p in folder.iterdir())
        assert written == ["001-evil.txt", "002-passwd", "003-h.jsonl"]
        assert all(p.resolve().parent == folder for p in folder.iterdir())
        assert (folder / "002-passwd").read_bytes() == b"b"
    finally:
        shutil.rmtree(folder)


def test_uploads_over_the_cap_are_refused_before_writing(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="more than the"):
        save_uploads([Upload("a.txt", b"x" * 600), Upload("b.txt", b"y" * 600)], limit=1000)


def test_a_named_folder_must_exist(tmp_path: Path) -> None:
    allowed = (tmp_path,)
    assert checked_folder(str(tmp_path), allowed) == tmp_path.resolve()
    with pytest.raises(UserError, match="does not exist"):
        checked_folder(str(tmp_path / "missing"), allowed)
    with pytest.raises(UserError, match="name a folder"):
        checked_folder("  ", allowed)


def test_an_uploaded_file_without_a_final_line_end_stores_its_last_hand(tmp_path: Path) -> None:
    """An upload is a whole file: its last line without a line end is not a hand still being
    written (a folder import holds such a hand back until the file grows)."""
    text = simulate(tmp_path / "h.txt", 4, seed=7).read_text(encoding="utf-8").rstrip("\n")
    db = tmp_path / "ofc.duckdb"
    folder = save_uploads([Upload("h.txt", text.encode("utf-8"))])
    job = ImportJob(db, [folder], cleanup=folder).start()
    assert job.wait(120) and job.error is None
    assert query(db, "SELECT count(*) FROM hands") == [(4,)]
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
    assert not folder.exists()
