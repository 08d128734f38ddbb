"""An error of the fast ``en`` path is never silent (docs/architecture.md, parsers.run).

The fast path (``parsers.fast``) is an optimisation: when it fails on a chunk
(a bug, never bad input), the thorough reader reads the whole chunk, so every
hand is still read, stored or rejected; ``ofc parse`` and ``ofc import``
count such chunks and show them in their summaries. The bug is injected by
replacing ``parsers.fast.read`` with a function that raises.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from parsers import fast
from pipeline.cli.commands.parse import report
from pipeline.load.importer import ImportOptions, run_import, summary_lines
from pipeline.load.progress import Progress
from pipeline.simulator.render import en as render_en
from tests.hand_builder import build, example_hand
from tests.parse_helpers import parse


def failing_read(*args, **kwargs):
    raise RuntimeError("injected fast path bug")


@pytest.fixture
def en_file(tmp_path: Path) -> Path:
    hands = [example_hand(room_hand_id=str(i)) for i in range(1, 6)]
    text = "\n\n".join(render_en.render_hands(*build(hands), "Alice")) + "\n"
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_parse_without_errors_shows_none(en_file: Path, tmp_path: Path) -> None:
    summary, _ = parse([en_file], tmp_path / "out")
    assert summary.stored == 5
    assert summary.fast_path_fallbacks == 0
    assert "fast path" not in report(summary)


def test_a_fast_path_error_is_counted_shown_and_loses_no_hand(
    en_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, want = parse([en_file], tmp_path / "fast")
    monkeypatch.setattr(fast, "read", failing_read)
    summary, got = parse([en_file], tmp_path / "thorough")
    assert (summary.read, summary.stored, summary.rejected) == (5, 5, 0)
    assert summary.fast_path_fallbacks == 1  # one chunk
    (file,) = summary.files
    assert file.fast_path_fallbacks == 1
    assert "RuntimeError: injected fast path bug" in file.note
    assert "fast path errors: 1 chunk(s) read by the thorough reader" in report(summary)
    for name in ("hands", "player_hands", "placements"):
        key = ["hand_id", "seat"] if name != "hands" else ["hand_id"]
        assert_frame_equal(got[name].sort(key), want[name].sort(key), check_row_order=False)


def _import(path: Path, db: Path):
    options = ImportOptions(paths=(str(path),), db=db)
    return run_import(options, Progress(io.StringIO(), interactive=False, quiet=True))


def test_ofc_import_counts_and_shows_fast_path_errors(
    en_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = _import(en_file, tmp_path / "clean.duckdb")
    assert clean.fast_path_fallbacks == 0
    assert not any("fast path" in line for line in summary_lines(clean))
    monkeypatch.setattr(fast, "read", failing_read)
    summary = _import(en_file, tmp_path / "fallback.duckdb")
    assert summary.counts is not None and summary.counts.hands_added == 5
    assert summary.fast_path_fallbacks == 1
    (line,) = [line for line in summary_lines(summary) if "fast path errors" in line]
    assert line.split()[3] == "1"
    assert summary.counts.hands_read == 5
