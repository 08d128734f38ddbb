"""The choices the filters offer: players, variants, rulesets, stakes and the date range."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from dashboard.queries.db import Database
from dashboard.queries.filters import stakes_key


@dataclass(frozen=True)
class Choices:
    """What the sidebar's filters can be set to, most played first."""

    players: tuple[str, ...]
    variants: tuple[str, ...]
    rulesets: tuple[str, ...]
    stakes: tuple[str, ...]
    first_day: date | None
    last_day: date | None


def choices(db: Database) -> Choices:
    players = db.rows(
        "SELECT player FROM player_summary WHERE variant = 'all' ORDER BY hands DESC, player"
    )
    variants = db.rows(
        "SELECT variant FROM player_summary WHERE variant <> 'all'"
        " GROUP BY variant ORDER BY sum(hands) DESC, variant"
    )
    rulesets = db.rows("SELECT ruleset FROM hands GROUP BY ruleset ORDER BY count(*) DESC, ruleset")
    stakes = db.rows(
        "SELECT point_value, currency FROM hands GROUP BY ALL"
        " ORDER BY point_value NULLS FIRST, currency"
    )
    first, last = db.rows(
        "SELECT CAST(min(played_at) AS DATE), CAST(max(played_at) AS DATE) FROM hands"
    )[0]
    return Choices(
        players=tuple(r[0] for r in players),
        variants=tuple(r[0] for r in variants),
        rulesets=tuple(r[0] for r in rulesets),
        stakes=tuple(stakes_key(value, currency) for value, currency in stakes),
        first_day=first,
        last_day=last,
    )
