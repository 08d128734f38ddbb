"""What a format parser extracts from a chunk, in format-neutral frames, and shared helpers.

``parsers.formats.en`` and ``parsers.formats.ru`` read different words into the same
``Extracted`` frames; ``parsers.resolve`` binds them to seats,
``parsers.validate`` checks them and ``parsers.model`` builds the hand model
from them. Every frame has ``n`` (the line it came from) and, except
``cards``, ``h`` (the hand within the chunk); cards are canonical (``Ah``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import polars as pl

from parsers.segment import HEAD, UNKNOWN, Segmented

CARD = r"[2-9TJQKA][shdc]"
#: A space-separated list of canonical cards (possibly empty).
CARD_LIST = rf"(?:{CARD}(?: {CARD})*)?"
EXCERPT_CHARS = 200
MINUS_SIGNS = ["\u2212", "\u2013"]
#: ``cards.row`` codes: the three rows, a discard, a card dealt to the hero.
TOP, MIDDLE, BOTTOM, DISCARD, DEALT = range(5)
ROW_NAMES = {TOP: "top", MIDDLE: "middle", BOTTOM: "bottom", DISCARD: "discard"}
#: ``acts.kind`` codes.
DEALT_LINE, TIMEOUT_LINE, SETS_LINE = range(3)


@dataclass(frozen=True)
class Extracted:
    """The facts of a chunk's hands.

    * ``hands``: ``h``, ``n``, ``line`` (header line), ``last`` for every hand;
      ``strays``: runs of lines outside hands (``n``, ``count``, ``line``);
    * ``heads``: ``room_hand_id``, ``variant``, ``fantasyland`` (a
      ``header_words.FL_KINDS`` word), ``scoring``, ``royalties``, ``local``
      (naive clock time), ``zone`` (a zone name; null when unknown);
    * ``tables``: ``table_name``, ``max_players``, ``point_value``,
      ``currency``, ``button_seat``; ``matches``: ``match_id``,
      ``match_hand``, ``match_hands``, ``continuation``;
    * ``seats``: ``seat``, ``player``, ``stack``, ``fl_cards`` (0: not in FL);
    * ``sections``: ``sec`` (``parsers.segment`` codes);
    * ``acts``: the lines of the Fantasyland section and the streets:
      ``sec``, ``player``, ``kind`` (``DEALT_LINE``, ``TIMEOUT_LINE``,
      ``SETS_LINE``), ``count`` (cards dealt), ``shown`` (the dealt cards are
      listed: the hero), ``hidden`` (discards a placement line hides; null
      when it hides some without a count);
    * ``cards``: one row per card named on an act line: ``n``, ``row``
      (``TOP`` .. ``DISCARD``, or ``DEALT`` for the hero's dealt cards), ``card``;
    * ``shows``: ``player``, ``top``, ``middle``, ``bottom`` (lists), ``fouled``;
    * ``summaries``: ``player``, ``points``, ``royalties``, ``foul``,
      ``fl_next``, ``fl_cards``, ``fl_stay``, ``money``;
    * ``errors``: ``reason``, ``excerpt``: lines that could not be read;
    * ``refused``: hands over the size limits or with bytes that did not decode
      (``h``, ``n``, ``reason``; ``parsers.segment``), rejected before anything else.
    """

    hands: pl.DataFrame
    strays: pl.DataFrame
    heads: pl.DataFrame
    tables: pl.DataFrame
    matches: pl.DataFrame
    seats: pl.DataFrame
    sections: pl.DataFrame
    acts: pl.DataFrame
    cards: pl.DataFrame
    shows: pl.DataFrame
    summaries: pl.DataFrame
    errors: pl.DataFrame
    refused: pl.DataFrame


#: Reads lines of one kind: the frame of what they say, and errors for those it cannot read.
Reader = Callable[[pl.DataFrame], tuple[pl.DataFrame, pl.DataFrame]]


@dataclass(frozen=True)
class Body:
    """What a format reads from the lines below the head, to concatenate into ``Extracted``."""

    acts: list[pl.DataFrame]
    cards: list[pl.DataFrame]
    shows: pl.DataFrame
    summaries: pl.DataFrame
    errors: list[pl.DataFrame]


def read_hands(
    seg: Segmented,
    section_prefix: str,
    head_readers: dict[str, Reader],
    head_unknown: str,
    read_body: Callable[[pl.DataFrame], Body],
) -> Extracted:
    """Read a chunk's hands: the head with ``head_readers`` (see ``head_zone``), the rest with ``read_body``.

    Section lines are cut out first (their codes are the segment's); errors
    come in line-kind order: unknown sections, the head's, the body's.
    """
    kind = (
        pl.when(pl.col("sec") == HEAD)
        .then(0)
        .when(pl.col("line").str.starts_with(section_prefix))
        .then(1)
        .otherwise(2)
    )
    parts = seg.lines.with_columns(kind=kind).partition_by("kind", as_dict=True, include_key=False)
    empty = seg.lines.clear()
    head, sections, rest = (parts.get((k,), empty) for k in range(3))
    (heads, tables, matches, seats), head_errors = head_zone(head, head_readers, head_unknown)
    body = read_body(rest)
    unknown = errors(sections.filter(pl.col("sec") == UNKNOWN), "unknown section line")
    return Extracted(
        hands=seg.hands,
        strays=seg.strays,
        heads=heads,
        tables=tables,
        matches=matches,
        seats=seats,
        sections=sections.select("h", "n", "sec"),
        acts=pl.concat(body.acts),
        cards=pl.concat(body.cards),
        shows=body.shows,
        summaries=body.summaries,
        errors=pl.concat([unknown, head_errors, *body.errors]),
        refused=seg.refused,
    )


def head_zone(
    head: pl.DataFrame, readers: dict[str, Reader], unknown: str
) -> tuple[list[pl.DataFrame], pl.DataFrame]:
    """The lines before the first section, each read by the reader of the prefix it starts with.

    Returns what each reader read, in ``readers`` order, and the errors:
    first the lines no prefix starts (``unknown``), then each reader's.
    """
    starts = pl.col("line").str.starts_with
    known = pl.any_horizontal(starts(prefix) for prefix in readers)
    errs = [errors(head.filter(~known), unknown)]
    frames = []
    for prefix, read in readers.items():
        frame, e = read(head.filter(starts(prefix)))
        frames.append(frame)
        errs.append(e)
    return frames, pl.concat(errs)


ERRORS_SCHEMA = {"h": pl.Int64, "n": pl.Int64, "reason": pl.String, "excerpt": pl.String}
ACTS_SCHEMA = {
    "h": pl.Int64,
    "n": pl.Int64,
    "sec": pl.Int16,
    "player": pl.String,
    "kind": pl.Int8,
    "count": pl.Int64,
    "shown": pl.Boolean,
    "hidden": pl.Int64,
}


def errors(frame: pl.DataFrame, reason: str | pl.Expr) -> pl.DataFrame:
    """Error rows (``h``, ``n``, ``reason``, ``excerpt``) for the lines of ``frame``."""
    reason = pl.lit(reason) if isinstance(reason, str) else reason
    return frame.select(
        pl.col("h").cast(pl.Int64),
        pl.col("n").cast(pl.Int64),
        reason.cast(pl.String).alias("reason"),
        pl.col("line").str.slice(0, EXCERPT_CHARS).alias("excerpt"),
    )


def acts(frame: pl.DataFrame, kind: int, **columns: pl.Expr) -> pl.DataFrame:
    """``frame``'s lines as ``acts`` rows of one kind (absent columns null)."""
    exprs = {
        name: columns.get(name, pl.lit(None)).cast(dtype)
        for name, dtype in ACTS_SCHEMA.items()
        if name not in ("h", "n", "sec", "kind")
    }
    return frame.select(
        pl.col("h").cast(pl.Int64),
        pl.col("n").cast(pl.Int64),
        pl.col("sec").cast(pl.Int16),
        kind=pl.lit(kind, dtype=pl.Int8),
        **exprs,
    ).select(list(ACTS_SCHEMA))


def dealt_acts(shown: pl.DataFrame, hidden: pl.DataFrame, hidden_player: pl.Expr) -> pl.DataFrame:
    """Dealt ``acts``: lines that list the ``cards`` (the hero's) and lines whose ``tail`` counts them."""
    return pl.concat(
        [
            acts(
                shown,
                DEALT_LINE,
                player=pl.col("player"),
                count=pl.col("cards").str.count_matches(" ", literal=True).cast(pl.Int64) + 1,
                shown=pl.lit(True),
            ),
            acts(
                hidden,
                DEALT_LINE,
                player=hidden_player,
                count=pl.col("tail").str.extract(r"(\d+)", 1).cast(pl.Int64, strict=False),
                shown=pl.lit(False),
            ),
        ]
    )


def summary_fields(
    number: Callable[[pl.Expr], pl.Expr], currency: Callable[[pl.Expr], pl.Expr]
) -> dict[str, pl.Expr]:
    """The figures of a summary line, from the named groups of the format's ``SUMMARY_LINE``.

    Every format names them alike: ``points``, ``royalty``, ``fouled``,
    ``enters`` (Fantasyland) and its ``enter_cards``, ``stays`` (in
    Fantasyland), ``money`` and ``money_currency``; ``number`` reads the
    format's numbers, ``currency`` the ISO code of its currency words (null
    for a word that is none).
    """
    return {
        "points": number(pl.col("points")),
        "royalties": number(pl.col("royalty")),
        "foul": pl.col("fouled").is_not_null(),
        "fl_next": pl.col("enters").is_not_null() | pl.col("stays").is_not_null(),
        "fl_cards": pl.col("enter_cards").cast(pl.Int64, strict=False),
        "fl_stay": pl.col("stays").is_not_null(),
        "money": number(pl.col("money")),
        "money_currency": currency(pl.col("money_currency")),
    }


def rule_words(
    variants: Mapping[str, str], fantasyland: Mapping[str, str], royalties: Mapping[str, str]
) -> dict[str, pl.Expr]:
    """A header's rule words (the named groups ``variant``, ``fl``, ``scoring``,
    ``royalty_table``) in format-neutral words (``parsers.header_words.HeaderWords``),
    through the format's maps of words to values."""
    return {
        "variant": pl.col("variant").replace_strict(variants),
        "fantasyland": pl.col("fl").replace_strict(fantasyland, default="default"),
        "scoring": pl.col("scoring"),
        "royalties": pl.col("royalty_table").replace_strict(royalties),
    }


def match_fields() -> dict[str, pl.Expr]:
    """A match line's fields from its named groups ``match_hand``, ``match_hands`` and
    ``continuation``."""
    return {
        "match_hand": pl.col("match_hand").cast(pl.Int64, strict=False),
        "match_hands": pl.col("match_hands").cast(pl.Int64, strict=False),
        "continuation": pl.col("continuation").is_not_null(),
    }


def match_groups(
    frame: pl.DataFrame, pattern: str, column: str = "line"
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``frame`` with a column per named group of ``pattern``: rows that match, and not.

    The first group must take part in every match: null there means no match.

    >>> ok, bad = match_groups(pl.DataFrame({"line": ["a1", "b"]}), r"^a(?P<digit>\\d)$")
    >>> ok.rows(), bad.rows()
    ([('a1', '1')], [('b', None)])
    """
    groups = pl.col(column).str.extract_groups(pattern)
    names = pl.select(pl.lit("").str.extract_groups(pattern)).to_series().struct.fields
    out = frame.with_columns(groups.alias("_g")).unnest("_g")
    matched = pl.col(names[0]).is_not_null()
    return out.filter(matched), out.filter(~matched)


def split_name(frame: pl.DataFrame, column: str = "line") -> pl.DataFrame:
    """``player`` and ``rest`` of ``<name>: <rest>`` lines (names never hold ``": "``).

    Lines with no ``": "`` get null in both.
    """
    return split_at(frame, column, ": ", "player", "rest").with_columns(
        player=pl.when(pl.col("rest").is_not_null()).then("player")
    )


def split_at(
    frame: pl.DataFrame, column: str | pl.Expr, separator: str, before: str, after: str
) -> pl.DataFrame:
    """``frame`` with what comes before and after the first ``separator`` (after: null when absent)."""
    text = pl.col(column) if isinstance(column, str) else column
    return (
        frame.with_columns(text.str.splitn(separator, 2).alias("_split"))
        .with_columns(
            pl.col("_split").struct.field("field_0").alias(before),
            pl.col("_split").struct.field("field_1").alias(after),
        )
        .drop("_split")
    )


def drop_tail(text: pl.Expr, tail: pl.Expr) -> pl.Expr:
    """``text`` without its last ``len(tail)`` characters."""
    return text.str.head(-tail.str.len_chars().cast(pl.Int64))


def conform(
    frame: pl.DataFrame, column: str, shape: str, spellings: dict[str, str]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Rows whose ``column`` has ``shape`` once card spellings are canonical, and the others.

    Only the rows not already in shape are rewritten (``spellings``: the
    format's other ways to write ranks and suits).
    """
    ok = frame.get_column(column).str.contains(shape).fill_null(False)
    if ok.all():
        return frame, frame.clear()
    good, bad = frame.filter(ok), frame.filter(~ok)
    bad = bad.with_columns(pl.col(column).str.replace_many(spellings))
    fixed = bad.get_column(column).str.contains(shape).fill_null(False)
    return pl.concat([good, bad.filter(fixed)]), bad.filter(~fixed)


def unknown_cards(
    frame: pl.DataFrame, cards: pl.Expr, what: pl.Expr | str, spellings: dict[str, str]
) -> pl.DataFrame:
    """Per line of ``frame``: the first token of ``cards`` (space-separated, ``spellings``
    made canonical) that is no card, as the line writes it.

    Returns ``h``, ``n``, ``line``, ``token``, ``what`` for the lines that have one.
    """
    what = pl.lit(what) if isinstance(what, str) else what
    unknown = (
        frame.select("h", "n", "line", what=what, token=cards.str.split(" "))
        .explode("token")
        .filter(pl.col("token").is_not_null() & ~pl.col("token").str.contains(f"^{CARD}$"))
        .unique("n", keep="first", maintain_order=True)
    )
    return unknown.with_columns(token=pl.coalesce(_as_written(unknown, spellings), "token"))


def _as_written(unknown: pl.DataFrame, spellings: dict[str, str]) -> pl.Series:
    """Each ``token`` of ``unknown`` as its ``line`` writes it: the first word of the line
    that ``spellings`` make that token (null when none does)."""
    words = (
        unknown.select("n", word=pl.col("line").str.split(" "))
        .explode("word")
        .with_columns(token=pl.col("word").str.replace_many(spellings))
        .unique(["n", "token"], keep="first", maintain_order=True)
    )
    found = unknown.select("n", "token").join(
        words, on=["n", "token"], how="left", maintain_order="left"
    )
    return found.get_column("word")


def card_errors(
    bad: pl.DataFrame,
    cards: pl.Expr,
    what: pl.Expr | str,
    otherwise: pl.Expr | str,
    spellings: dict[str, str],
) -> pl.DataFrame:
    """Errors for lines out of shape: the first unknown card they name (as the line writes
    it, in the format's ``spellings``), else ``otherwise``."""
    if bad.height == 0:
        return no_errors()
    unknown = unknown_cards(bad, cards, what, spellings)
    named = errors(
        unknown,
        pl.format(
            "unknown card '{}' in {} (a card is a rank 2-9, T/10, J, Q, K, A and a suit)",
            "token",
            "what",
        ),
    )
    rest = bad.join(unknown.select("n"), on="n", how="anti")
    return pl.concat([named, errors(rest, otherwise)])


def bound_errors(frame: pl.DataFrame, problem: pl.Expr) -> pl.DataFrame:
    """Errors for the lines of ``frame`` whose ``problem`` (``parsers.bounds``) is not null."""
    found = frame.with_columns(_problem=problem).filter(pl.col("_problem").is_not_null())
    return errors(found, pl.col("_problem"))


def no_errors() -> pl.DataFrame:
    return pl.DataFrame(schema=ERRORS_SCHEMA)


def explode_cards(frame: pl.DataFrame, cards: str, row: pl.Expr) -> pl.DataFrame:
    """``cards`` rows (``n``, ``row``, ``card``) for the space-separated lists in column ``cards``."""
    return (
        frame.select(
            pl.col("n").cast(pl.Int64),
            row.cast(pl.Int8).alias("row"),
            card=pl.col(cards).str.split(" "),
        )
        .explode("card")
        .filter(pl.col("card").str.len_bytes() > 0)
    )


def card_lists(text: pl.Expr) -> pl.Expr:
    """A space-separated card list as a list (the empty string: an empty list)."""
    return (
        pl.when(text.str.len_bytes() > 0)
        .then(text.str.split(" "))
        .otherwise(pl.lit([], pl.List(pl.String)))
    )


def iso_currency(word: pl.Expr) -> pl.Expr:
    """``word`` if it is an ISO currency code (three capital letters), else null."""
    return pl.when(word.str.contains(r"^[A-Z]{3}$")).then(word)


def en_number(text: pl.Expr) -> pl.Expr:
    """A signed decimal with ``.`` (``-21``, ``+15.00``, ``−3``) as a float; null if unreadable."""
    return text.str.replace_many(MINUS_SIGNS, ["-", "-"]).cast(pl.Float64, strict=False)


def ru_number(text: pl.Expr) -> pl.Expr:
    """A Russian decimal (``−1 250,50``: comma, spaces between thousands) as a float."""
    cleaned = text.str.replace_many(
        [*MINUS_SIGNS, " ", "\u00a0", "\u202f", ","], ["-", "-", "", "", "", "."]
    )
    return cleaned.cast(pl.Float64, strict=False)
