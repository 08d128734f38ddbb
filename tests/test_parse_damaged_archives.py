"""Archives whose compressed data fails its checks (a bad CRC, a broken deflate stream):
no hand of the text read since the last chunk is stored, since the damage may be anywhere
in it; each is one "compressed data damaged" reject at its header, with its room id, and the
rest of the file, which did not read, is one more. Counts reconcile; the archive's other
members are read as usual."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import pytest

from parsers.lines import HEAD_BYTES, READ_BLOCK
from tests.import_support import en_hands, ofc_import, query, simulate
from tests.parse_helpers import parse


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    history = simulate(tmp_path_factory.mktemp("h") / "h.txt", 60, seed=2).read_text()
    return en_hands(history)


def _text(hands: list[str]) -> bytes:
    return "\n".join(hands).encode()


def _damaged_gz(data: bytes, path: Path) -> Path:
    """``data`` gzipped with one bit of its CRC flipped: every byte decompresses, none can
    be trusted."""
    packed = bytearray(gzip.compress(data))
    packed[-6] ^= 1  # the CRC-32 is the trailer's first four bytes
    path.write_bytes(packed)
    return path


def _accounted(summary) -> None:
    for f in summary.files:
        assert f.read == f.stored + f.rejected


def _damage_rejects(rejects, name: str, room_ids: list[str]) -> None:
    """One reject per hand (its room id; a hand that reads is shown by its header, one that
    does not keeps its own reason too), then the rest of the file."""
    rows = rejects.sort("source_line").to_dicts()
    *per_hand, rest = rows
    assert all(r["source_file"] == name for r in rows)
    assert all(r["reason"].startswith("compressed data damaged") for r in rows), rows
    assert [r["room_hand_id"] for r in per_hand] == room_ids
    readable = [r for r in per_hand if "not stored, its text may be wrong" in r["reason"]]
    assert readable and all(r["excerpt"].startswith("OFC Hand #") for r in readable)
    assert "the rest of the file did not read" in rest["reason"]
    assert "copy or download the file again" in rest["reason"]


def _room_ids(hands: list[str]) -> list[str]:
    return [h.split("#", 1)[1].split(":", 1)[0] for h in hands]


def test_a_gz_failing_its_crc_stores_no_hand_and_rejects_each(hands, tmp_path: Path) -> None:
    path = _damaged_gz(_text(hands), tmp_path / "h.txt.gz")
    summary, tables = parse([path], tmp_path / "out")
    _accounted(summary)
    [f] = summary.files
    assert (f.stored, f.rejected) == (0, len(hands) + 1)
    assert "stopped reading: CRC check failed" in f.note
    assert tables["hands"].height == 0
    _damage_rejects(tables["rejects"], str(path), _room_ids(hands))


def test_a_zip_member_failing_its_crc_leaves_the_other_members_stored(
    hands, tmp_path: Path
) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("a.txt", _text(hands[:30]))
        archive.writestr("b.txt", _text(hands[30:]))
    data = bytearray(path.read_bytes())
    at = data.index(b"OFC Hand #", data.index(b"b.txt"))  # stored: the text is in the file
    data[at + 200] ^= 0x20  # one changed letter inside b.txt's first hand
    path.write_bytes(data)
    summary, tables = parse([path], tmp_path / "out")
    _accounted(summary)
    good, bad = sorted(summary.files, key=lambda f: f.name)
    assert (good.stored, good.rejected) == (30, 0)
    assert bad.stored == 0 and bad.read >= 2
    assert "Bad CRC-32" in bad.note
    assert tables["hands"].height == 30
    rejects = tables["rejects"]
    read_hands = bad.read - 1  # the hands read before the damage showed, then the rest
    _damage_rejects(rejects, f"{path}!/b.txt", _room_ids(hands[30 : 30 + read_hands]))


def test_an_import_of_a_damaged_gz_counts_every_hand_as_rejected(hands, tmp_path: Path) -> None:
    path = _damaged_gz(_text(hands), tmp_path / "h.txt.gz")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(path, "--db", db, "--workers", "1") == 0
    [(read, stored, rejected)] = query(
        db, "SELECT hands_read, hands_added, rejects_added FROM imports"
    )
    assert (read, stored, rejected) == (len(hands) + 1, 0, len(hands) + 1)
    [(damaged,)] = query(
        db, "SELECT count(*) FROM rejects WHERE reason LIKE 'compressed data damaged%'"
    )
    assert damaged == len(hands) + 1


def test_an_ofc_jsonl_gz_failing_its_crc_rejects_each_hand_at_its_line(tmp_path: Path) -> None:
    plain = simulate(tmp_path / "h.jsonl", 40, seed=3, fmt="jsonl")
    _, clean = parse([plain], tmp_path / "clean")
    room_ids = clean["hands"].sort("source_line").get_column("room_hand_id").to_list()
    path = _damaged_gz(plain.read_bytes(), tmp_path / "h.jsonl.gz")
    summary, tables = parse([path], tmp_path / "out")
    _accounted(summary)
    [f] = summary.files
    assert (f.stored, f.rejected) == (0, 41) and "stopped reading: CRC check failed" in f.note
    rows = tables["rejects"].sort("source_line").to_dicts()
    *per_hand, rest = rows
    assert [(r["source_line"], r["room_hand_id"]) for r in per_hand] == list(
        zip(range(1, 41), room_ids, strict=True)
    )
    assert all("not stored, its text may be wrong" in r["reason"] for r in per_hand)
    assert rest["source_line"] == 41 and "the rest of the file did not read" in rest["reason"]


def test_a_member_failing_its_crc_at_its_end_loses_at_most_one_read_of_text(
    hands, tmp_path: Path
) -> None:
    """zipfile checks a member's CRC when a read reaches its end and raises instead of
    returning what that read decompressed: reads of ``READ_BLOCK`` keep the loss to the
    hands of the last block (one asking for the whole chunk lost every hand after the head).
    """
    many = hands * 6  # the same hands again: each copy is damaged text, rejected on its own
    text = _text(many)
    assert len(text) > HEAD_BYTES + READ_BLOCK  # the member takes more than two reads
    path = tmp_path / "one.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.txt", text)
    crc = zipfile.ZipFile(path).getinfo("a.txt").CRC.to_bytes(4, "little")
    path.write_bytes(
        path.read_bytes().replace(crc, (~int.from_bytes(crc) & 0xFFFF_FFFF).to_bytes(4))
    )
    summary, tables = parse([path], tmp_path / "out")
    _accounted(summary)
    [f] = summary.files
    assert f.stored == 0 and "Bad CRC-32" in f.note
    ends = [len(_text(many[: i + 1])) for i in range(len(many))]
    before_the_last_read = sum(end <= len(text) - READ_BLOCK for end in ends)
    assert f.rejected - 1 >= before_the_last_read > len(many) // 2
    _damage_rejects(tables["rejects"], f"{path}!/a.txt", _room_ids(many[: f.rejected - 1]))
