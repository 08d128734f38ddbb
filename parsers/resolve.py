"""Binding a chunk's extracted lines to hands, rulesets and seats, column-wise.

Between reading (``parsers.formats.en``/``parsers.formats.ru``) and checking
(``parsers.validate``): each hand gets its ruleset (the header's words,
``parsers.header_words``, or the user's ``--ruleset``) and its time in UTC
(``parsers.zones``). Each line naming a player gets the player's seat key
``skey = h * 256 + seat`` through one join on a hash of (hand, name); each
card gets its line's seat and street (a join on the line number) and a bit
mask ``1 << code`` (``ofc_core.cards`` codes), so the checks can compare sets
of cards by sums of integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import polars as pl

from ofc_core.cards import CARD_NAMES
from ofc_core.rulesets import load_ruleset
from parsers import extract as ex
from parsers.extract import Extracted
from parsers.groups import lookup
from parsers.header_words import HeaderWords, resolve
from parsers.zones import offset_minutes

SEAT_KEY = 256
SEC_KEY = 128
#: Canonical card name → its bit (``1 << code``).
MASKS = {name: 1 << code for code, name in enumerate(CARD_NAMES)}


@dataclass(frozen=True)
class Resolved:
    """``Extracted`` with hands described and lines bound to seats.

    Keys: ``skey`` (a player in a hand), ``akey = skey * SEC_KEY + sec`` (a
    player in one section).
    """

    hands: pl.DataFrame
    seats: pl.DataFrame
    acts: pl.DataFrame
    cards: pl.DataFrame
    shows: pl.DataFrame
    show_cards: pl.DataFrame
    summaries: pl.DataFrame
    unknown_players: pl.DataFrame  # h, n, player: lines naming nobody seated


@cache
def fantasyland_counts(ruleset: str) -> tuple[int, ...]:
    """Cards a Fantasyland hand may be dealt under a ruleset (R6, R9, R10); empty: no FL."""
    fl = load_ruleset(ruleset).fantasyland
    if not fl.enabled:
        return ()
    return tuple(sorted({*fl.entry.values(), *fl.lowball_entry.values(), fl.stay_cards}))


@cache
def ruleset_variant(ruleset: str) -> str:
    """The variant of a ruleset, as the plain string the hand model holds."""
    return load_ruleset(ruleset).variant.value


@cache
def ruleset_players(ruleset: str) -> tuple[int, str]:
    """The most players a hand of the ruleset may have, and the count in words (R10)."""
    rules = load_ruleset(ruleset)
    return rules.max_players, rules.allowed_players


def ruleset_names(heads: pl.DataFrame, override: str | None) -> pl.DataFrame:
    """``ruleset`` and ``exact`` for each distinct header wording in ``heads``."""
    words = heads.select("variant", "fantasyland", "scoring", "royalties").unique()
    rows = []
    for variant, fantasyland, scoring, royalties in words.iter_rows():
        name, exact = resolve(HeaderWords(variant, fantasyland, scoring, royalties))
        rows.append(
            (variant, fantasyland, scoring, royalties, override or name, exact or bool(override))
        )
    return pl.DataFrame(
        rows,
        schema={
            **dict.fromkeys(
                ["variant", "fantasyland", "scoring", "royalties", "ruleset"], pl.String
            ),
            "exact": pl.Boolean,
        },
        orient="row",
    )


def utc(local: pl.Expr, zone: pl.Expr, zones: list[str]) -> pl.Expr:
    """Local clock times in per-row zones as UTC (``zones``: the distinct zone names).

    A fixed offset (``+03:00``, ``UTC``: ``parsers.zones.offset_minutes``) is subtracted;
    other zones go through the time zone database (which refuses half-hour offsets, and
    takes ten times as long for a fixed one).

    >>> from datetime import datetime
    >>> zones = ["+03:00", "UTC", "America/New_York"]  # 02:30 did not happen in New York
    >>> clock = pl.DataFrame({"local": [datetime(2026, 3, 8, 2, 30)] * 3, "zone": zones})
    >>> clock.select(utc(pl.col("local"), pl.col("zone"), zones)).to_series().dt.hour().to_list()
    [23, 2, None]
    """
    out = pl.lit(None, dtype=pl.Datetime("us", "UTC"))
    for name in zones:
        offset = offset_minutes(name)
        if offset is None:
            converted = local.dt.replace_time_zone(
                name, ambiguous="earliest", non_existent="null"
            ).dt.convert_time_zone("UTC")
        else:
            converted = (local - pl.duration(minutes=offset)).dt.replace_time_zone("UTC")
        out = pl.when(zone == name).then(converted).otherwise(out)
    return out


def player_key() -> pl.Expr:
    """A hash of (hand, name): one integer to join a line to its seat."""
    return pl.struct("h", "player").hash().alias("pkey")


def bind(x: Extracted, override: str | None = None) -> Resolved:
    """Describe each hand and bind every line naming a player to a seat."""
    words = ["variant", "fantasyland", "scoring", "royalties"]
    heads = x.heads.join(ruleset_names(x.heads, override), on=words, how="left")
    zones = [z for z in heads.get_column("zone").unique().to_list() if z is not None]
    hands = (
        heads.with_columns(played_at=utc(pl.col("local"), pl.col("zone"), zones))
        .join(x.tables.unique("h", keep="first").drop("n"), on="h", how="left")
        .join(x.matches.unique("h", keep="first").drop("n"), on="h", how="left")
    )
    seats = (
        x.seats.join(hands.select("h", "button_seat"), on="h", how="left")
        .with_columns(
            player_key(),
            skey=pl.col("h") * SEAT_KEY + pl.col("seat"),
            order=(pl.col("seat") - pl.col("button_seat").fill_null(0) - 1) % SEAT_KEY,
        )
        .with_columns(position=pl.col("order").rank("ordinal").over("h").cast(pl.Int64))
        .drop("order", "button_seat")
    )
    who = seats.unique("pkey", keep="first").select("pkey", "skey")
    bound = {
        name: frame.with_columns(player_key()).join(who, on="pkey", how="left")
        for name, frame in (("acts", x.acts), ("shows", x.shows), ("summaries", x.summaries))
    }
    unknown = pl.concat(
        [f.filter(pl.col("skey").is_null()).select("h", "n", "player") for f in bound.values()]
    )
    acts, shows, summaries = (f.filter(pl.col("skey").is_not_null()) for f in bound.values())
    acts = acts.with_columns(akey=pl.col("skey") * SEC_KEY + pl.col("sec"))
    mask = pl.col("card").replace_strict(MASKS, default=None, return_dtype=pl.UInt64).alias("mask")
    line, found = lookup(acts.select("n", "h", "skey", "sec", "akey"), "n", x.cards.get_column("n"))
    cards = pl.concat(
        [x.cards.filter(pl.Series(found)), line.drop("n")], how="horizontal"
    ).with_columns(mask)
    show_cards = pl.concat(
        [
            shows.select("h", "n", "skey", row=pl.lit(i, dtype=pl.Int8), card=pl.col(row)).explode(
                "card"
            )
            for i, row in ex.ROW_NAMES.items()
            if row != "discard"
        ]
    ).filter(pl.col("card").is_not_null())
    return Resolved(
        hands=hands,
        seats=seats,
        acts=_hidden_discards(acts, cards),
        cards=cards,
        shows=shows,
        show_cards=show_cards.with_columns(mask),
        summaries=summaries,
        unknown_players=unknown,
    )


def _hidden_discards(acts: pl.DataFrame, cards: pl.DataFrame) -> pl.DataFrame:
    """``hidden`` on every placement line: said, or what the deal leaves over when unsaid.

    A line that hides discards without a count (``ru``: ``сброс (закрыт)``)
    hid the cards dealt on that street that it neither placed nor showed.
    """
    unsaid = acts.filter((pl.col("kind") == ex.SETS_LINE) & pl.col("hidden").is_null())
    if unsaid.height == 0:
        return acts
    shown = cards.filter(pl.col("row") != ex.DEALT).group_by("n").agg(named=pl.len())
    dealt = (
        acts.filter(pl.col("kind") == ex.DEALT_LINE)
        .unique("akey", keep="first")
        .select("akey", dealt="count")
    )
    leftover = (
        unsaid.select("n", "akey")
        .join(shown, on="n", how="left")
        .join(dealt, on="akey", how="left")
        .select("n", left=(pl.col("dealt") - pl.col("named").fill_null(0)).clip(lower_bound=0))
    )
    return (
        acts.join(leftover, on="n", how="left")
        .with_columns(hidden=pl.coalesce("hidden", "left", pl.lit(0)).cast(pl.Int64))
        .drop("left")
    )
