"""The app's settings, read from the arguments after ``--`` of ``streamlit run``.

>>> app_settings(["--db", "ofc.duckdb"]).db.name
'ofc.duckdb'
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

#: Largest upload the Import page accepts, in megabytes (``ofc dashboard`` passes it to
#: Streamlit, which enforces it too).
MAX_UPLOAD_MB = 200


@dataclass(frozen=True)
class AppSettings:
    """Where the database is."""

    db: Path


def app_settings(argv: list[str]) -> AppSettings:
    """Parse ``--db FILE`` (the arguments ``ofc dashboard`` passes to the script)."""
    parser = argparse.ArgumentParser(prog="dashboard/app.py")
    parser.add_argument("--db", required=True, type=Path)
    args = parser.parse_args(argv)
    return AppSettings(db=args.db.resolve())
