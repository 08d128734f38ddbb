"""Memory settings for batch processes: keep freed memory for reuse instead of handing it back.

Parsing and importing allocate and free arrays of tens of megabytes per
chunk. By default glibc's ``malloc`` maps each such block fresh from the
system and unmaps it when freed, so every chunk pays a page fault per 4 KB
touched, and the kernel's time for those faults was about a quarter of a
parse's CPU time (``docs/benchmarks.md``). ``keep_freed_memory`` raises the
size up to which blocks come from the reusable heap to glibc's largest
(32 MB) and lets freed memory stay with the process. Memory then stays at
the peak of one chunk's work instead of rising and falling with each chunk.

It is for processes that do batch work (the ``ofc`` command, its worker
processes), not for long-lived ones such as the dashboard. Elsewhere than
glibc it does nothing.
"""

from __future__ import annotations

import ctypes

#: ``mallopt`` parameters (``malloc.h``).
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
#: Blocks up to this size come from the heap (glibc's largest allowed value).
MMAP_THRESHOLD = 32 << 20
#: Free memory kept at the top of the heap before any is given back.
TRIM_THRESHOLD = 1 << 30
#: How much more than asked the heap grows by.
TOP_PAD = 64 << 20


def keep_freed_memory() -> bool:
    """Set glibc's ``malloc`` up for batch work; whether it took (False off glibc)."""
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
