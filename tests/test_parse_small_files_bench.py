"""``ofc bench --only small_files``: one-hand files against one file, parsed and imported, from
a quick run."""

from __future__ import annotations

import gzip
import json

import pytest

from pipeline.benchkit.histories import simulated
from pipeline.cli.bench import small_files
from pipeline.cli.main import main

pytestmark = pytest.mark.slow


def test_quick_small_files_benchmark_reports_both_and_their_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--json", "--quick", "--only", "small_files"]) == 0
    figures = json.loads(capsys.readouterr().out)["benchmarks"]["small_files"]["figures"]
    many, one = figures["many_files_cpu_s"]["value"], figures["one_file_cpu_s"]["value"]
    assert many > 0 and one > 0
    ratio = figures["many_over_one"]
    assert ratio["value"] == pytest.approx(many / one, rel=0.01)
    assert ratio["target"] == small_files.TARGET_RATIO and ratio["better"] == "lower"
    assert figures["files_100k_minutes"]["target"] == small_files.TARGET_100K_MINUTES
    imported = figures["import_many_files_s"]["value"], figures["import_one_file_s"]["value"]
    assert figures["import_many_over_one"]["value"] == pytest.approx(imported[0] / imported[1])
    assert figures["import_many_over_one"]["target"] == small_files.TARGET_RATIO
    packed = figures["import_many_gz_files_s"]["value"]
    assert figures["import_gz_over_one"]["value"] == pytest.approx(packed / imported[1])


def test_the_folder_holds_one_file_per_hand() -> None:
    path = simulated(small_files.NAME, "en", small_files.QUICK_HANDS, seed=0)
    folder = small_files.one_hand_files(path)
    texts = [p.read_text() for p in sorted(folder.iterdir())]
    assert len(texts) == small_files.QUICK_HANDS
    assert all(t.startswith("OFC Hand #") and t.count("OFC Hand #") == 1 for t in texts)
    packed = small_files.one_hand_files(path, packed=True)
    assert [gzip.decompress(p.read_bytes()).decode() for p in sorted(packed.iterdir())] == texts
