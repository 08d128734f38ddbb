"""Ctrl-C that is never lost: a command remembers it was interrupted.

Python turns SIGINT into ``KeyboardInterrupt`` wherever the interpreter is,
and where it is inside a callback from compiled code (numba's compiler,
polars' type conversions) that code reports the exception as "ignored" and
goes on, or fails with an error of its own. The handler installed here also
notes the signal, so a command can refuse to commit work after an interrupt
that was swallowed (``check``) and can tell an error caused by one from a
fault (``seen``); ``deferred`` holds the signal back while a command cleans up.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_seen = threading.Event()


def _on_sigint(signum: int, frame: object) -> None:
    _seen.set()
    raise KeyboardInterrupt


def install() -> None:
    """Take SIGINT with the noting handler (from the main thread, as ``signal`` requires)."""
    _seen.clear()
    signal.signal(signal.SIGINT, _on_sigint)


def seen() -> bool:
    """Whether SIGINT arrived since ``install``."""
    return _seen.is_set()


def check() -> None:
    """Raise ``KeyboardInterrupt`` if SIGINT arrived, even if it was swallowed on the way."""
    if _seen.is_set():
        raise KeyboardInterrupt


@contextmanager
def deferred() -> Iterator[None]:
    """SIGINT held back in this block (a cleanup that must finish); it is taken after it."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
