"""An import stopped at any moment leaves the database exactly as it was; a rerun completes it.

Real ``ofc import`` processes are killed with SIGKILL (and interrupted with
SIGINT) while they stage Parquet and while they load the database copy; the
database file must stay byte for byte the same, and the next run must clean
up and store everything.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.import_support import ofc_import, ofc_process, query, scalar, sha256, simulate

HANDS = 800
POLL = 0.002
TIMEOUT = 60.0
#: Runs tried per stop: on a busy machine an import can finish before it is stopped.
ATTEMPTS = 5


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("sim")
    return simulate(folder / "a.txt", HANDS, seed=31), simulate(folder / "b.txt", HANDS, seed=32)


def _work_copies(db: Path) -> list[Path]:
    return list(db.parent.glob(db.name + ".importing-*"))


def _restore(db: Path, saved: Path) -> None:
    """Put back the database an import that was not stopped in time changed."""
    for path in (*_work_copies(db), db.with_name(db.name + ".wal")):
        path.unlink(missing_ok=True)
    shutil.copyfile(saved, db)


def _staging_started(db: Path) -> bool:
    staging = db.with_name(db.name + ".staging")
    return staging.exists() and any(staging.iterdir())


def _stop_when(condition: Callable[[], bool], process, sig: int) -> tuple[bool, str]:
    """Send ``sig`` to the import once ``condition`` holds; whether it did, and what the
    import wrote to its standard error.

    The import is frozen (SIGSTOP) before the signal is sent and the condition is tested
    again, so the signal is known to arrive in the phase it is meant for: on a busy machine
    the import can finish between this process seeing the condition and signalling it (a
    signal to a process that has exited is lost, and it exits 0). False when the import got
    past the phase first: that run says nothing, and the database it changed is restored.
    """
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if process.poll() is not None:
            return False, process.communicate()[1]
        assert time.monotonic() < deadline
        time.sleep(POLL)
    process.send_signal(signal.SIGSTOP)
    held = process.poll() is None and condition()
    if held:
        os.kill(process.pid, sig)
    if process.poll() is None:
        process.send_signal(signal.SIGCONT)
    return held, process.communicate(timeout=TIMEOUT)[1]


STOPS = [("staging", signal.SIGKILL), ("loading", signal.SIGKILL), ("loading", signal.SIGINT)]


def test_stopped_import_leaves_database_unchanged(
    tmp_path: Path, inputs: tuple[Path, Path]
) -> None:
    first, second = inputs
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(first, "--db", db) == 0
    before = sha256(db)
    saved = shutil.copyfile(db, tmp_path / "saved.duckdb")
    condition = {"staging": lambda: _staging_started(db), "loading": lambda: _work_copies(db)}

    for phase, sig in STOPS:
        for _ in range(ATTEMPTS):
            process = ofc_process("import", first, second, "--db", db, "--workers", "1")
            stopped, err = _stop_when(condition[phase], process, sig)
            if stopped:
                break
            _restore(db, saved)
        else:
            pytest.fail(f"every import finished before it could be stopped while {phase}")
        if sig == signal.SIGINT:  # 130: Python's KeyboardInterrupt or DuckDB's own
            assert process.returncode in (130, -signal.SIGINT), err
            assert "Traceback" not in err
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
