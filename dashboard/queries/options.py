"""The choices the filters offer: players, variants, rulesets, stakes and the date range.

A coach's database can hold tens of thousands of players, and a selectbox
sends every option to the browser at every rerun: the player pickers offer
the ``PICKER_PLAYERS`` most active players only, plus the one a link names
(the Players page lists and links everybody).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from dashboard.queries.db import Database
from dashboard.queries.filters import stakes_key
from parsers.bounds import FIRST_DAY, LAST_DAY

#: Most players a player picker offers (the most hands first); the Players page finds the others.
PICKER_PLAYERS = 1000

_PLAYERS = """
SELECT player FROM (
    SELECT player, row_number() OVER (ORDER BY hands DESC, player) AS rank
    FROM player_summary
    WHERE variant = 'all'
)
WHERE rank <= ? OR player = ?
ORDER BY rank
"""


@dataclass(frozen=True)
class Choices:
    """What the sidebar's filters other than the players can be set to, most played first."""

    variants: tuple[str, ...]
    rulesets: tuple[str, ...]
    stakes: tuple[str, ...]
    first_day: date | None
    last_day: date | None


def players(db: Database, keep: str | None = None, limit: int = PICKER_PLAYERS) -> tuple[str, ...]:
    """The ``limit`` most active players (most hands, then name), and ``keep`` last
    when it is a player of the database outside them (the player a link names)."""
    return tuple(r[0] for r in db.rows(_PLAYERS, [limit, keep]))


#: The first and last day of play, clamped to the dates the parsers accept
#: (``parsers.bounds``): a database written before dates were bounded may hold the
#: year 0 or 9999, which no date input (nor Python's ``date``) can take.
_DAYS = (
    "SELECT least(greatest(CAST(min(played_at) AS DATE), $1), $2),"
    " least(greatest(CAST(max(played_at) AS DATE), $1), $2) FROM hands"
)


def choices(db: Database) -> Choices:
    variants = db.rows(
        "SELECT variant FROM player_summary WHERE variant <> 'all'"
        " GROUP BY variant ORDER BY sum(hands) DESC, variant"
    )
    rulesets = db.rows("SELECT ruleset FROM hands GROUP BY ruleset ORDER BY count(*) DESC, ruleset")
    stakes = db.rows(  # every hand's stake is some player's: player_days has them all
        "SELECT point_value, currency FROM player_days GROUP BY ALL"
        " ORDER BY point_value NULLS FIRST, currency"
    )
    first, last = db.rows(_DAYS, [FIRST_DAY.date(), LAST_DAY.date()])[0]
    return Choices(
        variants=tuple(r[0] for r in variants),
        rulesets=tuple(r[0] for r in rulesets),
        stakes=tuple(stakes_key(value, currency) for value, currency in stakes),
        first_day=first,
        last_day=last,
    )
