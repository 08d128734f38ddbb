"""The hand viewer: cards drawn with suit colours, street by street, names escaped."""

from __future__ import annotations

import polars as pl
import pytest

from dashboard import card_html, hand_view
from dashboard.queries.hands import HandDetail

NAME = "<img src=x onerror=alert(1)>"


def _detail() -> HandDetail:
    players = pl.DataFrame(
        {
            "seat": [1, 2],
            "player": [NAME, "Anna"],
            "position": [1, 2],
            "in_fantasyland": [False, True],
            "fantasyland_cards": [0, 14],
            "top": [["2c", "2d", "3h"], ["Qs", "Qd", "4c"]],
            "middle": [["5c", "6d", "7h", "9s", "Tc"], ["8c", "8d", "Jh", "Js", "2s"]],
            "bottom": [["Ac", "Kd", "Kh", "Ks", "Ad"], ["3c", "4d", "5h", "6s", "7c"]],
            "hidden_discards": [0, 0],
            "foul": [False, False],
            "royalties_top": [0, 7],
            "royalties_middle": [0, 0],
            "royalties_bottom": [6, 2],
            "royalties": [6, 9],
            "points": [-4.0, 4.0],
            "fantasyland_next": [False, True],
            "fantasyland_next_cards": [0, 14],
            "fantasyland_stay": [False, False],
            "money": [None, None],
            "reported_points": [-5.0, 4.0],
            "reported_royalties": [6.0, 9.0],
            "reported_foul": [False, False],
            "reported_money": [None, None],
            "reported_fantasyland_next": [False, True],
            "reported_fantasyland_cards": [None, 14],
            "reported_fantasyland_stay": [False, False],
        }
    )
    fantasyland_set = [
        (card, row)
        for row in ("top", "middle", "bottom")
        for card in players.filter(pl.col("seat") == 2)[row][0]
    ] + [("2h", "discard")]
    placements = pl.DataFrame(
        {
            "seat": [1] * 8 + [2] * 14,
            "street": [1] * 5 + [2] * 3 + [0] * 14,
            "card": ["Ac", "Kd", "2c", "5c", "6d", "Kh", "7h", None]
            + [card for card, _ in fantasyland_set],
            "row": ["bottom", "bottom", "top", "middle", "middle", "bottom", "middle", "discard"]
            + [row for _, row in fantasyland_set],
            "auto": [False] * 22,
        }
    )
    return HandDetail(hand={}, players=players, placements=placements, pairwise=pl.DataFrame())


def test_cards_carry_their_suit_colour() -> None:
    assert "suit-h" in card_html.card("Ah") and "♥" in card_html.card("Ah")
    assert "suit-s" in card_html.card("Ts") and ">T<" in card_html.card("Ts")
    assert "ofc-new" in card_html.card("2c", new=True)


def test_boards_show_only_the_cards_placed_so_far() -> None:
    first, fantasyland = hand_view.boards(_detail(), street=1)
    assert first.count("ofc-card suit-") == 5
    assert first.count("ofc-new") == 5
    assert "FOUL" not in first and "points" not in first  # marks wait for the last street
    assert fantasyland.count("ofc-card suit-") == 14  # a Fantasyland hand shows whole (street 0)
    second = hand_view.boards(_detail(), street=2)[0]
    assert second.count("ofc-card suit-") == 7
    assert second.count("ofc-new") == 2
    assert "ofc-hidden" in second  # the opponent's face-down discard


def test_last_street_marks_royalties_fantasyland_and_points() -> None:
    detail = _detail()
    assert hand_view.last_street(detail) == 2
    board = hand_view.boards(detail, street=2)[1]
    assert "royalties 9" in board and "+7" in board and "→ Fantasyland (14 cards)" in board
    assert "+4 points" in board


def test_names_and_cards_are_escaped() -> None:
    html = "".join(hand_view.boards(_detail(), street=2)) + hand_view.figures_table(_detail())
    assert NAME not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert card_html.card("<script>x") == '<span class="ofc-card">&lt;script&gt;x</span>'


def test_room_figures_that_differ_are_marked() -> None:
    table = hand_view.figures_table(_detail())
    assert table.count("ofc-diff") == 2  # points of seat 1: room -5, rules -4 (two cells)
    assert "<td class='ofc-diff'>-5</td>" in table


@pytest.mark.parametrize("street", [0, 1, 2, 5])
def test_every_board_has_thirteen_slots_cards_or_empty(street: int) -> None:
    for board in hand_view.boards(_detail(), street):
        rows = board.split('class="ofc-discards"')[0]
        assert rows.count('class="ofc-row"') == 3
        assert rows.count('class="ofc-card') == 13
