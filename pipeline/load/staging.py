"""A staging task: parse one piece of a file, recompute it, write Parquet parts.

``stage_piece`` runs on a worker (a local process or a Dask worker; through
``pipeline.load.tasks``): it reads its piece, parses it into the hand model, and writes the tables of
``pipeline.load.tables`` into ``<staging>/part-NNNNNN/``. An archive member
is read as a stream and staged a chunk at a time, into ``part-NNNNNN``,
``part-NNNNNN-00001``, ... (one part number: the hands keep their order by
line), so memory does not grow with the member's size.
``stage_tables`` is the pure middle: fingerprints, the ruleset override, the
rules engine, the street features, and rejects for hands that cannot be scored.

A file's last piece may end inside a hand a room client is still writing:
when its last hand (from the last blank line or hand header) does not parse
cleanly, or (room text) its last line has no line end (a line cut short can
still read as a whole one: ``+11 points (royalties 7)`` of ``..., enters Fantasyland``), the
byte offset taken (``consumed_end``) stays at that hand's start, so an import
of the grown file reads it again whole. In ``--watch`` mode (``complete_only``)
it is held back (not staged, not counted as read); otherwise it is rejected
now, as read, and its reject is dropped once the complete hand is stored
(``pipeline.load.store``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ofc_core.rulesets import PRESET_NAMES
from parsers.extract import EXCERPT_CHARS
from parsers.limits import last_blank
from parsers.lines import count_lines
from parsers.run import HEADER_PREFIXES
from pipeline.load.files import Piece, source_name
from pipeline.load.fingerprint import fingerprints
from pipeline.load.parsing import parse_bytes, parse_member
from pipeline.load.recompute import RulesetLoader, recompute, ruleset_loader
from pipeline.load.runs import id_runs
from pipeline.load.street_features import street_features
from pipeline.load.tables import STAGED, conform

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class StageOptions:
    """What every task of one import shares."""

    staging: str
    ruleset_override: str | None = None
    rules_file: str | None = None
    complete_only: bool = False
    finished: bool = False  # files written whole: a last line without its end is not a cut

    @property
    def parse_ruleset(self) -> str | None:
        """The override the parsers check the hands against: a preset. A ruleset of
        ``--rules-file`` (say a preset with a loss cap) is for scoring: the parsers check the
        hands against the preset their header names (the rules the room played them by),
        and ``stage_tables`` gives them the override."""
        return self.ruleset_override if self.ruleset_override in PRESET_NAMES else None


@dataclass(frozen=True)
class StageResult:
    """What a task read: counts for progress, and how far into its file it got."""

    part: int
    path: str
    hands: int
    rejects: int
    consumed_end: int | None  # byte offset after the last whole hand taken (None: archive)
    consumed_lines: int  # line ends in the bytes taken
    held_back_line: int | None  # first line of a hand left for later (watch mode)
    seconds: float
    fast_path_fallbacks: int = 0  # chunks the thorough reader read after a fast path error
    #: Hands and rejects staged from past ``consumed_end`` (a last hand cut short, rejected
    #: now and read again from its start once the file grows): not the file's hands read.
    read_again: int = 0


def part_dir(staging: str | Path, part: int, chunk: int = 0) -> Path:
    """Where a part's tables go; ``chunk``: the chunk of an archive member after the first."""
    return Path(staging) / (f"part-{part:06d}-{chunk:05d}" if chunk else f"part-{part:06d}")


def read_piece(piece: Piece) -> tuple[bytes, int]:
    """The piece's bytes without a leading byte order mark, and how many bytes that skipped."""
    with open(piece.path, "rb") as handle:
        handle.seek(piece.start)
        data = handle.read(piece.end - piece.start)
    if piece.start == 0 and data.startswith(_BOM):
        return data[len(_BOM) :], len(_BOM)
    return data, 0


def _tail_start(data: bytes, separator: str, encoding: str = "utf-8") -> int:
    """Offset of the last hand in ``data`` (text in ``encoding``): after the last blank line
    or at the last hand header, whichever is later, as a hand ends at the next blank line or
    header (docs/parsers.md); 0: none.

    >>> _tail_start(b"hand 1\\n\\nhand 2\\nstill", "text"), _tail_start(b'{}\\n{"a', "jsonl")
    (8, 3)
    >>> _tail_start(b"OFC Hand #1\\nx\\nOFC Hand #2\\ny", "text")
    14
    """
    if separator == "jsonl":
        return data.rfind(b"\n") + 1
    blank = last_blank(data, 0, len(data))
    after_blank = 0 if blank < 0 else data.index(b"\n", blank + 1) + 1
    headers = (b"\n" + prefix.encode(encoding) for prefix in HEADER_PREFIXES)
    return max(after_blank, *(data.rfind(header, after_blank) + 1 for header in headers))


def _drop_from(tables: dict[str, pl.DataFrame], line: int) -> dict[str, pl.DataFrame]:
    """The tables without hands and rejects starting at ``line`` or later."""
    hands = tables["hands"].filter(pl.col("source_line") < line)
    kept = hands.select("hand_id")
    return {
        "hands": hands,
        "player_hands": tables["player_hands"].join(kept, on="hand_id", how="semi"),
        "placements": tables["placements"].join(kept, on="hand_id", how="semi"),
        "rejects": tables["rejects"].filter(pl.col("source_line") < line),
    }


def _reject_rows(hands: pl.DataFrame, failed: pl.DataFrame) -> pl.DataFrame:
    return hands.join(failed, on="hand_id").select(
        "source_file",
        "source_line",
        "room_hand_id",
        "reason",
        excerpt=pl.format("hand {} (ruleset {})", "room_hand_id", "ruleset"),
    )


def _duplicate_ids(hands: pl.DataFrame) -> pl.DataFrame:
    """Hands whose id occurs twice in one parse (parsers reject these; a guard, never silent)."""
    twice = hands.filter(pl.len().over("hand_id") > 1)
    return twice.select(
        "hand_id",
        reason=pl.format(
            "hand id {} occurs more than once among the hands read together; "
            "its copies cannot be told apart",
            "hand_id",
        ),
    ).unique("hand_id")


def stage_tables(
    tables: dict[str, pl.DataFrame],
    part: int,
    load: RulesetLoader,
    ruleset_override: str | None = None,
    first_no: int = 0,
) -> dict[str, pl.DataFrame]:
    """The staged tables of parsed model tables (see the module docstring); the hands are
    numbered from ``first_no`` in the order read (``hand_no``, on each of a hand's rows)."""
    hands = tables["hands"]
    if ruleset_override is not None:
        hands = hands.with_columns(ruleset=pl.lit(ruleset_override, pl.String))
    players, placements = tables["player_hands"], tables["placements"]
    doubled = _duplicate_ids(hands)
    hands = hands.with_columns(
        fingerprint=fingerprints(hands, players, placements),
        hand_no=pl.int_range(first_no, first_no + pl.len(), dtype=pl.Int64),
    )
    result = recompute(hands.join(doubled, on="hand_id", how="anti"), players, load)
    failed = pl.concat([doubled, result.failed])
    rejects = pl.concat(
        [conform(tables["rejects"], STAGED["rejects"]).drop("part"), _reject_rows(hands, failed)],
        how="vertical_relaxed",
    )
    stored = hands.join(failed.select("hand_id"), on="hand_id", how="anti")
    numbers = stored.select("hand_id", "hand_no")
    features = street_features(placements, players)
    player_rows = result.player_hands
    if player_rows.width:
        player_rows = player_rows.join(features, on=["hand_id", "seat"], how="left")
    frames = {
        "hands": stored,
        "player_hands": _numbered(player_rows, numbers),
        "placements": _numbered(placements, numbers),
        "pairwise": _numbered(result.pairwise, numbers),
        "rejects": rejects,
    }
    return {
        name: conform(frame.with_columns(part=pl.lit(part, pl.Int32)), STAGED[name])
        if frame.width
        else pl.DataFrame(schema=STAGED[name])
        for name, frame in frames.items()
    }


def _numbered(rows: pl.DataFrame, numbers: pl.DataFrame) -> pl.DataFrame:
    """The rows of the hands in ``numbers`` (``hand_id``, ``hand_no``), with their number;
    a hand's rows stay together, in order.

    A table holds a hand's rows in runs (one, or a few), so the numbers are joined to the
    runs' ids, not to every row: a tenth of the hashing for ``placements``.
    """
    if not rows.width:
        return rows
    ids = rows.get_column("hand_id")
    run, starts = id_runs(ids)
    runs = pl.DataFrame({"hand_id": ids.gather(starts)})
    run_no = runs.join(numbers, on="hand_id", how="left", maintain_order="left")
    numbered = rows.with_columns(hand_no=run_no.get_column("hand_no").gather(run))
    if run_no.get_column("hand_no").null_count():  # rows of hands not stored
        numbered = numbered.filter(pl.col("hand_no").is_not_null())
    return numbered


def write_part(frames: dict[str, pl.DataFrame], directory: Path) -> None:
    """Write a part's tables (the load reads them only once every task has finished)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():
        frame.write_parquet(
            directory / f"{name}.parquet", compression="uncompressed", statistics=False
        )


@dataclass(frozen=True)
class _Parsed:
    """A piece's model tables, the byte offset and line ends taken, and a held-back line."""

    tables: dict[str, pl.DataFrame]
    end: int
    lines: int
    held_back_line: int | None
    fast_path_fallbacks: int
    read_again: int = 0  # hands and rejects after ``end``: read again once the file grows


def _parse_piece(piece: Piece, options: StageOptions) -> _Parsed:
    """Parse a piece; a last hand cut short is held back in watch mode, rejected otherwise,
    and either way not taken: ``end`` stays at its start (see the module docstring)."""
    name = source_name(piece)
    data, skipped = read_piece(piece)
    lines = count_lines(data)
    tables, fallbacks = parse_bytes(
        data,
        piece.first_line,
        name,
        piece.fmt,
        piece.encoding,
        options.parse_ruleset,
        piece.continues,
        lines,
    )
    end = piece.start + skipped + len(data)
    whole = _Parsed(tables, end, lines, None, fallbacks)
    if not piece.last:
        return whole
    tail = cut_short_tail(piece, data, tables["rejects"], unended_is_cut=not options.finished)
    if tail is None:
        return whole
    cut, tail_line = tail
    taken = piece.start + skipped + cut
    taken_lines = data.count(b"\n", 0, cut)
    if options.complete_only:
        return _Parsed(_drop_from(tables, tail_line), taken, taken_lines, tail_line, fallbacks)
    in_tail = sum(
        tables[name].filter(pl.col("source_line") >= tail_line).height
        for name in ("hands", "rejects")
    )
    unended = not data.endswith(b"\n")
    tables = _unfinished_rejected(tables, tail_line, name, data[cut:], unended)
    return _Parsed(tables, taken, taken_lines, None, fallbacks, in_tail)


#: Why a last hand that read cleanly but whose last line has no line end is not stored.
UNFINISHED = (
    "the file's last line has no line end: the hand may be cut short (a file still being "
    "written, or copied mid-write), so it is not stored yet; the next import of the grown "
    "file reads it again (a finished file needs a line break at its end)"
)


#: Added to the reason of a last hand rejected anyway when the file's last line has no line end.
ENDS_INSIDE = "; the file ends inside its last line (cut short, or still being written?)"


def _unfinished_rejected(
    tables: dict[str, pl.DataFrame], line: int, name: str, tail: bytes, unended: bool
) -> dict[str, pl.DataFrame]:
    """The tables with the last hand of the text after ``line`` turned into a reject when it
    was stored: read and accounted for, not stored. A last hand rejected anyway keeps its
    own reason, which says so when the file's last line has no line end (``unended``)."""
    starts = pl.concat([tables[t].select("source_line") for t in ("hands", "rejects")])
    last = starts.filter(pl.col("source_line") >= line).get_column("source_line").max()
    unfinished = tables["hands"].filter(pl.col("source_line") == last)
    if unfinished.is_empty():
        return _said_to_end_inside(tables, last) if unended else tables
    header = tail.split(b"\n")[last - line].rstrip(b"\r").decode("utf-8", errors="replace")
    rejects = unfinished.select(
        source_file=pl.lit(name),
        source_line="source_line",
        room_hand_id="room_hand_id",
        reason=pl.lit(UNFINISHED),
        excerpt=pl.lit(header[:EXCERPT_CHARS]),
    )
    kept = _drop_from(tables, last)  # the hands before it, and their rows
    return kept | {"rejects": pl.concat([tables["rejects"], rejects], how="vertical_relaxed")}


def _said_to_end_inside(tables: dict[str, pl.DataFrame], last: int) -> dict[str, pl.DataFrame]:
    """The tables with ``ENDS_INSIDE`` added to the reasons of the rejects of a hand at line
    ``last`` that do not say it is cut short."""
    hand = pl.col("room_hand_id").is_not_null() & ~pl.col("reason").str.contains("cut short")
    at_last = (pl.col("source_line") == last) & hand
    reason = pl.when(at_last).then(pl.col("reason") + ENDS_INSIDE).otherwise("reason")
    return tables | {"rejects": tables["rejects"].with_columns(reason=reason)}


def cut_short_tail(
    piece: Piece, data: bytes, rejects: pl.DataFrame, unended_is_cut: bool = True
) -> tuple[int, int] | None:
    """Where the last hand of a file's last piece starts when it does not read cleanly (cut
    short: still being written, or the file copied mid-write): (offset in ``data``, its
    first line); None when the last hand (``_tail_start``) reads cleanly or is blank.

    ``data``: the piece's bytes (as ``read_piece`` gives them); ``rejects``: the rejects read
    from them; ``unended_is_cut``: room text whose last line has no line end counts as cut
    short (not for files written whole, such as uploads).
    """
    cut = _tail_start(data, piece.separator, piece.encoding)
    if not data[cut:].strip():
        return None
    tail_line = piece.first_line + data.count(b"\n", 0, cut)
    unended = unended_is_cut and piece.separator == "text" and not data.endswith(b"\n")
    if not unended and rejects.filter(pl.col("source_line") >= tail_line).height == 0:
        return None
    return cut, tail_line


def stage_piece(part: int, piece: Piece, options: StageOptions) -> StageResult:
    """Parse, recompute and stage one piece (runs in a worker process)."""
    if piece.end is None:
        return _stage_member(part, piece, options)
    began = time.perf_counter()
    parsed = _parse_piece(piece, options)
    frames = stage_tables(
        parsed.tables, part, cached_loader(options.rules_file), options.ruleset_override
    )
    write_part(frames, part_dir(options.staging, part))
    return StageResult(
        part=part,
        path=piece.path,
        hands=frames["hands"].height,
        rejects=frames["rejects"].height,
        consumed_end=parsed.end,
        consumed_lines=parsed.lines,
        held_back_line=parsed.held_back_line,
        seconds=time.perf_counter() - began,
        fast_path_fallbacks=parsed.fast_path_fallbacks,
        read_again=parsed.read_again,
    )


def _stage_member(part: int, piece: Piece, options: StageOptions) -> StageResult:
    """Stage an archive member a chunk at a time (see the module docstring)."""
    began = time.perf_counter()
    staged: list[tuple[int, int]] = []  # hands and rejects of each chunk staged
    numbered = 0  # hands read from the member so far: the next chunk's first hand_no

    def stage_chunk(tables: dict[str, pl.DataFrame]) -> None:
        nonlocal numbered
        loader = cached_loader(options.rules_file)
        frames = stage_tables(tables, part, loader, options.ruleset_override, numbered)
        numbered += tables["hands"].height
        write_part(frames, part_dir(options.staging, part, len(staged)))
        staged.append((frames["hands"].height, frames["rejects"].height))

    fallbacks = parse_member(piece.path, piece.member, options.parse_ruleset, stage_chunk)
    if not staged:  # nothing in the member: its part is there, empty
        empty = {name: pl.DataFrame(schema=schema) for name, schema in STAGED.items()}
        write_part(empty, part_dir(options.staging, part))
    return StageResult(
        part=part,
        path=piece.path,
        hands=sum(hands for hands, _ in staged),
        rejects=sum(rejects for _, rejects in staged),
        consumed_end=None,
        consumed_lines=0,
        held_back_line=None,
        seconds=time.perf_counter() - began,
        fast_path_fallbacks=fallbacks,
    )


_LOADERS: dict[str | None, RulesetLoader] = {}


def cached_loader(rules_file: str | None) -> RulesetLoader:
    """One cached ruleset loader per rules file, per worker process."""
    if rules_file not in _LOADERS:
        _LOADERS[rules_file] = ruleset_loader(rules_file)
    return _LOADERS[rules_file]
