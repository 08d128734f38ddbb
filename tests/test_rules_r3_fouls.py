"""docs/rules.md R3: a hand is fouled unless bottom >= middle >= top (equal allowed)."""

from tests.hands import player, score

RULESET = "pineapple-1-6-american"
BOTTOM = "As Ac Ad 2s 2c"  # full house, above every middle below


def foul(top: str, middle: str, bottom: str = BOTTOM) -> bool:
    return score(RULESET, player(top, middle, bottom)).player_hands["foul"][0]


def test_r3_top_queens_with_better_kicker_than_middle_queens_fouls():
    assert foul("Qs Qd 7s", "Qh Qc 6c 5c 4c")


def test_r3_top_queens_under_middle_queens_with_better_kicker_is_legal():
    assert not foul("Qs Qd 7s", "Qh Qc 9c 8c 2d")


def test_r3_equal_strength_top_and_middle_is_allowed():
    assert not foul("Qs Qd 7s", "Qh Qc 7c 5c 4c")


def test_r3_middle_above_bottom_fouls():
    assert foul("3s 4d 5s", "Kh Kc Ks 9c 8d", "Qh Qc Jd Js 3c")


def test_r3_top_trips_above_middle_two_pair_fouls():
    assert foul("5s 5d 5c", "Kh Kc Qs Qc 8d")


def test_r3_top_high_card_compares_rank_by_rank():
    assert foul("Ks Qd 9c", "Kh Qc 8d 7c 6d")
    assert not foul("Ks Qd 9c", "Kh Qc 9d 7c 6d")


def test_r3_equal_middle_and_bottom_is_allowed():
    assert not foul("2d 3d 4c", "Kh Qh 9h 7h 6c", "Kd Qd 9d 7d 6s")
