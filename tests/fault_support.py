"""Test helpers for faults of the machine: a small disk that fills up, a process for which
file permissions hold although the tests run as root, and ``ofc`` run as a real process.

``small_disk`` mounts a tmpfs of a given size (a real ``ENOSPC``), which needs
root; without it the test is skipped, saying so. Root ignores file modes
(``CAP_DAC_OVERRIDE``): ``without_root_bypass`` drops that capability and
``CAP_DAC_READ_SEARCH`` from the child's bounding set before it starts, so
a ``chmod 000`` file is unreadable to it as to any user.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_PR_CAPBSET_DROP = 24
_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    """``folder`` as a tmpfs of ``size`` (``2m``) until the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"a full disk needs a small tmpfs, which needs root: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def without_root_bypass() -> None:
    """``preexec_fn``: the child (even as root) is bound by file modes."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@dataclass(frozen=True)
class Ran:
    """A finished ``ofc`` process."""

    code: int
    out: str
    err: str


def ofc(*args: str | Path, bound_by_modes: bool = False, preexec=None) -> Ran:
    """Run ``ofc ARGS`` as a separate process and wait for it."""
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *map(str, args)],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        preexec_fn=without_root_bypass if bound_by_modes else preexec,
        timeout=600,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def one_line_error(ran: Ran) -> str:
    """The error ``ofc`` printed: exit code 2, one line, no traceback."""
    assert ran.code == 2, (ran.code, ran.err[-2000:])
    assert "Traceback" not in ran.err, ran.err[-2000:]
    lines = ran.err.strip().splitlines()
    assert len(lines) == 1, ran.err
    return lines[0]
