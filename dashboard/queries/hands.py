"""The Hands page: a filtered list of player-hands, and everything about one hand for the viewer."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from dashboard.queries.dates import shown
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, Where, scope

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


_LIST = """
SELECT {played_at}, p.hand_id, p.player, p.variant, p.points, p.royalties, p.foul,
       p.in_fantasyland, p.fantasyland_next, p.mismatch, p.seat
FROM player_hands p
WHERE {where}
ORDER BY p.played_at DESC, p.hand_id, p.seat
LIMIT ? OFFSET ?
"""


def hand_list(db: Database, filters: Filters, own: HandFilters, page: int = 0) -> pl.DataFrame:
    """One page of player-hands in the view, newest first (the hero's, or everybody's)."""
    where = own.where(scope(filters))
    params = [*where.params, PAGE_SIZE, page * PAGE_SIZE]
    return db.frame(
        _LIST.format(where=where.sql, played_at=shown("p.played_at", "played_at")), params
    )


def hand_count(db: Database, filters: Filters, own: HandFilters) -> int:
    where = own.where(scope(filters))
    return int(
        db.value(f"SELECT count(*) FROM player_hands p WHERE {where.sql}", list(where.params))
    )


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
FROM player_hands WHERE hand_id = ? ORDER BY position
"""


def hand_detail(db: Database, hand_id: str) -> HandDetail | None:
    """Everything the viewer draws for ``hand_id``; None when no such hand is stored."""
    hand = db.frame(
        f"SELECT * REPLACE ({shown('played_at', 'played_at')}) FROM hands WHERE hand_id = ?",
        [hand_id],
    )
    if hand.is_empty():
        return None
    return HandDetail(
        hand=hand.row(0, named=True),
        players=db.frame(_PLAYERS, [hand_id]),
        placements=db.frame(
            'SELECT seat, street, card, "row", auto FROM placements WHERE hand_id = ?'
            " ORDER BY seat, street",
            [hand_id],
        ),
        pairwise=db.frame(
            "SELECT player_a, player_b, rows_a, rows_b, bonus_a, royalties_a, points_a"
            " FROM pairwise WHERE hand_id = ? ORDER BY position_a, position_b",
            [hand_id],
        ),
    )
