"""Hand-built model tables for the parser and renderer tests.

``build`` turns short descriptions of hands (who sat where, what each player
placed street by street) into the four-table model of ``docs/schema.md``;
``example_hand`` is the hand of the ``en`` spec's example, with the streets
the spec leaves out ("streets 3 to 5 follow the same way") filled in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from parsers.schema import HANDS, PLACEMENTS, PLAYER_HANDS, hand_id

FIXTURES = Path(__file__).parent / "fixtures"

#: One street of one player: (top, middle, bottom, discards), space-separated cards.
Street = tuple[str, str, str, str]


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    streets: tuple[Street, ...]  # street 1, 2, ...; a Fantasyland hand is one street 0
    stack: float = 150.0
    fantasyland_cards: int = 0
    auto_streets: tuple[int, ...] = ()
    points: float = 0.0
    royalties: float | None = None
    foul: bool = False
    money: float | None = None
    fl_next: bool = False
    fl_cards: int | None = None
    fl_stay: bool = False
    final: Street | None = None  # the rows as the showdown lists them, when not in placing order


@dataclass(frozen=True)
class Hand:
    room_hand_id: str
    players: tuple[Player, ...]
    button_seat: int
    ruleset: str = "pineapple-1-6-american"
    variant: str = "pineapple"
    played_at: dt.datetime = dt.datetime(2026, 11, 29, 14, 3, 11, tzinfo=dt.UTC)
    table_name: str = "Helsinki II"
    max_players: int = 3
    point_value: float | None = 0.5
    currency: str | None = "USD"
    match_id: str | None = None
    match_hand: int | None = None
    match_hands: int | None = None
    continuation: bool = False
    source_format: str = "en"


def positions(seats: list[int], button: int) -> dict[int, int]:
    """Order of action: first seat after the button is 1, the button is last."""
    order = sorted(seats, key=lambda s: (s - button - 1) % 256)
    return {seat: i + 1 for i, seat in enumerate(order)}


def build(hands: list[Hand]) -> tuple[pa.Table, pa.Table, pa.Table]:
    """The ``hands``, ``player_hands`` and ``placements`` tables of some hands."""
    h_rows, p_rows, c_rows = [], [], []
    for h in hands:
        hid = hand_id(h.source_format, h.room_hand_id)
        h_rows.append(
            dict(
                hand_id=hid,
                room_hand_id=h.room_hand_id,
                source_format=h.source_format,
                variant=h.variant,
                ruleset=h.ruleset,
                played_at=h.played_at,
                table_name=h.table_name,
                max_players=h.max_players,
                button_seat=h.button_seat,
                point_value=h.point_value,
                currency=h.currency,
                match_id=h.match_id,
                match_hand=h.match_hand,
                match_hands=h.match_hands,
                fantasyland_continuation=h.continuation,
                source_file=None,
                source_line=None,
            )
        )
        pos = positions([p.seat for p in h.players], h.button_seat)
        for p in h.players:
            rows: dict[str, list[str]] = {"top": [], "middle": [], "bottom": [], "discard": []}
            first = 0 if p.fantasyland_cards else 1
            for street, cards in enumerate(p.streets, start=first):
                for row, text in zip(("top", "middle", "bottom", "discard"), cards, strict=True):
                    for card in text.split():
                        rows[row].append(card)
                        c_rows.append(
                            dict(
                                hand_id=hid,
                                seat=p.seat,
                                street=street,
                                card=card,
                                row=row,
                                auto=street in p.auto_streets,
                            )
                        )
            if p.final:
                rows.update(
                    zip(("top", "middle", "bottom"), (r.split() for r in p.final[:3]), strict=True)
                )
            p_rows.append(
                dict(
                    hand_id=hid,
                    seat=p.seat,
                    player=p.name,
                    position=pos[p.seat],
                    starting_stack=p.stack,
                    in_fantasyland=p.fantasyland_cards > 0,
                    fantasyland_cards=p.fantasyland_cards,
                    top=rows["top"],
                    middle=rows["middle"],
                    bottom=rows["bottom"],
                    discards=rows["discard"],
                    hidden_discards=0,
                    timed_out=bool(p.auto_streets),
                    reported_points=p.points,
                    reported_royalties=p.royalties,
                    reported_foul=p.foul,
                    reported_money=p.money,
                    reported_fantasyland_next=p.fl_next or p.fl_stay,
                    reported_fantasyland_cards=p.fl_cards,
                    reported_fantasyland_stay=p.fl_stay,
                )
            )
    return (
        pa.Table.from_pylist(h_rows, schema=HANDS),
        pa.Table.from_pylist(p_rows, schema=PLAYER_HANDS),
        pa.Table.from_pylist(c_rows, schema=PLACEMENTS),
    )


def example_hand(**changes) -> Hand:
    """The hand of the ``en`` spec's example (hero Alice), streets 3 to 5 filled in."""
    alice = Player(
        1,
        "Alice",
        (
            ("Ah", "Kd", "7c 7s 2h", ""),
            ("", "Qh", "9d", "3c"),
            ("Ad", "Kh", "", "2s"),
            ("4c", "6s", "", "4d"),
            ("", "6d", "7d", "5h"),
        ),
        points=30,
        royalties=9,
        money=15.0,
        final=("Ah Ad 4c", "Kd Kh Qh 6s 6d", "7c 7s 7d 2h 9d", ""),
        fl_next=True,
        fl_cards=16,
    )
    bob = Player(
        2,
        "Bob",
        (
            ("Qs", "5d 5c", "9s 9h", ""),
            ("", "8c", "Jh", "6h"),
            ("Qd", "8d", "", "7h"),
            ("3h", "", "Kc", "8s"),
            ("", "Ts", "4s", "9c"),
        ),
        points=-21,
        foul=True,
        money=-10.5,
    )
    carol = Player(
        3,
        "Carol [RU]",
        (("2c 3d 4h", "Tc Jc 2d 8h 6c", "As Ks Qc 5s 3s", "Ac"),),
        fantasyland_cards=14,
        points=-9,
        money=-4.5,
    )
    base = Hand(
        room_hand_id="7402331950",
        players=(alice, bob, carol),
        button_seat=3,
        ruleset="pineapple-progressive-american",
        match_id="5001277",
        match_hand=2,
        match_hands=3,
    )
    return base if not changes else Hand(**{**base.__dict__, **changes})


#: The spec's example text in full (streets 3 to 5 as ``example_hand`` fills them in).
EXAMPLE_EN = (FIXTURES / "en" / "spec_example.txt").read_text(encoding="utf-8").rstrip("\n")
