"""Checks of ``ofc-jsonl`` hands that JSON types alone don't catch, column-wise.

pyarrow has already parsed the lines against the model's types; here every
hand is checked against the rest of the contract (docs/formats/ofc-jsonl.md)
with polars expressions over the whole block: required fields, known
variants and formats, the hand id, the UTC time, as many players as the
variant allows (2 or 3 in Pineapple and Pineapple 2-7, 2 to 4 in classic and turbo) with
distinct seats and positions, full rows of real cards, no card twice,
placements that name a seated player and a row. ``first_problems`` gives,
for each hand, the first problem found in words, or ``None``.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from ofc_core.cards import CARD_NAMES
from ofc_core.rulesets import player_count_reason
from ofc_core.variants import MAX_PLAYERS, VARIANTS
from parsers import bounds
from parsers.schema import PLACEMENT_ROWS, ROWS, SOURCE_FORMATS

TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%.fZ"
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}
REQUIRED_HAND = (
    "hand_id", "room_hand_id", "source_format", "variant", "ruleset", "played_at", "table_name",
    "max_players", "button_seat", "fantasyland_continuation",
)  # fmt: skip
REQUIRED_PLAYER = (
    "seat", "player", "position", "in_fantasyland", "fantasyland_cards", "top", "middle",
    "bottom", "discards", "hidden_discards", "timed_out",
)  # fmt: skip
PLACEMENT_FIELDS = ("seat", "street", "card", "row", "auto")
_CARDS = list(CARD_NAMES)


def _missing(names, prefix: pl.Expr | None = None) -> list[pl.Expr]:
    out = []
    for name in names:
        text = f'missing "{name}"'
        reason = pl.format("{}: " + text, prefix) if prefix is not None else pl.lit(text)
        out.append(pl.when(pl.col(name).is_null()).then(reason))
    return out


def _most_players() -> pl.Expr:
    """The most players the hand's variant allows (R10); 4 for a variant not known."""
    return pl.col("variant").replace_strict(MAX_PLAYERS, default=4, return_dtype=pl.Int64)


#: The numbers of a hand and of a player bounded as in the text formats (``parsers.bounds``).
HAND_BOUNDS = {
    "point_value": bounds.POINT_VALUE,
    "max_players": bounds.MAX_PLAYERS,
    "button_seat": bounds.BUTTON_SEAT,
    "match_hand": bounds.MATCH_HAND,
    "match_hands": bounds.MATCH_HANDS,
}
PLAYER_BOUNDS = {
    "seat": bounds.SEAT,
    "starting_stack": bounds.STACK,
    "reported_points": bounds.POINTS,
    "reported_royalties": bounds.ROYALTIES,
    "reported_money": bounds.MONEY,
}


def _bounded(fields: dict[str, bounds.Bound], prefix: pl.Expr | None = None) -> pl.Expr:
    """The first field out of its bound, as ``<name> <value> is outside <low>..<high>``."""
    checks = []
    for name, bound in fields.items():
        named = bounds.Bound(name, bound.low, bound.high)
        value = pl.col(name).cast(pl.Float64)
        checks.append((named, value.cast(pl.String), value))
    found = bounds.problem(checks)
    return found if prefix is None else pl.format("{}: {}", prefix, found)


def _played_at() -> pl.Expr:
    return pl.col("played_at").str.to_datetime(
        TIME_FORMAT, time_unit="us", time_zone="UTC", strict=False
    )


def _hand_reasons() -> list[pl.Expr]:
    version = pl.col("ofc_jsonl")
    lengths = [pl.col("placements").struct.field(n).list.len() for n in PLACEMENT_FIELDS]
    same_length = pl.all_horizontal([length == lengths[0] for length in lengths[1:]])
    when = pl.when
    return [
        when(version.is_null()).then(pl.lit('missing "ofc_jsonl": 1 (the format version)')),
        when(version != 1).then(
            pl.format("format version {} is not supported: this reader reads ofc_jsonl 1", version)
        ),
        *_missing(REQUIRED_HAND),
        when(~pl.col("source_format").is_in(SOURCE_FORMATS)).then(
            pl.format(
                'source_format "{}" is not one of {}',
                "source_format",
                pl.lit(", ".join(SOURCE_FORMATS)),
            )
        ),
        when(~pl.col("variant").is_in(VARIANTS)).then(
            pl.format('variant "{}" is not one of {}', "variant", pl.lit(", ".join(VARIANTS)))
        ),
        when(pl.col("hand_id") != pl.format("{}:{}", "source_format", "room_hand_id")).then(
            pl.format(
                'hand_id "{}" should be "{}:{}" (source format, room hand id)',
                "hand_id",
                "source_format",
                "room_hand_id",
            )
        ),
        when(_played_at().is_null()).then(
            pl.format('played_at "{}" is not a UTC time like 2026-11-29T14:03:11Z', "played_at")
        ),
        when(~_played_at().dt.year().is_between(bounds.FIRST_DAY.year, bounds.LAST_DAY.year)).then(
            pl.format(f"played_at {{}} outside the plausible range {bounds.YEARS}", "played_at")
        ),
        _bounded(HAND_BOUNDS),
        when(pl.col("point_value").is_null() != pl.col("currency").is_null()).then(
            pl.format(
                "point_value {} and currency {} go together: a money table has both, "
                "play money neither (docs/schema.md)",
                pl.col("point_value").cast(pl.String).fill_null("null"),
                pl.col("currency").fill_null("null"),
            )
        ),
        when(~pl.col("currency").str.contains(r"^[A-Z]{3}$")).then(
            pl.format(
                'currency "{}" is not an ISO code (three capital letters, as USD)', "currency"
            )
        ),
        when(pl.col("players").is_null()).then(pl.lit('missing "players"')),
        when(~pl.col("players").list.len().is_between(2, _most_players())).then(
            pl.format(
                player_count_reason("{}", "{}", "{}"),
                "variant",
                _most_players().replace_strict({2: "2", 3: "2 or 3", 4: "2 to 4"}),
                pl.col("players").list.len(),
            )
        ),
        when(pl.col("placements").is_null()).then(pl.lit('missing "placements"')),
        when(~same_length).then(
            pl.lit("placements: seat, street, card, row and auto must have the same length")
        ),
    ]


def _card_list_reasons(who: pl.Expr) -> list[pl.Expr]:
    out = []
    for row in (*ROWS, "discards"):
        cards = pl.col(row)
        if row in ROW_SIZES:
            out.append(
                pl.when(cards.list.len() != ROW_SIZES[row]).then(
                    pl.format(
                        "{}: {} has {} cards, expected {}",
                        who,
                        pl.lit(row),
                        cards.list.len(),
                        pl.lit(ROW_SIZES[row]),
                    )
                )
            )
        valid = cards.list.eval(pl.element().is_in(_CARDS) & pl.element().is_not_null()).list.all()
        out.append(
            pl.when(~valid).then(
                pl.format(
                    '{}: {} holds something that is not a card like "Ah" or "Td": [{}]',
                    who,
                    pl.lit(row),
                    cards.list.eval(pl.element().fill_null("null")).list.join(" "),
                )
            )
        )
    return out


def _player_problems(frame: pl.DataFrame) -> pl.DataFrame:
    players = (
        frame.select("_row", "players")
        .filter(pl.col("players").list.len() > 0)
        .explode("players")
        .with_columns(pl.int_range(pl.len()).over("_row").alias("_index"))
    )
    whole = players.filter(pl.col("players").is_null()).select(
        "_row", pl.format("players[{}] is null", "_index").alias("reason")
    )
    players = players.filter(pl.col("players").is_not_null()).unnest("players")
    who = pl.format(
        'player "{}" (seat {})',
        pl.col("player").fill_null("?"),
        pl.col("seat").cast(pl.String).fill_null("?"),
    )
    prefix = pl.format("players[{}]", "_index")
    reasons = [
        *_missing(REQUIRED_PLAYER, prefix),
        _bounded({k: v for k, v in PLAYER_BOUNDS.items() if k in players.columns}, who),
        *_card_list_reasons(who),
    ]
    each = players.select("_row", pl.coalesce(reasons).alias("reason"))
    shared = players.group_by("_row").agg(
        pl.when(pl.col("seat").n_unique() < pl.len())
        .then(pl.lit("two players share a seat"))
        .when(pl.col("position").n_unique() < pl.len())
        .then(pl.lit("two players share a position"))
        .alias("reason")
    )
    cards = (
        players.select("_row", pl.concat_list(*ROWS, "discards").alias("card"))
        .explode("card")
        .drop_nulls("card")
        .group_by("_row", "card")
        .len()
        .filter(pl.col("len") > 1)
        .group_by("_row")
        .agg(
            pl.format("card {} appears twice in the hand", pl.col("card").sort().first()).alias(
                "reason"
            )
        )
    )
    return pl.concat([whole, each, shared, cards], how="vertical_relaxed")


def _placement_problems(frame: pl.DataFrame) -> pl.DataFrame:
    names = list(PLACEMENT_FIELDS)
    lengths = [pl.col("placements").struct.field(n).list.len() for n in names]
    usable = frame.filter(
        pl.col("placements").is_not_null() & pl.all_horizontal([x == lengths[0] for x in lengths])
    )
    moves = (
        usable.select("_row", "placements")
        .unnest("placements")
        .explode(names)
        .with_columns(pl.int_range(pl.len()).over("_row").alias("_index"))
        .filter(
            pl.col("row").is_not_null()
            | pl.col("seat").is_not_null()
            | pl.col("street").is_not_null()
            | pl.col("auto").is_not_null()
            | pl.col("card").is_not_null()
        )
    )
    seats = (
        frame.select("_row", "players")
        .explode("players")
        .drop_nulls("players")
        .select(
            "_row",
            pl.col("players").struct.field("seat").alias("seat"),
            pl.lit(True).alias("_seated"),
        )
        .unique()
    )
    moves = moves.join(seats, on=["_row", "seat"], how="left")
    at = pl.format("placements[{}]", "_index")
    reasons = [
        *(
            pl.when(pl.col(n).is_null() & (pl.lit(n) != "card")).then(
                pl.format('{}: missing "{}"', at, pl.lit(n))
            )
            for n in names
        ),
        pl.when(~pl.col("row").is_in(PLACEMENT_ROWS)).then(
            pl.format('{}: row "{}" is not top, middle, bottom or discard', at, "row")
        ),
        pl.when(pl.col("card").is_not_null() & ~pl.col("card").is_in(_CARDS)).then(
            pl.format('{}: "{}" is not a card like "Ah" or "Td"', at, "card")
        ),
        pl.when(pl.col("_seated").is_null()).then(
            pl.format("{}: seat {} has no player in the hand", at, pl.col("seat").cast(pl.String))
        ),
    ]
    return moves.select("_row", pl.coalesce(reasons).alias("reason"))


def first_problems(table: pa.Table) -> pl.Series:
    """For each parsed line: the first problem with its hand, in words, or null."""
    frame = pl.from_arrow(table).with_row_index("_row")
    found = [
        frame.select("_row", pl.coalesce(_hand_reasons()).alias("reason"), pl.lit(0).alias("_k")),
        _player_problems(frame).with_columns(pl.lit(1).alias("_k")),
        _placement_problems(frame).with_columns(pl.lit(2).alias("_k")),
    ]
    first = (
        pl.concat(
            [
                f.select("_row", pl.col("reason").cast(pl.String), pl.col("_k").cast(pl.Int32))
                for f in found
            ]
        )
        .drop_nulls("reason")
        .sort("_row", "_k", maintain_order=True)
        .group_by("_row", maintain_order=True)
        .first()
    )
    rows = frame.select(pl.col("_row")).join(first, on="_row", how="left", maintain_order="left")
    return rows["reason"].rename("_problem")
