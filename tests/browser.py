"""Test helpers: serve the dashboard with ``ofc dashboard``'s command line and drive it in Chromium.

The browser is Debian's ``/usr/bin/chromium`` driven by Playwright (never a
downloaded one), headless, sandbox off (CI runs as root), with a fresh
profile per run and every background network feature off.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.cli.commands.dashboard import streamlit_command, streamlit_environment

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Where screenshots of every page go (gitignored).
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
START_TIMEOUT_S = 60.0


def chromium_path() -> str | None:
    """Debian's Chromium, if installed (``make test`` installs it)."""
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


@dataclass
class Server:
    """A running ``streamlit run`` of the dashboard, and what it printed."""

    url: str
    process: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def serve(db: Path, log_dir: Path, import_dirs: tuple[Path, ...] = ()) -> Iterator[Server]:
    """Serve the dashboard on ``db`` on a free localhost port until the block ends (the Import
    page may read ``import_dirs``, as ``ofc dashboard --import-dir`` allows)."""
    port = free_port()
    log = log_dir / f"streamlit-{port}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            streamlit_command(db, port, "127.0.0.1", import_dirs),
            env=streamlit_environment(),
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _healthy(server.url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start:\n{server.output()}")
            time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


#: Requests Streamlit's page makes to guess its base path when a page URL is
#: loaded directly (``/players/_stcore/health``): 404s by design, not app errors.
BASE_PATH_PROBES = ("/_stcore/health", "/_stcore/host-config")


def is_base_path_probe(url: str) -> bool:
    """
    >>> is_base_path_probe("http://127.0.0.1:1/hands/_stcore/health")
    True
    >>> is_base_path_probe("http://127.0.0.1:1/static/app.js")
    False
    """
    return url.endswith(BASE_PATH_PROBES)


@dataclass
class Console:
    """Errors the page reported: console ``error`` messages and uncaught exceptions."""

    errors: list[str] = field(default_factory=list)

    def _message(self, message) -> None:
        where = (message.location or {}).get("url", "")
        if message.type == "error" and not is_base_path_probe(where):
            self.errors.append(f"{message.text} ({where})")

    def watch(self, page) -> None:
        page.on("console", self._message)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))


@contextmanager
def chromium(playwright) -> Iterator[object]:
    """A headless Chromium context with a fresh profile, laptop-sized window."""
    profile = tempfile.mkdtemp(prefix="ofc-chromium-")
    try:  # the profile goes even when the browser does not start
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=chromium_path(),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1440, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


_IDLE = """() => {
    const app = document.querySelector("[data-testid='stApp']");
    return app && app.dataset.testScriptState === "notRunning"
        && !document.querySelector("[data-testid='stSkeleton']");
}"""


def wait_until_idle(page, timeout_ms: int = 30_000) -> None:
    """Wait until Streamlit has finished running the script and drawn its elements.

    The app root carries the script's state (``data-test-script-state``); a
    rerun a click causes starts a moment later, hence the short pause first.
    """
    page.wait_for_timeout(250)
    page.wait_for_function(_IDLE, timeout=timeout_ms, polling=100)
    page.wait_for_timeout(250)
    page.wait_for_function(_IDLE, timeout=timeout_ms, polling=100)


_DRAWN = """() => {
    const visible = el => el.getBoundingClientRect().height > 0 && !el.closest("details:not([open])");
    const tall = (el, sel) => [...el.querySelectorAll(sel)].some(
        c => c.getBoundingClientRect().height > 20);
    const charts = [...document.querySelectorAll("[data-testid='stVegaLiteChart']")];
    const tables = [...document.querySelectorAll("[data-testid='stDataFrame']")];
    return charts.filter(visible).every(c => tall(c, "svg.marks, canvas.marks"))
        && tables.filter(visible).every(t => tall(t, "canvas"));
}"""


def wait_for_drawing(page, timeout_ms: int = 15_000) -> None:
    """Wait until every visible chart and table on the page has drawn itself."""
    page.wait_for_function(_DRAWN, timeout=timeout_ms, polling=200)


def screenshot(page, name: str) -> Path:
    """Save a screenshot of the whole page (the viewport grown to the content) under test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    size = page.viewport_size
    height = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll(
            "[data-testid='stMain'], [data-testid='stSidebarContent'], [data-testid='stMainBlockContainer']")]
            .map(e => e.scrollHeight), 0)"""
    )
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 40)})
    try:
        wait_for_drawing(page)
        page.wait_for_timeout(400)
        page.screenshot(path=str(path))
    finally:
        page.set_viewport_size(size)
    return path
