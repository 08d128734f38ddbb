"""Room hand histories in, the hand model out: readers, writers and the ``ofc parse`` engine.

``parsers.parse_files(paths, out_dir, ...)`` parses files into a Parquet
dataset and returns a summary (see ``parsers.run``).
"""

from __future__ import annotations

from typing import Any

from ofc_core import kernel_cache

kernel_cache.use()  # before any module of the package defines a compiled kernel


def __getattr__(name: str) -> Any:
    if name == "parse_files":
        from parsers.run import parse_files

        return parse_files
    raise AttributeError(f"module 'parsers' has no attribute {name!r}")
