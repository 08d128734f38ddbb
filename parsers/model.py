"""Building the hand model (``docs/schema.md``) from a chunk's checked facts, column-wise.

``build`` returns the four tables for one chunk: the hands that passed every
check in ``hands``, ``player_hands`` and ``placements``, and one ``rejects``
row per hand that did not (its first problem by line, extraction errors
first) and per run of stray lines. Hands read = stored + rejected, always.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
import pyarrow as pa

from parsers import extract as ex
from parsers.extract import EXCERPT_CHARS, Extracted
from parsers.groups import lookup
from parsers.limits import SKIPPED_PREFIX
from parsers.resolve import SEAT_KEY, SEC_KEY, Resolved
from parsers.schema import HANDS, PLACEMENTS, PLAYER_HANDS, REJECTS
from parsers.seen_ids import SeenIds


@dataclass(frozen=True)
class ChunkTables:
    """The model tables of one chunk, and the room ids it stored (for duplicate checks)."""

    hands: pa.Table
    player_hands: pa.Table
    placements: pa.Table
    rejects: pa.Table
    stored_ids: pl.DataFrame  # room_hand_id, n
    guessed: dict[str, int]  # ruleset -> stored hands whose header names no preset exactly

    @property
    def read(self) -> int:
        return self.hands.num_rows + self.rejects.num_rows


def build(
    x: Extracted,
    r: Resolved,
    violations: pl.DataFrame,
    lines: pl.DataFrame,
    *,
    source_file: str,
    source_format: str,
    id_pattern: str,
    seen: SeenIds | None = None,
) -> ChunkTables:
    """The model tables of a chunk; ``seen`` holds room ids stored by earlier chunks of the file."""
    ids = x.hands.select("h", "n", room_hand_id=pl.col("line").str.extract(id_pattern, 1))
    refused = x.refused.with_columns(rank=pl.lit(-2, dtype=pl.Int64))  # before all else
    found = pl.concat([violations, refused], how="diagonal_relaxed")
    # a repeated id is a problem only between copies that read cleanly: the whole copy
    # after a cut one (a room client that wrote the hand again) is the one stored
    clean = r.hands.join(_first_problems(x.errors, found, lines), on="h", how="anti")
    dupes = _duplicate_ids(clean, seen)
    problems = _first_problems(x.errors, pl.concat([found, dupes], how="diagonal_relaxed"), lines)
    good = x.hands.select("h").join(problems, on="h", how="anti")
    hands = r.hands.join(good, on="h", how="semi")
    hand_ids = hands.select("h", hand_id=pl.concat_str(pl.lit(f"{source_format}:"), "room_hand_id"))
    rejects = pl.concat(
        [
            problems.join(ids.drop("n"), on="h", how="left").select(
                source_file=pl.lit(source_file),
                source_line="n",
                room_hand_id="room_hand_id",
                reason="reason",
                excerpt="excerpt",
            ),
            x.strays.select(
                source_file=pl.lit(source_file),
                source_line="n",
                room_hand_id=pl.lit(None, dtype=pl.String),
                reason=stray_reason(pl.col("misread")),
                excerpt=pl.col("line").str.slice(0, EXCERPT_CHARS),
            ),
        ]
    ).sort("source_line")
    return ChunkTables(
        hands=_table(_hands(hands, hand_ids, source_file, source_format), HANDS),
        player_hands=_table(_player_hands(r, hand_ids), PLAYER_HANDS),
        placements=_table(_placements(r, hand_ids), PLACEMENTS),
        rejects=_table(rejects, REJECTS),
        stored_ids=hands.select("room_hand_id", "n"),
        guessed=dict(
            hands.filter(~pl.col("exact")).get_column("ruleset").value_counts().iter_rows()
        ),
    )


def stray_reason(misread: pl.Expr | None = None) -> pl.Expr:
    """Why a run of stray lines (``count``, ``garbled``, first ``line``) is rejected, naming
    an encoding mix-up when its lines did not decode (``garbled``) or are UTF-8 text read as
    Windows-1251 (``misread``: how many, ``parsers.segment``), and a line skipped for its length.

    >>> runs = pl.DataFrame(
    ...     {"count": [2, 4858, 245], "garbled": [0, 4858, 5], "misread": [0, 0, 245], "line": ["a"] * 3}
    ... )
    >>> print("\\n".join(runs.select(stray_reason(pl.col("misread"))).to_series()))
    2 line(s) outside any hand: no hand header before them
    4858 line(s) outside any hand: no hand header before them; 4858 of them are not valid UTF-8, the encoding the file starts in: part of the file is in another encoding (such as Windows-1251); save the whole file in one encoding
    245 line(s) outside any hand: no hand header before them; 245 of them are UTF-8 text read as Windows-1251, the encoding the file starts in: part of the file is in another encoding (UTF-8); save the whole file in one encoding
    """
    misread = pl.lit(0) if misread is None else misread
    plain = pl.format("{} line(s) outside any hand: no hand header before them", "count")
    skipped = pl.col("line").str.starts_with(SKIPPED_PREFIX) & (pl.col("count") == 1)
    garbled = pl.format(
        "{}; {} of them are not valid UTF-8, the encoding the file starts in: part of the file"
        " is in another encoding (such as Windows-1251); save the whole file in one encoding",
        plain,
        "garbled",
    )
    misread_utf8 = pl.format(
        "{}; {} of them are UTF-8 text read as Windows-1251, the encoding the file starts in:"
        " part of the file is in another encoding (UTF-8); save the whole file in one encoding",
        plain,
        misread,
    )
    return (
        pl.when(skipped)
        .then(pl.format("{}: not a line of a hand history", "line"))
        .when(misread > 0)
        .then(misread_utf8)
        .when(pl.col("garbled") > 0)
        .then(garbled)
        .otherwise(plain)
        .alias("reason")
    )


def not_a_hand_history(rejects: pa.Table) -> pa.Table:
    """The rejects of a file with no hand header: runs of stray lines say so, with no excerpt
    (the file may be anything, such as ``/etc/passwd``: its content is not kept)."""
    frame = pl.from_arrow(rejects)
    stray = pl.col("room_hand_id").is_null() & pl.col("reason").str.contains("outside any hand")
    counted = pl.col("reason").str.extract(r"^(\d+) line", 1)
    return (
        frame.with_columns(
            reason=pl.when(stray)
            .then(pl.format("not a hand history: no hand header in {} line(s)", counted))
            .otherwise("reason"),
            excerpt=pl.when(stray).then(pl.lit("")).otherwise("excerpt"),
        )
        .to_arrow()
        .cast(rejects.schema)
    )


def _table(frame: pl.DataFrame, schema: pa.Schema) -> pa.Table:
    return frame.select(schema.names).to_arrow().cast(schema)


def _duplicate_ids(hands: pl.DataFrame, seen: SeenIds | None) -> pl.DataFrame:
    """Hands whose room id an earlier hand of the same file already has."""
    first = hands.select("room_hand_id", first=pl.col("n").min().over("room_hand_id"), h="h", n="n")
    within = first.filter(pl.col("n") > pl.col("first"))
    frames = [within]
    if seen is not None and len(seen):
        stored = seen.matching(hands.get_column("room_hand_id"))
        earlier = hands.join(stored.rename({"n": "first"}), on="room_hand_id", how="inner")
        frames.append(earlier.select("room_hand_id", "first", "h", "n"))
    both = pl.concat(frames)
    return both.select(
        pl.col("h").cast(pl.Int64),
        pl.col("n").cast(pl.Int64),
        reason=pl.format(
            "hand #{} appears twice in this file (first on line {})", "room_hand_id", "first"
        ),
        rank=pl.lit(0, dtype=pl.Int64),
    )


def _first_problems(
    errors: pl.DataFrame, violations: pl.DataFrame, lines: pl.DataFrame
) -> pl.DataFrame:
    """Each rejected hand's first problem: unreadable lines first, then failed checks by rank, by line."""
    excerpts = lines.select("n", excerpt=pl.col("line").str.slice(0, EXCERPT_CHARS))
    found = pl.concat(
        [
            errors.with_columns(rank=pl.lit(-1, dtype=pl.Int64)),
            violations.join(excerpts, on="n", how="left"),
        ],
        how="diagonal_relaxed",
    )
    return (
        found.filter(pl.col("h") > 0)
        .sort("rank", "n", "reason")
        .unique("h", keep="first", maintain_order=True)
        .select("h", "n", "reason", "excerpt")
    )


def _hands(
    hands: pl.DataFrame, hand_ids: pl.DataFrame, source_file: str, source_format: str
) -> pl.DataFrame:
    return (
        hands.join(hand_ids, on="h", how="inner")
        .with_columns(
            source_format=pl.lit(source_format),
            fantasyland_continuation=pl.col("continuation").fill_null(False),
            source_file=pl.lit(source_file),
            source_line="n",
        )
        .sort("n")
    )


def _player_hands(r: Resolved, hand_ids: pl.DataFrame) -> pl.DataFrame:
    seats = r.seats.join(hand_ids, on="h", how="inner")
    sets = r.acts.filter(pl.col("kind") == ex.SETS_LINE)
    discards = (
        r.cards.filter(pl.col("row") == ex.DISCARD)
        .group_by("skey", maintain_order=True)
        .agg(discards=pl.col("card"))
    )
    hidden = sets.group_by("skey").agg(hidden=pl.col("hidden").sum())
    timed_out = (
        r.acts.filter(pl.col("kind") == ex.TIMEOUT_LINE)
        .select("skey")
        .unique()
        .with_columns(timed_out=pl.lit(True))
    )
    shows = r.shows.select("skey", "top", "middle", "bottom", "fouled")
    summaries = r.summaries.select(
        "skey",
        reported_points="points",
        reported_royalties="royalties",
        summary_foul="foul",
        reported_money="money",
        reported_fantasyland_next="fl_next",
        reported_fantasyland_cards="fl_cards",
        reported_fantasyland_stay="fl_stay",
    )
    set_in_file = (
        sets.filter(pl.col("sec") == 0)
        .select("skey")
        .unique()
        .with_columns(set_in_file=pl.lit(True))
    )
    out = (
        seats.join(shows, on="skey", how="left")
        .join(summaries, on="skey", how="left")
        .join(discards, on="skey", how="left")
        .join(hidden, on="skey", how="left")
        .join(timed_out, on="skey", how="left")
        .join(set_in_file, on="skey", how="left")
    )
    # A Fantasyland hand seen only at showdown hid its discards: the cards dealt beyond 13.
    unseen_fl = (pl.col("fl_cards") > 0) & pl.col("set_in_file").is_null()
    return out.with_columns(
        starting_stack="stack",
        in_fantasyland=pl.col("fl_cards") > 0,
        fantasyland_cards="fl_cards",
        discards=pl.col("discards").fill_null(pl.lit([], dtype=pl.List(pl.String))),
        hidden_discards=pl.when(unseen_fl)
        .then(pl.col("fl_cards") - 13)
        .otherwise(pl.col("hidden").fill_null(0)),
        timed_out=pl.col("timed_out").fill_null(False),
        reported_foul=pl.col("fouled").fill_null(False) | pl.col("summary_foul").fill_null(False),
    ).sort("h", "position")


def _placements(r: Resolved, hand_ids: pl.DataFrame) -> pl.DataFrame:
    """Placed and shown cards, hidden discards (no card), and FL hands seen only at showdown."""
    sets = r.acts.filter(pl.col("kind") == ex.SETS_LINE)
    auto = (
        r.acts.filter(pl.col("kind") == ex.TIMEOUT_LINE)
        .select("akey")
        .unique()
        .with_columns(auto=pl.lit(True))
    )
    columns = ["h", "n", "skey", "sec", "row", "card"]
    placed = r.cards.filter(pl.col("row") != ex.DEALT).select(columns)
    hidden = _blanks(
        sets.filter(pl.col("hidden") > 0).with_columns(row=pl.lit(ex.DISCARD, pl.Int8)), "hidden"
    )
    unseen = r.seats.filter(pl.col("fl_cards") > 0).join(
        sets.filter(pl.col("sec") == 0), on="skey", how="anti"
    )
    fl_rows = r.show_cards.join(unseen.select("skey"), on="skey", how="semi").select(
        "h", "n", "skey", pl.lit(0, dtype=pl.Int16).alias("sec"), "row", "card"
    )
    fl_hidden = _blanks(
        unseen.filter(pl.col("fl_cards") > 13).with_columns(
            sec=pl.lit(0, dtype=pl.Int16),
            row=pl.lit(ex.DISCARD, pl.Int8),
            extra=pl.col("fl_cards") - 13,
        ),
        "extra",
    )
    rows = pl.concat([placed, hidden, fl_rows, fl_hidden], how="vertical_relaxed")
    ids, found = lookup(hand_ids, "h", rows.get_column("h"))
    rows = pl.concat([rows.filter(pl.Series(found)), ids.select("hand_id")], how="horizontal")
    return (
        rows.with_columns(akey=pl.col("skey") * SEC_KEY + pl.col("sec"))
        .join(auto, on="akey", how="left")
        .select(
            "hand_id",
            seat=pl.col("skey") % SEAT_KEY,
            street="sec",
            card="card",
            row=pl.col("row").replace_strict(ex.ROW_NAMES, return_dtype=pl.String),
            auto=pl.col("auto").fill_null(False),
        )
    )


def _blanks(frame: pl.DataFrame, count: str) -> pl.DataFrame:
    """``count`` placement rows with no card for each row of ``frame`` (cards the file hides)."""
    return (
        frame.select("h", "n", "skey", "sec", "row", card=pl.int_ranges(0, count))
        .explode("card")
        .with_columns(card=pl.lit(None, dtype=pl.String))
    )
