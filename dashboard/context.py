"""What every page receives: the database and the view the sidebar describes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters


@dataclass(frozen=True)
class Context:
    """The database (read-only), its path, the current filters, and the folders the Import
    page may read (``ofc dashboard --import-dir``; none: uploads only)."""

    db: Database
    filters: Filters
    import_dirs: tuple[Path, ...] = ()

    @property
    def path(self) -> Path:
        return self.db.path
