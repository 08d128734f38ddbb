"""Helpers for the ``ofc import`` tests: simulated histories, runs, and read-only queries."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from pipeline.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
RULESET = "pineapple-1-6-american"
#: Player-hands whose ``pairings``, ``scoops`` or ``rows_won`` differ from their
#: settlements in ``pairwise`` (none, in a database ``ofc import`` wrote).
UNLIKE_SETTLEMENTS = """
WITH sides AS (
    SELECT hand_id, position_a AS position, player_a AS player, rows_a AS won FROM pairwise
    UNION ALL
    SELECT hand_id, position_b, player_b, rows_b FROM pairwise
),
counted AS (
    SELECT hand_id, position, any_value(player) AS player, count(*) AS pairings,
        count(*) FILTER (WHERE won = 3) AS scoops, sum(won) AS rows_won
    FROM sides GROUP BY hand_id, position
)
SELECT count(*)
FROM player_hands AS p
FULL JOIN counted AS c ON c.hand_id = p.hand_id AND c.position = p.position
WHERE p.hand_id IS NULL
    OR p.player IS DISTINCT FROM coalesce(c.player, p.player)
    OR p.pairings IS DISTINCT FROM coalesce(c.pairings, 0)
    OR p.scoops IS DISTINCT FROM coalesce(c.scoops, 0)
    OR p.rows_won IS DISTINCT FROM coalesce(c.rows_won, 0)
"""


#: Hands without a number of their own, and rows whose ``hand_no`` is not their hand's
#: (none, in a database ``ofc import`` wrote).
UNNUMBERED = """
SELECT (SELECT count(*) - count(DISTINCT hand_no) FROM hands)
    + (SELECT count(*) FROM player_hands AS t LEFT JOIN hands AS h USING (hand_id)
       WHERE t.hand_no IS DISTINCT FROM h.hand_no OR h.hand_no IS NULL)
    + (SELECT count(*) FROM placements AS t LEFT JOIN hands AS h USING (hand_id)
       WHERE t.hand_no IS DISTINCT FROM h.hand_no OR h.hand_no IS NULL)
    + (SELECT count(*) FROM pairwise AS t LEFT JOIN hands AS h USING (hand_id)
       WHERE t.hand_no IS DISTINCT FROM h.hand_no OR h.hand_no IS NULL)
"""


def simulate(
    out: Path,
    hands: int,
    seed: int,
    fmt: str = "en",
    bots: str = "random,random,random",
    misreport: float = 0.0,
    ruleset: str = RULESET,
    players: int = 3,
) -> Path:
    """Write a simulated history with ``ofc simulate`` (in this process, one worker)."""
    args = ["simulate", "--ruleset", ruleset, "--hands", str(hands), "--seed", str(seed)]
    args += ["--players", str(players)]
    args += ["--format", fmt, "--out", str(out), "--bots", bots, "--workers", "1"]
    if misreport:
        args += ["--misreport-rate", str(misreport)]
    assert main(args) == 0
    return out


def ofc_import(*args: str | Path) -> int:
    """Run ``ofc import`` in this process, with one worker unless told otherwise."""
    argv = ["import", *map(str, args)]
    if "--workers" not in argv:
        argv += ["--workers", "1"]
    return main([*argv, "--quiet"])


def ofc_process(*args: str | Path, **popen) -> subprocess.Popen:
    """Start ``ofc`` as a real separate process (output captured as text)."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", *map(str, args)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def query(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    """Rows of a query on a read-only connection, closed at once (as the dashboard does)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def scalar(db: Path, sql: str, params: list | None = None):
    return query(db, sql, params)[0][0]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def en_hands(text: str) -> list[str]:
    """The hands of an ``en`` history, each as its text (blank lines between them dropped)."""
    return [block.strip("\n") + "\n" for block in text.split("\n\n") if block.strip()]


def count_rows(db: Path, table: str = "hands") -> int:
    """Rows of ``table``, 0 while the database does not exist yet."""
    return scalar(db, f"SELECT count(*) FROM {table}") if db.exists() else 0


def wait_for_hands(db: Path, hands: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    """Wait until a running ``ofc import --watch`` has stored ``hands`` hands."""
    deadline = time.monotonic() + timeout
    while count_rows(db) != hands:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{count_rows(db)} hands stored, expected {hands}"
        time.sleep(0.05)


def append_text(path: Path, text: str) -> None:
    """Append as a room client writing its history does."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)
