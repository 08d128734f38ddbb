"""The Coach audit page: a student's fouled hands and the room's mismatches on their hands.

Leaks against the population come from ``profile.profile``.
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.dates import shown
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, scope

REVIEW_ROWS = 50

_FOULS = """
SELECT {played_at}, p.hand_id, p.variant, p.points, p.category_top, p.category_middle,
       p.category_bottom, p.timed_out
FROM player_hands p
WHERE p.foul AND NOT p.in_fantasyland AND {where}
ORDER BY p.played_at DESC, p.hand_id
LIMIT ?
"""


def fouled_hands(db: Database, filters: Filters) -> pl.DataFrame:
    """The student's (``filters.hero``) latest fouled hands, outside Fantasyland."""
    where = scope(filters)
    sql = _FOULS.format(where=where.sql, played_at=shown("p.played_at", "played_at"))
    return db.frame(sql, [*where.params, REVIEW_ROWS])


_MISMATCHES = """
SELECT {audit_played_at}, a.hand_id, a.room_hand_id, a.disagreements, a.reported_points, a.points,
       a.points_difference, a.reported_royalties, a.royalties, a.reported_foul, a.foul,
       a.source_file, a.source_line
FROM audit_mismatches a
WHERE a.player = ?
ORDER BY a.played_at DESC, a.hand_id
LIMIT ?
"""


def mismatches(db: Database, player: str) -> pl.DataFrame:
    """The latest player-hands of ``player`` where the room's figures differ from the rules."""
    sql = _MISMATCHES.format(audit_played_at=shown("a.played_at", "played_at"))
    return db.frame(sql, [player, REVIEW_ROWS])


def mismatch_count(db: Database, player: str) -> int:
    return int(db.value("SELECT count(*) FROM audit_mismatches WHERE player = ?", [player]))
