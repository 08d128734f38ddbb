"""``ofc parse`` of zip archives of one file per hand (``parsers.archives``): each archive is
opened once, not once per member, and what is read is what the same files read from a folder
give; more archives than are kept open at once still read, and none stays open after."""

from __future__ import annotations

import os
import threading
import zipfile
from pathlib import Path

import polars as pl
import pytest

from parsers import archives
from parsers.run import parse_files
from tests.import_support import en_hands, simulate

TABLES = ("hands", "player_hands", "placements", "rejects")


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("hands")
    return en_hands(simulate(folder / "all.txt", 40, seed=17).read_text(encoding="utf-8"))


def _zip(path: Path, hands: list[str], prefix: str = "") -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for i, hand in enumerate(hands):
            archive.writestr(f"{prefix}h{i:03d}.txt", hand)
    return path


def _read(out: Path) -> dict[str, pl.DataFrame]:
    """The tables read, without the file names (which differ)."""
    return {
        t: pl.read_parquet(out / t / "*.parquet").drop("source_file", strict=False) for t in TABLES
    }


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_an_archive_reads_as_its_files_do(hands: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    for i, hand in enumerate(hands):
        (folder / f"h{i:03d}.txt").write_text(hand, encoding="utf-8")
    archive = _zip(tmp_path / "hands.zip", hands)
    opened: list[str] = []
    real = zipfile.ZipFile.__init__

    def counting(self: zipfile.ZipFile, file: object, *args: object, **kwargs: object) -> None:
        opened.append(str(file))
        real(self, file, *args, **kwargs)

    zipfile.ZipFile.__init__ = counting  # type: ignore[method-assign]
    try:
        summary = parse_files([archive], tmp_path / "from-zip")
    finally:
        zipfile.ZipFile.__init__ = real  # type: ignore[method-assign]
    parse_files([folder], tmp_path / "from-folder")
    assert summary.stored == len(hands) and summary.rejected == 0
    assert opened.count(str(archive)) <= 2  # listing its members, then reading them all
    got, want = _read(tmp_path / "from-zip"), _read(tmp_path / "from-folder")
    assert all(got[t].equals(want[t]) for t in TABLES)


def test_more_archives_than_are_kept_open(hands: list[str], tmp_path: Path) -> None:
    count = archives.KEPT + 4
    paths = [_zip(tmp_path / f"a{k:02d}.zip", hands[2 * k : 2 * k + 2]) for k in range(count)]
    before = _open_files()
    summary = parse_files(paths, tmp_path / "out", workers=1)
    assert summary.stored == 2 * count
    assert _open_files() == before
    assert archives.kept_open() is None


def test_at_most_kept_archives_stay_open_each_thread_its_own(
    hands: list[str], tmp_path: Path
) -> None:
    paths = [_zip(tmp_path / f"b{k:02d}.zip", hands[:1]) for k in range(archives.KEPT + 3)]
    seen_by_another_thread: list[int | None] = []
    with archives.archives_kept_open():
        for path in paths:
            with archives.opened(path) as archive:
                assert archive.read("h000.txt").decode() == hands[0]
        assert archives.kept_open() == archives.KEPT
        other = threading.Thread(target=lambda: seen_by_another_thread.append(archives.kept_open()))
        other.start()
        other.join()
    assert seen_by_another_thread == [None]
    assert archives.kept_open() is None
