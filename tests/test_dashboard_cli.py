"""``ofc dashboard``: its command line, its Streamlit invocation, and its errors."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from pipeline.cli.commands import dashboard
from pipeline.cli.main import COMMANDS, build_parser, main


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_dashboard_is_a_command() -> None:
    assert "dashboard" in COMMANDS
    args = build_parser().parse_args(["dashboard", "--db", "x.duckdb"])
    assert (args.port, args.host) == (8501, "127.0.0.1")


def test_streamlit_serves_localhost_only_without_telemetry(tmp_path: Path) -> None:
    command = dashboard.streamlit_command(tmp_path / "a.duckdb", 8600, "127.0.0.1")
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert Path(command[4]) == dashboard.APP and dashboard.APP.is_file()
    assert _option(command, "--server.address") == "127.0.0.1"
    assert _option(command, "--server.port") == "8600"
    assert _option(command, "--server.headless") == "true"
    assert _option(command, "--browser.gatherUsageStats") == "false"
    assert command[-3:] == ["--", "--db", str(tmp_path / "a.duckdb")]
    assert dashboard.streamlit_environment()["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] == "false"


def test_an_explicit_host_opens_it_wider() -> None:
    command = dashboard.streamlit_command(Path("a.duckdb"), 8501, "0.0.0.0")
    assert _option(command, "--server.address") == "0.0.0.0"


def test_a_missing_database_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dashboard", "--db", str(tmp_path / "none.duckdb")]) == 2
    error = capsys.readouterr().err
    assert "does not exist" in error and "ofc import" in error and error.count("\n") == 1


def test_a_bad_port_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.duckdb"
    db.write_bytes(b"")
    assert main(["dashboard", "--db", str(db), "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["dashboard", "demo"])
def test_a_port_in_use_is_told_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Another server listens on the port (a dashboard still running): one line naming the
    port and another to pass, before the demo imports or a server starts."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        argv = ["--db", str(tmp_path / "none.duckdb")] if command == "dashboard" else []
        assert main([command, *argv, "--port", str(port)]) == 2
    captured = capsys.readouterr()
    assert f"port {port} on 127.0.0.1 is in use" in captured.err and "--port" in captured.err
    assert captured.err.count("\n") == 1 and captured.out == ""
