"""The hand viewer's content: each player's board after a given street, and the room's figures
beside the recomputed ones. Pure functions of a ``HandDetail``: they return escaped HTML.
"""

from __future__ import annotations

import html

import polars as pl

from dashboard.card_html import STYLE, RowView, badge, board, card
from dashboard.format import MISSING, signed
from dashboard.hand_names import fouling_row, row_name
from dashboard.queries.hands import HandDetail
from pipeline.report.format import money

ROWS = ("top", "middle", "bottom")


def last_street(detail: HandDetail) -> int:
    """The last street anyone played (0 when only Fantasyland sets or no placements)."""
    streets = detail.placements["street"]
    return int(streets.max()) if streets.len() else 0


def _rows_from_placements(placed: pl.DataFrame, street: int) -> list[RowView]:
    views = []
    for name in ROWS:
        cards = placed.filter(pl.col("row") == name)
        views.append(
            RowView(
                name=name,
                cards=cards["card"].to_list(),
                new=(cards["street"] == street).to_list() if street else [False] * cards.height,
            )
        )
    return views


def _final_rows(player: dict) -> list[RowView]:
    return [RowView(r, list(player[r] or []), [False] * len(player[r] or [])) for r in ROWS]


def _finished(rows: list[RowView], player: dict, lowball_middle: bool) -> list[RowView]:
    """The rows with their royalties, their names and the row that makes a foul."""
    fouling = (
        fouling_row(*(player[r] or [] for r in ROWS))
        if player["foul"] and not lowball_middle
        else None
    )
    return [
        RowView(
            r.name,
            r.cards,
            r.new,
            f"+{player[f'royalties_{r.name}']}" if player[f"royalties_{r.name}"] else "",
            "" if lowball_middle and r.name == "middle" else row_name(list(r.cards)),
            r.name == fouling,
        )
        for r in rows
    ]


def _discards(placed: pl.DataFrame, hidden: int) -> str:
    cards = placed.filter(pl.col("row") == "discard")["card"].to_list()
    shown = "".join(card(c) for c in cards)
    if not shown and hidden:
        shown = card(None) * hidden
    return f"discards {shown}" if shown else ""


def _badges(player: dict, final: bool, currency: str | None) -> list[str]:
    marks = []
    if player["in_fantasyland"]:
        marks.append(badge(f"in Fantasyland ({player['fantasyland_cards']} cards)", "fl"))
    if final:
        if player["foul"]:
            marks.append(badge("FOUL", "foul"))
        if player["royalties"]:
            marks.append(badge(f"royalties {player['royalties']}", "royalty"))
        if player["fantasyland_next"]:
            marks.append(badge(f"→ Fantasyland ({player['fantasyland_next_cards']} cards)", "fl"))
        points = player["points"]
        marks.append(badge(f"{signed(points)} points", "loss" if points < 0 else "win"))
        if player["money"] is not None:
            marks.append(badge(money(player["money"], currency), "loss" if points < 0 else "win"))
    return marks


def in_order(detail: HandDetail, hero: str | None) -> list[dict]:
    """The players in order of action, the hero first: the hero stays in one place."""
    players = list(detail.players.iter_rows(named=True))
    return sorted(players, key=lambda p: p["player"] != hero)


def boards(detail: HandDetail, street: int, hero: str | None = None) -> list[str]:
    """Each player's board (HTML) after ``street``, the hero first, then in order of action.

    Fantasyland hands (street 0) show whole from the start; without
    placements the final rows are shown. Marks (foul, royalties,
    Fantasyland, points, money), each row's name and the row that makes a
    foul appear once the last street is reached.
    """
    final = street >= last_street(detail)
    lowball_middle = "27" in str(detail.hand.get("variant"))
    currency = detail.hand.get("currency")
    result = []
    for player in in_order(detail, hero):
        placed = detail.placements.filter(pl.col("seat") == player["seat"])
        if placed.is_empty():
            rows = _final_rows(player)
        else:
            placed = placed.filter(pl.col("street") <= street)
            rows = _rows_from_placements(placed, street)
        if final:
            rows = _finished(rows, player, lowball_middle)
        title = f"{player['player']} · seat {player['seat']}"
        hidden = int(player["hidden_discards"] or 0) if final else 0
        badges = _badges(player, final, currency)
        result.append(board(title, rows, badges, _discards(placed, hidden)))
    return result


#: Figures the room reports, next to the recomputed column they are checked against.
FIGURES = (
    ("Points", "reported_points", "points"),
    ("Royalties", "reported_royalties", "royalties"),
    ("Foul", "reported_foul", "foul"),
    ("Money", "reported_money", "money"),
    ("Fantasyland next", "reported_fantasyland_next", "fantasyland_next"),
    ("Fantasyland cards", "reported_fantasyland_cards", "fantasyland_next_cards"),
    ("Fantasyland stay", "reported_fantasyland_stay", "fantasyland_stay"),
)


def _shown(value: object) -> str:
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return signed(value, 2)
    return str(value)


def _differs(room: object, ours: object) -> bool:
    if room is None:
        return False
    if isinstance(room, float) or isinstance(ours, float):
        return ours is None or abs(float(room) - float(ours)) > 0.005
    return room != ours


def figures_table(detail: HandDetail, hero: str | None = None) -> str:
    """An HTML table: per player (the hero first) and figure, the room's value and the
    recomputed one; money with its currency."""
    players = in_order(detail, hero)
    head = "".join(f"<th colspan='2'>{html.escape(p['player'])}</th>" for p in players)
    sub = "<th>room</th><th>rules</th>" * len(players)
    currency = detail.hand.get("currency")
    body = []
    for label, room_key, ours_key in FIGURES:
        cells = []
        for player in players:
            room, ours = player[room_key], player[ours_key]
            style = " class='ofc-diff'" if _differs(room, ours) else ""
            shown = [
                money(v, currency) if label == "Money" and v is not None else _shown(v)
                for v in (room, ours)
            ]
            cells.append(
                f"<td{style}>{html.escape(shown[0])}</td><td{style}>{html.escape(shown[1])}</td>"
            )
        body.append(f"<tr><th>{label}</th>{''.join(cells)}</tr>")
    return (
        "<table class='ofc-figures'><thead><tr><th></th>"
        f"{head}</tr><tr><th></th>{sub}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


FIGURES_STYLE = """
<style>
.ofc-figures { border-collapse: collapse; font-size: .9rem; margin-top: .4rem; }
.ofc-figures th, .ofc-figures td { border-bottom: 1px solid #e6e6e6; padding: .25rem .6rem;
  text-align: right; }
.ofc-figures thead th { text-align: center; }
.ofc-figures tbody th { text-align: left; color: #555; font-weight: 500; }
.ofc-figures td.ofc-diff { background: #fde2e1; color: #a4161a; font-weight: 700; }
</style>
"""

STYLES = STYLE + FIGURES_STYLE
