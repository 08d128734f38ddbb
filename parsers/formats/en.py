"""Read the room text format ``en`` (``/work/shared/formats/ofc-text-en.md``), column-wise.

``extract`` takes a chunk's lines and returns the format-neutral
``Extracted`` frames. Nothing here runs Python per line, and the many lines
of the streets avoid capturing regular expressions: a placement line is
checked against the whole grammar of its line with one matching expression
(no captures: a fast automaton), then cut with literal splits; only the few
lines per hand whose shape is intricate (header, table, seats, summary) are
read with capture groups. A line out of shape is diagnosed apart, so the
reason names the unknown card or the part that could not be read.

Names may hold spaces, brackets, quotes and any Unicode but never ``": "``
(spec): a player line's name is everything before its first ``": "``; on a
seat or dealt line the name is everything up to the *last* bracketed group.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

import polars as pl

from parsers import bounds
from parsers import extract as ex
from parsers.extract import CARD_LIST
from parsers.formats.text_format import TextFormat
from parsers.segment import SHOWDOWN, SUMMARY, UNKNOWN, SectionWords, Segmented
from parsers.zones import en_zone

HEADER_PREFIX = "OFC Hand #"
TABLE_PREFIX, MATCH_PREFIX, SEAT_PREFIX = "Table '", "Match #", "Seat "
SECTION_PREFIX = "*** "
SECTIONS = SectionWords(SECTION_PREFIX, " ***", "STREET", "FANTASYLAND", "SHOWDOWN", "SUMMARY")
#: The room's hand number, read loosely (for rejects of hands whose header is broken).
ID_PATTERN = r"^OFC Hand #([^:\s]+)"
TIMEOUT = "timed out, cards set automatically"
#: The ``en`` spellings that are not canonical (R1: ``10`` for ``T``, suit symbols).
SPELLINGS = {
    **{f"10{s}": f"T{s}" for s in "shdc"},
    **{f"10{s}": f"T{t}" for s, t in zip("♠♥♦♣", "shdc", strict=True)},
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
}
VARIANTS = {
    "Classic": "classic",
    "Pineapple": "pineapple",
    "Turbo": "turbo",
    "Pineapple 2-7": "pineapple-27",
}
FANTASYLAND = {"FL 13": "13", "FL 14": "14", "Progressive FL": "progressive", "No FL": "none"}
ROYALTIES = {"American": "american", "Russian": "russian", "Stars-2013": "stars-2013"}

_NUM = r"[+\-\u2212]?\d+(?:\.\d+)?"
#: The rule words of a header: variant, Fantasyland kind, scoring, royalties.
HEADER_WORDS = (
    r"(?P<variant>Classic|Pineapple 2-7|Pineapple|Turbo)"
    r"(?: \[(?P<fl>FL 13|FL 14|Progressive FL|No FL)\])? (?P<scoring>1-6|2-4)"
    r" (?P<royalty_table>American|Russian|Stars-2013)"
)
CLOCK = "%Y/%m/%d %H:%M:%S"
HEADER = (
    rf"^OFC Hand #(?P<room_id>[^:\s]+): {HEADER_WORDS}"
    r" - (?P<clock>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) (?P<label>\S+)$"
)
_STAKE = r"(?:(?P<play_money>play money)|(?P<point_value>\d+(?:\.\d+)?) (?P<currency>[A-Z]{3}) per point)"
TABLE_TAIL = rf"' \d+-max, {_STAKE}, Seat #\d+ is the button$"
TABLE_FIELDS = rf"^' (?P<max_players>\d+)-max, {_STAKE}, Seat #(?P<button>\d+) is the button$"
#: A match line after ``Match #<id>, ``.
MATCH_TAIL = (
    r"(?:hand (?P<match_hand>\d+) of (?P<match_hands>\d+)"
    r"|(?P<continuation>Fantasyland continuation))$"
)
MATCH = rf"^Match #(?P<match>[^,]+), {MATCH_TAIL}"
SEAT_TAIL = rf" \({_NUM} points\)(?: \[Fantasyland, \d+ cards\])?$"
SEAT_FIELDS = rf"^ \((?P<stack>{_NUM}) points\)(?: \[Fantasyland, (?P<fl_cards>\d+) cards\])?$"
SUMMARY_LINE = (
    rf"^(?P<points>{_NUM}) points(?: \(royalties (?P<royalty>{_NUM})\))?(?P<fouled>, fouled)?"
    r"(?P<enters>, enters Fantasyland(?: \((?P<enter_cards>\d+) cards\))?)?"
    r"(?P<stays>, stays in Fantasyland)?"
    rf"(?: = (?P<money>{_NUM}) (?P<money_currency>\S+))?$"
)
_ROW = {r: rf"{r} \[{CARD_LIST}\]" for r in ("top", "middle", "bottom")}
_ROWS = "|".join(
    ", ".join(_ROW[r] for r in order) for k in (1, 2, 3) for order in permutations(_ROW, k)
)
#: A whole placement line after ``<name>: ``: rows in any order, each once, then discards.
SETS_SHAPE = rf"^sets (?:{_ROWS})(?:; discards (?:\[{CARD_LIST}\]|\d+ cards?))?$"
_TEXT = r"\([^\[\]]*\)"
SHOWS_SHAPE = (
    rf"^shows top \[{CARD_LIST}\] {_TEXT}, middle \[{CARD_LIST}\] {_TEXT},"
    rf" bottom \[{CARD_LIST}\] {_TEXT}(?: - fouled)?$"
)
_ROW_OFFSET = {"t": ("top [", ex.TOP), "m": ("middle [", ex.MIDDLE), "b": ("bottom [", ex.BOTTOM)}


def extract(seg: Segmented) -> ex.Extracted:
    """Read every line of the chunk's hands into ``Extracted`` frames."""
    return ex.read_hands(
        seg,
        SECTION_PREFIX,
        {HEADER_PREFIX: _heads, TABLE_PREFIX: _tables, MATCH_PREFIX: _matches, SEAT_PREFIX: _seats},
        "line not understood before the first *** section ***",
        _body,
    )


def _body(lines: pl.DataFrame) -> ex.Body:
    """The dealt and player lines of the sections."""
    is_dealt = pl.col("line").str.starts_with("Dealt to ")
    dealt, dealt_cards, not_dealt, e = _dealt(lines.filter(is_dealt))
    errors = [e]
    players = ex.split_name(pl.concat([lines.filter(~is_dealt), not_dealt]))
    errors.append(ex.errors(players.filter(pl.col("player").is_null()), "line not understood"))
    players = players.filter(pl.col("player").is_not_null() & (pl.col("sec") != UNKNOWN))
    playing = players.filter(pl.col("sec") < SHOWDOWN)
    is_sets = pl.col("rest").str.starts_with("sets ")
    is_timeout = pl.col("rest") == TIMEOUT
    errors.append(
        ex.errors(
            playing.filter(~is_sets & ~is_timeout),
            "expected '<name>: sets ...' or '<name>: timed out, ...' in a street",
        )
    )
    sets, placed, e = _sets(playing.filter(is_sets))
    errors.append(e)
    timeouts = ex.acts(playing.filter(is_timeout), ex.TIMEOUT_LINE, player=pl.col("player"))
    shows, e = _shows(players.filter(pl.col("sec") == SHOWDOWN))
    errors.append(e)
    summaries, e = _summaries(players.filter(pl.col("sec") == SUMMARY))
    errors.append(e)
    return ex.Body([dealt, timeouts, sets], [dealt_cards, placed], shows, summaries, errors)


def _heads(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, HEADER)
    heads = ok.select(
        "h",
        "n",
        room_hand_id=pl.col("room_id"),
        **rule_words(),
        local=local_time(pl.col("clock")),
        zone=zone(ok.get_column("label")),
    )
    unread = ex.errors(
        bad,
        "cannot read the hand header (expected 'OFC Hand #<id>: <variant> [<fl>] <scoring>"
        " <royalties> - <YYYY/MM/DD HH:MM:SS> <tz>')",
    )
    return heads, pl.concat([unread, ex.bound_errors(ok, clock_problem(pl.col("clock")))])


#: Where the parts of ``CLOCK`` start.
CLOCK_PARTS = {"year": 0, "month": 5, "day": 8, "hour": 11, "minute": 14, "second": 17}


def clock_problem(clock: pl.Expr) -> pl.Expr:
    """Why a ``YYYY/MM/DD HH:MM:SS`` clock is no time to store (``parsers.bounds``), or null."""
    return bounds.clock_text_problem(clock, CLOCK_PARTS)


def rule_words() -> dict[str, pl.Expr]:
    """The header's rule words (groups of ``HEADER_WORDS``) in format-neutral words
    (``parsers.header_words.HeaderWords``)."""
    return ex.rule_words(VARIANTS, FANTASYLAND, ROYALTIES)


def local_time(clock: pl.Expr) -> pl.Expr:
    """``YYYY/MM/DD HH:MM:SS`` as a naive time; null when no such date."""
    return clock.str.strptime(pl.Datetime("us"), CLOCK, strict=False)


def zone(labels: pl.Series) -> pl.Series:
    """The zone each clock label stands for (``parsers.zones.en_zone``; null when unknown)."""
    zones = {label: en_zone(label) for label in labels.unique().to_list()}
    return labels.replace_strict(zones, return_dtype=pl.String)


def _tables(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``Table '<name>' <n>-max, <stake>, Seat #<k> is the button``; the name may hold quotes.

    The fixed tail is matched from the end (fast); the name is what precedes it.
    """
    frame = lines.with_columns(tail=pl.col("line").str.extract(TABLE_TAIL, 0))
    ok, bad = ex.match_groups(
        frame.filter(pl.col("tail").is_not_null()), TABLE_FIELDS, column="tail"
    )
    tables = ok.select(
        "h",
        "n",
        table_name=ex.drop_tail(pl.col("line").str.slice(len("Table '")), pl.col("tail")),
        **table_fields(),
    )
    unread = pl.concat([frame.filter(pl.col("tail").is_null()), bad], how="diagonal_relaxed")
    errors = ex.errors(
        unread,
        "cannot read the table line (expected \"Table '<name>' <n>-max, <stake>, Seat #<k> is"
        ' the button")',
    )
    return tables, pl.concat([errors, ex.bound_errors(ok, table_problem())])


def table_problem() -> pl.Expr:
    """A table line's number out of its bound (``parsers.bounds``), from ``TABLE_FIELDS``' groups."""
    return bounds.of_groups(
        (bounds.MAX_PLAYERS, "max_players", bounds.integer),
        (bounds.POINT_VALUE, "point_value", ex.en_number),
        (bounds.BUTTON_SEAT, "button", bounds.integer),
    )


def table_fields() -> dict[str, pl.Expr]:
    """The fields of a table line's tail, from the groups of ``TABLE_FIELDS``."""
    return {
        "max_players": pl.col("max_players").cast(pl.Int64, strict=False),
        "point_value": pl.col("point_value").cast(pl.Float64, strict=False),
        "currency": pl.col("currency"),
        "button_seat": pl.col("button").cast(pl.Int64, strict=False),
    }


def _matches(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, MATCH)
    matches = ok.select("h", "n", match_id=pl.col("match"), **match_fields())
    errors = ex.errors(bad, "cannot read the match line (expected 'Match #<id>, hand <i> of <m>')")
    return matches, pl.concat([errors, ex.bound_errors(ok, match_problem())])


def match_problem() -> pl.Expr:
    """A match line's number out of its bound, from ``MATCH_TAIL``'s groups."""
    return bounds.of_groups(
        (bounds.MATCH_HAND, "match_hand", bounds.integer),
        (bounds.MATCH_HANDS, "match_hands", bounds.integer),
    )


def match_fields() -> dict[str, pl.Expr]:
    """The fields of ``MATCH_TAIL``'s groups."""
    return ex.match_fields()


def _seats(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``Seat <k>: <name> (<stack> points)[ [Fantasyland, <c> cards]]``, the tail read from the end."""
    frame = ex.split_name(lines).with_columns(tail=pl.col("rest").str.extract(SEAT_TAIL, 0))
    frame = frame.with_columns(
        seat=pl.col("player").str.strip_prefix("Seat ").cast(pl.Int64, strict=False)
    )
    good = (
        pl.col("tail").is_not_null()
        & pl.col("seat").is_not_null()
        & pl.col("player").str.starts_with("Seat ")
    )
    ok, bad = ex.match_groups(frame.filter(good), SEAT_FIELDS, column="tail")
    seats = ok.select(
        "h",
        "n",
        "seat",
        player=ex.drop_tail(pl.col("rest"), pl.col("tail")),
        **seat_fields(),
    )
    unread = pl.concat([frame.filter(~good.fill_null(False)), bad], how="diagonal_relaxed")
    errors = ex.errors(
        unread, "cannot read the seat line (expected 'Seat <k>: <name> (<stack> points)')"
    )
    return seats, pl.concat([errors, ex.bound_errors(ok, seat_problem(ex.en_number))])


def seat_problem(number: Callable[[pl.Expr], pl.Expr] = ex.en_number) -> pl.Expr:
    """A seat line's number out of its bound, from the groups of ``SEAT_FIELDS``."""
    return bounds.of_groups(
        (bounds.STACK, "stack", number), (bounds.FANTASYLAND_CARDS, "fl_cards", bounds.integer)
    )


def seat_fields() -> dict[str, pl.Expr]:
    """The fields of a seat line's tail, from the groups of ``SEAT_FIELDS``."""
    return {
        "stack": ex.en_number(pl.col("stack")),
        "fl_cards": pl.col("fl_cards").cast(pl.Int64, strict=False).fill_null(0),
    }


def _dealt(lines: pl.DataFrame):
    """``Dealt to <name> [<cards>]`` (the hero) and ``Dealt to <name> (<c> cards)``.

    Returns the dealt ``acts``, the hero's dealt ``cards``, the lines that
    turned out not to be dealt lines (a player may be called ``Dealt to me``)
    and errors.
    """
    listed_line = pl.col("line").str.ends_with("]")
    frame = pl.concat(
        [
            lines.filter(listed_line).with_columns(
                tail=pl.col("line").str.extract(r" \[[^\[\]]*\]$", 0)
            ),
            lines.filter(~listed_line).with_columns(
                tail=pl.col("line").str.extract(r" \(\d+ cards?\)$", 0)
            ),
        ]
    )
    frame = frame.with_columns(
        player=ex.drop_tail(pl.col("line").str.slice(len("Dealt to ")), pl.col("tail"))
    )
    good = (
        pl.col("tail").is_not_null()
        & (pl.col("player").str.len_bytes() > 0)
        & ~pl.col("player").str.contains(": ", literal=True)
    )
    ok, others = frame.filter(good), frame.filter(~good).select(lines.columns)
    shown = pl.col("tail").str.ends_with("]")
    listed = ok.filter(shown).with_columns(cards=pl.col("tail").str.slice(2).str.head(-1))
    listed, bad = ex.conform(listed, "cards", f"^{CARD_LIST}$", SPELLINGS)
    counted = ok.filter(~shown)
    acts = ex.dealt_acts(listed, counted, pl.col("player"))
    cards = ex.explode_cards(listed, "cards", pl.lit(ex.DEALT))
    errors = ex.card_errors(
        bad, pl.col("cards"), "the dealt cards", "cannot read the dealt cards", SPELLINGS
    )
    return acts, cards, others, errors


def _sets(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``<name>: sets <row> [<cards>], ...[; discards [<cards>] | ; discards <c> card(s)]``.

    Lines in shape (``SETS_SHAPE``) are cut with literal splits; the others
    are diagnosed in ``_bad_sets``.
    """
    ok, bad = ex.conform(lines, "rest", SETS_SHAPE, SPELLINGS)
    ok = ex.split_at(ok, pl.col("rest").str.slice(len("sets ")), "; discards ", "rows", "discards")
    letter = pl.col("part").str.head(1)
    parts = (
        ok.select("n", part=pl.col("rows").str.split(", "))
        .explode("part")
        .with_columns(letter=letter)
        .with_columns(
            row=pl.col("letter").replace_strict(
                {k: v[1] for k, v in _ROW_OFFSET.items()}, return_dtype=pl.Int8
            ),
            cards=pl.col("part")
            .str.slice(
                pl.col("letter").replace_strict(
                    {k: len(v[0]) for k, v in _ROW_OFFSET.items()}, return_dtype=pl.Int64
                )
            )
            .str.head(-1),
        )
    )
    shown = ok.filter(pl.col("discards").str.starts_with("[")).with_columns(
        cards=pl.col("discards").str.slice(1).str.head(-1)
    )
    hidden = pl.col("discards").str.extract(r"^(\d+)", 1).cast(pl.Int64)
    sets = ex.acts(ok, ex.SETS_LINE, player=pl.col("player"), hidden=hidden.fill_null(0))
    cards = pl.concat(
        [
            ex.explode_cards(parts, "cards", pl.col("row")),
            ex.explode_cards(shown, "cards", pl.lit(ex.DISCARD)),
        ]
    )
    return sets, cards, _bad_sets(bad)


def _bad_sets(bad: pl.DataFrame) -> pl.DataFrame:
    """Why placement lines are out of shape: an unknown card, a row named twice, or else."""
    if bad.height == 0:
        return ex.no_errors()
    listed = (
        pl.col("rest")
        .str.extract_all(r"\[[^\[\]]*\]")
        .list.join(" ")
        .str.replace_all(r"[\[\]]", "")
    )
    twice = pl.any_horizontal(
        pl.col("rest").str.count_matches(f"{row} [", literal=True) > 1
        for row in ("top", "middle", "bottom")
    )
    return pl.concat(
        [
            ex.card_errors(
                bad.filter(~twice),
                listed,
                pl.format("{}'s placement", "player"),
                pl.format(
                    "cannot read {}'s placement (expected 'sets <row> [<cards>], ...' with rows top,"
                    " middle, bottom, then '; discards [<cards>]' or '; discards <c> card(s)')",
                    "player",
                ),
                SPELLINGS,
            ),
            ex.errors(
                bad.filter(twice), pl.format("{} names a row twice on one placement line", "player")
            ),
        ]
    )


def _shows(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``<name>: shows top [<3>] (<text>), middle [<5>] (<text>), bottom [<5>] (<text>)[ - fouled]``."""
    ok, bad = ex.conform(lines, "rest", SHOWS_SHAPE, SPELLINGS)
    ok = ok.with_columns(lists=pl.col("rest").str.extract_all(r"\[[^\[\]]*\]"))
    rows = {
        row: ex.card_lists(pl.col("lists").list.get(i).str.slice(1).str.head(-1))
        for i, row in enumerate(("top", "middle", "bottom"))
    }
    shows = ok.select("h", "n", "player", **rows, fouled=pl.col("rest").str.ends_with(" - fouled"))
    listed = (
        pl.col("rest")
        .str.extract_all(r"\[[^\[\]]*\]")
        .list.join(" ")
        .str.replace_all(r"[\[\]]", "")
    )
    errors = ex.card_errors(
        bad,
        listed,
        pl.format("{}'s showdown", "player"),
        "cannot read the showdown line (expected '<name>: shows top [..] (..), middle [..] (..),"
        " bottom [..] (..)')",
        SPELLINGS,
    )
    return shows, errors


def _summaries(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, SUMMARY_LINE, column="rest")
    summaries = ok.select("h", "n", "player", **summary_fields())
    errors = ex.errors(
        bad,
        "cannot read the summary line (expected '<name>: <+N|-N> points[ (royalties <r>)]"
        "[, fouled][, enters Fantasyland (<c> cards)][, stays in Fantasyland]"
        "[ = <+M|-M> <currency>]')",
    )
    return summaries, pl.concat([errors, ex.bound_errors(ok, summary_problem(ex.en_number))])


def summary_problem(number: Callable[[pl.Expr], pl.Expr] = ex.en_number) -> pl.Expr:
    """A summary line's number out of its bound, from the groups of ``SUMMARY_LINE``."""
    return bounds.of_groups(
        (bounds.POINTS, "points", number),
        (bounds.ROYALTIES, "royalty", number),
        (bounds.FANTASYLAND_CARDS, "enter_cards", bounds.integer),
        (bounds.MONEY, "money", number),
    )


def summary_fields() -> dict[str, pl.Expr]:
    """The figures of a summary line, from the groups of ``SUMMARY_LINE``."""
    return ex.summary_fields(ex.en_number, ex.iso_currency)


FORMAT = TextFormat(
    name="en",
    encodings=("utf-8",),
    header_prefix=HEADER_PREFIX,
    sections=SECTIONS,
    id_pattern=ID_PATTERN,
    timeout=TIMEOUT,
    clock=CLOCK,
    variants=VARIANTS,
    fantasyland=FANTASYLAND,
    royalties=ROYALTIES,
    spellings=SPELLINGS,
    extract=extract,
)
