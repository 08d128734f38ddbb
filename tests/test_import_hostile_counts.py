"""Hostile files whose counts must add up (read = stored + rejected) with reasons that say what
is wrong: a truncated ``.gz``, a file mixing UTF-8 and Windows-1251, a huge table size, a line
over the length limit."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from parsers.limits import MAX_LINE_BYTES
from tests.import_support import en_hands, ofc_import, query, simulate


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulate(tmp_path_factory.mktemp("h") / "h.txt", 60, seed=21)


def _import(path: Path, tmp_path: Path) -> tuple[tuple[int, int, int], list[tuple]]:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(path, "--db", db) == 0
    counts = query(db, "SELECT hands_read, hands_added, rejects_added FROM imports")[0]
    read, stored, rejected = counts
    assert read == stored + rejected
    return counts, query(db, "SELECT source_line, reason FROM rejects ORDER BY source_line")


def test_a_truncated_gz_keeps_the_hands_before_the_cut(history: Path, tmp_path: Path) -> None:
    data = gzip.compress(history.read_bytes())
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(data[: len(data) * 2 // 3])
    readable = gzip.GzipFile(cut).read1  # how far a reader gets
    got = b""
    try:
        while chunk := readable(1 << 16):
            got += chunk
    except EOFError:
        pass
    whole = len(en_hands(got.decode(errors="replace"))) - 1  # the last one is cut
    (read, stored, rejected), rejects = _import(cut, tmp_path)
    assert stored == whole and rejected == 1 and read == whole + 1
    [(line, reason)] = rejects
    assert "archive truncated" in reason
    assert line == got[: got.rfind(b"\n\n")].count(b"\n") + 3  # the cut hand's first line


def test_a_file_mixing_utf8_and_windows_1251_names_the_encoding(tmp_path: Path) -> None:
    utf8 = simulate(tmp_path / "ru1.txt", 600, seed=22, fmt="ru").read_bytes()
    assert len(utf8) > 1 << 20  # the encoding is chosen on the first megabyte: UTF-8
    cp1251 = simulate(tmp_path / "ru2.txt", 5, seed=23, fmt="ru").read_text(encoding="utf-8")
    mixed = tmp_path / "mixed.txt"
    mixed.write_bytes(utf8 + b"\n" + cp1251.encode("cp1251", errors="replace"))
    (_, stored, rejected), rejects = _import(mixed, tmp_path)
    assert stored == 600 and rejected >= 1
    assert any("Windows-1251" in reason and "UTF-8" in reason for _, reason in rejects), rejects


def test_a_file_starting_in_windows_1251_names_the_utf8_part(tmp_path: Path) -> None:
    cp1251 = simulate(tmp_path / "ru1.txt", 600, seed=24, fmt="ru").read_text(encoding="utf-8")
    as_cp1251 = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "−": "-", "₽": "RUB", "€": "EUR"}
    first = cp1251.translate(str.maketrans(as_cp1251)).encode("cp1251", "replace")
    assert len(first) > 1 << 20  # the encoding is chosen on the first megabyte: Windows-1251
    utf8 = simulate(tmp_path / "ru2.txt", 5, seed=25, fmt="ru").read_bytes()
    mixed = tmp_path / "mixed.txt"
    mixed.write_bytes(first + b"\n" + utf8)
    (_, stored, rejected), rejects = _import(mixed, tmp_path)
    assert stored == 600 and rejected >= 1
    [(_, reason)] = [r for r in rejects if "outside any hand" in r[1]]
    assert "UTF-8 text read as Windows-1251, the encoding the file starts in" in reason, reason


def test_a_huge_table_size_says_what_is_wrong(history: Path, tmp_path: Path) -> None:
    hands = en_hands(history.read_text(encoding="utf-8"))
    bad = [hands[0].replace("3-max", "300-max", 1), hands[1].replace("3-max", "9" * 30 + "-max")]
    path = tmp_path / "huge.txt"
    path.write_text("\n".join([*bad, *hands[2:]]), encoding="utf-8")
    (read, stored, rejected), rejects = _import(path, tmp_path)
    assert (read, stored, rejected) == (60, 58, 2)
    for _, reason in rejects:
        assert "internal error" not in reason and "table size" in reason, reason


def test_a_line_over_the_limit_is_one_reject(history: Path, tmp_path: Path) -> None:
    text = history.read_bytes()
    junk = tmp_path / "junk.txt"
    junk.write_bytes(text + b"\n" + b"x" * (3 * MAX_LINE_BYTES) + b"\n\n" + text[:0])
    (read, stored, rejected), rejects = _import(junk, tmp_path)
    assert (read, stored, rejected) == (61, 60, 1)
    [(_, reason)] = rejects
    assert f"a line of {3 * MAX_LINE_BYTES:,} bytes or more, over the limit" in reason
    assert "docs/parsers.md" in reason
