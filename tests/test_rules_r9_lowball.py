"""docs/rules.md R9: Pineapple 2-7, a lowball middle between a normal top and bottom."""

import pytest

from tests.hands import player, score


def result(top: str, middle: str, bottom: str, **extra):
    return score("pineapple-27", player(top, middle, bottom, **extra)).player_hands.row(
        0, named=True
    )


def test_r9_example_hand_is_legal():
    assert not result("As Ad 3c", "8h 7h 6d 4c 3d", "Ts Td 9s 9d Kc")["foul"]


def test_r9_a_jack_in_the_middle_fouls():
    assert result("As Ad 3c", "8h 7h 4d 3s Jc", "Ts Td 9s 9d Kc")["foul"]


def test_r9_bottom_under_the_top_fouls():
    assert result("As Ad 3c", "8h 7h 6d 4c 3d", "Ts Td 9s Qc Kc")["foul"]


@pytest.mark.parametrize(
    "middle", ["8h 8d 6d 4c 3d", "8h 7h 6h 4h 3h", "8h 7d 6c 5c 4d", "Ah 7d 6c 5c 4d"]
)
def test_r9_pairs_flushes_straights_and_aces_in_the_middle_foul(middle):
    assert result("2s 2d 3c", middle, "Ts Td 9s 9d Kc")["foul"]


def test_r9_the_lower_middle_wins_the_row():
    a = player("As Ad 3c", "7h 5h 4d 3s 2c", "Ts Td 9s 9d Kc")
    b = player("Ks Kd 4c", "8h 6h 4h 3h 2d", "Js Jd 8s 8d Qc")
    pair = score("pineapple-27", a, b).pairwise.row(0, named=True)
    assert (pair["rows_a"], pair["rows_b"]) == (2, 1)


@pytest.mark.parametrize(
    ("top", "middle", "cards"),
    [
        ("Qs Qd 3c", "8h 7h 6d 4c 3d", 0),
        ("Ks Kd 3c", "8h 7h 6d 4c 3d", 14),
        ("As Ad 3c", "8h 7h 6d 4c 3d", 15),
        ("2s 3d 4c", "7h 5h 4d 3s 2c", 15),
        ("Ks Kd 3c", "7h 5h 4d 3s 2c", 15),
    ],
)
def test_r9_fantasyland_entry(top, middle, cards):
    bottom = "Ts Td Tc 9d 9c"
    assert result(top, middle, bottom)["fantasyland_next_cards"] == cards
