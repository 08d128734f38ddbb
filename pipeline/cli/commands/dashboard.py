"""``ofc dashboard``: serve the Streamlit dashboard on a database made by ``ofc import``.

The app listens on 127.0.0.1 unless ``--host`` says otherwise; its Import
page reads the server's disk only inside the ``--import-dir`` folders (none
by default: uploads only). It makes no
network calls: Streamlit's usage statistics are switched off on the command
line and in the environment.

>>> command = streamlit_command(Path("ofc.duckdb"), 8501, "127.0.0.1")
>>> command[1:4], command[-2:]
(['-m', 'streamlit', 'run'], ['--db', 'ofc.duckdb'])
>>> command[command.index("--server.address") + 1]
'127.0.0.1'
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from dashboard.settings import MAX_UPLOAD_MB
from ofc_core.errors import UserError
from ofc_core.paths import check_not_a_folder

#: The Streamlit script, inside the installed ``dashboard`` package.
APP = Path(__file__).resolve().parents[3] / "dashboard" / "app.py"
DEFAULT_PORT = 8501
LOCALHOST = "127.0.0.1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", required=True, type=Path, metavar="FILE", help="DuckDB file made by `ofc import`"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--import-dir",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="a folder whose files the Import page may import (repeatable; default: none, so"
        " the page imports uploads only)",
    )
    parser.add_argument(
        "--host",
        default=LOCALHOST,
        help=f"address to listen on (default {LOCALHOST}: this machine only; 0.0.0.0 opens it)",
    )


def streamlit_command(
    db: Path, port: int, host: str, import_dirs: tuple[Path, ...] = ()
) -> list[str]:
    """The ``streamlit run`` command line that serves the app on ``db``."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--server.fileWatcherType",
        "none",
        "--server.maxUploadSize",
        str(MAX_UPLOAD_MB),
        "--browser.gatherUsageStats",
        "false",
        "--global.developmentMode",
        "false",
        "--client.toolbarMode",
        "minimal",
        "--theme.base",
        "light",
        "--theme.primaryColor",
        "#1f6f5c",
        "--",
        "--db",
        str(db),
        *(f"--import-dir={d}" for d in import_dirs),
    ]


def streamlit_environment() -> dict[str, str]:
    """The environment of the server: the caller's, with telemetry off."""
    return os.environ | {"STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}


def checked_database(db: Path) -> Path:
    """``db`` as an absolute path, or a UserError saying how to make or upgrade one, or
    that it is cut short (``pipeline.load.integrity``): told before the server starts."""
    from pipeline.load.database import schema_problem, schema_version
    from pipeline.load.integrity import cut_short

    check_not_a_folder(db)
    if not db.is_file():
        raise UserError(
            f"database {db} does not exist: create it with `ofc import --db {db} FILES...`"
        )
    problem = schema_problem(db, schema_version(db)) or cut_short(db)
    if problem:
        raise UserError(problem)
    return db.resolve()


#: Signals that stop the server: passed on to Streamlit, whose exit is then awaited.
STOPPING = (signal.SIGINT, signal.SIGTERM)


def serve(command: list[str], environment: dict[str, str]) -> int:
    """Run the server until it exits; SIGINT and SIGTERM sent to this process are passed
    on to it and its exit awaited, so no server is left holding the port. 0 when
    stopped by one of those signals, else the server's exit code."""
    child = subprocess.Popen(command, env=environment)
    stopped: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        stopped.append(signum)
        child.send_signal(signum)

    previous = {s: signal.signal(s, forward) for s in STOPPING}
    try:
        code = child.wait()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0 if stopped else code


def checked_import_dirs(folders: list[Path]) -> tuple[Path, ...]:
    """The ``--import-dir`` folders, resolved, or a UserError for one that is not a folder."""
    for folder in folders:
        if not folder.is_dir():
            raise UserError(f"--import-dir {folder} is not a folder on this machine")
    return tuple(folder.resolve() for folder in folders)


def check_port(host: str, port: int) -> None:
    """A UserError when ``port`` is not a port number or another server listens on it (a
    dashboard or ``make demo`` still running), before anything is started. A port left in
    TIME_WAIT by a server that stopped is free (the probe reuses it, as Streamlit does)."""
    if not 1 <= port <= 65535:
        raise UserError(f"--port must be between 1 and 65535, got {port}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                return  # Streamlit says what is wrong with the address
            raise UserError(
                f"port {port} on {host} is in use (another dashboard, or `make demo`, still "
                f"running?): stop it, or pass --port {port + 1 if port < 65535 else port - 1}"
            ) from None


def run(args: argparse.Namespace) -> int:
    check_port(args.host, args.port)
    db = checked_database(args.db)
    import_dirs = checked_import_dirs(args.import_dir)
    where = f"http://{args.host}:{args.port}"
    print(f"ofc dashboard: serving {db} at {where} (Ctrl+C stops it)", file=sys.stderr)
    return serve(streamlit_command(db, args.port, args.host, import_dirs), streamlit_environment())
