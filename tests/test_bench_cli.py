"""``ofc bench``: JSON output, benchmark selection, and the generated docs page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.benchkit.figures import Figure
from pipeline.benchkit.options import BenchOptions
from pipeline.cli.bench import evaluate
from pipeline.cli.bench.docs_page import MARKER, write_page
from pipeline.cli.bench.measurement import Measurement
from pipeline.cli.bench.registry import BENCHMARKS, ON_REQUEST, select
from pipeline.cli.main import main

MACHINE = {
    "date": "2026-01-02 03:04 UTC",
    "cores": 2,
    "cpu": "Test CPU",
    "platform": "Linux",
    "python": "3.11.7",
    "numpy": "2.4.6",
    "polars": "2.1.0",
}
FIGURE_KEYS = {"value", "unit", "target", "better", "meets_target", "note"}


def bench_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["bench", "--json", "--quick", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_for_the_evaluate_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    report = bench_json(capsys, "--only", "evaluate")
    assert set(report) == {"machine", "quick", "benchmarks"}
    assert {"date", "cores", "cpu", "python", "numpy"} <= set(report["machine"])
    assert list(report["benchmarks"]) == ["evaluate"]
    figures = report["benchmarks"]["evaluate"]["figures"]
    assert {
        "strength5_all_hands_s",
        "strength5_hands_per_s",
        "phevaluator_all_hands_s",
        "phevaluator_vs_strength5",
        "treys_all_hands_s",
        "treys_vs_strength5",
    } == set(figures)
    assert all(set(f) == FIGURE_KEYS for f in figures.values())
    main_figure = figures["strength5_all_hands_s"]
    assert main_figure["unit"] == "s" and main_figure["target"] == 1.0
    assert main_figure["value"] > 0
    assert "extrapolated" in figures["treys_all_hands_s"]["note"]


def test_json_for_the_engine_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    figures = bench_json(capsys, "--only", "engine")["benchmarks"]["engine"]["figures"]
    rate = figures["player_hands_per_s"]
    assert rate["unit"] == "player-hands/s" and rate["target"] == 1_000_000
    assert rate["value"] > 0
    assert 0 < figures["foul_share"]["value"] < 1


def test_a_missing_comparison_library_is_reported_not_fatal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_find_spec = evaluate.importlib.util.find_spec
    monkeypatch.setattr(
        evaluate.importlib.util,
        "find_spec",
        lambda name: None if name == "treys" else real_find_spec(name),
    )
    figures = evaluate.run(BenchOptions(quick=True))
    assert figures["treys_all_hands_s"].value is None
    assert "not installed" in figures["treys_all_hands_s"].note
    assert figures["strength5_all_hands_s"].value > 0
    assert figures["phevaluator_all_hands_s"].value > 0


def test_unknown_benchmark_is_a_user_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown benchmark nope" in err and "evaluate" in err


def test_quick_figures_are_not_written(tmp_path: Path) -> None:
    assert main(["bench", "--quick", "--write", str(tmp_path / "b.md")]) == 2
    assert not (tmp_path / "b.md").exists()


def measurement(name: str, seconds: float) -> Measurement:
    figure = Figure(seconds, "s", target=1.0, note="best of 5 runs")
    return Measurement(name, f"title of {name}", {"time_s": figure}, wall_s=3.0)


def test_docs_page_keeps_the_intro_and_other_benchmarks(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_text("# Benchmarks\n\nWritten by hand.\n")
    write_page(page, [measurement("evaluate", 0.25), measurement("engine", 2.5)], MACHINE)
    write_page(page, [measurement("engine", 0.5)], MACHINE)
    text = page.read_text()
    assert text.startswith("# Benchmarks\n\nWritten by hand.\n")
    assert text.count(MARKER) == 1
    assert "| time_s | **0.25** | s | <= 1 s | met |" in text
    assert "| time_s | **0.5** | s | <= 1 s | met |" in text
    assert "**2.5**" not in text
    assert text.index("## evaluate") < text.index("## engine")
    assert "2 cores, Test CPU" in text


def test_every_registered_benchmark_has_a_name_and_title() -> None:
    assert [b.name for b in select(list(BENCHMARKS))] == list(BENCHMARKS)
    assert all(b.title for b in select(list(BENCHMARKS)))


def test_the_half_hour_benchmark_runs_only_when_named() -> None:
    assert [b.name for b in select()] == [n for n in BENCHMARKS if n not in ON_REQUEST]
    assert [b.name for b in select(["ten_million"])] == ["ten_million"] == list(ON_REQUEST)
