"""``python -m pipeline.cli.bench.import_speed --keep FILE``: the one-off import run keeps its
database for ``python -m dashboard.bench.pages --db FILE``."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pipeline.benchkit import histories
from pipeline.cli.bench import import_speed

pytestmark = pytest.mark.slow


def test_the_imported_database_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(histories, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(import_speed, "CACHE", tmp_path / "cache")
    (tmp_path / "cache").mkdir()
    kept = tmp_path / "kept.duckdb"
    assert import_speed.main(["--hands", "300", "--keep", str(kept)]) == 0
    with duckdb.connect(str(kept), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 300
    assert "import_s" in capsys.readouterr().out
    assert not list((tmp_path / "cache").glob("tmp*"))  # its working folder is gone
