"""Many small files read together (``parsers.batch``) give exactly what reading them one by one does.

Each comparison parses the same folder twice: batched, and with batching
off (``SMALL_FILE_BYTES = -1``: every file on its own, as before batching),
and asks for equal tables, equal per-file summaries, and rows that name
their own file and line.
"""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from parsers import batch, run
from pipeline.simulator.chunk import run_chunk
from pipeline.simulator.render import en as render_en
from pipeline.simulator.render import ru as render_ru
from pipeline.simulator.render.common import write_hands
from pipeline.simulator.run import plan_chunks
from tests.parse_helpers import parse

RENDER = {"en": render_en, "ru": render_ru}


def hand_texts(fmt: str, hands: int = 12) -> list[str]:
    """``hands`` simulated hands as texts of ``fmt``, one per hand."""
    spec = plan_chunks("pineapple-1-6-american", 3, hands, seed=5, source_format="jsonl")[0]
    done = run_chunk(spec)
    hero = spec.roster[spec.hero].name
    return list(RENDER[fmt].render_hands(done.hands, done.player_hands, done.placements, hero))


def write_files(folder: Path, texts: list[str], encoding: str = "utf-8") -> None:
    folder.mkdir()
    for i, text in enumerate(texts):
        write_hands(folder / f"hand-{i:03d}.txt", [text], encoding=encoding)


def both_ways(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``folder`` parsed batched, then one file at a time (summary and tables each), and how
    many files the batched parse read on their own (``parsers.run.parse_source``)."""
    alone_files = []
    read_alone = run.parse_source

    def counted(source, sink, options):
        alone_files.append(source.name)
        return read_alone(source, sink, options)

    monkeypatch.setattr(run, "parse_source", counted)
    batched = parse([folder], tmp_path / "batched")
    monkeypatch.undo()
    monkeypatch.setattr(batch, "SMALL_FILE_BYTES", -1)
    alone = parse([folder], tmp_path / "alone")
    return batched, alone, len(alone_files)


def assert_same(batched, alone) -> None:
    (s1, t1), (s2, t2) = batched, alone
    assert [(f.name, f.format, f.read, f.stored, f.rejected, f.note) for f in s1.files] == [
        (f.name, f.format, f.read, f.stored, f.rejected, f.note) for f in s2.files
    ]
    for name in t1:
        key = [c for c in ("hand_id", "seat", "street", "row", "card") if c in t1[name].columns]
        key = key or ["source_file", "source_line"]
        assert_frame_equal(t1[name].sort(key), t2[name].sort(key), check_dtypes=False)


@pytest.mark.parametrize(("fmt", "encoding"), [("en", "utf-8"), ("ru", "utf-8"), ("ru", "cp1251")])
def test_one_hand_files_batched_as_alone(fmt, encoding, tmp_path, monkeypatch):
    texts = hand_texts(fmt)
    if encoding == "cp1251":
        spec = plan_chunks("pineapple-1-6-american", 3, 12, seed=5, source_format="jsonl")[0]
        done = run_chunk(spec)
        hero = spec.roster[spec.hero].name
        texts = list(
            render_ru.render_hands(
                done.hands, done.player_hands, done.placements, hero, cp1251=True
            )
        )
    write_files(tmp_path / "in", texts, encoding)
    batched, alone, read_alone = both_ways(tmp_path / "in", tmp_path, monkeypatch)
    assert_same(batched, alone)
    assert read_alone == 0  # every file was read in the joined chunk
    hands = batched[1]["hands"]
    assert hands.height == len(texts)
    assert hands.get_column("source_line").unique().to_list() == [1]
    assert hands.get_column("source_file").n_unique() == len(texts)


def test_messy_files_read_one_by_one(tmp_path, monkeypatch):
    """A repeated room id across files, stray lines and a broken hand are per-file matters."""
    texts = hand_texts("en")
    texts[3] = texts[2]  # the same hand in two files: stored in both, as one by one
    texts[5] = "junk before the hand\n\n" + texts[5]
    texts[7] = texts[7].replace("*** SHOWDOWN ***", "*** SHOWDOWN ***\nnonsense")
    write_files(tmp_path / "in", texts)
    batched, alone, read_alone = both_ways(tmp_path / "in", tmp_path, monkeypatch)
    assert_same(batched, alone)
    assert batched[0].rejected >= 2
    assert read_alone == 3  # the messy files alone (2 copies: the second), the runs joined


def test_each_messy_file_is_read_on_its_own_once(tmp_path, monkeypatch):
    """Every other file cut short: each cut file is read once on its own and the clean runs
    between them joined (halving down to single files read every file on its own, a
    thorough read of about 0.1 s each)."""
    texts = hand_texts("en", hands=16)
    for i in range(0, len(texts), 2):
        texts[i] = texts[i][: texts[i].index("*** STREET 3 ***")]
    write_files(tmp_path / "in", texts)
    batched, alone, read_alone = both_ways(tmp_path / "in", tmp_path, monkeypatch)
    assert_same(batched, alone)
    assert (batched[0].stored, batched[0].rejected) == (8, 8)
    assert read_alone == 8


def test_rows_name_their_file_and_line(tmp_path):
    texts = hand_texts("en", 4)
    write_files(tmp_path / "in", ["\n\n" + texts[0], texts[1] + "\n\n" + texts[2], texts[3]])
    (summary, tables) = parse([tmp_path / "in"], tmp_path / "out")
    assert [f.stored for f in summary.files] == [1, 2, 1]
    where = tables["hands"].sort("source_file", "source_line").select("source_file", "source_line")
    content = (tmp_path / "in" / "hand-001.txt").read_text().split("\n")
    second = content.index(texts[2].split("\n")[0]) + 1
    assert where.get_column("source_line").to_list() == [3, 1, second, 1]
    assert [Path(f).name for f in where.get_column("source_file")] == [
        "hand-000.txt",
        "hand-001.txt",
        "hand-001.txt",
        "hand-002.txt",
    ]


def test_mixed_formats_and_large_files_keep_their_own_reader(tmp_path, monkeypatch):
    folder = tmp_path / "in"
    folder.mkdir()
    for i, text in enumerate(hand_texts("en", 3)):
        write_hands(folder / f"a-{i}.txt", [text])
    for i, text in enumerate(hand_texts("ru", 3)):
        write_hands(folder / f"b-{i}.txt", [text])
    (folder / "c-empty.txt").write_text("nothing here\n")
    batched, alone, read_alone = both_ways(folder, tmp_path, monkeypatch)
    assert_same(batched, alone)
    assert read_alone == 1  # the file with no hand
    assert [f.format for f in batched[0].files] == ["en"] * 3 + ["ru"] * 3 + [None]
    assert pl.concat([batched[1]["hands"]]).height == 6


def test_zip_members_gz_files_and_byte_order_marks_batched_as_alone(tmp_path, monkeypatch):
    texts = hand_texts("en", 6)
    folder = tmp_path / "in"
    folder.mkdir()
    with zipfile.ZipFile(folder / "archive.zip", "w") as archive:
        for i, text in enumerate(texts[:3]):
            archive.writestr(f"hand-{i}.txt", text + "\n")
    for i, text in enumerate(texts[3:5]):
        (folder / f"hand-{i}.txt.gz").write_bytes(gzip.compress(text.encode()))
    write_hands(folder / "hand-bom.txt", [texts[5]], bom=True, newline="\r\n")
    batched, alone, read_alone = both_ways(folder, tmp_path, monkeypatch)
    assert_same(batched, alone)
    assert read_alone == 0
    assert batched[0].stored == 6 and batched[0].rejected == 0
