"""A hand over the size limit of ``parsers.limits`` (lines or bytes) is one reject saying so,
in ``ofc parse`` and ``ofc import`` alike, even when it runs over the chunk or piece it
starts in; the hands around it are stored and the counts add up."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from parsers import parse_files
from parsers.limits import MAX_HAND_BYTES, MAX_HAND_LINES
from pipeline.load.importer import ImportOptions, run_import
from pipeline.load.progress import Progress
from tests.import_support import ROOT, en_hands, query, simulate

#: Text with no blank line is cut at a line end after four of these (2 MiB): inside hand 8.
SMALL_CHUNK = MAX_HAND_BYTES // 2
LIMIT = f"over the limit of {MAX_HAND_LINES:,} lines or {MAX_HAND_BYTES:,} bytes for one hand"


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = simulate(tmp_path_factory.mktemp("h") / "h.txt", 12, seed=51)
    return en_hands(path.read_text(encoding="utf-8"))


def _grown(hand: str, copies: int, pad: int = 0) -> str:
    """``hand`` with its seventh line written ``copies`` times more (``pad`` bytes longer)."""
    lines = hand.splitlines()
    extra = [lines[6] + " " * pad] * copies
    return "\n".join([*lines[:6], *extra, *lines[6:]]) + "\n"


def _history(hands: list[str], tmp_path: Path) -> tuple[Path, dict[int, int]]:
    """Hands 2, 5 and 8 too long (lines; bytes; both, and longer than four small chunks):
    the file and the first line of each hand."""
    grown = dict(enumerate(hands))
    grown[2] = _grown(hands[2], MAX_HAND_LINES)
    grown[5] = _grown(hands[5], MAX_HAND_LINES // 2, pad=MAX_HAND_BYTES // 400)
    grown[8] = _grown(hands[8], 30 * MAX_HAND_LINES, pad=100)
    texts = [grown[i] for i in range(len(hands))]
    starts, line = {}, 1
    for i, text in enumerate(texts):
        starts[i] = line
        line += text.count("\n") + 1
    path = tmp_path / "long.txt"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path, starts


def _check(rejects: list[tuple[int, str]], starts: dict[int, int]) -> None:
    assert [line for line, _ in rejects] == [starts[2], starts[5], starts[8]]
    sizes = []
    for _, reason in rejects:
        assert reason.startswith("hand too long: ") and LIMIT in reason, reason
        found = re.match(r"hand too long: ([\d,]+) lines \(([\d,]+) bytes\) read", reason)
        assert found is not None, reason
        sizes.append(tuple(int(g.replace(",", "")) for g in found.groups()))
    assert sizes[0][0] == starts[3] - starts[2] - 1  # every line of the hand, no blank line
    assert sizes[1][0] < MAX_HAND_LINES < sizes[0][0] and sizes[1][1] > MAX_HAND_BYTES


@pytest.mark.parametrize("chunk_bytes", [24 << 20, SMALL_CHUNK])
def test_ofc_parse_rejects_a_hand_too_long_once(
    hands: list[str], tmp_path: Path, chunk_bytes: int
) -> None:
    path, starts = _history(hands, tmp_path)
    summary = parse_files([path], tmp_path / "out", chunk_bytes=chunk_bytes)
    assert (summary.read, summary.stored, summary.rejected) == (12, 9, 3)
    rejects = pl.read_parquet(tmp_path / "out" / "rejects").sort("source_line")
    _check(list(rejects.select("source_line", "reason").iter_rows()), starts)


@pytest.mark.parametrize("chunk_bytes", [16 << 20, SMALL_CHUNK])
def test_ofc_import_rejects_a_hand_too_long_once(
    hands: list[str], tmp_path: Path, chunk_bytes: int
) -> None:
    path, starts = _history(hands, tmp_path)
    db = tmp_path / "ofc.duckdb"
    options = ImportOptions(paths=(str(path),), db=db, chunk_bytes=chunk_bytes)
    run_import(options, Progress(quiet=True))
    counts = query(db, "SELECT hands_read, hands_added, rejects_added FROM imports")
    assert counts == [(12, 9, 3)]
    _check(query(db, "SELECT source_line, reason FROM rejects ORDER BY source_line"), starts)


def test_the_hand_limit_is_documented() -> None:
    docs = (ROOT / "docs" / "parsers.md").read_text(encoding="utf-8")
    assert f"{MAX_HAND_LINES:,} lines" in docs and f"{MAX_HAND_BYTES:,} bytes" in docs
