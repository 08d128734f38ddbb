"""Stopping ``ofc dashboard`` with SIGTERM or SIGINT stops its Streamlit server too:
the signal is passed on and its exit awaited, so the port is free afterwards."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.browser import free_port

START_S, STOP_S = 60.0, 30.0


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_ofc_dashboard_stops_its_server(
    dashboard_db: Path, stop: signal.Signals
) -> None:
    db = dashboard_db
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "pipeline.cli", "dashboard", "--db", str(db)]
    ofc = subprocess.Popen(
        [*command, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[1],
    )
    children: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + START_S
        while not _healthy(url):
            assert ofc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        children = psutil.Process(ofc.pid).children(recursive=True)
        assert children, "ofc dashboard runs Streamlit as a child process"
        ofc.send_signal(stop)
        assert ofc.wait(timeout=STOP_S) == 0
        _, alive = psutil.wait_procs(children, timeout=5)
        assert alive == []
        assert not _healthy(url)
    finally:
        for child in children:
            if child.is_running():
                child.kill()
        if ofc.poll() is None:
            ofc.kill()
            ofc.wait()
