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

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow as pa

from parsers.segment import SectionWords

#: Blocks of a hand, in text order; streets are ``STREET_BLOCK + street``.
HEADER_BLOCK, SEAT_BLOCK, FL_BLOCK, STREET_BLOCK = 0, 1, 2, 10
SHOWDOWN_BLOCK, SUMMARY_BLOCK = 900, 901
#: Line kinds inside one player's part of a section.
DEALT, TIMEOUT, SETS = 0, 1, 2

_ROW_ORDER = {"top": 0, "middle": 1, "bottom": 2, "discard": 3}
#: Keys per hand: ``line_key`` stays below this.
_KEYS = 10_000_000
#: A format's dealt, timeout and placement lines of one section's player-streets.
ActionLines = Callable[[pl.DataFrame, pl.Expr | int], list[pl.DataFrame]]


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


def header_lines(
    hands: pl.DataFrame, head: pl.Expr, table: pl.Expr, match: tuple[str, str]
) -> pl.DataFrame:
    """The header and table line of every hand, and the match line of hands in a match.

    ``match``: the ``pl.format`` of a Fantasyland continuation (``match_id``)
    and of a match hand (``match_id``, ``match_hand``, ``match_hands``).
    """
    continuation, hand = match
    match_text = (
        pl.when(pl.col("fantasyland_continuation").fill_null(False))
        .then(pl.format(continuation, "match_id"))
        .otherwise(pl.format(hand, "match_id", "match_hand", "match_hands"))
    )
    return pl.concat(
        [
            hands.select("idx", line_key(HEADER_BLOCK, 0, 0), text=head),
            hands.select("idx", line_key(HEADER_BLOCK, 0, 1), text=table),
            hands.filter(pl.col("match_id").is_not_null()).select(
                "idx", line_key(HEADER_BLOCK, 0, 2), text=match_text
            ),
        ]
    )


def fantasyland_lines(
    view: HeroView, sections: SectionWords, dealt: pl.Expr, actions: ActionLines
) -> list[pl.DataFrame]:
    """The Fantasyland section: every FL player dealt (``dealt``), the hero's own hand set."""
    fl = view.seats.filter(pl.col("in_fantasyland"))
    hidden = fl.filter(~pl.col("is_hero")).select(
        "idx", line_key(FL_BLOCK, pl.col("position"), DEALT), text=dealt
    )
    own = view.actions.filter((pl.col("street") == 0) & pl.col("is_hero"))
    title = fl.select("idx").unique(maintain_order=True)
    return [
        title.select("idx", line_key(FL_BLOCK), text=pl.lit(sections.line(sections.fantasyland))),
        hidden,
        *actions(own, FL_BLOCK),
    ]


def street_lines(
    actions: pl.DataFrame, sections: SectionWords, lines: ActionLines
) -> list[pl.DataFrame]:
    """Each street's title line and its player lines."""
    titles = actions.select("idx", "street").unique(maintain_order=True)
    block = STREET_BLOCK + pl.col("street")
    return [
        titles.select("idx", line_key(block), text=pl.format(sections.street_format(), "street")),
        *lines(actions, block),
    ]


def action_lines(
    actions: pl.DataFrame, block: pl.Expr | int, dealt: pl.Expr, timeout: pl.Expr, sets: pl.Expr
) -> list[pl.DataFrame]:
    """Per player-street: the dealt line, the timeout line (when set automatically), the placement."""
    pos = pl.col("position")
    return [
        actions.select("idx", line_key(block, pos, DEALT), text=dealt),
        actions.filter(pl.col("auto")).select("idx", line_key(block, pos, TIMEOUT), text=timeout),
        actions.select("idx", line_key(block, pos, SETS), text=sets),
    ]


def closing_lines(seats: pl.DataFrame, block: int, title: str, text: pl.Expr) -> list[pl.DataFrame]:
    """A showdown or summary section: its title, then one line per player."""
    titles = seats.select("idx").unique(maintain_order=True)
    return [
        titles.select("idx", line_key(block), text=pl.lit(title)),
        seats.select("idx", line_key(block, pl.col("position"), 1), text=text),
    ]


def fantasyland_next() -> tuple[pl.Expr, pl.Expr]:
    """Whether the room says a player enters Fantasyland (not staying), and stays."""
    stays = pl.col("reported_fantasyland_stay").fill_null(False)
    return pl.col("reported_fantasyland_next").fill_null(False) & ~stays, stays


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
