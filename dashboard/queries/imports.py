"""The Import page's history: past import runs and the rejects they found."""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database

RECENT = 20


def recent_imports(db: Database) -> pl.DataFrame:
    """The latest import runs, newest first."""
    return db.frame(
        "SELECT import_id, finished_at, paths, files_read, hands_read, hands_added,"
        " hands_duplicate, hands_conflict, rejects_added, mismatches_added, seconds"
        " FROM imports ORDER BY import_id DESC LIMIT ?",
        [RECENT],
    )


def rejects(db: Database, import_id: int) -> pl.DataFrame:
    """Hands an import run could not store, and why."""
    return db.frame(
        "SELECT source_file, source_line, room_hand_id, reason, excerpt FROM rejects"
        " WHERE import_id = ? ORDER BY source_file, source_line LIMIT 500",
        [import_id],
    )


def totals(db: Database) -> dict[str, int]:
    """How many hands, player-hands and rejects the database holds."""
    row = db.rows(
        "SELECT (SELECT count(*) FROM hands), (SELECT count(*) FROM player_hands),"
        " (SELECT count(*) FROM rejects)"
    )[0]
    return dict(zip(("hands", "player_hands", "rejects"), row, strict=True))
