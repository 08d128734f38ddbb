"""Which files a folder, a file or a glob names, and in what order (``parsers.lines.expand``);
the first bytes of each (``parsers.lines.read_at_most``).

The order is the order hands are read in, so the first copy of a hand read twice
is the one kept: it must be the order ``pathlib`` gives paths, part by part.
"""

from __future__ import annotations

import gzip
import os
import zipfile
from pathlib import Path

import pytest

from ofc_core.errors import UserError
from parsers.lines import Source, expand, read_at_most


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("a/x.txt", "a-b/x.txt", "a/c/y.txt", "A.txt", "real/r.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("hand\n")
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as archive:
        archive.writestr("inner/2.txt", "hand\n")
        archive.writestr("inner/1.txt", "hand\n")
    os.symlink(tmp_path / "real", tmp_path / "linked-folder")
    os.symlink(tmp_path / "A.txt", tmp_path / "linked-file.txt")
    os.symlink(tmp_path / "nowhere", tmp_path / "broken-link.txt")
    os.mkfifo(tmp_path / "pipe")
    return tmp_path


def _names(sources: list[Source], root: Path) -> list[str]:
    return [s.name.removeprefix(f"{root}/") for s in sources]


def test_a_folder_lists_its_files_in_path_order(tree: Path) -> None:
    assert _names(expand([str(tree)]), tree) == [
        "A.txt",
        "a/c/y.txt",  # "a" sorts before "a-b" as a part, though "/" > "-" as a character
        "a/x.txt",
        "a-b/x.txt",  # linked-file.txt is A.txt, read once; a link to a folder is not followed
        "real/r.txt",
        "z.zip!/inner/1.txt",  # an archive's members, sorted
        "z.zip!/inner/2.txt",
    ]


def test_a_folder_written_with_a_trailing_slash_names_the_same_files(tree: Path) -> None:
    assert expand([f"{tree}/"]) == expand([str(tree)])


def test_files_and_globs_name_what_they_match(tree: Path) -> None:
    assert _names(expand([str(tree / "a" / "x.txt")]), tree) == ["a/x.txt"]
    assert _names(expand([str(tree / "a*" / "*.txt")]), tree) == ["a/x.txt", "a-b/x.txt"]
    assert _names(expand([str(tree / "linked-file.txt")]), tree) == ["linked-file.txt"]


def test_a_file_named_more_than_once_is_read_once(tree: Path, monkeypatch) -> None:
    monkeypatch.chdir(tree)
    once = ["a/x.txt", "A.txt"]
    assert (
        _names(expand(["a/x.txt", "./a/x.txt", str(tree / "a" / "x.txt"), "A.txt"]), tree) == once
    )
    assert _names(expand(["a/x.txt", "a", "*.txt"]), tree) == ["a/x.txt", "a/c/y.txt", "A.txt"]
    # a link to a file is that file, as ofc import knows it (it once was read twice)
    assert _names(expand(["linked-file.txt", "A.txt"]), tree) == ["linked-file.txt"]


def test_a_path_that_names_nothing_is_an_error_that_says_why(tree: Path) -> None:
    with pytest.raises(UserError, match="no file or folder at"):
        expand([str(tree / "missing")])
    with pytest.raises(UserError, match="no file matches"):
        expand([str(tree / "*.nothing")])
    (tree / "empty").mkdir()
    with pytest.raises(UserError, match=r"the folder .* holds no file"):
        expand([str(tree / "empty")])


@pytest.mark.parametrize("size", [0, 3, 5, 6, 1 << 20])
def test_read_at_most_gives_the_first_bytes_of_any_source(tmp_path: Path, size: int) -> None:
    text = b"hand\n"
    (tmp_path / "plain.txt").write_bytes(text)
    with gzip.open(tmp_path / "packed.txt.gz", "wb") as packed:
        packed.write(text)
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as archive:
        archive.writestr("inner.txt", text)
    sources = [
        Source(str(tmp_path / "plain.txt")),
        Source(str(tmp_path / "packed.txt.gz")),
        Source(str(tmp_path / "z.zip"), "inner.txt"),
    ]
    assert [read_at_most(s, size) for s in sources] == [text[:size]] * 3


def test_read_at_most_reads_a_large_file_whole(tmp_path: Path) -> None:
    text = os.urandom(3 << 20)
    (tmp_path / "big.bin").write_bytes(text)
    assert read_at_most(Source(str(tmp_path / "big.bin")), 4 << 20) == text


def test_read_at_most_of_a_missing_file_says_which(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"gone\.txt"):
        read_at_most(Source(str(tmp_path / "gone.txt")), 10)
