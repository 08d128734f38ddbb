"""Worker processes that die with the process that started them.

``kill -9`` of ``ofc parse`` or ``ofc import`` gives the parent no chance to
stop its workers, which would run on, holding hundreds of megabytes each,
and keep multiprocessing's resource tracker alive with them. Each worker
asks Linux to send it ``SIGKILL`` when its parent dies
(``prctl(PR_SET_PDEATHSIG)``); the tracker exits by itself once no process
holds its pipe. Elsewhere than Linux it does nothing.

``start_worker`` is the pools' initializer: this module imports nothing
heavy, so a worker asks for the signal before it loads polars and the
parsers, and a parent killed while its workers start leaves none behind.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from parsers.memory import keep_freed_memory

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a worker: be killed when the process ``parent`` dies (at once if it already has)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return  # not allowed here (a sandbox): the worker still works, as before
    if os.getppid() != parent:  # the parent died before the request was made
        os.kill(os.getpid(), signal.SIGKILL)


def start_worker(parent: int, polars_threads: int | None = None) -> None:
    """Set up a worker process first thing: die with ``parent``, keep freed memory, and (when
    given) the number of polars threads, before polars is imported. Ctrl-C is the parent's
    to handle."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if polars_threads is not None:
        os.environ["POLARS_MAX_THREADS"] = str(polars_threads)
    keep_freed_memory()
