"""R7 (docs/rules.md): table stakes cap each settlement at the smaller stack (P1-P2, P1-P3, P2-P3)."""

from tests.hands import player, score

WINNER = player("Ah Ad Kc", "Ts Th Td 8s 8h", "9s 9h 9d 9c 3s")  # AA 9 + FH 12 + quads 8 (russian)
LOSER = player("2h 3d 5d", "3h 4h 6d 8d 7h", "Jh Qc 5h Kh Ac")
LOSER_2 = player("2c 3c 5c", "4s 4c 6c 7d 2d", "Js Jc Jd Qh Qd")


def test_r7_a_big_win_moves_only_the_smaller_stack():
    for stacks, expected in (((10, 50), 10), ((50, 10), 10)):
        result = score(
            "pineapple-2-4-pokerbet",
            WINNER | {"starting_stack": stacks[0]},
            LOSER | {"starting_stack": stacks[1]},
        )
        pair = result.pairwise.row(0, named=True)
        assert pair["points_a_uncapped"] > 25
        assert pair["points_a"] == expected
        assert result.player_hands["points"].to_list() == [expected, -expected]


def test_r7_stacks_move_between_settlements():
    result = score(
        "pineapple-2-4-pokerbet",
        WINNER | {"starting_stack": 0.75},
        LOSER | {"starting_stack": 100},
        LOSER_2 | {"starting_stack": 100},
    )
    pairs = {
        (r["position_a"], r["position_b"]): r["points_a"]
        for r in result.pairwise.iter_rows(named=True)
    }
    assert pairs[(1, 2)] == 0.75
    assert pairs[(1, 3)] == 1.5
    assert sum(result.player_hands["points"]) == 0


def test_r7_no_cap_without_table_stakes():
    result = score(
        "pineapple-1-6-american", WINNER | {"starting_stack": 10}, LOSER | {"starting_stack": 50}
    )
    pair = result.pairwise.row(0, named=True)
    assert pair["points_a"] == pair["points_a_uncapped"] > 25


def test_r10_pokerdom_plays_table_stakes():
    result = score(
        "pineapple-2-4-pokerdom", WINNER | {"starting_stack": 10}, LOSER | {"starting_stack": 50}
    )
    assert result.pairwise.row(0, named=True)["points_a"] == 10


def test_r7_an_unknown_stack_does_not_cap_but_the_known_one_still_does():
    """Decided (docs/rules.md, R7): an unknown stack sets no limit of its own; the other
    player's known stack still caps the settlement, from either side."""
    for known_first in (True, False):
        known, unknown = {"starting_stack": 10}, {"starting_stack": None}
        a, b = (known, unknown) if known_first else (unknown, known)
        result = score("pineapple-2-4-pokerbet", WINNER | a, LOSER | b)
        pair = result.pairwise.row(0, named=True)
        assert pair["points_a_uncapped"] > 25
        assert pair["points_a"] == 10


def test_r7_two_unknown_stacks_do_not_cap():
    result = score(
        "pineapple-2-4-pokerbet",
        WINNER | {"starting_stack": None},
        LOSER | {"starting_stack": None},
    )
    pair = result.pairwise.row(0, named=True)
    assert pair["points_a"] == pair["points_a_uncapped"] > 25
