"""Write hands in the room text format ``en`` (``/work/shared/formats/ofc-text-en.md``).

``render_hands`` yields one text per hand, written from the hero's point of
view: the hero's dealt cards and discards are shown, an opponent's dealt
cards and discards are not (``Dealt to Bob (3 cards)``, ``discards 1 card``),
and an opponent's Fantasyland hand appears only at showdown. Lines are built
column-wise (``pipeline.simulator.render.common``), so whole simulated datasets render
quickly.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import polars as pl
import pyarrow as pa

from ofc_core.cards import CARD_CODES
from ofc_core.categories import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    Category,
)
from parsers.formats.en import FORMAT
from parsers.header_words import preset_words
from parsers.zones import en_zone
from pipeline.rules.evaluate import (
    category3,
    category5,
    is_royal,
    leading_rank3,
    leading_rank5,
    strength3,
    strength5,
)
from pipeline.simulator.render import common as rc

SECTIONS = FORMAT.sections
#: The header's words, from the format's description (``parsers.formats.en.FORMAT``).
VARIANT_WORDS = FORMAT.words(FORMAT.variants)
FL_WORDS = {"default": ""} | {v: f"[{w}]" for v, w in FORMAT.words(FORMAT.fantasyland).items()}
ROYALTY_WORDS = FORMAT.words(FORMAT.royalties)

_PLURALS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens")
_PLURALS += ("Jacks", "Queens", "Kings", "Aces")
_CATEGORY_WORDS = {
    HIGH_CARD: "high card",
    TWO_PAIR: "two pair",
    TRIPS: "three of a kind",
    STRAIGHT: "a straight",
    FLUSH: "a flush",
    FULL_HOUSE: "a full house",
    QUADS: "four of a kind",
    STRAIGHT_FLUSH: "a straight flush",
}
#: Showdown text by ``category * 13 + leading rank``; index 9 * 13 is a royal flush.
_TEXTS = np.array(
    [
        f"a pair of {_PLURALS[r]}" if c == PAIR else _CATEGORY_WORDS[c]
        for c in Category
        for r in range(13)
    ]
    + ["a royal flush"]
)


def header_words(ruleset: str) -> str:
    """The words an ``en`` header uses for a preset.

    >>> header_words("pineapple-progressive-american")
    'Pineapple [Progressive FL] 1-6 American'
    >>> header_words("classic-stars-2013")
    'Classic [No FL] 1-6 Stars-2013'
    """
    w = preset_words(ruleset)
    parts = [
        VARIANT_WORDS[w.variant],
        FL_WORDS[w.fantasyland],
        w.scoring,
        ROYALTY_WORDS[w.royalties],
    ]
    return " ".join(p for p in parts if p)


def render_hands(
    hands: pa.Table | pl.DataFrame,
    player_hands: pa.Table | pl.DataFrame,
    placements: pa.Table | pl.DataFrame,
    hero: str,
    *,
    zone: str = "UTC",
) -> Iterator[str]:
    """Yield each hand's ``en`` text (lines joined by ``\\n``), from ``hero``'s point of view.

    ``zone`` is the clock label of the header: ``UTC``, ``ET``, ``CET`` or an
    offset such as ``+03:00`` (``parsers.zones``).
    """
    tz = en_zone(zone)
    if tz is None:
        raise ValueError(
            f"unknown en clock label {zone!r}: use UTC, ET, CET or an offset like +03:00"
        )
    view = rc.prepare(hands, player_hands, placements, hero)
    lines = [
        _header(view.hands, zone, tz),
        _seats(view.seats),
        *rc.fantasyland_lines(
            view,
            SECTIONS,
            pl.format("Dealt to {} ({} cards)", "player", "fantasyland_cards"),
            _actions,
        ),
        *rc.street_lines(view.actions.filter(pl.col("street") >= 1), SECTIONS, _actions),
        *_showdown(view.seats),
        *_summary(view.seats),
    ]
    return rc.assemble(view, lines)


def _header(hands: pl.DataFrame, zone: str, tz: str) -> pl.DataFrame:
    words = {name: header_words(name) for name in hands.get_column("ruleset").unique()}
    stake = (
        pl.when(pl.col("point_value").is_null())
        .then(pl.lit("play money"))
        .otherwise(
            pl.concat_str(
                rc.money_number(pl.col("point_value")),
                pl.lit(" "),
                "currency",
                pl.lit(" per point"),
            )
        )
    )
    head = pl.format(
        "OFC Hand #{}: {} - {} {}",
        "room_hand_id",
        pl.col("ruleset").replace_strict(words, return_dtype=pl.String),
        rc.local_time(pl.col("played_at"), tz, "%Y/%m/%d %H:%M:%S"),
        pl.lit(zone),
    )
    table = pl.format(
        "Table '{}' {}-max, {}, Seat #{} is the button",
        "table_name",
        "max_players",
        stake,
        "button_seat",
    )
    match = ("Match #{}, Fantasyland continuation", "Match #{}, hand {} of {}")
    return rc.header_lines(hands, head, table, match)


def _seats(seats: pl.DataFrame) -> pl.DataFrame:
    fl = rc.optional(
        pl.col("in_fantasyland"), pl.format(" [Fantasyland, {} cards]", "fantasyland_cards")
    )
    text = pl.format(
        "Seat {}: {} ({} points){}", "seat", "player", rc.plain_number(pl.col("starting_stack")), fl
    )
    return seats.select("idx", rc.line_key(rc.SEAT_BLOCK, pl.col("seat")), text=text)


def _actions(actions: pl.DataFrame, block: pl.Expr | int) -> list[pl.DataFrame]:
    """Dealt, timeout and ``sets`` lines of one section's player-streets."""
    dealt = pl.when(pl.col("is_hero")).then(pl.format("Dealt to {} [{}]", "player", "dealt"))
    dealt = dealt.otherwise(pl.format("Dealt to {} ({} cards)", "player", "dealt_count"))
    rows = (
        pl.concat_list(
            [
                pl.when(pl.col(row) != "").then(pl.format("{} [{}]", pl.lit(row), row))
                for row in ("top", "middle", "bottom")
            ]
        )
        .list.drop_nulls()
        .list.join(", ")
    )
    discards = (
        pl.when(pl.col("shown_discards") != "")
        .then(pl.format("; discards [{}]", "shown_discards"))
        .when(pl.col("hidden_discards") > 0)
        .then(
            pl.format(
                "; discards {} {}",
                "hidden_discards",
                pl.when(pl.col("hidden_discards") == 1)
                .then(pl.lit("card"))
                .otherwise(pl.lit("cards")),
            )
        )
        .otherwise(pl.lit(""))
    )
    return rc.action_lines(
        actions,
        block,
        dealt,
        pl.format(f"{{}}: {FORMAT.timeout}", "player"),
        pl.format("{}: sets {}{}", "player", rows, discards),
    )


def showdown_texts(seats: pl.DataFrame) -> pl.DataFrame:
    """``top_text``, ``middle_text``, ``bottom_text``: what each row holds, for people.

    Rows that are not complete sets of known cards read ``unknown``.
    """
    complete = (
        (pl.col("top").list.len() == 3)
        & (pl.col("middle").list.len() == 5)
        & (pl.col("bottom").list.len() == 5)
    )
    texts = {
        f"{row}_text": np.full(seats.height, "unknown", dtype=object)
        for row in ("top", "middle", "bottom")
    }
    ok_index = (
        seats.with_row_index("i").filter(complete.fill_null(False)).get_column("i").to_numpy()
    )
    if len(ok_index):
        ok = seats[ok_index]
        codes = {
            row: ok.get_column(row)
            .explode()
            .replace_strict(CARD_CODES, default=-1, return_dtype=pl.Int64)
            .to_numpy()
            .reshape(len(ok), size)
            for row, size in (("top", 3), ("middle", 5), ("bottom", 5))
        }
        known = np.all(np.hstack(list(codes.values())) >= 0, axis=1)
        top = strength3(np.where(codes["top"] >= 0, codes["top"], 0))
        texts["top_text"][ok_index] = np.where(
            known, _TEXTS[category3(top) * 13 + leading_rank3(top)], "unknown"
        )
        for row in ("middle", "bottom"):
            s = strength5(np.where(codes[row] >= 0, codes[row], 0))
            index = np.where(is_royal(s), 9 * 13, category5(s) * 13 + leading_rank5(s))
            texts[f"{row}_text"][ok_index] = np.where(known, _TEXTS[index], "unknown")
    return seats.with_columns(pl.Series(k, v, dtype=pl.String) for k, v in texts.items())


def _showdown(seats: pl.DataFrame) -> list[pl.DataFrame]:
    seats = showdown_texts(seats)
    cards = {row: pl.col(row).list.join(" ") for row in ("top", "middle", "bottom")}
    text = pl.format(
        "{}: shows top [{}] ({}), middle [{}] ({}), bottom [{}] ({}){}",
        "player",
        cards["top"],
        "top_text",
        cards["middle"],
        "middle_text",
        cards["bottom"],
        "bottom_text",
        rc.optional(pl.col("reported_foul"), pl.lit(" - fouled")),
    )
    return rc.closing_lines(seats, rc.SHOWDOWN_BLOCK, SECTIONS.line(SECTIONS.showdown), text)


def _summary(seats: pl.DataFrame) -> list[pl.DataFrame]:
    points = pl.col("reported_points")
    money = pl.col("reported_money")
    enters, stays = rc.fantasyland_next()
    cards = pl.col("reported_fantasyland_cards")
    text = pl.concat_str(
        "player",
        pl.lit(": "),
        rc.signed(points, rc.plain_number(points.abs())),
        pl.lit(" points"),
        rc.optional(
            pl.col("reported_royalties").is_not_null(),
            pl.format(" (royalties {})", rc.plain_number(pl.col("reported_royalties"))),
        ),
        rc.optional(pl.col("reported_foul"), pl.lit(", fouled")),
        rc.optional(enters & cards.is_null(), pl.lit(", enters Fantasyland")),
        rc.optional(
            enters & cards.is_not_null(), pl.format(", enters Fantasyland ({} cards)", cards)
        ),
        rc.optional(stays, pl.lit(", stays in Fantasyland")),
        rc.optional(
            money.is_not_null() & pl.col("currency").is_not_null(),
            pl.format(" = {} {}", rc.signed(money, rc.money_number(money.abs())), "currency"),
        ),
    )
    return rc.closing_lines(seats, rc.SUMMARY_BLOCK, SECTIONS.line(SECTIONS.summary), text)
