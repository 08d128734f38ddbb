"""The compiled branch-and-bound search behind ``solve_fantasyland`` (numba).

It works on tables the caller builds once per deal (``fantasyland_tables``):
every 5-card subset of the dealt cards as a bottom or a middle, every 3-card
subset as a top, each with its strength, royalty and stay bits. The search
walks bottoms by an upper bound on what a board built on them can be worth,
then middles the same way, then every top of the cards left, and keeps the
board with the largest ``(value, bottom, middle, top)``; a branch whose bound
cannot beat the best board found so far is cut, so the answer is exact.
"""

from __future__ import annotations

import numba
import numpy as np

#: Above every top strength: a bound's stand-in for the top it has not chosen yet.
_ANY_TOP = 1 << 40


@numba.njit(cache=True, inline="always")
def _stays(bits: np.int64, wanted: np.int64, every: bool) -> bool:
    """Whether the conditions met (``bits``) keep the player in Fantasyland."""
    if wanted == 0:
        return False
    if every:
        return (bits & wanted) == wanted
    return (bits & wanted) != 0


@numba.njit(cache=True, inline="always")
def _compare(value, bottom, middle, top, best_value, best_bottom, best_middle, best_top) -> int:
    """-1, 0 or 1 as ``(value, bottom, middle, top)`` is below, equal to or above the best."""
    if value != best_value:
        return 1 if value > best_value else -1
    if bottom != best_bottom:
        return 1 if bottom > best_bottom else -1
    if middle != best_middle:
        return 1 if middle > best_middle else -1
    if top != best_top:
        return 1 if top > best_top else -1
    return 0


@numba.njit(cache=True, nogil=True)
def search(
    five_mask: np.ndarray,
    five_strength: np.ndarray,
    five_top_scale: np.ndarray,
    bottom_royalty: np.ndarray,
    bottom_bits: np.ndarray,
    bottom_bound: np.ndarray,
    bottom_order: np.ndarray,
    middle_royalty: np.ndarray,
    middle_key: np.ndarray,
    middle_bits: np.ndarray,
    middle_bound: np.ndarray,
    middle_order: np.ndarray,
    top_cap: np.ndarray,
    top_cap_bits: np.ndarray,
    three_index: np.ndarray,
    three_strength: np.ndarray,
    three_royalty: np.ndarray,
    three_bits: np.ndarray,
    n_cards: int,
    stay_value: float,
    wanted: np.int64,
    every: bool,
    lowball: bool,
) -> tuple[int, int, int, float]:
    """The best board as (bottom, middle, top) subset indices and its value; -1: none.

    Bounds (all >= what any board below them is worth): ``bottom_bound[b]``
    for boards on bottom ``b``; ``middle_bound[m]`` for the middle's royalty
    plus the best top under it (Pineapple 2-7: the middle's royalty alone);
    ``top_cap[i]`` / ``top_cap_bits[i]``: the best top royalty and every stay
    bit of a top no stronger than subset ``i`` (on the top's scale).
    ``middle_order`` lists the allowed middles by ``middle_bound``, largest first
    (Pineapple 2-7: the legal 2-7 lows only).
    """
    bonus = max(stay_value, 0.0)
    best_value, best_b, best_m, best_t = -np.inf, -1, -1, -1
    best_sb, best_km, best_st = -1, -1, -1
    full = (1 << n_cards) - 1
    for b in bottom_order:
        if bottom_bound[b] < best_value:
            break
        sb = five_strength[b]
        if bottom_bound[b] == best_value and sb < best_sb:
            continue
        mask_b = five_mask[b]
        tops_left = top_cap[b] if lowball else 0.0
        for m in middle_order:
            # Bounds only fall along middle_order: stop when even the best middle left,
            # with a stay, cannot reach the best board.
            if bottom_royalty[b] + middle_bound[m] + tops_left + bonus < best_value:
                break
            if five_mask[m] & mask_b:
                continue
            if lowball:
                cap = b
            else:
                if five_strength[m] > sb:
                    continue
                cap = m
            bits = bottom_bits[b] | middle_bits[m]
            fixed = bottom_royalty[b] + middle_royalty[m]
            may_stay = _stays(bits | top_cap_bits[cap], wanted, every)
            bound = fixed + top_cap[cap] + (bonus if may_stay else 0.0)
            km = middle_key[m]
            if _compare(bound, sb, km, _ANY_TOP, best_value, best_sb, best_km, best_st) < 0:
                continue
            left = full & ~mask_b & ~five_mask[m]
            limit = five_top_scale[cap]
            for i in range(n_cards):
                if not (left >> i) & 1:
                    continue
                for j in range(i + 1, n_cards):
                    if not (left >> j) & 1:
                        continue
                    for k in range(j + 1, n_cards):
                        if not (left >> k) & 1:
                            continue
                        t = three_index[i, j, k]
                        st = three_strength[t]
                        if st > limit:
                            continue
                        stay = _stays(bits | three_bits[t], wanted, every)
                        value = fixed + three_royalty[t] + (stay_value if stay else 0.0)
                        if _compare(value, sb, km, st, best_value, best_sb, best_km, best_st) <= 0:
                            continue
                        best_value, best_b, best_m, best_t = value, b, m, t
                        best_sb, best_km, best_st = sb, km, st
    return best_b, best_m, best_t, best_value
