"""The app's settings, read from the arguments after ``--`` of ``streamlit run``.

>>> settings = app_settings(["--db", "ofc.duckdb", "--import-dir", "/srv/hands"])
>>> settings.db.name, settings.import_dirs
('ofc.duckdb', (PosixPath('/srv/hands'),))
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
    """Where the database is, and the folders the Import page may read (none: uploads only)."""

    db: Path
    import_dirs: tuple[Path, ...] = ()


def app_settings(argv: list[str]) -> AppSettings:
    """Parse ``--db FILE`` and ``--import-dir DIR``... (what ``ofc dashboard`` passes the script)."""
    parser = argparse.ArgumentParser(prog="dashboard/app.py")
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--import-dir", action="append", default=[], type=Path)
    args = parser.parse_args(argv)
    return AppSettings(
        db=args.db.resolve(), import_dirs=tuple(d.resolve() for d in args.import_dir)
    )
