"""``ofc parse``: the command line, its summary, its errors and its worker processes."""

from __future__ import annotations

import polars as pl

from pipeline.cli.main import main
from tests.parse_helpers import FIXTURES

EN = FIXTURES / "en" / "spec_example.txt"


def test_parse_prints_a_line_per_file_and_a_total(tmp_path, capsys):
    code = main(["parse", str(FIXTURES), "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    assert "spec_example.txt [en]: 1 read, 1 stored, 0 rejected" in out
    assert "total: 5 file(s), 5 hands read, 5 stored, 0 rejected" in out and "hands/s" in out
    assert "name no ruleset preset exactly" in out  # the ru spec example (parsers.header_words)
    for table in ("hands", "player_hands", "placements", "rejects"):
        assert list((tmp_path / "out" / table).glob("*.parquet")), table


def test_workers_split_files_and_store_the_same_hands(tmp_path, capsys):
    files = []
    for i in range(4):
        text = EN.read_text(encoding="utf-8").replace("#7402331950", f"#{i}")
        files.append(tmp_path / f"f{i}.txt")
        files[-1].write_text(text, encoding="utf-8")
    code = main(["parse", *map(str, files), "--out", str(tmp_path / "out"), "--workers", "2"])
    assert code == 0
    hands = pl.read_parquet(tmp_path / "out" / "hands")
    assert sorted(hands.get_column("room_hand_id")) == ["0", "1", "2", "3"]
    writers = {p.name.split("-")[1] for p in (tmp_path / "out" / "hands").glob("part-w*.parquet")}
    assert writers == {"w00", "w01"}
    assert "total: 4 file(s), 4 hands read, 4 stored, 0 rejected" in capsys.readouterr().out


def test_missing_input_is_a_one_line_error(tmp_path, capsys):
    code = main(["parse", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "out")])
    assert code == 2
    assert "no file or folder at" in capsys.readouterr().err


def test_the_total_counts_files_skipped_as_not_hand_histories(tmp_path, capsys):
    (tmp_path / "README.txt").write_text("notes on the session\n", encoding="utf-8")
    (tmp_path / "hand.txt").write_bytes(EN.read_bytes())
    assert main(["parse", str(tmp_path), "--out", str(tmp_path / "out")]) == 0
    assert "total: 2 file(s) (1 skipped), 1 hands read, 1 stored" in capsys.readouterr().out


def test_an_existing_dataset_needs_overwrite(tmp_path, capsys):
    assert main(["parse", str(EN), "--out", str(tmp_path / "out")]) == 0
    assert main(["parse", str(EN), "--out", str(tmp_path / "out")]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert main(["parse", str(EN), "--out", str(tmp_path / "out"), "--overwrite"]) == 0
    assert pl.read_parquet(tmp_path / "out" / "hands").height == 1


def test_unknown_ruleset_is_a_one_line_error(tmp_path, capsys):
    code = main(["parse", str(EN), "--out", str(tmp_path / "out"), "--ruleset", "house-rules"])
    assert code == 2
    assert "house-rules" in capsys.readouterr().err


def test_forced_format_reads_an_en_file_as_ru(tmp_path, capsys):
    code = main(["parse", str(EN), "--out", str(tmp_path / "out"), "--format", "ru"])
    assert code == 0
    assert "0 stored, 1 rejected" in capsys.readouterr().out


def test_a_forced_format_that_the_file_does_not_look_like_is_said(tmp_path, capsys):
    assert main(["parse", str(EN), "--format", "jsonl", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "(read as jsonl (--format), though it looks like en: --format auto" in out


def test_paths_with_no_hand_history_are_one_line_and_make_no_dataset(tmp_path, capsys):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "README.md").write_text("# my sessions\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["parse", str(tmp_path / "notes"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no hand history in" in err and "README.md" in err
    assert "not made" in err and not out.exists()
