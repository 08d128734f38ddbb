"""``ofc import`` reads consecutive small files together, as one staging task (``Batch``), and
stores exactly what reading them one by one stores: hands, their files and lines, rejects,
copies of one hand in two files (the first file's kept, the other counted or a conflict),
and what ``source_files`` remembers. The small members of a zip archive, and small ``.gz``
files, are read so too."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import pytest

from parsers.batch import SMALL_FILE_BYTES
from parsers.lines import Source
from pipeline.load.files import Batch, groups, gzip_size, to_read
from pipeline.load.importer import ImportOptions, _tasks, run_import
from pipeline.load.parsing import parse_files_together
from pipeline.load.progress import Progress
from tests.import_support import UNNUMBERED, en_hands, query, simulate

#: Smaller than any file: every file is read on its own (the reference).
ALONE = 64


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """60 one-hand files, a file repeating one of them, one changing another (a conflict),
    one with a broken hand, one with stray lines, and one in Windows-1251 (which ``en``
    files never are: its Cyrillic bytes do not decode, so the hand is rejected)."""
    folder = tmp_path_factory.mktemp("small")
    hands = en_hands(simulate(folder / "all.txt", 60, seed=81).read_text(encoding="utf-8"))
    (folder / "all.txt").unlink()
    for i, hand in enumerate(hands):
        (folder / f"h{i:03d}.txt").write_text(hand, encoding="utf-8")
    (folder / "h010-again.txt").write_text(hands[10], encoding="utf-8")
    (folder / "h020-changed.txt").write_text(hands[20].replace(" 3-max", " 6-max", 1), "utf-8")
    (folder / "h030-broken.txt").write_text(hands[30].replace("*** SHOWDOWN ***\n", ""), "utf-8")
    (folder / "h040-strays.txt").write_text("notes\n\n" + hands[40] + "\nmore notes\n", "utf-8")
    (folder / "h050-cp1251.txt").write_bytes(
        hands[50].replace("Table '", "Table 'Стол ").encode("cp1251")
    )
    return folder


def _tables(db: Path) -> dict[str, list[tuple]]:
    return {
        "counts": query(
            db,
            "SELECT hands_read, hands_added, hands_duplicate, hands_conflict, "
            "rejects_added FROM imports",
        ),
        "hands": query(
            db,
            "SELECT hand_id, fingerprint, source_file, source_line, table_name "
            "FROM hands ORDER BY hand_id",
        ),
        "rejects": query(db, "SELECT source_file, source_line, reason FROM rejects ORDER BY ALL"),
        "conflicts": query(db, "SELECT * EXCLUDE (import_id) FROM conflicts ORDER BY ALL"),
        "files": query(
            db,
            "SELECT path, size_bytes, bytes_imported, lines_imported, "
            "prefix_sha256, hands_read FROM source_files ORDER BY path",
        ),
        # hand_no: numbered by part, and the files' parts differ (tests/test_import_hand_numbers.py)
        "players": query(db, "SELECT * EXCLUDE (hand_no) FROM player_hands ORDER BY ALL"),
        "unnumbered": query(db, UNNUMBERED),
    }


def _together_and_alone(path: Path, tmp_path: Path) -> tuple[dict, dict]:
    """The tables of ``path`` imported with small inputs read together, then each alone."""
    together, alone = tmp_path / "together.duckdb", tmp_path / "alone.duckdb"
    for db, chunk_bytes in ((together, 16 << 20), (alone, ALONE)):
        options = ImportOptions(paths=(str(path),), db=db, chunk_bytes=chunk_bytes)
        run_import(options, Progress(quiet=True))
    return _tables(together), _tables(alone)


def test_small_files_are_read_in_one_task(folder: Path) -> None:
    files = [to_read(p, None, False) for p in sorted(folder.iterdir())]
    assert [len(g) for g in groups(files, 16 << 20, False)] == [len(files)]
    tasks = list(_tasks(files, 16 << 20, False, {}, {}))
    assert len(tasks) == 1 and isinstance(tasks[0][1], Batch)


def test_small_files_read_together_store_what_files_read_alone_do(
    folder: Path, tmp_path: Path
) -> None:
    got, want = _together_and_alone(folder, tmp_path)
    assert got == want
    read, added, duplicate, conflict, rejected = got["counts"][0]
    assert read == 67 and read == added + duplicate + conflict + rejected
    assert (duplicate, conflict) == (2, 1)  # h010 again, h040 beside strays; h020 changed
    assert rejected == 4  # the broken hand, the two runs of stray lines, the Windows-1251 hand


def test_small_members_of_a_zip_read_together_store_what_members_read_alone_do(
    folder: Path, tmp_path: Path
) -> None:
    archive = tmp_path / "hands.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        for path in sorted(folder.iterdir()):
            packed.write(path, f"export/{path.name}")
        packed.writestr(
            "export/big.txt",
            en_hands(simulate(tmp_path / "big.txt", 1, seed=5).read_text())[0]
            + "\n" * SMALL_FILE_BYTES,
        )
    files = [to_read(archive, None, False)]
    assert [len(g) for g in groups(files, 16 << 20, False)] == [1, 65]  # big.txt, then the rest
    got, want = _together_and_alone(archive, tmp_path)
    assert got == want
    read, added, duplicate, conflict, rejected = got["counts"][0]
    assert read == 68 and read == added + duplicate + conflict + rejected
    assert (duplicate, conflict, rejected) == (2, 1, 4)
    assert {row[2].split("!/")[1] for row in got["hands"]} >= {"export/h000.txt", "export/big.txt"}


def test_one_hand_zips_and_files_read_together_store_what_each_read_alone_does(
    folder: Path, tmp_path: Path
) -> None:
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for k, path in enumerate(sorted(folder.iterdir())):
        if k % 3:  # two in three zipped, one member each; the others plain
            with zipfile.ZipFile(mixed / f"{path.stem}.zip", "w") as packed:
                packed.write(path, path.name)
        else:
            (mixed / path.name).write_bytes(path.read_bytes())
    files = [to_read(p, None, False) for p in sorted(mixed.iterdir())]
    assert [len(g) for g in groups(files, 16 << 20, False)] == [len(files)]
    got, want = _together_and_alone(mixed, tmp_path)
    assert got == want
    assert got["counts"][0][0] == 67


def test_one_hand_gz_files_read_together_store_what_each_read_alone_does(
    folder: Path, tmp_path: Path
) -> None:
    """Small ``.gz`` files join the batches, by the size their trailer states; one whose trailer
    understates it (two members, the first large) is handed back and read on its own, and
    one stated larger than a small file is never batched."""
    packed = tmp_path / "packed"
    packed.mkdir()
    for k, path in enumerate(sorted(folder.iterdir())):
        name = f"{path.name}.gz" if k % 2 else path.name
        data = path.read_bytes()
        (packed / name).write_bytes(gzip.compress(data) if k % 2 else data)
    hands = en_hands(simulate(tmp_path / "more.txt", 3, seed=9).read_text(encoding="utf-8"))
    padding = "\n" * (SMALL_FILE_BYTES + 10)
    two_members = gzip.compress((hands[0] + padding).encode()) + gzip.compress(hands[1].encode())
    (packed / "h005-two-members.txt.gz").write_bytes(two_members)
    (packed / "z-large.txt.gz").write_bytes(gzip.compress((padding + hands[2]).encode()))
    two, one = str(packed / "h005-two-members.txt.gz"), str(packed / "h001.txt.gz")
    assert gzip_size(two) == len(hands[1])  # the last member's
    tables, _, apart = parse_files_together([Source(two), Source(one)], None)
    assert apart == {two} and tables["hands"].get_column("source_file").to_list() == [one]
    files = [to_read(p, None, False) for p in sorted(packed.iterdir())]
    assert [len(g) for g in groups(files, 16 << 20, False)] == [len(files) - 1, 1]  # z-large.txt.gz
    got, want = _together_and_alone(packed, tmp_path)
    assert got == want
    assert got["counts"][0][0] == 70
    stored = {row[2].rsplit("/", 1)[1] for row in got["hands"]}
    assert {"h005-two-members.txt.gz", "z-large.txt.gz", "h001.txt.gz", "h000.txt"} <= stored
