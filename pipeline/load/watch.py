"""``ofc import --watch``: keep importing what room clients write, until Ctrl-C.

Every ``interval`` seconds the paths are looked at again (folders rescanned,
so new files are found); a new or grown file is imported as an ordinary
incremental run, except that the text after a file's last hand boundary is
taken only when it parses as a complete hand: a hand still being written
waits for its last lines.

Ctrl-C asks the watcher to stop: a run in progress finishes first (a second
Ctrl-C aborts it). Stopping never harms the database either way, because an
import swaps in a finished copy.
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import replace

from pipeline.load.importer import ImportOptions, run_import, summary_lines
from pipeline.load.progress import Progress

NAP = 0.05


class _StopRequest:
    """The SIGINT handler while watching: the first Ctrl-C asks, the second aborts."""

    def __init__(self, progress: Progress) -> None:
        self.asked = False
        self.running = False  # an import is running (else the watcher is waiting)
        self.progress = progress

    def __call__(self, signum: int, frame: object) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True
        if self.running:
            self.progress.phase("stopping after this run (Ctrl-C again aborts it)")


def watch(options: ImportOptions, progress: Progress, interval: float) -> int:
    """Import new hands every ``interval`` seconds until Ctrl-C; exit code 0."""
    options = replace(options, complete_only=True)
    progress.phase(f"watching {' '.join(options.paths)} (Ctrl-C stops)")
    stop = _StopRequest(progress)
    previous = signal.signal(signal.SIGINT, stop)
    try:
        waiting: tuple = ()
        while not stop.asked:
            stop.running = True
            summary = run_import(options, progress)
            stop.running = False
            progress.close()
            if summary.counts is not None or summary.upgraded_from or summary.held_back != waiting:
                print("\n".join(summary_lines(summary)), file=sys.stdout, flush=True)
            waiting = summary.held_back
            _nap(interval, stop)
    finally:
        signal.signal(signal.SIGINT, previous)
    progress.phase("stopped watching")
    return 0


def _nap(seconds: float, stop: _StopRequest) -> None:
    """Sleep ``seconds``, waking early when a stop is asked."""
    deadline = time.monotonic() + seconds
    while not stop.asked and time.monotonic() < deadline:
        time.sleep(min(NAP, max(deadline - time.monotonic(), 0.0)))
