"""docs/rules.md R4: each pair of players settles rows, bonus, royalties and fouls."""

from tests.hands import player, points, score


def test_r4_scoop_with_quads_against_flush_pays_12():
    a = player("Ah Kd 5d", "Qs Qh Jd Jc 2h", "9s 9h 9d 9c 3s")  # quads bottom: American 10
    b = player("Kc Qd 4s", "Ts Td 8c 7c 6h", "2c 3c 4c 6c Tc")  # flush bottom: 4
    assert points("classic-1-6-american", a, b) == [12, -12]


def test_r4_two_rows_and_66_against_bottom_straight_nets_zero():
    a = player("6s 6h 2c", "Ks Kd 8c 7c 3d", "Qs Qd Qc 4h 5h")  # 66 top: 1
    b = player("5s 5d 3c", "Js Jd 9c 8h 2d", "9d Th Jh Qh Kh")  # straight bottom: 2
    result = score("classic-1-6-american", a, b)
    pair = result.pairwise.row(0, named=True)
    assert (pair["rows_a"], pair["rows_b"], pair["royalties_a"]) == (2, 1, -1)
    assert result.player_hands["points"].to_list() == [0, 0]


def test_r4_bottom_flush_pays_two_royalty_points_to_full_house():
    a = player("2s 3d 5c", "7s 7d 9c Jh Qd", "4h 8h Th 2h Kh")  # bottom flush: 4
    b = player("2d 3c 6c", "8s 8d 9d Js Qc", "As Ac Ad 5s 5d")  # bottom full house: 6
    pair = score("classic-1-6-american", a, b).pairwise.row(0, named=True)
    assert pair["royalties_a"] == 4 - 6
    assert pair["points_a"] == (pair["rows_a"] - pair["rows_b"]) + pair["bonus_a"] - 2


def test_r4_top_kicker_decides_336_beats_332():
    a = player("3s 3d 6c", "9s 9d Tc Jh Kh", "As Ac Ad 5s 5d")
    b = player("3h 3c 2d", "8s 8d Td Js Qc", "Ks Kc Kd 4s 4d")
    pair = score("classic-1-6-american", a, b).pairwise.row(0, named=True)
    assert (pair["rows_a"], pair["rows_b"]) == (3, 0)


def test_r4_exact_tie_row_gives_zero():
    a = player("3s 3d 6c", "9s 9d Tc Jh Kh", "As Ac Ad 5s 5d")
    b = player("3h 3c 6d", "8s 8d Td Js Qc", "Ks Kc Kd 4s 4d")
    pair = score("classic-1-6-american", a, b).pairwise.row(0, named=True)
    assert (pair["rows_a"], pair["rows_b"], pair["bonus_a"]) == (2, 0, 0)


def test_r4_scheme_2_4_pokerdom_two_rows_to_one_nets_2_and_royalties_22_to_15_make_9():
    p1 = player("2s 2h 2d", "5c 6d 7h 8s 9c", "Ks Kh Kd Kc 3c")  # 222 10 + straight 4 + quads 8
    p2 = player("6s 6h Ad", "3h 4h 8h Jh Qh", "As Ac Ah Ts Td")  # 66 1 + flush 8 + full house 6
    result = score("pineapple-2-4-pokerdom", p1, p2)
    pair = result.pairwise.row(0, named=True)
    assert (pair["rows_a"], pair["rows_b"], pair["bonus_a"]) == (2, 1, 1)
    assert pair["royalties_a"] == 22 - 15
    assert result.player_hands["points"].to_list() == [9, -9]


def test_r4_scheme_2_4_two_wins_and_a_tie_net_3_and_scoop_nets_4():
    a = player("3s 3d 6c", "9s 9d Tc Jh Kd", "7s 7c 7d 5s 5d")
    tie = player("3h 3c 6d", "8s 8d Td Js Qc", "4s 4c 4d 2s 2d")
    assert points("pineapple-2-4-pokerbet", a, tie) == [3, -3]
    low = player("3h 3c 2d", "8s 8d Td Js Qc", "4s 4c 4d 2s 2c")
    assert points("pineapple-2-4-pokerbet", a, low) == [4, -4]


def test_r4_foul_pays_scoop_and_opponent_royalties():
    fouled = player("Qs Qd 7s", "Qh Qc 6c 5c 4c", "As Ac Ad 2s 2c")
    live = player("2h 3d 5d", "3h 4h 6d 8s 9h", "Th Jh 9c Kh Ah")  # high cards, no royalties
    assert points("classic-1-6-american", fouled, live) == [-6, 6]
    rich = player("Ks Kd 2d", "Ts Th Td 8s 8h", "9s 9h 9d 9c 3s")  # KK 8 + FH 12 + quads 10
    assert points("classic-1-6-american", fouled, rich) == [-36, 36]


def test_r4_pokerdom_charges_6_for_a_foul_in_2_4():
    fouled = player("Qs Qd 7s", "Qh Qc 6c 5c 4c", "As Ac Ad 2s 2c")
    live = player("2h 3d 5d", "3h 4h 6d 8s 9h", "Th Jh 9c Kh Ah")
    assert points("pineapple-2-4-pokerdom", fouled, live) == [-6, 6]
    assert points("pineapple-2-4-pokerbet", fouled, live) == [-4, 4]


def test_r4_two_fouled_players_settle_zero():
    f1 = player("Qs Qd 7s", "Qh Qc 6c 5c 4c", "As Ac Ad 2s 2c")
    f2 = player("Ks Kd 8s", "Kh Kc 6d 5d 4d", "Js Jc Jd 3s 3c")
    live = player("2h 3d 5h", "3h 4h 6s 8d 9h", "Th Jh 9c 7h Ah")
    result = score("classic-1-6-american", f1, f2, live)
    pairs = result.pairwise.filter(position_a=1, position_b=2).row(0, named=True)
    assert pairs["points_a"] == 0
    assert result.player_hands["points"].to_list() == [-6, -6, 12]
