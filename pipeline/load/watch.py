"""``ofc import --watch``: keep importing what room clients write, until Ctrl-C.

Every ``interval`` seconds the paths are looked at again (folders rescanned,
so new files are found); a new or grown file is imported as an ordinary
incremental run, except that the text after a file's last hand boundary is
taken only when it parses as a complete hand: a hand still being written
waits for its last lines. Each run is atomic, so stopping the watcher at any
moment is safe.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace

import duckdb

from pipeline.load.importer import ImportOptions, run_import, summary_lines
from pipeline.load.progress import Progress


def watch(options: ImportOptions, progress: Progress, interval: float) -> int:
    """Import new hands every ``interval`` seconds until interrupted; exit code 0."""
    options = replace(options, complete_only=True)
    progress.phase(f"watching {' '.join(options.paths)} (Ctrl-C stops)")
    waiting: tuple = ()
    try:
        while True:
            summary = run_import(options, progress)
            progress.close()
            if summary.counts is not None or summary.upgraded_from or summary.held_back != waiting:
                print("\n".join(summary_lines(summary)), file=sys.stdout, flush=True)
            waiting = summary.held_back
            time.sleep(interval)
    except (KeyboardInterrupt, duckdb.InterruptException):
        # Ctrl-C during a DuckDB query reaches Python as DuckDB's interrupt; the
        # database is untouched either way (an import swaps in a finished copy).
        progress.phase("stopped watching")
        return 0
