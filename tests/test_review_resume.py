"""An interrupted ``ofc review`` keeps what it committed, and the next run does the rest.

The review runs as a real child process on a real DuckDB file, committing
after every batch (``COMMIT_SECONDS`` = 0). Stopped by Ctrl-C (SIGINT) or
SIGTERM it stores what is finished and says so (exit 130); killed outright,
the last commit stands. Either way the database stays whole, and a second run
completes the table exactly as one uninterrupted run does.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from tests.test_review import archive, ofc, scalar

pytestmark = pytest.mark.slow

ROLLOUTS = "64"
WORKERS = "1"
COMPARED = "SELECT * EXCLUDE (reviewed_at) FROM decisions ORDER BY hand_id, player, street"
#: ``ofc review`` in a child process, committing after every batch.
CHILD = """
import sys
import pipeline.review.run
from pipeline.cli.main import main
pipeline.review.run.COMMIT_SECONDS = 0.0
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def archive_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return archive(tmp_path_factory.mktemp("resume"), "jsonl", "random,aggressive,tight", 30, 5, 3)


@pytest.fixture(scope="module")
def uninterrupted(archive_db: Path) -> list[tuple]:
    db = archive_db.with_name("whole.duckdb")
    shutil.copyfile(archive_db, db)
    assert ofc("review", "--db", db, "--all", "--rollouts", ROLLOUTS, "--workers", "1") == 0
    return _rows(db)


def _rows(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(COMPARED).fetchall()
    finally:
        con.close()


def _stored(db: Path) -> int:
    try:
        return scalar(db, "SELECT count(*) FROM decisions")
    except duckdb.Error:  # no table yet (the first commit adds it)
        return 0


def _start(db: Path) -> subprocess.Popen:
    args = ["review", "--db", str(db), "--all", "--rollouts", ROLLOUTS, "--workers", WORKERS]
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _interrupt_after_a_commit(db: Path, signum: int) -> tuple[subprocess.Popen, str]:
    child = _start(db)
    try:
        deadline = time.monotonic() + 240
        while _stored(db) == 0 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        child.send_signal(signum)
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_an_interrupted_review_keeps_its_commits_and_a_rerun_finishes(
    archive_db: Path, uninterrupted: list[tuple], tmp_path: Path, signum: int
) -> None:
    db = tmp_path / "hands.duckdb"
    shutil.copyfile(archive_db, db)
    child, err = _interrupt_after_a_commit(db, signum)
    kept = _stored(db)
    assert 0 < kept < len(uninterrupted)
    if signum != signal.SIGKILL:
        assert child.returncode == 130, err
        assert f"interrupted; {kept:,} decision(s) reviewed are stored" in err
    else:
        assert child.returncode == -signal.SIGKILL
    partial = Counter(row[:2] for row in _rows(db))
    whole = Counter(row[:2] for row in uninterrupted)
    assert all(whole[key] == count for key, count in partial.items())  # whole player-hands
    assert ofc("review", "--db", db, "--all", "--rollouts", ROLLOUTS, "--workers", "1") == 0
    assert _rows(db) == uninterrupted  # each decision once, as one run values it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.duckdb"]
