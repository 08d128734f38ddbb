"""The Hands page: a filtered list of player-hands, and everything about one hand for the viewer."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import polars as pl

from dashboard.queries.dates import shown
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, Where, day_scope, scope

PAGE_SIZE = 50


@dataclass(frozen=True)
class HandFilters:
    """The list's own filters; ``None`` means either way."""

    fouled: bool | None = None
    min_royalties: int = 0
    fantasyland: bool | None = None
    mismatch: bool | None = None

    def where(self, where: Where) -> Where:
        for column, wanted in (
            ("foul", self.fouled),
            ("in_fantasyland", self.fantasyland),
            ("mismatch", self.mismatch),
        ):
            if wanted is not None:
                where = where.also(f"p.{column} = ?", wanted)
        if self.min_royalties > 0:
            where = where.also("p.royalties >= ?", self.min_royalties)
        return where


#: The money sorts rank amounts within one currency at a time (currencies in alphabetical
#: order, play money last): 800 RUB is not more than 100 USD.
_BY_CURRENCY = "p.currency NULLS LAST"
MONEY_SORTS = ("Most money won", "Most money lost")
#: How the list can be sorted (over every hand of the list, in SQL): label → ORDER BY.
SORTS = {
    "Newest first": "p.played_at DESC, p.hand_id DESC, p.seat",
    "Oldest first": "p.played_at, p.hand_id, p.seat",
    "Most points": "p.points DESC, p.played_at DESC, p.hand_id DESC, p.seat",
    "Fewest points": "p.points, p.played_at DESC, p.hand_id DESC, p.seat",
    "Most royalties": "p.royalties DESC, p.played_at DESC, p.hand_id DESC, p.seat",
    "Most money won": f"{_BY_CURRENCY}, p.money DESC NULLS LAST, p.played_at DESC, p.hand_id DESC, p.seat",
    "Most money lost": f"{_BY_CURRENCY}, p.money NULLS LAST, p.played_at DESC, p.hand_id DESC, p.seat",
}
NEWEST = "Newest first"

#: One page of the list. Its opponents are read by ``_OPPONENTS`` (``with_opponents``).
_PAGE = """
SELECT {played_at}, p.hand_no, p.hand_id, p.player, p.variant, p.points,
       p.money, p.currency, p.point_value, p.royalties, p.foul, p.in_fantasyland,
       p.fantasyland_next, p.mismatch, p.seat
FROM player_hands p
WHERE {where}
ORDER BY {order}
LIMIT ? OFFSET ?
"""

#: Every player of the page's hands, found by their numbers (the scan skips the row groups
#: holding none of them).
_OPPONENTS = """
SELECT o.hand_id, o.seat AS opponent_seat, o.player, o.position
FROM player_hands o
WHERE o.hand_no IN (SELECT unnest(?::BIGINT[]))
"""


def with_opponents(db: Database, listed: pl.DataFrame) -> pl.DataFrame:
    """``listed`` (with ``hand_no``) plus ``opponents``: the other players of each row's
    hand, by position, comma separated (null when alone)."""
    numbers = listed["hand_no"].unique().to_list()
    players = db.frame(_OPPONENTS, [numbers]) if listed.height else pl.DataFrame()
    if players.is_empty():
        return listed.drop("hand_no").with_columns(opponents=pl.lit(None, pl.String))
    named = (
        listed.select("hand_id", "seat")
        .join(players, on="hand_id")
        .filter(pl.col("opponent_seat") != pl.col("seat"))
        .sort("position")
        .group_by("hand_id", "seat", maintain_order=True)
        .agg(opponents=pl.col("player").str.join(", "))
    )
    return listed.join(named, on=["hand_id", "seat"], how="left", maintain_order="left").drop(
        "hand_no"
    )


#: The sorts by time: the list's page lies within the days that hold its hands (whole UTC
#: days from ``player_days``), so the scan can skip the row groups of other times.
_BY_TIME = {NEWEST: ("DESC", ">="), "Oldest first": ("ASC", "<")}

_FIRST_DAY = """
SELECT day FROM (
    SELECT d.day, sum(sum({counted})) OVER (ORDER BY d.day {order} ROWS UNBOUNDED PRECEDING)
        AS listed
    FROM player_days d
    WHERE {where}
    GROUP BY d.day
)
WHERE listed >= ?
ORDER BY day {order}
LIMIT 1
"""


def within_days(db: Database, filters: Filters, own: HandFilters, sort: str, end: int) -> Where:
    """Conditions keeping the days that hold the list's first ``end`` hands in ``sort``
    order (none when they cannot be counted, or the list ends sooner)."""
    counted = _counted(own)
    if sort not in _BY_TIME or not (filters.daily and counted):
        return Where()
    order, side = _BY_TIME[sort]
    where = day_scope(filters)
    sql = _FIRST_DAY.format(counted=counted, order=order, where=where.sql)
    day = db.value(sql, [*where.params, end])
    if day is None:
        return Where()
    bound = day if side == ">=" else day + dt.timedelta(days=1)
    return Where().also(f"p.played_at {side} ?", bound)


#: The sorts led by a value: the list's first ``end`` rows have a value at least (most
#: first) or at most (least first) the ``end``-th row's, which a narrow query finds; the
#: full sort then reads only those rows, and the scan skips row groups outside them.
_BY_VALUE = {
    "Most points": ("p.points", "DESC", ">="),
    "Fewest points": ("p.points", "ASC", "<="),
    "Most royalties": ("p.royalties", "DESC", ">="),
}

_NTH_VALUE = """
SELECT {key} FROM player_hands p WHERE {where} ORDER BY {key} {order} NULLS LAST
LIMIT 1 OFFSET ?
"""


def within_value(db: Database, where: Where, sort: str, end: int) -> Where:
    """A condition keeping the rows that can be among the first ``end`` of a list sorted
    by a value (none for other sorts, or when fewer rows than ``end`` have a value)."""
    if sort not in _BY_VALUE:
        return Where()
    key, order, side = _BY_VALUE[sort]
    sql = _NTH_VALUE.format(key=key, where=where.sql, order=order)
    value = db.value(sql, [*where.params, end - 1])
    if value is None:
        return Where()
    return Where().also(f"{key} {side} ?", value)


def hand_list(
    db: Database, filters: Filters, own: HandFilters, page: int = 0, sort: str = NEWEST
) -> pl.DataFrame:
    """One page of player-hands in the view (the hero's, or everybody's), sorted by ``sort``
    (a key of ``SORTS``) over every hand of the list, with each hand's opponents."""
    end = (page + 1) * PAGE_SIZE
    where = own.where(scope(filters)).and_(within_days(db, filters, own, sort, end))
    where = where.and_(within_value(db, where, sort, end))
    sql = _PAGE.format(
        where=where.sql, order=SORTS[sort], played_at=shown("p.played_at", "played_at")
    )
    return with_opponents(db, db.frame(sql, [*where.params, PAGE_SIZE, page * PAGE_SIZE]))


def _counted(own: HandFilters) -> str | None:
    """What ``player_days`` sums to count the list's hands (None: it cannot, the hands
    must be counted).

    >>> _counted(HandFilters()), _counted(HandFilters(fouled=False))
    ('d.hands', 'd.hands - d.fouls')
    >>> _counted(HandFilters(fouled=True, fantasyland=True)) is None
    True
    """
    if own.min_royalties > 0 or own.mismatch is not None:
        return None
    wanted = {"d.fouls": own.fouled, "d.fantasyland_hands": own.fantasyland}
    chosen = [(column, value) for column, value in wanted.items() if value is not None]
    if not chosen:
        return "d.hands"
    if len(chosen) > 1:
        return None
    column, value = chosen[0]
    return column if value else f"d.hands - {column}"


def hand_count(db: Database, filters: Filters, own: HandFilters) -> int:
    """How many hands the list holds; summed from ``player_days`` when it can."""
    counted = _counted(own)
    if filters.daily and counted:
        where = day_scope(filters)
        sql = f"SELECT sum({counted}) FROM player_days d WHERE {where.sql}"
        return int(db.value(sql, list(where.params)) or 0)
    where = own.where(scope(filters))
    return int(
        db.value(f"SELECT count(*) FROM player_hands p WHERE {where.sql}", list(where.params))
    )


#: The list's hand just before (or after) the anchor hand: the nearest of the hands
#: played at the anchor's time (by hand id) and those played before (or after) it. Two
#: plain conditions on ``played_at`` let the scan skip row groups and test the time
#: before it reads a hand id; one condition with an OR read every row's hand id.
_NEIGHBOUR = """
SELECT hand_id FROM (
    (SELECT p.played_at, p.hand_id FROM player_hands p
     WHERE {where} AND p.played_at = ? AND p.hand_id {direction} ?
     ORDER BY p.hand_id {order} LIMIT 1)
    UNION ALL
    (SELECT p.played_at, p.hand_id FROM player_hands p
     WHERE {where} AND p.played_at {direction} ?
     ORDER BY p.played_at {order}, p.hand_id {order} LIMIT 1)
)
ORDER BY played_at {order}, hand_id {order}
LIMIT 1
"""


#: The nearest day before (or after) the anchor's on which the list holds hands.
_NEAREST_DAY = """
SELECT {pick}(day) FROM (
    SELECT d.day FROM player_days d
    WHERE {where} AND d.day {direction} ?
    GROUP BY d.day
    HAVING sum({counted}) > 0
)
"""


def _near(
    db: Database, filters: Filters, own: HandFilters, anchor: dt.datetime, direction: str
) -> Where:
    """Conditions keeping the times from the anchor's day to the nearest day before (or
    after, ``direction``) that holds hands of the list: its neighbour lies there. No
    conditions when ``player_days`` cannot count the list."""
    counted = _counted(own)
    if not (filters.daily and counted):
        return Where()
    day = anchor.astimezone(dt.UTC).date()
    where = day_scope(filters)
    pick = "max" if direction == "<" else "min"
    sql = _NEAREST_DAY.format(pick=pick, where=where.sql, direction=direction, counted=counted)
    nearest = db.value(sql, [*where.params, day]) or day
    if direction == "<":
        return Where().also("p.played_at >= ?", nearest)
    if nearest == dt.date.max:  # no day after it to end at
        return Where()
    return Where().also("p.played_at < ?", nearest + dt.timedelta(days=1))


def neighbours(
    db: Database, filters: Filters, own: HandFilters, hand_id: str
) -> tuple[str | None, str | None]:
    """The hands of the list played just before and just after ``hand_id`` (None at an end)."""
    anchor = db.value("SELECT played_at FROM hands WHERE hand_id = ?", [hand_id])
    if anchor is None:
        return None, None
    where = own.where(scope(filters))
    found = []
    for direction, order in (("<", "DESC"), (">", "ASC")):
        near = where.and_(_near(db, filters, own, anchor, direction))
        sql = _NEIGHBOUR.format(where=near.sql, direction=direction, order=order)
        found.append(db.value(sql, [*near.params, anchor, hand_id, *near.params, anchor]))
    return found[0], found[1]


@dataclass(frozen=True)
class HandDetail:
    """One hand: its ``hands`` row, its players, their placements and pairwise results."""

    hand: dict[str, object]
    players: pl.DataFrame
    placements: pl.DataFrame
    pairwise: pl.DataFrame


_PLAYERS = """
SELECT seat, player, position, in_fantasyland, fantasyland_cards, top, middle, bottom,
       discards, hidden_discards, timed_out, foul, category_top, category_middle,
       category_bottom, royalties_top, royalties_middle, royalties_bottom, royalties, points,
       money, fantasyland_next, fantasyland_next_cards, fantasyland_stay, mismatch,
       reported_points, reported_royalties, reported_foul, reported_money,
       reported_fantasyland_next, reported_fantasyland_cards, reported_fantasyland_stay
FROM player_hands WHERE hand_no = ? ORDER BY position
"""


def hand_ids_of_room_id(db: Database, room_hand_id: str) -> list[str]:
    """The hand ids stored for a room's own hand number (``7402331950``, as a history file
    writes it): one per format it was read in."""
    rows = db.frame(
        "SELECT hand_id FROM hands WHERE room_hand_id = ? ORDER BY hand_id", [room_hand_id]
    )
    return rows.get_column("hand_id").to_list()


def hand_detail(db: Database, hand_id: str) -> HandDetail | None:
    """Everything the viewer draws for ``hand_id``; None when no such hand is stored.

    The hand's rows in the other tables are found by its ``hand_no``: a hand's
    rows were stored together, so the scans skip every row group but theirs
    (a lookup by hand id reads every stored id)."""
    hand = db.frame(
        f"SELECT * REPLACE ({shown('played_at', 'played_at')}) FROM hands WHERE hand_id = ?",
        [hand_id],
    )
    if hand.is_empty():
        return None
    number = [hand["hand_no"][0]]
    return HandDetail(
        hand=hand.row(0, named=True),
        players=db.frame(_PLAYERS, number),
        placements=db.frame(
            'SELECT seat, street, card, "row", auto FROM placements WHERE hand_no = ?'
            " ORDER BY seat, street",
            number,
        ),
        pairwise=db.frame(
            'SELECT player_a AS "Player", player_b AS "Against", rows_a AS "Rows won",'
            ' rows_b AS "Rows lost", bonus_a AS "Bonus (scoop or majority)",'
            ' royalties_a AS "Royalties (difference)", points_a AS "Points for the player"'
            " FROM pairwise WHERE hand_no = ? ORDER BY position_a, position_b",
            number,
        ),
    )
