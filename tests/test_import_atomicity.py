"""An import stopped at any moment leaves the database exactly as it was; a rerun completes it.

Real ``ofc import`` processes are killed with SIGKILL (and interrupted with
SIGINT) while they stage Parquet and while they load the database copy; the
database file must stay byte for byte the same, and the next run must clean
up and store everything.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.import_support import ofc_import, ofc_process, query, scalar, sha256, simulate

HANDS = 800
POLL = 0.002
TIMEOUT = 60.0


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("sim")
    return simulate(folder / "a.txt", HANDS, seed=31), simulate(folder / "b.txt", HANDS, seed=32)


def _work_copies(db: Path) -> list[Path]:
    return list(db.parent.glob(db.name + ".importing-*"))


def _staging_started(db: Path) -> bool:
    staging = db.with_name(db.name + ".staging")
    return staging.exists() and any(staging.iterdir())


def _stop_when(condition: Callable[[], bool], process, sig: int) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert process.poll() is None, "the import finished before it could be stopped"
        assert time.monotonic() < deadline
        time.sleep(POLL)
    os.kill(process.pid, sig)
    process.communicate(timeout=TIMEOUT)


STOPS = [("staging", signal.SIGKILL), ("loading", signal.SIGKILL), ("loading", signal.SIGINT)]


def test_stopped_import_leaves_database_unchanged(
    tmp_path: Path, inputs: tuple[Path, Path]
) -> None:
    first, second = inputs
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(first, "--db", db) == 0
    before = sha256(db)
    condition = {"staging": lambda: _staging_started(db), "loading": lambda: _work_copies(db)}

    for phase, sig in STOPS:
        process = ofc_process("import", first, second, "--db", db, "--workers", "1")
        _stop_when(condition[phase], process, sig)
        if sig == signal.SIGINT:  # 130: Python's KeyboardInterrupt; DuckDB may die of it
            assert process.returncode in (130, -signal.SIGINT)
        assert sha256(db) == before, (phase, sig)
        assert scalar(db, "SELECT count(*) FROM hands") == HANDS

    assert ofc_import(first, second, "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 2 * HANDS
    assert query(db, "SELECT import_id, hands_added FROM imports ORDER BY 1") == [
        (1, HANDS),
        (2, HANDS),
    ]
    assert not _work_copies(db)
    assert not db.with_name(db.name + ".staging").exists()
