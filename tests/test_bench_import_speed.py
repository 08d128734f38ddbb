"""``ofc bench --only import_speed``: the import of the same hands in ``en`` and ``ru`` side by
side; ``import_speed.copies``: the larger one-off runs read copies of one file, every hand of
every copy new to the import, in both formats alike."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from parsers.run import parse_files
from pipeline.benchkit import histories
from pipeline.cli.bench import import_speed
from pipeline.cli.bench.import_speed import NUMBERED, copies
from pipeline.cli.main import main

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


@pytest.mark.parametrize("fmt", sorted(NUMBERED))
def test_every_hand_of_every_copy_is_stored(fmt: str, tmp_path: Path) -> None:
    packed = sorted((SAMPLE / fmt).glob("*.txt.gz"))[0]
    base = tmp_path / "base.txt"
    base.write_bytes(gzip.decompress(packed.read_bytes()))
    alone = parse_files([base], tmp_path / "alone", workers=1)
    (tmp_path / "copies").mkdir()
    made = copies(base, 3, tmp_path / "copies", fmt)
    together = parse_files(made, tmp_path / "together", workers=1)
    assert alone.rejected == together.rejected == 0
    hands = pq.read_table(tmp_path / "together" / "hands")
    matches = pq.read_table(tmp_path / "alone" / "hands").column("match_id")
    assert alone.stored > 0
    assert pc.count_distinct(hands.column("hand_id")).as_py() == 3 * alone.stored
    assert (
        pc.count_distinct(hands.column("match_id")).as_py()
        == 3 * pc.count_distinct(matches).as_py()
    )


@pytest.mark.slow
def test_quick_run_imports_the_same_hands_in_both_formats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in (histories, import_speed):
        monkeypatch.setattr(module, "CACHE", tmp_path)
    assert main(["bench", "--json", "--quick", "--only", "import_speed"]) == 0
    figures = json.loads(capsys.readouterr().out)["benchmarks"]["import_speed"]["figures"]
    hands = import_speed.QUICK_HANDS
    assert figures["hands_per_s"]["value"] * figures["import_s"]["value"] == pytest.approx(hands)
    assert figures["ru_hands_per_s"]["value"] * figures["ru_import_s"]["value"] == pytest.approx(
        hands
    )
    ratio = figures["ru_import_s"]["value"] / figures["import_s"]["value"]
    assert figures["ru_over_en"]["value"] == pytest.approx(ratio)
    assert "ru hands" in figures["ru_import_s"]["note"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"import-{fmt}-{hands}-0.txt" for fmt in ("en", "ru")
    ]  # the inputs are kept, the databases are gone
