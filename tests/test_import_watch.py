"""``ofc import --watch`` imports what a room client appends, a hand only once complete.

A real watcher process follows a folder while this test plays the room
client: it appends whole hands, then half a hand (which must wait, neither
stored nor rejected), then the rest of it, then starts a new file.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from tests.import_support import (
    append_text,
    count_rows,
    en_hands,
    ofc_process,
    simulate,
    wait_for_hands,
)

pytestmark = pytest.mark.slow

TIMEOUT = 60.0


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = simulate(tmp_path_factory.mktemp("sim") / "all.txt", 14, seed=51)
    return en_hands(path.read_text(encoding="utf-8"))


def test_watch_takes_whole_hands_as_they_are_written(tmp_path: Path, history: list[str]) -> None:
    room = tmp_path / "room"
    room.mkdir()
    session = room / "session.txt"
    session.write_text("\n".join(history[:5]) + "\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    watcher = ofc_process(
        "import", room, "--db", db, "--watch", "--interval", "0.1", "--workers", "1"
    )
    try:
        wait_for_hands(db, 5, watcher)

        half = history[8].index("*** SHOWDOWN ***")
        append_text(session, "\n".join(history[5:8]) + "\n" + history[8][:half])
        wait_for_hands(db, 8, watcher)
        time.sleep(1.0)
        assert count_rows(db) == 8
        assert count_rows(db, "rejects") == 0

        append_text(session, history[8][half:] + "\n")
        wait_for_hands(db, 9, watcher)

        (room / "next.txt").write_text("\n".join(history[9:]), encoding="utf-8")
        wait_for_hands(db, len(history), watcher)
        assert count_rows(db, "rejects") == 0
        assert count_rows(db, "conflicts") == 0
    finally:
        watcher.send_signal(signal.SIGINT)
        out, err = watcher.communicate(timeout=TIMEOUT)
    assert watcher.returncode == 0, err
    assert "waiting for the hand at" in out


def test_ctrl_c_during_a_run_lets_it_finish(tmp_path: Path, history: list[str]) -> None:
    """With the shortest pause between runs (--interval 0.1; 0 would busy-loop and is refused),
    Ctrl-C lands inside one: the watcher ends it and exits 0."""
    room = tmp_path / "room"
    room.mkdir()
    (room / "session.txt").write_text("\n".join(history) + "\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    for _ in range(3):
        watcher = ofc_process("import", room, "--db", db, "--watch", "--interval", "0.1")
        assert "watching" in watcher.stderr.readline()
        time.sleep(0.5)
        watcher.send_signal(signal.SIGINT)
        _out, err = watcher.communicate(timeout=TIMEOUT)
        assert watcher.returncode == 0, err
        assert "stopped watching" in err
    assert count_rows(db) == len(history)


def test_ctrl_c_while_waiting_stops_at_once_and_says_so(tmp_path: Path, history: list[str]) -> None:
    """Between runs there is no run to finish: no "stopping after this run"."""
    room = tmp_path / "room"
    room.mkdir()
    (room / "session.txt").write_text("\n".join(history) + "\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    watcher = ofc_process("import", room, "--db", db, "--watch", "--interval", "30")
    try:
        wait_for_hands(db, len(history), watcher)
        time.sleep(0.5)  # the run is over: the watcher waits for the next
    finally:
        watcher.send_signal(signal.SIGINT)
        _out, err = watcher.communicate(timeout=TIMEOUT)
    assert watcher.returncode == 0, err
    assert "stopped watching" in err and "stopping after this run" not in err
