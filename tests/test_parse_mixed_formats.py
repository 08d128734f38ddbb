"""A file mixing ``en`` and ``ru`` hands: each hand is read by its own format's reader.

The format is told from a file's first 64 KB; the hands of the other format after
that were once one run of stray lines ("1442 line(s) outside any hand"): read as one
reject, though nothing was lost. A chunk read with rejects that holds headers of the
other format is read again, run by run (``parsers.run.format_runs``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_support import ofc_import, query, simulate
from tests.parse_helpers import parse


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str]]]:
    """en, ru, en hands (10 each) in one file, and each hand's (format, header line)."""
    folder = tmp_path_factory.mktemp("mixed")
    parts = [
        simulate(folder / "a.txt", 10, seed=1, fmt="en").read_text(encoding="utf-8"),
        simulate(folder / "b.txt", 10, seed=2, fmt="ru").read_text(encoding="utf-8"),
        simulate(folder / "c.txt", 10, seed=3, fmt="en").read_text(encoding="utf-8"),
    ]
    text = "\n".join(part.rstrip("\n") + "\n" for part in parts)
    path = folder / "mixed.txt"
    path.write_text(text, encoding="utf-8")
    headers = [
        ("en" if line.startswith("OFC Hand #") else "ru", n)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.startswith(("OFC Hand #", "Раздача №"))
    ]
    return path, headers


@pytest.mark.parametrize("chunk_bytes", [None, 1 << 12])
def test_each_hand_is_read_in_its_own_format(mixed, tmp_path: Path, chunk_bytes) -> None:
    """In one chunk, or in small ones: a chunk of only the other format's hands too."""
    path, headers = mixed
    options = {} if chunk_bytes is None else {"chunk_bytes": chunk_bytes}
    summary, tables = parse([path], tmp_path / "out", **options)
    assert (summary.read, summary.stored, summary.rejected) == (30, 30, 0)
    hands = tables["hands"].sort("source_line")
    assert list(zip(hands["source_format"], hands["source_line"], strict=True)) == [
        (fmt, line) for fmt, line in headers
    ]
    assert tables["placements"].height > 0


def test_an_import_of_a_mixed_file_stores_every_hand(mixed, tmp_path: Path) -> None:
    path, _ = mixed
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(path, "--db", db) == 0
    assert query(db, "SELECT source_format, count(*) FROM hands GROUP BY 1 ORDER BY 1") == [
        ("en", 20),
        ("ru", 10),
    ]
    assert query(db, "SELECT hands_read, hands_added, rejects_added FROM imports") == [(30, 30, 0)]
