"""An archive of valid hands is staged a chunk at a time: peak memory does not grow with the
member's size (it held the whole member's tables before), and every hand is counted."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from parsers.lines import CHUNK_BYTES
from tests.import_support import ROOT, UNNUMBERED, ofc_import, query, simulate

#: Peak memory a member four chunks long may take above one of a single chunk: far below
#: the three chunks more of text and tables it held when staged whole (about 500 MB).
MARGIN = 160 << 20

_STAGE = """
import resource, sys
from pipeline.load.files import Piece
from pipeline.load.staging import StageOptions, stage_piece
piece = Piece(sys.argv[1], None, 0, None, 1, None, "utf-8", True)
result = stage_piece(1, piece, StageOptions(staging=sys.argv[2]))
print(result.hands, result.rejects, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def _copies(history: bytes, copies: int) -> bytes:
    """``copies`` of a history, each with its own hand and match ids."""
    return b"\n".join(
        history.replace(b"Hand #1", b"Hand #%d" % (10 + k)).replace(
            b"Match #1", b"Match #%d" % (10 + k)
        )
        for k in range(copies)
    )


def _stage(archive: Path, staging: Path) -> tuple[int, int, int]:
    """Stage ``archive`` in a fresh process: hands, rejects, peak resident memory (bytes)."""
    done = subprocess.run(
        [sys.executable, "-c", _STAGE, str(archive), str(staging)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    hands, rejects, peak = map(int, done.stdout.split())
    return hands, rejects, peak


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    text = simulate(tmp_path_factory.mktemp("h") / "h.txt", 4000, seed=41).read_bytes()
    assert text.startswith(b"OFC Hand #1") and b"Match #1" in text
    return text


def test_a_large_member_costs_what_one_chunk_does(history: bytes, tmp_path: Path) -> None:
    copies = -(-CHUNK_BYTES // len(history))  # one chunk's worth
    small, large = tmp_path / "small.txt.gz", tmp_path / "large.txt.gz"
    small.write_bytes(gzip.compress(_copies(history, copies), compresslevel=1))
    large.write_bytes(gzip.compress(_copies(history, 4 * copies), compresslevel=1))
    hands_small, rejects_small, peak_small = _stage(small, tmp_path / "s")
    hands, rejects, peak = _stage(large, tmp_path / "l")
    assert (hands, rejects) == (4 * hands_small, 0) and rejects_small == 0
    assert peak < peak_small + MARGIN, f"{peak >> 20} MB, one chunk {peak_small >> 20} MB"
    assert len(list((tmp_path / "l").glob("part-*"))) >= 4  # a part per chunk


def test_a_member_staged_in_chunks_loads_every_hand(history: bytes, tmp_path: Path) -> None:
    archive = tmp_path / "h.txt.gz"
    copies = CHUNK_BYTES // len(history) + 1  # two chunks
    archive.write_bytes(gzip.compress(_copies(history, copies), compresslevel=1))
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(archive, "--db", db) == 0
    hands = copies * history.count(b"OFC Hand #")
    assert query(db, "SELECT hands_read, hands_added, rejects_added FROM imports")[0] == (
        hands,
        hands,
        0,
    )
    [(first, last)] = query(db, "SELECT min(source_line), max(source_line) FROM hands")
    assert first == 1 and last > CHUNK_BYTES // 1000  # line numbers run on across chunks
    assert query(db, UNNUMBERED) == [(0,)]  # and hand numbers
