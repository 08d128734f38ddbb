"""What a benchmark ran on: date, cores, CPU model, Python and library versions."""

from __future__ import annotations

import datetime as dt
import os
import platform
from importlib import metadata
from pathlib import Path


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's model name from ``/proc/cpuinfo``, or the platform's answer elsewhere."""
    try:
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def describe_machine() -> dict[str, object]:
    """The facts that make figures comparable, as a JSON-ready dict."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": usable,
        "cpu": cpu_model(),
        "platform": platform.platform(terse=True),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "polars": _version("polars"),
    }


def machine_line(machine: dict[str, object]) -> str:
    """One line naming the machine, for tables and docs.

    >>> machine_line({"date": "2026-01-02 03:04 UTC", "cores": 2, "cpu": "AMD EPYC",
    ...               "platform": "Linux", "python": "3.11.7", "numpy": "2.4.6", "polars": "2.1.0"})
    '2026-01-02 03:04 UTC, 2 cores, AMD EPYC, Linux, Python 3.11.7, numpy 2.4.6, polars 2.1.0'
    """
    return (
        f"{machine['date']}, {machine['cores']} cores, {machine['cpu']}, {machine['platform']}, "
        f"Python {machine['python']}, numpy {machine['numpy']}, polars {machine['polars']}"
    )
