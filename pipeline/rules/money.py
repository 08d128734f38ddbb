"""Money per player-hand (docs/rules.md R4.5 and R7).

Money is points times the table's point value, except between two players who
agreed their own value per point (a ruleset's ``pair_point_values``, home
games): their settlement is worth that pair's value, and a player's money is
the sum over the player's settlements. Agreements apply at tables played for
money; at play-money tables (no point value) there is no money.

>>> pairwise = pl.DataFrame({
...     "hand_id": ["h", "h", "h"], "position_a": [1, 1, 2], "position_b": [2, 3, 3],
...     "player_a": ["Ann", "Ann", "Bob"], "player_b": ["Bob", "Cy", "Cy"],
...     "points_a": [6.0, -2.0, 1.0],
... })
>>> hands = pl.DataFrame({"hand_id": ["h"], "ruleset": ["home"], "point_value": [0.5]})
>>> agreed = agreements({"home": (PairPointValue(("Ann", "Bob"), 2.0),)})
>>> pair_money(pairwise, hands, agreed).sort("position").rows()
[('h', 1, 11.0), ('h', 2, -11.5), ('h', 3, 0.5)]
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from ofc_core.rulesets import PairPointValue

AGREEMENTS_SCHEMA = {
    "ruleset": pl.String,
    "player_a": pl.String,
    "player_b": pl.String,
    "agreed": pl.Float64,
}


def agreements(by_ruleset: Mapping[str, tuple[PairPointValue, ...]]) -> pl.DataFrame:
    """One row per agreed pair and ruleset, in both seat orders: ``ruleset``, ``player_a``,
    ``player_b``, ``agreed`` (money per point)."""
    rows = [
        (name, a, b, pair.point_value)
        for name, pairs in by_ruleset.items()
        for pair in pairs
        for a, b in (pair.players, pair.players[::-1])
    ]
    return pl.DataFrame(rows, schema=AGREEMENTS_SCHEMA, orient="row")


def pair_money(pairwise: pl.DataFrame, hands: pl.DataFrame, agreed: pl.DataFrame) -> pl.DataFrame:
    """``hand_id``, ``position``, ``money`` of every player-hand in a hand whose ruleset has
    agreements (``agreed``), from its settlements (``pairwise``: ``hand_id``, positions,
    players, ``points_a``) and the hand's ``ruleset`` and ``point_value`` (``hands``).
    Money is null at play-money tables."""
    names = agreed.get_column("ruleset").unique().implode()
    context = hands.select("hand_id", "ruleset", "point_value").filter(
        pl.col("ruleset").is_in(names)
    )
    pairs = (
        pairwise.join(context, on="hand_id")
        .join(agreed, on=["ruleset", "player_a", "player_b"], how="left")
        .with_columns(
            money_a=pl.col("points_a")
            * pl.when(pl.col("point_value").is_not_null()).then(
                pl.coalesce("agreed", "point_value")
            )
        )
    )
    sides = pl.concat(
        [
            pairs.select("hand_id", position="position_a", money="money_a"),
            pairs.select("hand_id", position="position_b", money=-pl.col("money_a")),
        ],
        how="vertical_relaxed",
    )
    return sides.group_by("hand_id", "position").agg(
        pl.when(pl.col("money").null_count() == 0).then(pl.col("money").sum())
    )
