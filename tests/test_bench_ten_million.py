"""``ofc bench --only ten_million``: the archive-scale import and the dashboard on its database,
as one benchmark's figures (here on a quick sample of ten copies of one small file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.benchkit import histories
from pipeline.cli.bench import import_speed, ten_million
from pipeline.cli.main import main

pytestmark = pytest.mark.slow


def test_the_import_and_every_page_are_figures_of_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in (histories, import_speed, ten_million):
        monkeypatch.setattr(module, "CACHE", tmp_path)
    assert main(["bench", "--json", "--quick", "--only", "ten_million"]) == 0
    figures = json.loads(capsys.readouterr().out)["benchmarks"]["ten_million"]["figures"]
    hands = ten_million.QUICK_HANDS
    assert figures["hands_per_s"]["value"] * figures["import_s"]["value"] == pytest.approx(hands)
    assert figures["import_s"]["target"] == ten_million.TARGET_S
    assert figures["peak_memory_mb"]["target"] == import_speed.TARGET_MEMORY_MB
    pages = {name: f for name, f in figures.items() if name.endswith("_ms")}
    assert {"sidebar_ms", "overview_ms", "hands_ms", "hands_slowest_choice_ms"} <= set(pages)
    assert all(f["target"] == 500 and f["value"] > 0 for f in pages.values())
    assert f"{hands:,} hands" in pages["overview_ms"]["note"]
    # the simulated base is kept; the copies and the database are gone
    assert [p.name for p in tmp_path.iterdir()] == [f"import-en-{hands // 10}-0.txt"]
