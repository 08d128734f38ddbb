"""Files and folders an import cannot open or read: each becomes one reject, and the rest is
imported.

A file with no read permission (or a folder that cannot be listed, or UTF-16 text) is not
recorded among the files read, so once it is readable the next import reads
it; until then each import rejects it again (``database.load`` keeps one
row per file and reason).
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

from ofc_core.paths import as_text
from parsers.lines import UTF16, UTF16_BOMS
from pipeline.load.staging import part_dir, write_part
from pipeline.load.tables import STAGED, conform

#: The part number of the rejects for unreadable paths (tasks count from 1).
PART = 0
#: The line of such a reject: before the first line, as nothing of the path was read.
LINE = 0


def unreadable_reason(path: str | Path) -> str | None:
    """Why ``path`` cannot be read (None: it can). Folders come here only when they could
    not be listed (``parsers.lines.expand``)."""
    try:
        handle = os.open(path, os.O_RDONLY)  # bare system calls: this runs once per file
        try:
            start = os.read(handle, 2)
        finally:
            os.close(handle)
    except OSError as error:
        if Path(path).is_dir():
            return f"cannot read this folder ({error.strerror}): its files were not imported"
        return f"cannot read this file ({error.strerror}): fix its permissions and import again"
    return UTF16 if start.startswith(UTF16_BOMS) else None


def stage_rejects(found: dict[str, str], staging: Path) -> None:
    """Write one reject per unreadable path (path -> reason) as the staging part ``PART``."""
    rejects = pl.DataFrame(
        {
            "source_file": [as_text(path) for path in found],
            "source_line": [LINE] * len(found),
            "room_hand_id": [None] * len(found),
            "reason": list(found.values()),
            "excerpt": [""] * len(found),
            "part": [PART] * len(found),
        }
    )
    frames = {name: pl.DataFrame(schema=schema) for name, schema in STAGED.items()}
    frames["rejects"] = conform(rejects, STAGED["rejects"])
    write_part(frames, part_dir(staging, PART))
