"""``ofc simulate`` writes readable files (gzipped on request) and explains bad options in
one line."""

from __future__ import annotations

import gzip

import pytest

from parsers.jsonl import read_jsonl
from pipeline.cli.main import main


def test_writes_jsonl_that_reads_back(tmp_path):
    out = tmp_path / "sim.jsonl"
    code = main(
        [
            "simulate",
            "--ruleset",
            "turbo-1-6-american",
            "--players",
            "2",
            "--hands",
            "30",
            "--seed",
            "1",
            "--out",
            str(out),
            "--workers",
            "1",
        ]
    )
    assert code == 0
    tables = read_jsonl(out)
    assert tables["hands"].num_rows == 30
    assert tables["rejects"].num_rows == 0
    assert set(tables["hands"]["ruleset"].to_pylist()) == {"turbo-1-6-american"}


@pytest.mark.parametrize("fmt,first_words", [("en", "OFC Hand #"), ("ru", "Раздача №")])
def test_writes_room_text_from_the_heros_view(tmp_path, fmt, first_words):
    out = tmp_path / f"sim.{fmt}.txt"
    code = main(
        [
            "simulate",
            "--ruleset",
            "pineapple-1-6-american",
            "--hands",
            "12",
            "--seed",
            "2",
            "--format",
            fmt,
            "--bots",
            "Hero Hanna=tight,aggressive,random",
            "--hero",
            "Hero Hanna",
            "--out",
            str(out),
            "--workers",
            "1",
        ]
    )
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith(first_words)
    assert text.count(first_words) == 12
    assert "Hero Hanna" in text


def test_a_gz_name_writes_gzip_the_same_bytes_for_the_same_seed(tmp_path):
    """``--out x.txt.gz`` compresses (the parsers read .gz) without a time stamp."""

    def write(name: str) -> bytes:
        out = tmp_path / name
        args = ["simulate", "--ruleset", "turbo-1-6-american", "--players", "2", "--hands", "8"]
        args += ["--seed", "4", "--format", "en", "--out", str(out), "--workers", "1"]
        assert main(args) == 0
        return out.read_bytes()

    first = write("a.txt.gz")
    plain = write("a.txt")
    assert gzip.decompress(first) == plain
    assert write("a.txt.gz") == first
    assert plain.decode("utf-8").count("OFC Hand #") == 8


@pytest.mark.parametrize(
    "args,words",
    [
        (["--ruleset", "no-such-rules"], "unknown ruleset"),
        (["--ruleset", "pineapple-1-6-american", "--players", "4"], "2 or 3 players"),
        (["--ruleset", "classic-1-6-american", "--bots", "tight,sleepy"], "unknown style"),
        (["--ruleset", "classic-1-6-american", "--hero", "Nobody"], "not in the roster"),
        (["--ruleset", "classic-1-6-american", "--misreport-rate", "2"], "between 0 and 1"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path, capsys, args, words):
    code = main(["simulate", "--hands", "5", "--out", str(tmp_path / "x.jsonl"), *args])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err
