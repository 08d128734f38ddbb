"""What the ``en`` and ``ru`` renderers share: the hero's view of the model, built column-wise.

A renderer turns the model tables into one text per hand. Both formats have
the same structure, so this module prepares it once:

* ``prepare`` joins the tables into three frames: ``hands`` (one row per
  hand, with its output order ``idx``), ``seats`` (one row per player, with
  ``is_hero``) and ``actions`` (one row per player per street, with the cards
  of each row joined into text and the discards split into the ones the hero
  may see and the ones that stay hidden);
* each renderer builds its lines as frames of ``idx``, ``key`` and
  ``text`` with polars string expressions;
* ``assemble`` sorts all lines by hand and ``key`` and joins each hand.

``line_key`` fixes the order of lines inside a hand: header, seats, the
Fantasyland section, streets 1, 2, ..., showdown, summary; inside a section,
players in order of action (position 1 first) and, per player, the dealt
line, a timeout line, the placement line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow as pa

#: Blocks of a hand, in text order; streets are ``STREET_BLOCK + street``.
HEADER_BLOCK, SEAT_BLOCK, FL_BLOCK, STREET_BLOCK = 0, 1, 2, 10
SHOWDOWN_BLOCK, SUMMARY_BLOCK = 900, 901
#: Line kinds inside one player's part of a section.
DEALT, TIMEOUT, SETS = 0, 1, 2

_ROW_ORDER = {"top": 0, "middle": 1, "bottom": 2, "discard": 3}
#: Keys per hand: ``line_key`` stays below this.
_KEYS = 10_000_000


@dataclass(frozen=True)
class HeroView:
    """The model tables joined for rendering from one player's point of view."""

    hands: pl.DataFrame
    seats: pl.DataFrame
    actions: pl.DataFrame


def as_frame(table: pa.Table | pl.DataFrame) -> pl.DataFrame:
    """A polars frame of an Arrow table (frames pass through)."""
    return table if isinstance(table, pl.DataFrame) else pl.from_arrow(table)


def line_key(block: pl.Expr | int, position: pl.Expr | int = 0, kind: pl.Expr | int = 0) -> pl.Expr:
    """The sort key of a line inside its hand (see the module docstring)."""

    def lit(v: pl.Expr | int) -> pl.Expr:
        return v if isinstance(v, pl.Expr) else pl.lit(v)

    return (
        lit(block).cast(pl.Int64) * 10_000 + lit(position).cast(pl.Int64) * 10 + lit(kind)
    ).alias("key")


def prepare(
    hands: pa.Table | pl.DataFrame,
    player_hands: pa.Table | pl.DataFrame,
    placements: pa.Table | pl.DataFrame,
    hero: str,
) -> HeroView:
    """Join the model tables for rendering from ``hero``'s point of view.

    Hands are keyed by their output order ``idx``; groups are found with
    single integer keys, which polars groups and joins fastest.
    """
    hands_df = as_frame(hands).with_row_index("idx").with_columns(pl.col("idx").cast(pl.Int64))
    order = hands_df.select("hand_id", "idx")
    seats = (
        as_frame(player_hands)
        .join(order, on="hand_id", how="inner")
        .join(hands_df.select("idx", "currency"), on="idx", how="left")
        .with_columns(is_hero=pl.col("player") == hero, skey=pl.col("idx") * 256 + pl.col("seat"))
        .sort("idx", "position", maintain_order=True)
    )
    people = seats.select("skey", "player", "position", "is_hero", "in_fantasyland")
    placed = (
        as_frame(placements)
        .join(order, on="hand_id", how="inner")
        .with_columns(skey=pl.col("idx") * 256 + pl.col("seat"))
        .join(people, on="skey", how="inner")
        .with_columns(
            row_order=pl.col("row").replace_strict(_ROW_ORDER, return_dtype=pl.Int64),
            akey=(pl.col("idx") * 128 + pl.col("street")) * 256 + pl.col("position"),
        )
        .sort("akey", "row_order", maintain_order=True)
    )
    actions = (
        placed.group_by("akey", maintain_order=True)
        .agg(
            pl.col(
                "idx", "street", "seat", "player", "position", "is_hero", "in_fantasyland"
            ).first(),
            pl.col("card"),
            discards=(pl.col("row_order") == _ROW_ORDER["discard"]).sum().cast(pl.Int64),
            dealt_count=pl.len().cast(pl.Int64),
            auto=pl.col("auto").max(),
        )
        .with_columns(dealt=pl.col("card").list.drop_nulls().list.join(" "))
        .drop("card")
    )
    by_row = (
        placed.filter(pl.col("card").is_not_null())
        .group_by(pl.col("akey") * 4 + pl.col("row_order"), maintain_order=True)
        .agg(pl.col("card"))
        .with_columns(pl.col("card").list.join(" "))
    )
    for row, number in _ROW_ORDER.items():
        cards = by_row.filter(pl.col("akey") % 4 == number).select(
            pl.col("akey") // 4, pl.col("card").alias(row)
        )
        actions = actions.join(cards, on="akey", how="left").with_columns(pl.col(row).fill_null(""))
    # The hero sees their own discards; anyone else's stay hidden (R2).
    hidden = ~pl.col("is_hero") | (pl.col("discard") == "")
    actions = actions.with_columns(
        shown_discards=pl.when(hidden).then(pl.lit("")).otherwise("discard"),
        hidden_discards=pl.when(hidden).then("discards").otherwise(0),
    )
    return HeroView(hands_df, seats, actions)


def assemble(view: HeroView, lines: Iterable[pl.DataFrame]) -> Iterator[str]:
    """Join each hand's lines in key order; yield the hands in input order."""
    frames = [f.select("idx", "key", pl.col("text").cast(pl.String)) for f in lines]
    joined = (
        pl.concat(frames)
        .sort(pl.col("idx") * _KEYS + pl.col("key"))
        .group_by("idx", maintain_order=True)
        .agg(pl.col("text"))
        .with_columns(pl.col("text").list.join("\n"))
    )
    yield from joined.get_column("text")


def plain_number(value: pl.Expr) -> pl.Expr:
    """A number with no needless decimals: ``150``, ``0.75``, ``-3``."""
    integral = value.round(0) == value
    return (
        pl.when(integral)
        .then(value.cast(pl.Int64).cast(pl.String))
        .otherwise(value.cast(pl.String))
    )


def money_number(value: pl.Expr, point: str = ".") -> pl.Expr:
    """A non-negative amount with two decimals (``15.00``), or more when cents do not hold it."""
    cents = (value * 100).round(0)
    digits = cents.cast(pl.Int64).cast(pl.String).str.zfill(3)
    fixed = pl.concat_str(digits.str.head(-2), pl.lit(point), digits.str.tail(2))
    exact = (cents / 100 - value).abs() < 1e-9
    return pl.when(exact).then(fixed).otherwise(value.cast(pl.String).str.replace(".", point))


def signed(value: pl.Expr, body: pl.Expr, minus: str = "-") -> pl.Expr:
    """``+body`` for zero and up, ``<minus>body`` below zero (``body`` formats the magnitude)."""
    return pl.concat_str(pl.when(value < 0).then(pl.lit(minus)).otherwise(pl.lit("+")), body)


def optional(condition: pl.Expr, text: pl.Expr) -> pl.Expr:
    """``text`` where ``condition`` holds, else the empty string (never null)."""
    return pl.when(condition.fill_null(False)).then(text).otherwise(pl.lit(""))


def local_time(played_at: pl.Expr, zone: str, fmt: str) -> pl.Expr:
    """A UTC timestamp written as local time in ``zone`` (an IANA name or ``+03:00``)."""
    return played_at.dt.convert_time_zone(zone).dt.strftime(fmt)


def write_hands(
    path: str | Path,
    texts: Iterable[str],
    *,
    encoding: str = "utf-8",
    newline: str = "\n",
    bom: bool = False,
    errors: str = "strict",
) -> int:
    """Write hand texts to a file, one blank line between hands; return how many were written.

    ``encoding="cp1251"`` with ``errors="replace"`` writes characters the code
    page lacks (a name in another script) as ``?``, as the desktop clients do.
    """
    count = 0
    with open(path, "w", encoding=encoding, newline=newline, errors=errors) as out:
        if bom:
            out.write("\ufeff")
        for text in texts:
            out.write(("\n\n" if count else "") + text)
            count += 1
        if count:
            out.write("\n")
    return count
