"""``ofc dashboard`` on a database file cut short (a copy that stopped): one line saying what,
where and what to do, exit code 2, before a server starts: nothing listens on the port, no
process is left (``pipeline.load.integrity``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from tests.import_support import ofc_import, ofc_process, simulate


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("db")
    db = folder / "ofc.duckdb"
    assert ofc_import(simulate(folder / "h.txt", 40, seed=71), "--db", db) == 0
    return db


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


#: Bytes kept of the file; a cut inside its headers or catalogue fails DuckDB's own open.
KEPT = {"4 KiB": lambda size: 4096, "100 KB": lambda size: 100_000}
KEPT |= {"a third": lambda size: size // 3, "two thirds": lambda size: size * 2 // 3}
KEPT |= {"all but 4 KiB": lambda size: size - 4096}


@pytest.mark.parametrize("kept", KEPT)
def test_a_database_cut_short_is_told_before_the_server_starts(
    database: Path, tmp_path: Path, kept: str
) -> None:
    data = database.read_bytes()
    size = KEPT[kept](len(data))
    cut = tmp_path / "cut.duckdb"
    cut.write_bytes(data[:size])
    port = _free_port()
    server = ofc_process("dashboard", "--db", cut, "--port", port, start_new_session=True)
    try:
        _, err = server.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGTERM)  # the server it started, and its children
        server.communicate()
        pytest.fail(f"ofc dashboard served a database cut to {kept}")
    assert server.returncode == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert str(cut) in err and "cut short" in err and "restore it from a copy" in err, err
    assert not _listening(port)


def test_a_whole_database_passes_the_check(database: Path) -> None:
    from pipeline.load.integrity import cut_short

    assert cut_short(database) is None
