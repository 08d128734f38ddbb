"""The benchmarks' cache folder (``out/bench/``) and the simulated histories they read.

Each is 3-handed ``pineapple-1-6-american`` played by random bots (the
parser and the import do the same work whatever the bots' skill), written by
``ofc simulate`` in a separate process; simulating is never timed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: What the benchmarks make once and keep: histories, databases.
CACHE = Path(__file__).resolve().parents[2] / "out" / "bench"
RULESET = "pineapple-1-6-american"


def simulated(use: str, fmt: str, hands: int, seed: int) -> Path:
    """``out/bench/<use>-<fmt>-<hands>-<seed>.txt``, simulated when missing."""
    path = CACHE / f"{use}-{fmt}-{hands}-{seed}.txt"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        command = [sys.executable, "-m", "pipeline.cli", "simulate", "--ruleset", RULESET]
        command += ["--players", "3", "--hands", str(hands), "--seed", str(seed)]
        command += ["--format", fmt, "--bots", "random,random,random", "--out", str(partial)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        partial.rename(path)
    return path
