"""The decisions of stored hands, rebuilt from the ``placements`` table as each player saw them.

A *spot* is one decision of one player-hand: a regular street (the cards
dealt on it and the row each went to) or a Fantasyland set (street 0, every
card at once). What the player saw on a street: its own rows and discards of
the earlier streets, and each opponent's rows as placed before it acted:
players act in ``position`` order on every street, so an opponent with a
lower position has placed this street already and one with a higher position
has not (R2). An opponent in Fantasyland is hidden until the showdown.
Opponents' discards are never seen.

A player's decisions are reviewable when the history shows every card it was
dealt: no hidden discards (in the room text formats that is the history's
owner; in ``ofc-jsonl``, everyone), no street placed after a timeout (R8: not
a decision).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

KINDS = ("first street", "street", "fantasyland")
ROWS = ("top", "middle", "bottom")


@dataclass(frozen=True)
class Board:
    """Rows as card strings (as stored)."""

    top: tuple[str, ...] = ()
    middle: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seen:
    """An opponent as the deciding player saw them."""

    board: Board
    in_fantasyland: bool


@dataclass(frozen=True)
class Spot:
    """One decision to review."""

    hand_id: str
    player: str
    seat: int
    street: int  # 0 for a Fantasyland set
    played_at: object
    ruleset: str
    board: Board  # the player's rows before the street
    dealt: tuple[str, ...]
    chosen: tuple[str, ...]  # the row each dealt card went to (top, middle, bottom, discard)
    discards: tuple[str, ...]  # the player's own earlier discards
    opponents: tuple[Seen, ...]
    fantasyland_repeats: int = 0
    chosen_value: float = 0.0  # Fantasyland: the engine's royalties (the stay is below)
    chosen_stays: bool = False

    @property
    def kind(self) -> str:
        if self.street == 0:
            return "fantasyland"
        return "first street" if self.street == 1 else "street"

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.hand_id, self.player, self.street)


#: Reviewable player-hands and their placements, one row per card placed or discarded.
_CARDS_SQL = """
    WITH heroes AS (
        SELECT p.hand_id, p.seat, p.player, p.position, p.in_fantasyland, p.played_at,
            p.ruleset, p.fantasyland_repeats, p.royalties, p.fantasyland_stay
        FROM player_hands AS p
        WHERE p.hidden_discards = 0 AND {players}
          AND ($since IS NULL OR p.played_at >= $since)
          AND EXISTS (SELECT 1 FROM placements AS x WHERE x.hand_id = p.hand_id
                      AND x.seat = p.seat)
    )
    SELECT h.hand_id, h.seat AS hero_seat, h.player AS hero, h.position AS hero_position,
        h.played_at, h.ruleset, h.fantasyland_repeats, h.royalties, h.fantasyland_stay,
        o.seat, o.position, o.in_fantasyland, x.street, x.card, x."row", x.auto
    FROM heroes AS h
    JOIN player_hands AS o ON o.hand_id = h.hand_id
    JOIN placements AS x ON x.hand_id = o.hand_id AND x.seat = o.seat
    WHERE NOT EXISTS (SELECT 1 FROM decisions AS d WHERE d.hand_id = h.hand_id
                      AND d.player = h.player)
    ORDER BY h.hand_id, h.seat
"""


def load_spots(
    con: duckdb.DuckDBPyConnection, players: tuple[str, ...] | None, since: object = None
) -> list[Spot]:
    """Every reviewable decision of ``players`` (None: everyone) not yet in ``decisions``.

    A player-hand with any decision stored is done (its decisions are stored together).
    The rows are read once and taken apart in plain Python: a few hundred thousand
    placements a second, where a polars filter per board cost 5 ms a decision.
    """
    where = "TRUE" if players is None else "list_contains($players, p.player)"
    params: dict[str, object] = {"since": since}
    if players is not None:
        params["players"] = list(players)
    cards = con.sql(_CARDS_SQL.format(players=where), params=params).pl()
    spots: list[Spot] = []
    for group in cards.partition_by(["hand_id", "hero_seat"], maintain_order=True):
        spots += _spots_of(group.rows(named=True))
    return spots


Row = dict[str, object]


def _spots_of(cards: list[Row]) -> list[Spot]:
    """The decisions of one player-hand (all of its table's placements in ``cards``)."""
    first = cards[0]
    mine = [c for c in cards if c["seat"] == first["hero_seat"]]
    others = [c for c in cards if c["seat"] != first["hero_seat"]]
    fantasyland = [c for c in mine if c["street"] == 0]
    if fantasyland and any(c["auto"] for c in mine):
        return []  # a Fantasyland hand set after a timeout: no decision
    common = {
        "hand_id": first["hand_id"],
        "player": first["hero"],
        "seat": first["hero_seat"],
        "played_at": first["played_at"],
        "ruleset": first["ruleset"],
    }
    if fantasyland:
        return [_fantasyland_spot(mine, first, common)]
    out = []
    for street in sorted({c["street"] for c in mine}):
        now = [c for c in mine if c["street"] == street]
        if any(c["auto"] or c["card"] is None for c in now):
            continue
        before = [c for c in mine if c["street"] < street]
        out.append(
            Spot(
                **common,
                street=street,
                board=_board(before),
                dealt=tuple(c["card"] for c in now),
                chosen=tuple(c["row"] for c in now),
                discards=tuple(c["card"] for c in before if c["row"] == "discard"),
                opponents=_opponents(others, street, first["hero_position"]),
            )
        )
    return out


def _fantasyland_spot(mine: list[Row], first: Row, common: dict) -> Spot:
    return Spot(
        **common,
        street=0,
        board=Board(),
        dealt=tuple(c["card"] for c in mine),
        chosen=tuple(c["row"] for c in mine),
        discards=(),
        opponents=(),
        fantasyland_repeats=int(first["fantasyland_repeats"] or 0),
        chosen_value=float(first["royalties"] or 0),
        chosen_stays=bool(first["fantasyland_stay"]),
    )


def _board(placed: list[Row]) -> Board:
    return Board(**{row: tuple(c["card"] for c in placed if c["row"] == row) for row in ROWS})


def _opponents(others: list[Row], street: int, position: int) -> tuple[Seen, ...]:
    """Each opponent's rows as seen before the hero placed ``street``."""
    by_seat: dict[object, list[Row]] = {}
    for card in others:
        by_seat.setdefault(card["seat"], []).append(card)
    seen = []
    for one in by_seat.values():
        if one[0]["in_fantasyland"]:
            seen.append(Seen(Board(), True))
            continue
        last = street if one[0]["position"] < position else street - 1
        seen.append(Seen(_board([c for c in one if c["street"] <= last]), False))
    return tuple(seen)
