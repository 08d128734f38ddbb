"""The Decisions page: value lost to the best play (``ofc review``'s ``decisions`` table).

Losses are summed per player-hand (``loss``: points a hand gave up, all its
decisions together), and shown per 100 hands with the 95% t interval of the mean over
player-hands (``pipeline.report.decisions``, shared with ``ofc report``); a decision is a *mistake* only when its loss exceeds two
standard errors (``ev_loss > 2 * se_loss``).

>>> per_100(pl.DataFrame({"n": [100], "mean": [0.5], "sd": [2.0]}))["low"].round(2).to_list()
[10.32]
"""

from __future__ import annotations

import polars as pl

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, scope
from pipeline.report.decisions import A_CHOICE, per_100, with_mean_interval

__all__ = ["by_kind", "costliest", "over_time", "overall", "per_100", "reviewed"]

#: Decisions whose loss is beyond noise (docs/decisions.md).
MISTAKE = "d.ev_loss > 2 * d.se_loss"

_HANDS = """
SELECT {group} count(*) AS n, avg(loss) AS mean, coalesce(stddev_samp(loss), 0) AS sd
FROM (
    SELECT d.hand_id, d.seat, any_value(p.played_at) AS played_at, sum(d.ev_loss) AS loss
    FROM decisions AS d JOIN player_hands AS p USING (hand_id, seat)
    WHERE {where}
    GROUP BY d.hand_id, d.seat
)
{group_by}
"""

_BY_KIND = f"""
SELECT d.kind, d.street, count(*) AS decisions, avg(d.ev_loss) AS mean,
    coalesce(stddev_samp(d.ev_loss), 0) AS sd,
    count(*) FILTER (WHERE {MISTAKE}) AS mistakes
FROM decisions AS d JOIN player_hands AS p USING (hand_id, seat)
WHERE {{where}} AND {A_CHOICE}
GROUP BY d.kind, d.street
ORDER BY d.street
"""

_COSTLIEST = f"""
SELECT d.hand_id, d.player, d.street, d.kind, d.played_at, d.ev_chosen, d.ev_best,
    d.ev_loss, d.se_loss, d.chosen, d.best, d.dealt
FROM decisions AS d JOIN player_hands AS p USING (hand_id, seat)
WHERE {{where}} AND {MISTAKE}
ORDER BY d.ev_loss DESC, d.hand_id, d.street
LIMIT ?
"""


def reviewed(db: Database) -> int:
    """Decisions in the database (0 before the first ``ofc review``)."""
    return int(db.frame("SELECT count(*) AS n FROM decisions")["n"][0])


def overall(db: Database, filters: Filters) -> dict:
    """Loss per 100 reviewed player-hands of the view, with its interval and n."""
    where = scope(filters)
    frame = db.frame(_HANDS.format(group="", where=where.sql, group_by=""), list(where.params))
    return per_100(frame).row(0, named=True)


def over_time(db: Database, filters: Filters) -> pl.DataFrame:
    """Loss per 100 hands by month, with intervals."""
    where = scope(filters)
    sql = _HANDS.format(
        group="date_trunc('month', played_at) AS month,",
        where=where.sql,
        group_by="GROUP BY month ORDER BY month",
    )
    return per_100(db.frame(sql, list(where.params)))


def by_kind(db: Database, filters: Filters) -> pl.DataFrame:
    """Per kind and street: decisions, mean loss per decision with its interval, mistakes."""
    where = scope(filters)
    return with_mean_interval(
        db.frame(_BY_KIND.format(where=where.sql), list(where.params)), "decisions"
    )


def costliest(db: Database, filters: Filters, limit: int = 25) -> pl.DataFrame:
    """The mistakes that cost most, largest loss first."""
    where = scope(filters)
    return db.frame(_COSTLIEST.format(where=where.sql), [*where.params, limit])
