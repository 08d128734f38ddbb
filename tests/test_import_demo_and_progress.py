"""``ofc demo`` imports the sample and summarises it; ``ofc import`` reports progress readably.

On a terminal the progress is one line redrawn in place (hands, hands per
second, rejects); in a log it is plain lines, one per phase.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.load.progress import Progress
from tests.import_support import ROOT, scalar

SAMPLE = ROOT / "data" / "sample"


def test_demo_imports_the_sample_and_prints_the_players(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    if not SAMPLE.is_dir():
        pytest.skip("no sample archive (make sample)")
    db = tmp_path / "demo.duckdb"
    assert main(["demo", "--no-serve", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    hands = scalar(db, "SELECT count(*) FROM hands")
    assert hands > 1000
    assert any(line.split() == ["stored", f"{hands:,}"] for line in out.splitlines())
    assert scalar(db, "SELECT count(*) FROM rejects") == 0, "the sample's README is not input"
    assert "points/hand [95% CI]" in out and "Rock Rita" in out
    assert main(["demo", "--no-serve", "--db", str(db)]) == 2


def test_progress_in_a_log_is_plain_lines() -> None:
    stream = io.StringIO()
    progress = Progress(stream, interactive=False, log_every=0.0)
    progress.start(total_bytes=200)
    progress.add(hands=1000, rejects=2, bytes_done=100)
    progress.phase("loading into x.duckdb")
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("ofc import: read 1,000 hands") and "rejected 2" in lines[0]
    assert "50%" in lines[0] and "hands/s" in lines[0]
    assert lines[1] == "ofc import: loading into x.duckdb"
    assert "\r" not in stream.getvalue()


def test_a_log_gets_the_last_counts_before_the_next_phase() -> None:
    """A log line every five seconds left the last counts (and 100%) unsaid."""
    stream = io.StringIO()
    progress = Progress(stream, interactive=False, log_every=1e9)
    progress.start(total_bytes=200)
    progress.add(hands=1000, rejects=2, bytes_done=100)
    progress.add(hands=500, rejects=0, bytes_done=100)
    progress.phase("loading into x.duckdb")
    progress.close()
    *_, counts, phase = stream.getvalue().splitlines()
    assert counts.startswith("ofc import: read 1,500 hands") and counts.endswith("100%")
    assert phase == "ofc import: loading into x.duckdb"


def test_each_run_of_a_watch_counts_from_zero() -> None:
    """--watch starts a run a round: its counts once added up, 10, 310, 510 hands, 2733%."""
    stream = io.StringIO()
    progress = Progress(stream, interactive=False, log_every=0.0)
    for hands in (10, 300, 200):
        progress.start(total_bytes=hands * 100)
        progress.add(hands=hands, rejects=0, bytes_done=hands * 100)
    lines = stream.getvalue().splitlines()
    assert [line.split("  ")[0] for line in lines] == [
        f"ofc import: read {n} hands" for n in (10, 300, 200)
    ]
    assert all(line.endswith("100%") for line in lines)


def test_progress_on_a_terminal_redraws_one_line() -> None:
    stream = io.StringIO()
    progress = Progress(stream, interactive=True)
    progress.start(total_bytes=100)
    progress.add(hands=10, rejects=0, bytes_done=100)
    progress.close()
    text = stream.getvalue()
    assert text.startswith("\r[########################] 10 hands")
    assert text.endswith("\n") and text.count("\n") == 1
