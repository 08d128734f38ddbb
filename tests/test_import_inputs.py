"""Which files ``ofc import`` reads (``pipeline.load.files.input_files``) and how it groups
small ones (``groups``): every path resolved as ``Path.resolve`` does, the database and the
import's own files never read as input, batches bounded by files and bytes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from parsers.batch import BATCH_FILES
from parsers.real_paths import Resolver
from pipeline.load.files import FileToRead, groups, input_files


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("in/a.txt", "in/deep/er/b.txt", "elsewhere/c.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("hand\n")
    os.symlink(tmp_path / "elsewhere/c.txt", tmp_path / "in/link-to-c.txt")
    os.symlink(tmp_path / "elsewhere", tmp_path / "in/linked-folder")
    os.symlink(tmp_path / "nowhere", tmp_path / "in/broken.txt")
    return tmp_path


def test_paths_resolve_as_pathlib_resolves_them(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree / "in")
    paths = [
        "a.txt",
        "deep/er/b.txt",
        "deep/er/../er/b.txt",
        "link-to-c.txt",
        "linked-folder/c.txt",
        "broken.txt",
        "missing.txt",
        ".",
        "deep/..",
        str(tree / "in" / "a.txt"),
        str(tree / "in" / "linked-folder" / "c.txt"),
    ]
    resolve = Resolver()
    for _ in range(2):  # the second time from the folders already resolved
        assert [resolve(p) for p in paths] == [str(Path(p).resolve()) for p in paths]


def test_the_database_and_the_imports_own_files_are_not_inputs(tree: Path) -> None:
    db = tree / "in" / "hands.duckdb"
    own = [
        db,
        db.with_name("hands.duckdb.wal"),
        db.with_name("hands.duckdb.lock"),
        db.with_name("hands.duckdb.importing-7"),
        db.with_name("hands.duckdb.staging") / "part-1" / "hands.parquet",
    ]
    for path in own:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("not a hand\n")
    db.with_name("hands.duckdb.staging-not-ours.txt").write_text("hand\n")
    found = input_files([str(tree / "in")], exclude=db)
    assert not set(map(str, own)) & set(found)
    assert str(db.with_name("hands.duckdb.staging-not-ours.txt")) in found
    assert str(tree / "elsewhere" / "c.txt") in found  # through the link to the file


def _files(*sizes: int) -> list[FileToRead]:
    return [FileToRead(f"f{i}.txt", size, 0, 0, 0, False, None) for i, size in enumerate(sizes)]


def test_a_batch_ends_before_its_bytes_pass_the_chunk_size() -> None:
    batches = groups(_files(40, 40, 20, 1, 100, 30, 30), chunk_bytes=100, complete_only=False)
    assert [[f.size for f, _ in batch] for batch in batches] == [[40, 40, 20], [1], [100], [30, 30]]


def test_a_batch_holds_at_most_batch_files_files() -> None:
    batches = groups(_files(*[1] * (2 * BATCH_FILES + 1)), 1 << 30, complete_only=False)
    assert [len(batch) for batch in batches] == [BATCH_FILES, BATCH_FILES, 1]
