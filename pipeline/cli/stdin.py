"""Standard input as text: the JSON that ``ofc score``, ``ofc decide`` and ``ofc solve`` read."""

from __future__ import annotations

import sys

#: A UTF-8 byte order mark as text: Windows Notepad starts the files it saves with one.
BOM = "\ufeff"


def read_text() -> str:
    """All of standard input, without a byte order mark at its start (JSON has none)."""
    return sys.stdin.read().removeprefix(BOM)
