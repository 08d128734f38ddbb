"""Archives cut short (a download or copy that stopped): a ``.gz`` keeps every whole hand
before the cut, wherever the cut falls (inside the first 64 KB that tell the format too, in a
small file read with others), and the hand the cut falls in is one "archive truncated" reject
at its header line, with its room id and that line as excerpt; a ``.zip`` whose list of
members is lost is one reject saying the archive is damaged, not its bytes read as text."""

from __future__ import annotations

import gzip
import re
import zipfile
from pathlib import Path

import pytest

from parsers.lines import CUT_AFTER, CUT_INSIDE
from tests.import_support import en_hands, ofc_import, query, simulate
from tests.parse_helpers import parse


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return simulate(tmp_path_factory.mktemp("h") / "h.txt", 200, seed=1).read_bytes()


def _cut_gz(text: bytes, path: Path, fraction: float) -> Path:
    data = gzip.compress(text)
    path.write_bytes(data[: int(len(data) * fraction)])
    return path


def _readable(path: Path) -> bytes:
    """What a cut ``.gz`` gives before its decompressor stops at the cut."""
    read, got = gzip.GzipFile(path).read1, b""
    try:
        while part := read(1 << 16):
            got += part
    except EOFError:
        pass
    return got


class Expected:
    """What a cut ``.gz`` holds: its whole hands, and the header line of the hand cut."""

    def __init__(self, path: Path) -> None:
        got = _readable(path)
        whole = got[: got.rfind(b"\n\n") + 2]
        self.hands = len(en_hands(whole.decode()))
        self.line = whole.count(b"\n") + 1
        self.header = got[len(whole) :].split(b"\n")[0].decode()
        assert self.header.startswith("OFC Hand #"), self.header
        self.room_id = re.match(r"OFC Hand #(\d+)", self.header).group(1)


def _accounted(summary) -> None:
    for f in summary.files:
        assert f.read == f.stored + f.rejected


def _only_truncated_reject(rejects, name: str, expected: Expected) -> None:
    [reject] = rejects.to_dicts()
    assert reject["source_file"] == name
    assert reject["reason"].startswith("archive truncated"), reject
    assert "hands before it are kept" in reject["reason"]
    assert reject["source_line"] == expected.line
    assert reject["room_hand_id"] == expected.room_id
    assert reject["excerpt"] == expected.header


def test_a_gz_cut_after_its_last_hand_does_not_say_a_hand_was_cut(
    history: bytes, tmp_path: Path
) -> None:
    """Only the trailer (the text's CRC and size, 8 bytes) is lost: every hand is stored,
    and the one reject says the archive ends early, not that it ends inside a hand."""
    data = gzip.compress(history)
    cut = tmp_path / "t.gz"
    cut.write_bytes(data[:-8])
    summary, tables = parse([cut], tmp_path / "out")
    _accounted(summary)
    [f] = summary.files
    assert (f.stored, f.rejected) == (200, 1)
    [reject] = tables["rejects"].to_dicts()
    assert reject["reason"] == (
        "archive truncated: the compressed data ends after the last whole hand, so the hands"
        " after it, if any, are missing; the hands before it are kept (copy or download the"
        " file again for the rest)"
    )
    assert reject["source_line"] == history.count(b"\n") + 1


@pytest.mark.parametrize("fraction", [1 / 20, 1 / 40])
def test_a_gz_cut_within_its_first_64_kb_keeps_the_hands_before_the_cut(
    history: bytes, tmp_path: Path, fraction: float
) -> None:
    cut = _cut_gz(history, tmp_path / "t.gz", fraction)
    expected = Expected(cut)
    assert expected.hands >= 2
    summary, tables = parse([cut], tmp_path / "out")
    _accounted(summary)
    [f] = summary.files
    assert (f.format, f.read, f.stored, f.rejected) == ("en", expected.hands + 1, expected.hands, 1)
    assert tables["hands"].height == expected.hands
    _only_truncated_reject(tables["rejects"], str(cut), expected)


def test_a_gz_cut_after_its_first_64_kb_names_the_cut_hand(history: bytes, tmp_path: Path) -> None:
    cut = _cut_gz(history, tmp_path / "t.gz", 1 / 2)
    expected = Expected(cut)
    summary, tables = parse([cut], tmp_path / "out")
    _accounted(summary)
    assert summary.stored == expected.hands and summary.rejected == 1
    _only_truncated_reject(tables["rejects"], str(cut), expected)


@pytest.fixture
def small_files(history: bytes, tmp_path: Path) -> tuple[Path, Expected]:
    """A folder of one-hand files and a 20-hand ``.gz`` cut in half among them."""
    folder = tmp_path / "small"
    folder.mkdir()
    hands = en_hands(history.decode())
    for i in range(6):
        (folder / f"h{i}.txt").write_text(hands[i], encoding="utf-8")
    cut = _cut_gz("\n".join(hands[100:120]).encode(), folder / "h3-cut.txt.gz", 1 / 2)
    return folder, Expected(cut)


def test_a_small_cut_gz_among_small_files_keeps_the_hands_before_the_cut(
    small_files: tuple[Path, Expected], tmp_path: Path
) -> None:
    folder, expected = small_files
    summary, tables = parse([folder], tmp_path / "out")
    _accounted(summary)
    assert summary.stored == 6 + expected.hands and summary.rejected == 1
    _only_truncated_reject(tables["rejects"], str(folder / "h3-cut.txt.gz"), expected)


def test_an_import_of_a_cut_gz_among_small_files_keeps_the_hands_before_the_cut(
    small_files: tuple[Path, Expected], tmp_path: Path
) -> None:
    folder, expected = small_files
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(folder, "--db", db, "--workers", "1") == 0
    [(read, stored, rejected)] = query(
        db, "SELECT hands_read, hands_added, rejects_added FROM imports"
    )
    assert (read, stored, rejected) == (6 + expected.hands + 1, 6 + expected.hands, 1)
    [(line, room_id, reason, excerpt)] = query(
        db, "SELECT source_line, room_hand_id, reason, excerpt FROM rejects"
    )
    assert reason.startswith("archive truncated")
    assert (line, room_id, excerpt) == (expected.line, expected.room_id, expected.header)


@pytest.fixture
def cut_zip(history: bytes, tmp_path: Path) -> Path:
    """A zip of two members, cut to 3/4 of its length (its list of members is lost)."""
    hands = en_hands(history.decode())
    whole = tmp_path / "two.zip"
    with zipfile.ZipFile(whole, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.txt", "\n".join(hands[:100]))
        archive.writestr("b.txt", "\n".join(hands[100:]))
    data = whole.read_bytes()
    cut = tmp_path / "cut.zip"
    cut.write_bytes(data[: len(data) * 3 // 4])
    whole.unlink()
    return cut


def test_a_truncated_zip_is_one_reject_saying_the_archive_is_damaged(
    cut_zip: Path, tmp_path: Path
) -> None:
    summary, tables = parse([cut_zip], tmp_path / "out")
    _accounted(summary)
    [f] = summary.files
    assert (f.read, f.stored, f.rejected) == (1, 0, 1)
    assert "zip archive damaged or truncated" in f.note and "no hand header" not in f.note
    [reject] = tables["rejects"].to_dicts()
    assert reject["source_file"] == str(cut_zip) and reject["source_line"] == 1
    assert reject["reason"].startswith("zip archive damaged or truncated"), reject
    assert "copy or download it again" in reject["reason"]


def test_an_import_of_a_truncated_zip_says_the_archive_is_damaged(
    cut_zip: Path, tmp_path: Path
) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(cut_zip, "--db", db, "--workers", "1") == 0
    [(read, stored, rejected)] = query(
        db, "SELECT hands_read, hands_added, rejects_added FROM imports"
    )
    assert (read, stored, rejected) == (1, 0, 1)
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert reason.startswith("zip archive damaged or truncated"), reason


def test_a_file_named_zip_holding_text_is_read_as_text(history: bytes, tmp_path: Path) -> None:
    named = tmp_path / "not-really.zip"
    named.write_bytes(b"\n\n".join(history.split(b"\n\n")[:3]))
    summary, _ = parse([named], tmp_path / "out")
    assert (summary.stored, summary.rejected) == (3, 0)


@pytest.mark.parametrize("fraction", [0.5, 0.05])
def test_an_ofc_jsonl_gz_cut_short_keeps_the_hands_before_the_cut(tmp_path, fraction):
    """ofc-jsonl holds a hand a line: the whole lines before the cut are stored, and the
    line cut is one "archive truncated" reject at its number."""
    text = simulate(tmp_path / "h.jsonl", 200, seed=1, fmt="jsonl").read_bytes()
    path = _cut_gz(text, tmp_path / "h.jsonl.gz", fraction)
    got = _readable(path)
    whole = got[: got.rfind(b"\n") + 1].count(b"\n")
    summary, tables = parse([path], tmp_path / "out")
    _accounted(summary)
    assert 0 < tables["hands"].height <= whole
    [reject] = tables["rejects"].to_dicts()
    assert reject["reason"].startswith("archive truncated"), reject
    assert "hands before it are kept" in reject["reason"]
    assert reject["source_line"] == tables["hands"].height + 1
    assert reject["reason"].startswith(f"{CUT_INSIDE};")


def test_an_ofc_jsonl_gz_cut_after_its_last_line_does_not_say_a_hand_was_cut(tmp_path):
    text = simulate(tmp_path / "h.jsonl", 50, seed=1, fmt="jsonl").read_bytes()
    path = tmp_path / "h.jsonl.gz"
    path.write_bytes(gzip.compress(text)[:-8])  # only the trailer: the text's CRC and size
    summary, tables = parse([path], tmp_path / "out")
    _accounted(summary)
    assert tables["hands"].height == 50
    [reject] = tables["rejects"].to_dicts()
    assert reject["reason"].startswith(f"{CUT_AFTER};") and reject["source_line"] == 51
