"""Table stakes (R7) with a stack below zero: the cap is zero, never a flipped result.

A match without table stakes can run a stack below zero (rooms print it);
scored under a ruleset with table stakes, ``min(own stack, opponent's
stack)`` is then negative, and clipping a result to ``[-cap, cap]`` used to
turn the winner's points into the loser's.
"""

from __future__ import annotations

from tests.hands import player, score

RULESET = "pineapple-2-4-pokerbet"


def test_a_negative_stack_stakes_nothing():
    winner = player("Ah Ad 4c", "Kd Kh Qh 6s 6d", "7c 7s 7d 2h 9d", starting_stack=100.0)
    loser = player("Qs Qd 3h", "5d 5c 8c 8d Ts", "9s 9h Jh Kc 4s", starting_stack=-150.0)
    points = score(RULESET, winner, loser).player_hands["points"].to_list()
    assert points == [0.0, 0.0]
