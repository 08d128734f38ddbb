"""``parsers.memory.keep_freed_memory`` sets a batch process up: glibc keeps freed memory,
numpy stops asking for huge pages, and the processes it starts inherit that."""

from __future__ import annotations

import subprocess
import sys

_CHILD = """
import numpy as np
from parsers.memory import keep_freed_memory
print(keep_freed_memory(), np._core.multiarray._set_madvise_hugepage(True))
import os, subprocess, sys
child = "import numpy as np; print(np._core.multiarray._set_madvise_hugepage(True))"
print(subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout)
"""


def test_a_batch_process_and_its_children_ask_for_no_huge_pages() -> None:
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    took, advised, child_advised = done.stdout.split()
    assert took == "True"  # glibc here
    assert advised == "False"  # the setting before this test turned it back on
    assert child_advised == "False"  # numpy read NUMPY_MADVISE_HUGEPAGE=0 at import
