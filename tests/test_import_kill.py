"""``kill -9`` of ``ofc import`` takes its worker processes (and multiprocessing's resource
tracker) with it: nothing is left running, holding memory, once the parent is gone."""

from __future__ import annotations

import shutil
import signal
import time
from pathlib import Path

import psutil

from tests.import_support import ofc_process, simulate


def _wait_for_children(process: psutil.Process, count: int, seconds: float) -> list[psutil.Process]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        children = process.children(recursive=True)
        if len(children) >= count:
            return children
        time.sleep(0.1)
    raise AssertionError(f"ofc import started {len(process.children())} child(ren), not {count}")


def _wait_for(condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the import did not start staging"
        time.sleep(0.05)


def test_workers_die_with_a_killed_import(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    first = simulate(folder / "h0.txt", 3000, seed=11)
    for copy in range(1, 4):  # more than one piece of work per worker, past the inline limit
        shutil.copy(first, folder / f"h{copy}.txt")
    started = ofc_process("import", folder, "--db", tmp_path / "ofc.duckdb", "--workers", "2")
    parent = psutil.Process(started.pid)
    children: list[psutil.Process] = []
    try:
        children = _wait_for_children(parent, 3, 120)  # two workers and the resource tracker
        staged = tmp_path / "ofc.duckdb.staging"
        _wait_for(lambda: staged.is_dir() and any(staged.rglob("*.parquet")), 120)
        parent.send_signal(signal.SIGKILL)
        started.wait(10)
        _, alive = psutil.wait_procs(children, timeout=5)
        assert alive == [], [p.cmdline()[-3:] for p in alive]
    finally:
        started.kill()
        started.communicate()
        for child in children:  # a failed test leaves no process behind either
            if child.is_running():
                child.kill()
