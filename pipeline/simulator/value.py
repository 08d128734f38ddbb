"""What a finished board is worth to a bot: foul, royalties, Fantasyland, row strength.

Bots compare placements by the average outcome of many finished boards. The
outcome is computed with the engine's own rules (``pipeline.rules.fouls``,
``pipeline.rules.royalties``, ``pipeline.rules.fantasyland``) for the table's ruleset, so
a bot values a 2-7 middle in Pineapple 2-7 or a progressive Fantasyland as
the rules do. A style (``pipeline.simulator.bots``) weighs the features.
"""

from __future__ import annotations

import numpy as np

from ofc_core.rulesets import Ruleset
from pipeline.rules.evaluate import category3, category5, leading_rank3, leading_rank5, lowball27
from pipeline.rules.fantasyland import entry_cards, stays
from pipeline.rules.fouls import fouled
from pipeline.rules.rows import Rows
from pipeline.rules.royalties import row_royalties

#: Columns of ``features`` (finished boards), then of ``early_features`` (boards in progress).
FOUL, ROYALTIES, FANTASYLAND, ROW_STRENGTH, STAY, TOP_PAIR_QQ, TOP_HIGH = range(7)
N_FEATURES = 5
N_EARLY = 2
QUEEN = 10
_B5 = 13**5


def board_rows(boards: np.ndarray) -> Rows:
    """Rows of full ``(n, 13)`` boards (slots 0-2 top, 3-7 middle, 8-12 bottom)."""
    return Rows.from_codes(boards[:, :3], boards[:, 3:8], boards[:, 8:])


def _row_strength(rows: Rows, lowball_middle: bool) -> np.ndarray:
    """A rough 0..3 measure of how many rows the board tends to win."""
    top = (category3(rows.top_strength) * 13 + leading_rank3(rows.top_strength)) / 38
    bottom = (category5(rows.bottom_strength) * 13 + leading_rank5(rows.bottom_strength)) / 116
    if lowball_middle:
        middle = lowball27(rows.middle_strength) / _B5
    else:
        middle = (category5(rows.middle_strength) * 13 + leading_rank5(rows.middle_strength)) / 116
    return top + middle + bottom


def features(boards: np.ndarray, ruleset: Ruleset, in_fantasyland: bool = False) -> np.ndarray:
    """``(n, N_FEATURES)`` float32 outcome of full boards under the ruleset.

    For regular hands ``FANTASYLAND`` is the cards a live board earns for its
    next hand divided by 13 (0 when none); for Fantasyland hands
    (``in_fantasyland``) ``STAY`` says whether the board stays there (R6).
    """
    rows = board_rows(boards)
    lowball = ruleset.lowball_middle
    foul = fouled(rows, lowball)
    live = ~foul
    royalties = row_royalties(rows, ruleset.royalties, lowball).zero_where(foul)
    out = np.zeros((len(boards), N_FEATURES), dtype=np.float32)
    out[:, FOUL] = foul
    out[:, ROYALTIES] = royalties.total
    out[:, ROW_STRENGTH] = np.where(live, _row_strength(rows, lowball), 0)
    rules = ruleset.fantasyland
    if rules.enabled and in_fantasyland:
        out[:, STAY] = live & stays(rows, royalties, rules)
    elif rules.enabled:
        out[:, FANTASYLAND] = np.where(live, entry_cards(rows, rules, lowball), 0) / 13
    return out


def chase_rank(ruleset: Ruleset) -> int:
    """The lowest rank whose pair on top earns Fantasyland (R6: QQ, or KK in 2-7); 13: none.

    >>> from ofc_core.rulesets import load_ruleset
    >>> chase_rank(load_ruleset("pineapple-27")), chase_rank(load_ruleset("classic-stars-2013"))
    (11, 13)
    """
    pairs = [
        QUEEN + i for i, key in enumerate(("QQ", "KK", "AA")) if key in ruleset.fantasyland.entry
    ]
    return min(pairs, default=13)


def early_features(boards: np.ndarray, from_rank: int = QUEEN) -> np.ndarray:
    """``(n, N_EARLY)`` float32 of boards in progress: a pair on top of ``from_rank`` or
    better (``QQ+``); cards of that rank or better on top.

    These are what a Fantasyland chaser likes to see early; ``bots.py`` weighs
    them by the chance the look-ahead gives the board to stay live.

    >>> from ofc_core.cards import parse_cards
    >>> board = np.full((1, 13), -1, dtype=np.int8)
    >>> board[0, :2] = parse_cards("Qs Qd")
    >>> early_features(board).tolist()
    [[1.0, 2.0]]
    """
    top = boards[:, :3]
    rank = np.where(top >= 0, top >> 2, -1)
    high = rank >= from_rank
    pair = (rank[:, :, None] == rank[:, None, :]) & high[:, :, None]
    pair_count = pair.sum(axis=(1, 2)) - high.sum(axis=1)
    return np.stack([pair_count > 0, high.sum(axis=1)], axis=1).astype(np.float32)
