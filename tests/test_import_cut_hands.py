"""Hands cut short on import: never stored as complete, never lost.

``ofc import --watch`` leaves a hand whose last summary line is still being
written for later (the file offset stays before it; no stray reject is made
of the rest of the line); a full copy of a hand that an older version stored
incomplete (``reported_money`` NULL at a table played for money) replaces it
instead of being filed as a conflict.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import duckdb
import pytest

from tests.import_support import (
    UNNUMBERED,
    append_text,
    count_rows,
    en_hands,
    ofc_import,
    ofc_process,
    query,
    scalar,
    simulate,
    wait_for_hands,
)

TIMEOUT = 60.0


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = simulate(tmp_path_factory.mktemp("sim") / "all.txt", 6, seed=52)
    return en_hands(path.read_text(encoding="utf-8"))


def test_watch_waits_for_a_summary_line_being_written(tmp_path: Path, history: list[str]):
    room = tmp_path / "room"
    room.mkdir()
    session = room / "session.txt"
    session.write_text("\n".join(history[:3]) + "\n", encoding="utf-8")
    last = history[3]
    cut = last.rindex(" = ")  # the last summary line without ' = <money> <currency>'
    db = tmp_path / "ofc.duckdb"
    watcher = ofc_process(
        "import", room, "--db", db, "--watch", "--interval", "0.1", "--workers", "1"
    )
    try:
        wait_for_hands(db, 3, watcher)
        append_text(session, last[:cut])
        time.sleep(1.5)
        assert count_rows(db) == 3
        assert count_rows(db, "rejects") == 0
        append_text(session, last[cut:] + "\n")
        wait_for_hands(db, 4, watcher)
        time.sleep(0.5)
        assert count_rows(db, "rejects") == 0
        assert count_rows(db, "conflicts") == 0
        assert scalar(db, "SELECT count(*) FROM player_hands WHERE reported_money IS NULL") == 0
        read = scalar(db, "SELECT sum(hands_read) FROM imports")
        assert read == count_rows(db) + count_rows(db, "rejects")
    finally:
        watcher.send_signal(signal.SIGINT)
        _out, err = watcher.communicate(timeout=TIMEOUT)
    assert watcher.returncode == 0, err


def _import_cut_before(tmp_path: Path, history: list[str], marker: str) -> Path:
    """Import the history with its last hand cut before the last ``marker`` in it (no line
    end after); the database, which stored every hand but that one."""
    path = tmp_path / "cut.txt"
    last = history[-1].rstrip("\n")
    path.write_text("\n".join(history[:-1]) + last[: last.rindex(marker)], encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(path, "--db", db) == 0
    assert count_rows(db) == len(history) - 1
    return db


def test_a_cut_hand_at_the_end_of_a_file_is_rejected_on_import(tmp_path: Path, history: list[str]):
    db = _import_cut_before(tmp_path, history, " = ")
    reasons = query(db, "SELECT reason FROM rejects")
    assert len(reasons) == 1 and reasons[0][0].startswith("summary line cut short")
    assert scalar(db, "SELECT hands_read FROM imports") == len(history)


def test_a_hand_cut_inside_a_word_says_the_file_ends_inside_its_line(
    tmp_path: Path, history: list[str]
):
    db = _import_cut_before(tmp_path, history, " points")
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert reason.startswith("cannot read the summary line")
    assert reason.endswith(
        "the file ends inside its last line (cut short, or still being written?)"
    )


def test_a_full_copy_replaces_a_hand_stored_incomplete(tmp_path: Path, history: list[str]):
    path = tmp_path / "full.txt"
    path.write_text("\n".join(history), encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(path, "--db", db) == 0
    wanted = query(db, "SELECT hand_id, seat, reported_money FROM player_hands ORDER BY ALL")
    victim = wanted[0][0]
    # What an older version stored of a hand whose last summary line was cut short.
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE player_hands SET reported_money = NULL WHERE hand_id = ?", [victim])
        con.execute("UPDATE hands SET fingerprint = 'incomplete' WHERE hand_id = ?", [victim])

    assert ofc_import(path, "--db", db, "--reread") == 0
    assert query(db, "SELECT hand_id, seat, reported_money FROM player_hands ORDER BY ALL") == (
        wanted
    )
    assert count_rows(db, "conflicts") == 0
    assert count_rows(db) == len(history)
    assert query(db, UNNUMBERED) == [(0,)]  # the full copy has a number of its own
    assert query(
        db, "SELECT hands_added, hands_duplicate, hands_conflict FROM imports WHERE import_id = 2"
    ) == [(1, len(history) - 1, 0)]
