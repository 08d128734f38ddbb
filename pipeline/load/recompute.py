"""Recompute every player-hand's results with the rules engine, grouped by ruleset.

``recompute`` takes a batch of hands and their player-hands (the model
tables), derives each player's Fantasyland repeats from the match sequence,
gives each player-hand what its player lost earlier in the match when the
ruleset caps losses per match (R7), scores each ruleset's hands with
``pipeline.rules.engine.score_hands`` and returns
the player-hands with the recomputed columns of docs/schema.md
(``foul`` ... ``mismatch``; money by ``pipeline.rules.money``), the pairwise
settlements, and the hands that could
not be scored, each with a reason (they become rejects: bad input never
crashes a batch and never disappears). Each player-hand also carries what its
pairwise settlements say (``settlements``), so that per-player figures need
no join with ``pairwise``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from ofc_core.errors import UserError
from ofc_core.rulesets import PairPointValue, Ruleset, load_ruleset
from parsers.schema import PLAYER_HANDS
from pipeline.rules.engine import score_hands
from pipeline.rules.money import agreements, pair_money

#: Difference between reported and recomputed points that counts as a mismatch.
POINTS_TOLERANCE = 1e-6

MODEL_COLUMNS = tuple(PLAYER_HANDS.names)
#: Columns of ``hands`` a player-hand needs for recomputation.
HAND_CONTEXT = (
    "hand_id",
    "ruleset",
    "variant",
    "played_at",
    "match_id",
    "point_value",
    "currency",
    "table_name",
)
#: Columns of ``hands`` copied onto every player-hand, in table order.
COPIED_CONTEXT = ("played_at", "variant", "ruleset", "point_value", "currency", "table_name")

#: Recomputed columns added to ``player_hands``, in table order, with their types.
RESULT_SCHEMA = {
    "fantasyland_repeats": pl.Int16,
    "foul": pl.Boolean,
    "category_top": pl.String,
    "category_middle": pl.String,
    "category_bottom": pl.String,
    "royalties_top": pl.Int32,
    "royalties_middle": pl.Int32,
    "royalties_bottom": pl.Int32,
    "royalties": pl.Int32,
    "points": pl.Float64,
    "money": pl.Float64,
    "fantasyland_next": pl.Boolean,
    "fantasyland_next_cards": pl.Int8,
    "fantasyland_stay": pl.Boolean,
    "mismatch": pl.Boolean,
}
RESULT_COLUMNS = tuple(RESULT_SCHEMA)
#: The result columns the rules engine gives (the others are derived here).
_ENGINE_SCHEMA = {
    name: dtype
    for name, dtype in RESULT_SCHEMA.items()
    if name not in ("fantasyland_repeats", "money", "mismatch")
}

#: What a player-hand's pairwise settlements say, added to ``player_hands`` last.
SETTLEMENT_COLUMNS = ("pairings", "scoops", "rows_won")
SETTLEMENT_SCHEMA = dict.fromkeys(SETTLEMENT_COLUMNS, pl.Int16)

PAIRWISE_COLUMNS = (
    "hand_id",
    "position_a",
    "position_b",
    "player_a",
    "player_b",
    "rows_a",
    "rows_b",
    "bonus_a",
    "royalties_a",
    "points_a_uncapped",
    "points_a",
)

PAIRWISE_SCHEMA = {
    "hand_id": pl.String,
    "position_a": pl.Int8,
    "position_b": pl.Int8,
    "player_a": pl.String,
    "player_b": pl.String,
    "rows_a": pl.Int8,
    "rows_b": pl.Int8,
    "bonus_a": pl.Int16,
    "royalties_a": pl.Int32,
    "points_a_uncapped": pl.Float64,
    "points_a": pl.Float64,
}

RulesetLoader = Callable[[str], Ruleset]


@dataclass(frozen=True)
class Recomputed:
    """Player-hands with results, pairwise settlements, and hands that could not be scored."""

    player_hands: pl.DataFrame
    pairwise: pl.DataFrame
    failed: pl.DataFrame  # hand_id, reason


def ruleset_loader(rules_file: str | None) -> RulesetLoader:
    """A cached ``name -> Ruleset`` that raises ``UserError`` for unknown names."""
    cache: dict[str, Ruleset | UserError] = {}

    def load(name: str) -> Ruleset:
        if name not in cache:
            try:
                cache[name] = load_ruleset(name, rules_file)
            except UserError as error:
                cache[name] = error
        found = cache[name]
        if isinstance(found, UserError):
            raise found
        return found

    return load


def fantasyland_repeats(frame: pl.DataFrame) -> pl.Series:
    """Consecutive Fantasyland stays a player made before each hand (docs/rules.md R6).

    Within one player's hands of one match, ordered by ``played_at`` (then
    ``hand_id``), a Fantasyland hand's repeats are the Fantasyland hands right
    before it: the first Fantasyland hand after an entry has 0, the next 1.
    Outside Fantasyland, or without a ``match_id``, it is 0.

    >>> import datetime as dt
    >>> t = [dt.datetime(2026, 1, 1, 0, m) for m in range(5)]
    >>> frame = pl.DataFrame({
    ...     "hand_id": ["a", "b", "c", "d", "e"], "player": ["P"] * 5, "match_id": ["m"] * 5,
    ...     "played_at": t, "in_fantasyland": [False, True, True, False, True],
    ... })
    >>> fantasyland_repeats(frame).to_list()
    [0, 0, 1, 0, 0]
    """
    key = ["player", "match_id"]
    in_match_fl = frame["in_fantasyland"].fill_null(False) & frame["match_id"].is_not_null()
    zeros = pl.Series("fantasyland_repeats", [0] * frame.height, dtype=pl.Int16)
    if not in_match_fl.any():
        return zeros
    rows = frame.select("hand_id", *key, "played_at", "in_fantasyland").with_row_index("_row")
    chasing = rows.filter(in_match_fl).select(key).unique()
    ordered = rows.join(chasing, on=key, how="semi").sort(
        [*key, "played_at", "hand_id"], nulls_last=True
    )
    in_fl = pl.col("in_fantasyland").fill_null(False)
    ordered = ordered.with_columns(_run=(~in_fl).cast(pl.Int32).cum_sum().over(key))
    earlier = in_fl.cast(pl.Int16).cum_sum().over([*key, "_run"]) - in_fl.cast(pl.Int16)
    repeats = pl.when(in_fl).then(earlier).otherwise(0).cast(pl.Int16)
    ordered = ordered.select("_row", repeats.alias("fantasyland_repeats"))
    return zeros.scatter(ordered["_row"], ordered["fantasyland_repeats"])


def _score_or_split(frame: pl.DataFrame, ruleset: Ruleset) -> tuple[list, list, dict[str, str]]:
    """Score ``frame``; when the engine refuses it, halve by hands to find the culprits."""
    try:
        result = score_hands(frame, ruleset)
        return [frame.hstack(result.player_hands)], [result.pairwise], {}
    except Exception as error:  # the engine refuses bad input; find and reject only that hand
        hand_ids = frame["hand_id"].unique(maintain_order=True)
        if len(hand_ids) == 1:
            return [], [], {hand_ids[0]: f"the rules engine cannot score this hand: {error}"}
        half = set(hand_ids[: len(hand_ids) // 2].to_list())
        first = frame.filter(pl.col("hand_id").is_in(list(half)))
        second = frame.filter(~pl.col("hand_id").is_in(list(half)))
        a_ph, a_pw, a_failed = _score_or_split(first, ruleset)
        b_ph, b_pw, b_failed = _score_or_split(second, ruleset)
        return a_ph + b_ph, a_pw + b_pw, a_failed | b_failed


def _score_group(frame: pl.DataFrame, ruleset: Ruleset) -> tuple[list, list, dict[str, str]]:
    """Score one ruleset's hands; with a loss cap per match, in match order (R7)."""
    if ruleset.match_loss_cap is None or "match_loss" in frame.columns:
        return _score_or_split(frame, ruleset)
    return _score_in_match_order(frame, ruleset)


def match_steps(frame: pl.DataFrame) -> pl.Series:
    """Each player-hand's hand number within its match, from 0, in order of ``played_at``
    (then ``hand_id``); 0 without a ``match_id``.

    >>> import datetime as dt
    >>> t = [dt.datetime(2026, 1, 1, 0, m) for m in (3, 3, 1, 1, 2)]
    >>> frame = pl.DataFrame({
    ...     "hand_id": ["c", "c", "a", "a", "x"], "match_id": ["m", "m", "m", "m", None],
    ...     "played_at": t,
    ... })
    >>> match_steps(frame).to_list()
    [1, 1, 0, 0, 0]
    """
    hands = (
        frame.select("hand_id", "match_id", "played_at")
        .unique("hand_id")
        .sort("match_id", "played_at", "hand_id", nulls_last=True)
        .with_columns(
            _step=pl.when(pl.col("match_id").is_null())
            .then(0)
            .otherwise(pl.int_range(pl.len()).over("match_id"))
        )
    )
    steps = frame.select("hand_id").join(hands, on="hand_id", how="left", maintain_order="left")
    return steps["_step"].alias("match_step")


def _score_in_match_order(frame: pl.DataFrame, ruleset: Ruleset) -> tuple[list, list, dict]:
    """Score hands a match round at a time, each player-hand given ``match_loss``: the
    points its player lost (net) in the match's earlier hands, as the cap needs (R7)."""
    key = ["match_id", "player"]
    steps = match_steps(frame)
    losses = pl.DataFrame(
        schema={"match_id": pl.String, "player": pl.String, "match_loss": pl.Float64}
    )
    scored: list[pl.DataFrame] = []
    pairs: list[pl.DataFrame] = []
    failed: dict[str, str] = {}
    for step in range(int(steps.max() or 0) + 1):
        part = frame.filter(steps == step).join(losses, on=key, how="left", maintain_order="left")
        part = part.with_columns(pl.col("match_loss").fill_null(0.0))
        part_scored, part_pairs, part_failed = _score_or_split(part, ruleset)
        scored += part_scored
        pairs += part_pairs
        failed |= part_failed
        moved = pl.concat(
            [losses, *(s.select(*key, match_loss=-pl.col("points")) for s in part_scored)],
            how="vertical_relaxed",
        )
        losses = (
            moved.filter(pl.col("match_id").is_not_null())
            .group_by(key)
            .agg(pl.col("match_loss").sum())
        )
    return scored, pairs, failed


def _with_names(pairwise: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    names = players.select("hand_id", "position", "player")
    for side in ("a", "b"):
        pairwise = pairwise.join(
            names.rename({"position": f"position_{side}", "player": f"player_{side}"}),
            on=["hand_id", f"position_{side}"],
            how="left",
        )
    return pairwise.select(PAIRWISE_COLUMNS).cast(PAIRWISE_SCHEMA)


def settlements(pairwise: pl.DataFrame) -> pl.DataFrame:
    """Per player-hand (``hand_id``, ``position``): the settlements it took part in
    (``pairings``), those where it won all three rows (``scoops``), and the rows it
    won in them (``rows_won``).

    >>> pairs = pl.DataFrame({
    ...     "hand_id": ["h", "h", "h"], "position_a": [1, 1, 2], "position_b": [2, 3, 3],
    ...     "rows_a": [3, 1, 0], "rows_b": [0, 2, 3],
    ... })
    >>> settlements(pairs).sort("position").rows()
    [('h', 1, 2, 1, 4), ('h', 2, 2, 0, 0), ('h', 3, 2, 1, 5)]
    """
    sides = pl.concat(
        [
            pairwise.select("hand_id", position=f"position_{side}", rows=f"rows_{side}")
            for side in ("a", "b")
        ],
        how="vertical_relaxed",
    )
    rows = pl.col("rows")
    return (
        sides.group_by("hand_id", "position")
        .agg(pairings=pl.len(), scoops=(rows == 3).sum(), rows_won=rows.sum())
        .cast({"position": pl.Int8} | SETTLEMENT_SCHEMA)
    )


def with_settlements(player_hands: pl.DataFrame, pairwise: pl.DataFrame) -> pl.DataFrame:
    """``player_hands`` plus ``SETTLEMENT_COLUMNS`` from ``pairwise`` (0 without a settlement)."""
    found = settlements(pairwise)
    keys = player_hands.select("hand_id", pl.col("position").cast(pl.Int8))
    counts = keys.join(found, on=["hand_id", "position"], how="left", maintain_order="left")
    return player_hands.with_columns(
        counts.select(pl.col(name).fill_null(0) for name in SETTLEMENT_COLUMNS)
    )


def recompute(hands: pl.DataFrame, player_hands: pl.DataFrame, load: RulesetLoader) -> Recomputed:
    """Results for every player-hand of ``hands`` (see the module docstring).

    A ``fantasyland_repeats`` column in ``player_hands`` is used as given;
    without one, repeats are derived from the hands of this batch.
    """
    context = hands.select(HAND_CONTEXT)
    frame = player_hands.join(context, on="hand_id", how="left")
    if "fantasyland_repeats" not in frame.columns:
        frame = frame.with_columns(fantasyland_repeats=fantasyland_repeats(frame))
    scored: list[pl.DataFrame] = []
    pairs: list[pl.DataFrame] = []
    failed: dict[str, str] = {}
    agreed: dict[str, tuple[PairPointValue, ...]] = {}
    for (name,), group in frame.group_by("ruleset", maintain_order=True):
        try:
            ruleset = load(name)
        except UserError as error:
            reason = f"{error}; import again with --rules-file defining it, and --reread"
            failed |= dict.fromkeys(group["hand_id"].unique().to_list(), reason)
            continue
        other = group.filter(pl.col("variant") != ruleset.variant.value)
        if not other.is_empty():  # a ruleset of another variant cannot score them (R10)
            failed |= _other_variant(other, name, ruleset)
            group = group.join(other.select("hand_id").unique(), on="hand_id", how="anti")
            if group.is_empty():
                continue
        group_scored, group_pairs, group_failed = _score_group(group, ruleset)
        scored += group_scored
        pairs += group_pairs
        failed |= group_failed
        if ruleset.pair_point_values:
            agreed[name] = ruleset.pair_point_values
    pairwise = (
        _with_names(pl.concat(pairs), frame) if pairs else pl.DataFrame(schema=PAIRWISE_SCHEMA)
    )
    model_columns = [c for c in player_hands.columns if c in MODEL_COLUMNS]
    finished = _finish(scored, model_columns, pairwise)
    return Recomputed(
        player_hands=_with_agreed_money(finished, pairwise, agreements(agreed)),
        pairwise=pairwise,
        failed=pl.DataFrame(
            {"hand_id": list(failed), "reason": list(failed.values())},
            schema={"hand_id": pl.String, "reason": pl.String},
        ),
    )


def _other_variant(frame: pl.DataFrame, name: str, ruleset: Ruleset) -> dict[str, str]:
    """Why each hand of ``frame`` (of another variant than ``ruleset``'s) is not scored."""
    return {
        hand_id: f"the hand is {variant} but ruleset {name} plays {ruleset.variant.value}"
        " (docs/rules.md R10); import it with a ruleset of its variant"
        for hand_id, variant in frame.select("hand_id", "variant").unique().iter_rows()
    }


def _finish(
    scored: list[pl.DataFrame], model_columns: list[str], pairwise: pl.DataFrame
) -> pl.DataFrame:
    """Model columns, hand context, results and settlement counts, typed as in the database."""
    if not scored:
        return pl.DataFrame()
    frame = pl.concat(scored, how="vertical_relaxed").cast(_ENGINE_SCHEMA)
    frame = frame.with_columns(
        money=pl.col("points") * pl.col("point_value"),
        mismatch=(
            (pl.col("reported_points") - pl.col("points")).abs() > POINTS_TOLERANCE
        ).fill_null(False),
    )
    return with_settlements(
        frame.select(*model_columns, *COPIED_CONTEXT, *RESULT_COLUMNS), pairwise
    )


def _with_agreed_money(
    player_hands: pl.DataFrame, pairwise: pl.DataFrame, agreed: pl.DataFrame
) -> pl.DataFrame:
    """``money`` of the hands whose ruleset has pairs with their own point value, summed over
    each player's settlements (R7); the others keep ``points × point_value``."""
    if agreed.is_empty() or player_hands.is_empty():
        return player_hands
    hands = player_hands.select("hand_id", "ruleset", "point_value").unique("hand_id")
    found = pair_money(pairwise, hands, agreed).cast({"position": pl.Int8})
    keys = player_hands.select("hand_id", pl.col("position").cast(pl.Int8))
    money = keys.join(found, on=["hand_id", "position"], how="left", maintain_order="left")
    by_pair = money.get_column("money")
    has_pairs = pl.col("ruleset").is_in(agreed.get_column("ruleset").unique().implode())
    return player_hands.with_columns(
        money=pl.when(has_pairs).then(by_pair).otherwise(pl.col("money"))
    )
