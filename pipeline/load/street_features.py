"""Per player-hand features of the early streets, for style metrics (docs/metrics.md).

From the ``placements`` table: how the bottom row was set up on street 1
(``first_street_bottom``) and whether the top row holds a pair of queens or
better after street 2 (``top_qq_plus_by_street2``). Both are NULL when they
do not apply: a Fantasyland hand (set at once, street 0), a street placed
automatically after a timeout (docs/rules.md R8), or a file that shows no
placements for the player.

Setups, first match wins, over the bottom cards placed on street 1:
``pair_or_better`` (two share a rank), ``flush_draw`` (two or more, all one
suit), ``straight_draw`` (two or more distinct ranks within five consecutive
ranks, the ace high or low), else ``high_cards``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from ofc_core.cards import RANKS, SUITS
from pipeline.load.runs import id_runs
from pipeline.rules.rows import CARD_ENUM

SETUPS = ("pair_or_better", "flush_draw", "straight_draw", "high_cards")
QUEEN = RANKS.index("Q")
ACE = RANKS.index("A")
STRAIGHT_SPAN = 4  # five consecutive ranks: highest - lowest <= 4

SCHEMA = {
    "hand_id": pl.String,
    "seat": pl.Int8,
    "first_street_bottom": pl.String,
    "top_qq_plus_by_street2": pl.Boolean,
}


def _player_hand_of_rows(
    placements: pl.DataFrame, player_hands: pl.DataFrame
) -> tuple[np.ndarray, np.ndarray, int]:
    """Each placement row's player-hand and each ``player_hands`` row's, as indexes among
    the distinct (hand, seat) pairs of ``player_hands`` (-1: a row of no player-hand),
    and how many pairs there are.

    Only the ids of a hand's runs of rows are hashed (its rows come in runs), in one
    categorical with the player-hands' ids, so that the codes agree.
    """
    ids = placements["hand_id"]
    run_of_row, run_starts = id_runs(ids)
    both = pl.concat([player_hands["hand_id"], ids.gather(run_starts)]).cast(pl.Categorical)
    codes = both.to_physical().cast(pl.Int64).to_numpy()
    players, runs = codes[: player_hands.height], codes[player_hands.height :]
    keys, player_at = np.unique(
        players << 8 | player_hands["seat"].cast(pl.Int64).to_numpy(), return_inverse=True
    )
    wanted = runs[run_of_row] << 8 | placements["seat"].cast(pl.Int64).to_numpy()
    at = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
    found = keys[at] == wanted if len(keys) else np.zeros(len(wanted), dtype=bool)
    return np.where(found, at, -1), player_at, len(keys)


def _any(at: np.ndarray, where: np.ndarray, size: int) -> np.ndarray:
    """Per player-hand: whether any of its rows is ``where``."""
    return np.bincount(at[where], minlength=size) > 0


def _bits(at: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Per player-hand: the set of ``values`` (0-15) of its rows, as bits."""
    bits = np.zeros(size, dtype=np.int64)
    np.bitwise_or.at(bits, at, np.int64(1) << values)
    return bits


def _count(bits: np.ndarray) -> np.ndarray:
    return np.bitwise_count(bits.astype(np.uint64)).astype(np.int64)


def _span(bits: np.ndarray) -> np.ndarray:
    """Highest set bit minus lowest set bit (0 for none or one)."""
    low = np.log2((bits & -bits).clip(min=1)).astype(np.int64)
    high = np.log2(bits.clip(min=1)).astype(np.int64)
    return high - low


def _bottom_setups(at: np.ndarray, rank: np.ndarray, suit: np.ndarray, size: int) -> np.ndarray:
    """Per player-hand: the index in ``SETUPS`` of the setup of its bottom cards of street 1
    (``at``, ``rank``, ``suit``: those cards)."""
    cards = np.bincount(at, minlength=size)
    ranks = _bits(at, rank, size)
    ace_low = np.where(rank == ACE, 0, rank + 1)
    span = np.minimum(_span(ranks), _span(_bits(at, ace_low, size)))
    drawing = cards >= 2
    return np.select(
        [
            _count(ranks) < cards,
            drawing & (_count(_bits(at, suit, size)) == 1),
            drawing & (span <= STRAIGHT_SPAN),
        ],
        [0, 1, 2],
        default=3,
    )


def _top_pairs(at: np.ndarray, rank: np.ndarray, size: int) -> np.ndarray:
    """Per player-hand: whether two of its top cards of streets 1-2 queens or better
    (``at``, ``rank``: those cards) share a rank."""
    ranks = ACE - QUEEN + 1
    pairs = np.bincount(at * ranks + rank - QUEEN, minlength=size * ranks) >= 2
    return pairs.reshape(size, ranks).any(axis=1)


def street_features(placements: pl.DataFrame, player_hands: pl.DataFrame) -> pl.DataFrame:
    """``first_street_bottom`` and ``top_qq_plus_by_street2`` per (``hand_id``, ``seat``).

    >>> placements = pl.DataFrame({
    ...     "hand_id": ["h"] * 7, "seat": [1] * 7, "street": [1, 1, 1, 1, 1, 2, 2],
    ...     "card": ["Kh", "9h", "2h", "Qs", "5c", "Qd", "3c"],
    ...     "row": ["bottom", "bottom", "bottom", "top", "middle", "top", "middle"],
    ...     "auto": [False] * 7,
    ... })
    >>> seats = pl.DataFrame({"hand_id": ["h"], "seat": [1], "in_fantasyland": [False]})
    >>> street_features(placements, seats).row(0)
    ('h', 1, 'flush_draw', True)
    """
    early = placements.filter(pl.col("street").is_between(1, 2)).select(
        "hand_id",
        "seat",
        "street",
        "auto",
        bottom=pl.col("row") == "bottom",
        top=pl.col("row") == "top",
        code=pl.col("card").cast(CARD_ENUM, strict=False).to_physical().cast(pl.Int64),
    )
    at, player, size = _player_hand_of_rows(early, player_hands)
    early = early.filter(pl.Series(at >= 0))
    at = at[at >= 0]
    street = early["street"].to_numpy()
    auto = early["auto"].fill_null(False).to_numpy()
    code = early["code"].fill_null(-1).to_numpy()
    rank, suit = np.where(code >= 0, code // len(SUITS), -1), code % len(SUITS)
    bottom, top = early["bottom"].fill_null(False), early["top"].fill_null(False)
    on_1, on_2 = street == 1, street == 2
    in_fl = player_hands["in_fantasyland"].fill_null(False).to_numpy()
    street1_ok = ~in_fl & _any(at, on_1, size)[player] & ~_any(at, on_1 & auto, size)[player]
    street2_ok = street1_ok & _any(at, on_2, size)[player] & ~_any(at, on_2 & auto, size)[player]
    first_bottom = on_1 & bottom.to_numpy() & (rank >= 0)
    setup = _bottom_setups(at[first_bottom], rank[first_bottom], suit[first_bottom], size)
    top_high = top.to_numpy() & (rank >= QUEEN)
    qq_plus = _top_pairs(at[top_high], rank[top_high], size)
    return (
        pl.DataFrame(
            {
                "hand_id": player_hands["hand_id"],
                "seat": player_hands["seat"],
                "first_street_bottom": pl.Series(np.array(SETUPS)[setup[player]]),
                "top_qq_plus_by_street2": qq_plus[player],
            }
        )
        .with_columns(
            first_street_bottom=pl.when(pl.Series(street1_ok)).then("first_street_bottom"),
            top_qq_plus_by_street2=pl.when(pl.Series(street2_ok)).then("top_qq_plus_by_street2"),
        )
        .cast(SCHEMA)
    )
