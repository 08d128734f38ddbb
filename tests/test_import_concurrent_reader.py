"""The dashboard may read the database while an import runs: neither fails.

A real ``ofc import`` process runs while this process reads the database the
way the dashboard does (short read-only connections), and a third process
keeps one connection open throughout. Every read succeeds and sees either the
whole database before the import or the whole database after it; the
connection kept open keeps its snapshot; the import succeeds.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from tests.import_support import ofc_import, ofc_process, scalar, simulate

pytestmark = pytest.mark.slow

HANDS = 1000
TIMEOUT = 120.0


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("sim")
    return simulate(folder / "a.txt", HANDS, seed=41), simulate(folder / "b.txt", HANDS, seed=42)


def _snapshot(db: Path) -> tuple[int, int, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT (SELECT count(*) FROM hands), (SELECT count(*) FROM player_hands), "
            "(SELECT sum(hands) FROM player_summary WHERE variant = 'all')"
        ).fetchall()[0]
    finally:
        con.close()


HOLDER = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
count = "SELECT count(*) FROM hands"
print(con.execute(count).fetchall()[0][0], flush=True)
sys.stdin.readline()
print(con.execute(count).fetchall()[0][0], flush=True)
"""


def test_reads_during_an_import_see_before_or_after(tmp_path: Path, inputs) -> None:
    first, second = inputs
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(first, "--db", db) == 0
    before = (HANDS, 3 * HANDS, 3 * HANDS)
    after = (2 * HANDS, 6 * HANDS, 6 * HANDS)
    assert _snapshot(db) == before

    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == f"{HANDS}\n"
    process = ofc_process("import", first, second, "--db", db, "--workers", "2")
    seen = []
    deadline = time.monotonic() + TIMEOUT
    while process.poll() is None:
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the import did not finish: {process.communicate()}")
        seen.append(_snapshot(db))
        time.sleep(0.01)
    _, err = process.communicate()
    assert process.returncode == 0, err
    seen.append(_snapshot(db))

    assert set(seen) <= {before, after}
    assert seen[-1] == after
    assert seen == sorted(seen), "a reader went back to the old database"
    assert len(seen) > 10, "the import was too quick to overlap with reads"
    held, _ = holder.communicate("go\n", timeout=TIMEOUT)
    assert held == f"{HANDS}\n", "the connection kept open lost its snapshot"
    assert scalar(db, "SELECT count(*) FROM imports") == 2
