"""Comparing the bytes of a chunk with a format's literals, inside the compiled passes.

>>> import numpy as np
>>> buf = np.frombuffer("== Итог ==".encode(), dtype=np.uint8)
>>> equals(buf, 0, buf[:7]), equals(buf, 1, buf[:7])
(True, False)
"""

from __future__ import annotations

import numba


@numba.njit(cache=True, inline="always")
def equals(buf, at, literal) -> bool:
    """Whether the bytes of ``buf`` at ``at`` spell ``literal``."""
    for k in range(len(literal)):  # noqa: SIM110 (a loop compiles to the tightest code)
        if buf[at + k] != literal[k]:
            return False
    return True
