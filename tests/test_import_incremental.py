"""``ofc import`` is incremental and idempotent (docs/schema.md, "DuckDB database").

Importing the same files again adds nothing and leaves the file byte for byte
as it was; a new file adds only its new hands; a grown file is read from
where the last import stopped, with line numbers continuing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_support import en_hands, ofc_import, query, scalar, sha256, simulate

HANDS = 40


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The hands of a simulated ``en`` history, each as its text."""
    path = simulate(tmp_path_factory.mktemp("sim") / "all.txt", HANDS, seed=11)
    return en_hands(path.read_text(encoding="utf-8"))


def write(path: Path, hands: list[str]) -> Path:
    path.write_text("\n".join(hands), encoding="utf-8")
    return path


def test_same_files_again_change_nothing(tmp_path: Path, history: list[str]) -> None:
    files = [write(tmp_path / "a.txt", history[:20]), write(tmp_path / "b.txt", history[20:])]
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(*files, "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == HANDS
    before = sha256(db)
    assert ofc_import(*files, "--db", db) == 0
    assert sha256(db) == before
    assert scalar(db, "SELECT count(*) FROM imports") == 1


def test_reread_stores_nothing_twice(tmp_path: Path, history: list[str]) -> None:
    file = write(tmp_path / "a.txt", history)
    db = tmp_path / "ofc.duckdb"
    ofc_import(file, "--db", db)
    assert ofc_import(file, "--db", db, "--reread") == 0
    assert scalar(db, "SELECT count(*) FROM hands") == HANDS
    assert scalar(db, "SELECT count(*) FROM player_hands") == 3 * HANDS
    last = query(db, "SELECT hands_added, hands_duplicate FROM imports WHERE import_id = 2")
    assert last == [(0, HANDS)]


def test_new_file_adds_only_its_new_hands(tmp_path: Path, history: list[str]) -> None:
    db = tmp_path / "ofc.duckdb"
    ofc_import(write(tmp_path / "a.txt", history[:25]), "--db", db)
    assert ofc_import(write(tmp_path / "b.txt", history[15:]), "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == HANDS
    assert query(
        db, "SELECT hands_added, hands_duplicate, hands_conflict FROM imports WHERE import_id = 2"
    ) == [(HANDS - 25, 10, 0)]
    assert scalar(db, "SELECT count(*) FROM pairwise") == 3 * HANDS
    assert scalar(db, "SELECT count(*) FROM conflicts") == 0


def test_grown_file_is_read_from_where_it_stopped(tmp_path: Path, history: list[str]) -> None:
    grown = tmp_path / "session.txt"
    db = tmp_path / "ofc.duckdb"
    ofc_import(write(grown, history[:18]), "--db", db)
    write(grown, history)
    assert ofc_import(grown, "--db", db) == 0
    assert query(db, "SELECT hands_read, hands_added FROM imports WHERE import_id = 2") == [
        (HANDS - 18, HANDS - 18)
    ]
    whole = tmp_path / "whole.duckdb"
    ofc_import(grown, "--db", whole)
    lines = "SELECT hand_id, source_line FROM hands ORDER BY hand_id"
    assert query(db, lines) == query(whole, lines)
    size = grown.stat().st_size
    assert query(db, "SELECT bytes_imported, size_bytes FROM source_files") == [(size, size)]


def test_rewritten_file_is_read_again_without_duplicates(
    tmp_path: Path, history: list[str]
) -> None:
    file = tmp_path / "a.txt"
    db = tmp_path / "ofc.duckdb"
    ofc_import(write(file, history), "--db", db)
    write(file, list(reversed(history)))
    assert ofc_import(file, "--db", db) == 0
    assert query(
        db, "SELECT hands_read, hands_added, hands_duplicate FROM imports WHERE import_id = 2"
    ) == [(HANDS, 0, HANDS)]


def test_missing_input_is_a_user_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert ofc_import(tmp_path / "nope.txt", "--db", tmp_path / "x.duckdb") == 2
    assert "nope.txt" in capsys.readouterr().err
    assert not (tmp_path / "x.duckdb").exists()


def test_a_file_that_is_not_our_database_is_refused(
    tmp_path: Path, history: list[str], capsys: pytest.CaptureFixture
) -> None:
    file = write(tmp_path / "a.txt", history[:3])
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database")
    assert ofc_import(file, "--db", junk) == 2
    assert "is not a DuckDB database" in capsys.readouterr().err
    assert junk.read_text() == "not a database"

    import duckdb

    foreign = tmp_path / "foreign.duckdb"
    con = duckdb.connect(str(foreign))
    con.execute("CREATE TABLE notes (text VARCHAR)")
    con.close()
    before = sha256(foreign)
    assert ofc_import(file, "--db", foreign) == 2
    assert "did not make" in capsys.readouterr().err
    assert sha256(foreign) == before


def test_pieces_cut_between_hands_and_stay_bounded_in_junk(
    tmp_path: Path, history: list[str]
) -> None:
    import hashlib
    import itertools

    from pipeline.load.files import FileToRead, pieces

    text = write(tmp_path / "h.txt", history)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"x" * 300_000 + b"\n" + b"y" * 300_000)
    for path in (text, junk):
        size = path.stat().st_size
        digest = hashlib.sha256()
        cut = list(pieces(FileToRead(str(path), size, 0, 0, 0, False, None), 20_000, digest))
        assert cut[0].start == 0 and cut[-1].end == size and cut[-1].last
        assert all(a.end == b.start for a, b in itertools.pairwise(cut))
        assert max(p.end - p.start for p in cut) <= 4 * 20_000 + (8 << 20)
        assert digest.hexdigest() == hashlib.sha256(path.read_bytes()).hexdigest()
        data = path.read_bytes()
        assert all(p.first_line == data.count(b"\n", 0, p.start) + 1 for p in cut)
    hand_starts = [
        p.start
        for p in pieces(FileToRead(str(text), text.stat().st_size, 0, 0, 0, False, None), 20_000)
    ]
    assert all(text.read_bytes()[s:].startswith(b"OFC Hand #") for s in hand_starts)


def test_paths_without_a_hand_history_make_no_database_and_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """It once said "no files to import; new.duckdb unchanged" with exit code 0, and the
    next command said there was no database at new.duckdb."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "prices.csv").write_text("a,b\n1,2\n")
    db = tmp_path / "new.duckdb"
    assert ofc_import(notes, "--db", db) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no hand history in" in error and "prices.csv" in error
    assert not db.exists()
