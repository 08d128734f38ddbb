"""Memory settings for batch processes: keep freed memory for reuse instead of handing it back.

Parsing and importing allocate and free arrays of tens of megabytes per
chunk. By default glibc's ``malloc`` maps each such block fresh from the
system and unmaps it when freed, so every chunk pays a page fault per 4 KB
touched, and the kernel's time for those faults was about a quarter of a
parse's CPU time (``docs/benchmarks.md``). ``keep_freed_memory`` raises the
size up to which blocks come from the reusable heap to glibc's largest
(32 MB) and lets freed memory stay with the process. Memory then stays at
the peak of one chunk's work instead of rising and falling with each chunk.

Nor are huge pages asked for: numpy advises the kernel to back every array of
4 MB or more with huge pages, and with the kernel's usual setting (``defrag``
``madvise``) the first touch of such an array then waits while the kernel
compacts memory into them: a tenth of a parse's CPU time. ``keep_freed_memory``
turns that advice off, as ``NUMPY_MADVISE_HUGEPAGE=0`` does (numpy's setting,
read at import; set here for the processes started later too).

It is for processes that do batch work (the ``ofc`` command, its worker
processes), not for long-lived ones such as the dashboard. Elsewhere than
glibc the ``malloc`` settings do nothing.
"""

from __future__ import annotations

import ctypes
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

#: ``mallopt`` parameters (``malloc.h``).
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
#: Blocks up to this size come from the heap (glibc's largest allowed value).
MMAP_THRESHOLD = 32 << 20
#: Free memory kept at the top of the heap before any is given back.
TRIM_THRESHOLD = 1 << 30
#: How much more than asked the heap grows by.
TOP_PAD = 64 << 20


def keep_freed_memory() -> bool:
    """Set glibc's ``malloc`` and numpy up for batch work; whether ``malloc`` took it (False
    off glibc)."""
    _no_huge_page_advice()
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the interpreter runs on
    except (OSError, AttributeError, TypeError):
        return False
    settings = (
        (_M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (_M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (_M_TOP_PAD, TOP_PAD),
    )
    return all(mallopt(parameter, value) == 1 for parameter, value in settings)


def _no_huge_page_advice() -> None:
    """numpy's ``NUMPY_MADVISE_HUGEPAGE=0``, for this process (numpy is imported already)
    and the ones it starts."""
    os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"
    set_advice = getattr(np._core.multiarray, "_set_madvise_hugepage", None)
    if set_advice is not None:
        set_advice(False)


@contextmanager
def start_up_frozen() -> Iterator[None]:
    """Python's cycle collector leaves the objects alive now out of its collections until the
    block ends.

    The objects alive when a run starts are the modules and compiled code loaded
    (about 160,000 after a first parse) and stay alive. A run of many small files
    keeps a few objects per file, enough to make the collector walk every tracked
    object now and then: 0.09 s a time, with the start-up's objects, against 0.5 s
    for reading 10,000 one-hand files. Frozen objects are still freed as soon as
    nothing refers to them; only reference cycles among them wait for the block's end.
    A block inside another changes nothing.
    """
    global _frozen
    if _frozen:
        yield
        return
    gc.freeze()
    _frozen = True
    try:
        yield
    finally:
        _frozen = False
        gc.unfreeze()


#: Whether a ``start_up_frozen`` block is open (``gc.get_freeze_count`` walks every frozen object).
_frozen = False
