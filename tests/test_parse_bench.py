"""``ofc bench --only parse``: the parser's speed figures, from a quick run."""

from __future__ import annotations

import json

import pytest

from pipeline.benchkit.histories import simulated
from pipeline.cli.bench import parse as parse_bench
from pipeline.cli.main import main

pytestmark = pytest.mark.slow


def test_quick_parse_benchmark_reports_en_and_ru_side_by_side_against_the_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--json", "--quick", "--only", "parse"]) == 0
    figures = json.loads(capsys.readouterr().out)["benchmarks"]["parse"]["figures"]
    en = figures["en_hands_per_cpu_s"]
    assert en["target"] == parse_bench.TARGET_HANDS_PER_S and en["better"] == "higher"
    assert en["value"] > 0 and "one core" in en["note"]
    ru = figures["ru_hands_per_cpu_s"]
    assert ru["value"] > 0 and ru["target"] == parse_bench.TARGET_HANDS_PER_S
    assert figures["en_cpu_s"]["value"] > 0 and figures["en_start_cpu_s"]["value"] > 0


def test_one_timed_run_counts_every_hand_of_the_file(tmp_path) -> None:
    path = simulated(parse_bench.NAME, "en", parse_bench.QUICK_HANDS["en"], seed=0)
    result = parse_bench.measure_once(path, warm_up=path)
    assert result["read"] == parse_bench.QUICK_HANDS["en"]
    assert result["cpu_s"] > 0 and result["wall_s"] > 0 and result["start_cpu_s"] > 0
