"""What a staging task runs: one piece of a file, or a batch of small files read together.

``stage_task`` is the function every engine runs (``pipeline.load.executors``,
``pipeline.load.distributed``); it returns a ``StageResult`` per file. A
``Batch`` of small files is read as ``ofc parse`` reads them
(``parsers.batch``: joined into one chunk where they read cleanly) and staged
as one part, so a folder of one-hand files costs about what one file of
their hands does.
"""

from __future__ import annotations

import os
import time

import polars as pl

from parsers.lines import read_at_most
from pipeline.load.files import Batch, Piece, SmallInput, member_piece, whole_file
from pipeline.load.parsing import parse_files_together
from pipeline.load.staging import (
    StageOptions,
    StageResult,
    cached_loader,
    cut_short_tail,
    part_dir,
    read_piece,
    stage_piece,
    stage_tables,
    write_part,
)


def stage_task(part: int, task: Piece | Batch, options: StageOptions) -> list[StageResult]:
    """Stage a piece, or a batch of small files (a result per file)."""
    if isinstance(task, Batch):
        return _stage_batch(part, task, options)
    return [stage_piece(part, task, options)]


def _stage_batch(part: int, batch: Batch, options: StageOptions) -> list[StageResult]:
    """Stage small files read together; file ``i`` has part number ``part + i``.

    Files that share a hand id with another file of the batch are staged one by
    one, each as its own part, so their copies stay apart and in file order
    (the first read wins); so are the files the batch did not read (a ``.gz``
    file holding more than its trailer said, a file not of room text), each
    read as a stream, and plain files whose last hand is cut short (read up to
    its start: ``pipeline.load.staging``). The others are staged together, as
    the part of the first of them.
    """
    sources = [file.source for file in batch.files]
    tables, fallbacks, apart = parse_files_together(sources, options.parse_ruleset)
    hands = tables["hands"]
    shared = set(hands.filter(pl.col("hand_id").is_duplicated()).get_column("source_file"))
    alone = shared | apart | _cut_short(batch, tables["rejects"], not options.finished)
    together = [i for i, source in enumerate(sources) if source.name not in alone]
    results = _stage_together(part, batch, together, tables, fallbacks, options)
    by_itself = [i for i, source in enumerate(sources) if source.name in alone]
    return results + [stage_piece(part + i, _whole(batch.files[i]), options) for i in by_itself]


def _cut_short(batch: Batch, rejects: pl.DataFrame, unended_is_cut: bool) -> set[str]:
    """The plain files of ``batch`` whose last hand does not read cleanly or may be cut (only
    files with a reject, or whose last byte is not a line end, are looked at again)."""
    rejected = set(rejects.get_column("source_file"))
    found = set()
    for file in batch.files:
        name = file.source.name
        if not file.plain:
            continue
        if name in rejected or (unended_is_cut and not _ends_a_line(file.path, file.size)):
            piece = whole_file(file.path, file.size)
            data, _ = read_piece(piece)
            own = rejects.filter(pl.col("source_file") == name)
            if cut_short_tail(piece, data, own, unended_is_cut):
                found.add(name)
    return found


def _ends_a_line(path: str, size: int) -> bool:
    """Whether the file's last byte is a line end (an empty file ends no line but holds no
    hand either: True)."""
    if size == 0:
        return True
    with open(path, "rb") as handle:
        return os.pread(handle.fileno(), 1, size - 1) == b"\n"


def _whole(file: SmallInput) -> Piece:
    """A file (or member) of a batch as a piece of its own."""
    return whole_file(file.path, file.size) if file.plain else member_piece(file)


def _stage_together(
    part: int,
    batch: Batch,
    together: list[int],
    tables: dict[str, pl.DataFrame],
    fallbacks: dict[str, int],
    options: StageOptions,
) -> list[StageResult]:
    """Stage the rows of the batch's files ``together`` as one part: a result per file."""
    if not together:
        return []
    began = time.perf_counter()
    names = [batch.files[i].source.name for i in together]
    number = part + together[0]
    frames = stage_tables(
        _only_files(tables, names),
        number,
        cached_loader(options.rules_file),
        options.ruleset_override,
    )
    write_part(frames, part_dir(options.staging, number))
    counts = {
        name: dict(frames[name].group_by("source_file").len().iter_rows())
        for name in ("hands", "rejects")
    }
    share = (time.perf_counter() - began) / len(together)
    return [_result(part + i, batch.files[i], counts, share, fallbacks) for i in together]


def _result(
    part: int,
    file: SmallInput,
    counts: dict[str, dict[str, int]],
    seconds: float,
    fallbacks: dict[str, int],
) -> StageResult:
    """What staging a file (or member) of a batch gave: its hands and rejects, and how far it
    was read (a member, like a whole archive, is read to its end: nothing to remember)."""
    name = file.source.name
    plain = file.plain
    return StageResult(
        part=part,
        path=file.path,
        hands=counts["hands"].get(name, 0),
        rejects=counts["rejects"].get(name, 0),
        consumed_end=file.size if plain else None,
        consumed_lines=_lines(file) if plain else 0,
        held_back_line=None,
        seconds=seconds,
        fast_path_fallbacks=fallbacks.get(name, 0),
    )


def _lines(file: SmallInput) -> int:
    """The line ends of a plain file's ``size`` bytes, as a piece counts them."""
    return read_at_most(file.source, file.size).count(b"\n")


def _only_files(tables: dict[str, pl.DataFrame], names: list[str]) -> dict[str, pl.DataFrame]:
    """The rows of ``tables`` read from the files ``names`` (whose hand ids no other file has)."""
    hands = tables["hands"].filter(pl.col("source_file").is_in(names))
    kept = hands.select("hand_id")
    return {
        "hands": hands,
        "player_hands": tables["player_hands"].join(kept, on="hand_id", how="semi"),
        "placements": tables["placements"].join(kept, on="hand_id", how="semi"),
        "rejects": tables["rejects"].filter(pl.col("source_file").is_in(names)),
    }
