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

import polars as pl

from ofc_core.cards import RANKS

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

_rank = (
    pl.col("card")
    .str.slice(0, 1)
    .replace_strict({r: i for i, r in enumerate(RANKS)}, default=None, return_dtype=pl.Int8)
)
_suit = pl.col("card").str.slice(1, 1)


def _street_flags(placements: pl.DataFrame) -> pl.DataFrame:
    street = pl.col("street")
    return placements.group_by("hand_id", "seat").agg(
        has_1=(street == 1).any(),
        has_2=(street == 2).any(),
        auto_1=((street == 1) & pl.col("auto").fill_null(False)).any(),
        auto_2=((street == 2) & pl.col("auto").fill_null(False)).any(),
    )


def _bottom_setup(placements: pl.DataFrame) -> pl.DataFrame:
    bottom = placements.filter(
        (pl.col("street") == 1) & (pl.col("row") == "bottom") & pl.col("card").is_not_null()
    ).with_columns(rank=_rank, suit=_suit)
    low_rank = pl.when(pl.col("rank") == ACE).then(-1).otherwise(pl.col("rank"))
    stats = bottom.group_by("hand_id", "seat").agg(
        n=pl.len(),
        ranks=pl.col("rank").n_unique(),
        suits=pl.col("suit").n_unique(),
        span_high=pl.col("rank").max().cast(pl.Int16) - pl.col("rank").min(),
        span_low=low_rank.max().cast(pl.Int16) - low_rank.min(),
    )
    setup = (
        pl.when(pl.col("ranks") < pl.col("n"))
        .then(pl.lit("pair_or_better"))
        .when((pl.col("n") >= 2) & (pl.col("suits") == 1))
        .then(pl.lit("flush_draw"))
        .when((pl.col("n") >= 2) & (pl.min_horizontal("span_high", "span_low") <= STRAIGHT_SPAN))
        .then(pl.lit("straight_draw"))
        .otherwise(pl.lit("high_cards"))
    )
    return stats.select("hand_id", "seat", setup=setup)


def _top_pairs(placements: pl.DataFrame) -> pl.DataFrame:
    top = placements.filter(
        (pl.col("street").is_between(1, 2))
        & (pl.col("row") == "top")
        & pl.col("card").is_not_null()
    ).with_columns(rank=_rank)
    per_rank = top.group_by("hand_id", "seat", "rank").agg(count=pl.len())
    return per_rank.group_by("hand_id", "seat").agg(
        qq_plus=((pl.col("count") >= 2) & (pl.col("rank") >= QUEEN)).any()
    )


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
    placements = placements.filter(pl.col("street").is_between(1, 2))
    flags = _street_flags(placements)
    frame = (
        player_hands.select("hand_id", "seat", "in_fantasyland")
        .join(flags, on=["hand_id", "seat"], how="left")
        .join(_bottom_setup(placements), on=["hand_id", "seat"], how="left")
        .join(_top_pairs(placements), on=["hand_id", "seat"], how="left")
    )
    in_fl = pl.col("in_fantasyland").fill_null(False)
    street1_ok = ~in_fl & pl.col("has_1").fill_null(False) & ~pl.col("auto_1").fill_null(False)
    street2_ok = street1_ok & pl.col("has_2").fill_null(False) & ~pl.col("auto_2").fill_null(False)
    return frame.select(
        "hand_id",
        "seat",
        first_street_bottom=pl.when(street1_ok).then(
            pl.col("setup").fill_null(pl.lit("high_cards"))
        ),
        top_qq_plus_by_street2=pl.when(street2_ok).then(pl.col("qq_plus").fill_null(False)),
    ).cast(SCHEMA)
