"""Pairwise settlement: every pair of players settles separately (docs/rules.md R4, R5, R7).

Player-hands are laid out as a ``(hands, seats)`` matrix of row indices in
order of action, so each pair of positions is settled for all hands at once.
Table stakes (R7) cap each settlement at the smaller stack at that moment,
pairs settling in order P1-P2, P1-P3, P2-P3 with stacks moving in between;
a stack below zero (a match played without table stakes can leave one) stakes
nothing: the cap is never below zero, so a result is capped, never turned over.
A stack that is not known does not cap by itself: the other player's known
stack still does. A loss cap per match (R7) makes a player's stack count as
at most ``cap - match_loss`` (points lost so far in the match, net), moving
with each settlement too.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ofc_core.cards import parse_card

DEUCE_OF_SPADES = parse_card("2s")


@dataclass(frozen=True, eq=False)
class Seating:
    """``index[h, p]``: the player-hand row at position ``p + 1`` of hand ``h``, or -1."""

    index: np.ndarray

    @classmethod
    def from_positions(cls, hand: np.ndarray, position: np.ndarray) -> Seating:
        """From each player-hand's hand number (0..H-1) and position (1..P)."""
        n_hands = int(hand.max()) + 1 if len(hand) else 0
        width = int(position.max()) if len(position) else 0
        index = np.full((n_hands, width), -1, dtype=np.int64)
        index[hand, position - 1] = np.arange(len(hand))
        return cls(index)

    def pairs(self) -> list[tuple[int, int]]:
        """Position pairs (0-based) in settlement order: P1-P2, P1-P3, ..., P2-P3, ..."""
        return list(combinations(range(self.index.shape[1]), 2))


@dataclass(frozen=True, eq=False)
class PlayerRows:
    """What settlement needs of each player-hand, as arrays over player-hands."""

    row_strength: np.ndarray  # (n, 3): top, middle, bottom strengths (higher is better)
    row_royalty: np.ndarray  # (n, 3): royalties per row, zero for fouls
    row_has_deuce: np.ndarray  # (n, 3): the row holds 2♠ (R5 Finnish option)
    foul: np.ndarray
    stack: np.ndarray  # float, nan when unknown (no cap)
    match_loss: np.ndarray  # float: net points lost so far in this match (R7 loss cap)


@dataclass(frozen=True, eq=False)
class PairResult:
    """One settlement per (hand, pair of positions), from the first player's side."""

    hand: np.ndarray
    a: np.ndarray  # player-hand row of the first player
    b: np.ndarray
    rows_a: np.ndarray
    rows_b: np.ndarray
    bonus_a: np.ndarray
    royalties_a: np.ndarray
    points_a_uncapped: np.ndarray
    points_a: np.ndarray


def _settle_pair(
    p: PlayerRows, a: np.ndarray, b: np.ndarray, scoop: int, penalty: int, deuce: bool
) -> tuple[np.ndarray, ...]:
    """Rows won, bonus and royalty difference of a against b, before caps (R4)."""
    cmp = np.sign(p.row_strength[a].astype(np.int64) - p.row_strength[b])
    foul_a, foul_b = p.foul[a], p.foul[b]
    only_a, only_b = foul_a & ~foul_b, foul_b & ~foul_a
    live = ~foul_a & ~foul_b
    rows_a = np.where(live, (cmp > 0).sum(axis=1), np.where(only_b, 3, 0))
    rows_b = np.where(live, (cmp < 0).sum(axis=1), np.where(only_a, 3, 0))
    if scoop == 6:  # 1-6: a scoop earns 3 more
        bonus = np.where(rows_a == 3, 3, 0) - np.where(rows_b == 3, 3, 0)
    else:  # 2-4: winning two rows or more earns 1 more
        bonus = np.where(rows_a >= 2, 1, 0) - np.where(rows_b >= 2, 1, 0)
    extra = penalty - 3  # a foul costs the penalty in all: 3 rows and the rest as bonus
    bonus = np.where(only_a, -extra, np.where(only_b, extra, bonus))
    royalty_diff = p.row_royalty[a] - p.row_royalty[b]
    if deuce:
        royalty_diff = royalty_diff * np.where(p.row_has_deuce[a] | p.row_has_deuce[b], 2, 1)
    return rows_a, rows_b, bonus, royalty_diff.sum(axis=1)


@dataclass(frozen=True)
class Stakes:
    """What limits a settlement (R7): table stakes, and a loss cap per match in points."""

    table_stakes: bool = False
    match_loss_cap: float | None = None

    def limits(self, seating: Seating, p: PlayerRows) -> np.ndarray | None:
        """``(hands, seats)``: what each player can lose or win at most; nan: no limit."""
        if not self.table_stakes and self.match_loss_cap is None:
            return None
        seated = seating.index >= 0
        limit = np.full(seating.index.shape, np.nan)
        if self.table_stakes:
            limit = np.where(seated, p.stack[seating.index], np.nan)
        if self.match_loss_cap is not None:
            at_risk = self.match_loss_cap - np.nan_to_num(p.match_loss[seating.index])
            limit = np.fmin(limit, np.where(seated, at_risk, np.nan))
        return limit


def settle(
    seating: Seating, p: PlayerRows, scoop: int, penalty: int, deuce: bool, stakes: Stakes
) -> PairResult:
    """Settle every pair of players of every hand, in R7 order."""
    limits = stakes.limits(seating, p)
    parts: list[tuple[np.ndarray, ...]] = []
    for i, j in seating.pairs():
        hands = np.flatnonzero((seating.index[:, i] >= 0) & (seating.index[:, j] >= 0))
        a, b = seating.index[hands, i], seating.index[hands, j]
        rows_a, rows_b, bonus, royalties = _settle_pair(p, a, b, scoop, penalty, deuce)
        uncapped = (rows_a - rows_b + bonus + royalties).astype(np.float64)
        points = uncapped
        if limits is not None:
            # nan (unknown) on one side: the other; a stack below zero stakes nothing
            cap = np.maximum(np.fmin(limits[hands, i], limits[hands, j]), 0.0)
            points = np.where(np.isnan(cap), uncapped, np.clip(uncapped, -cap, cap))
            limits[hands, i] += points
            limits[hands, j] -= points
        parts.append((hands, a, b, rows_a, rows_b, bonus, royalties, uncapped, points))
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return PairResult(*([empty] * 7), empty.astype(float), empty.astype(float))
    return PairResult(*(np.concatenate(column) for column in zip(*parts, strict=True)))
