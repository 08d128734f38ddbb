"""A file imported while its last hand was cut short, imported again once it has grown.

A plain ``ofc import`` reports the last hand cut short (a reject, counted as
read) but does not take it: ``bytes_imported`` stays at its start, so the
import of the grown file reads it again whole and stores it, once, and its
reject goes. Importing the unchanged cut file again adds nothing.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from parsers.run import parse_files
from pipeline.load.importer import ImportOptions, run_import
from pipeline.load.progress import Progress
from tests.import_support import (
    UNNUMBERED,
    count_rows,
    en_hands,
    ofc_import,
    query,
    scalar,
    sha256,
    simulate,
)

CUT_HAND = 4  # the hand the first import sees cut short


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = simulate(tmp_path_factory.mktemp("sim") / "all.txt", 8, seed=53)
    return en_hands(path.read_text(encoding="utf-8"))


def _whole(history: list[str]) -> str:
    return "\n".join(history)


def _hand_start(history: list[str], index: int) -> int:
    return len(_whole(history[:index])) + (1 if index else 0)


def _mid_hand_at_a_line_end(history: list[str]) -> int:
    hand = history[CUT_HAND]
    return _hand_start(history, CUT_HAND) + hand.index("*** STREET 3 ***")


def _mid_line(history: list[str]) -> int:
    hand = history[CUT_HAND]
    return _hand_start(history, CUT_HAND) + hand.index("*** STREET 3 ***") + len("*** STR")


def _between_summary_lines(history: list[str]) -> int:
    hand = history[CUT_HAND]
    summary = hand.index("*** SUMMARY ***")
    return _hand_start(history, CUT_HAND) + hand.index("\n", summary + 16) + 1


def _inside_the_last_summary_line(history: list[str]) -> int:
    hand = history[CUT_HAND]
    return _hand_start(history, CUT_HAND) + hand.rindex(" = ")


def _between_hands(history: list[str]) -> int:
    return _hand_start(history, CUT_HAND)  # after the blank line before the hand


def _after_a_hand_before_its_blank_line(history: list[str]) -> int:
    return _hand_start(history, CUT_HAND) - 1


CUTS = {
    "mid_hand_at_a_line_end": _mid_hand_at_a_line_end,
    "mid_line_no_newline": _mid_line,
    "between_summary_lines": _between_summary_lines,
    "inside_the_last_summary_line": _inside_the_last_summary_line,
    "between_hands": _between_hands,
    "after_a_hand_before_its_blank_line": _after_a_hand_before_its_blank_line,
}
CLEAN = {"between_hands", "after_a_hand_before_its_blank_line"}


@pytest.mark.parametrize("where", sorted(CUTS))
def test_a_grown_file_stores_the_hand_cut_at_its_old_end_once(
    tmp_path: Path, history: list[str], where: str
) -> None:
    text = _whole(history)
    cut = CUTS[where](history)
    data = text.encode("utf-8")
    at = len(text[:cut].encode("utf-8"))
    session = tmp_path / "session.txt"
    session.write_bytes(data[:at])
    db = tmp_path / "ofc.duckdb"

    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == CUT_HAND
    first = query(db, "SELECT hands_read, hands_added, rejects_added FROM imports")
    if where in CLEAN:
        assert first == [(CUT_HAND, CUT_HAND, 0)]
    else:  # the hand cut short is reported, as read and rejected
        assert first == [(CUT_HAND + 1, CUT_HAND, 1)]
        [(line,)] = query(db, "SELECT source_line FROM rejects")
        assert line > text[: _hand_start(history, CUT_HAND)].count("\n")
    bytes_imported = scalar(db, "SELECT bytes_imported FROM source_files")
    if where not in CLEAN:
        assert bytes_imported == len(_whole(history[:CUT_HAND]).encode("utf-8")) + 1

    before = sha256(db)
    assert ofc_import(session, "--db", db) == 0  # unchanged: nothing new
    assert sha256(db) == before

    with open(session, "ab") as handle:
        handle.write(data[at:])
    assert ofc_import(session, "--db", db) == 0

    assert scalar(db, "SELECT count(DISTINCT hand_id) FROM hands") == len(history)
    assert count_rows(db) == len(history)
    assert count_rows(db, "rejects") == 0
    assert count_rows(db, "conflicts") == 0
    assert query(db, UNNUMBERED) == [(0,)]
    second = query(db, "SELECT hands_read, hands_added, rejects_added FROM imports")[-1]
    assert second == (len(history) - CUT_HAND, len(history) - CUT_HAND, 0)
    size = session.stat().st_size
    assert query(db, "SELECT bytes_imported, size_bytes, hands_read FROM source_files") == [
        (size, size, len(history))
    ]

    whole = tmp_path / "whole.duckdb"
    assert ofc_import(session, "--db", whole) == 0
    stored = "SELECT hand_id, source_line, fingerprint FROM hands ORDER BY ALL"
    assert query(db, stored) == query(whole, stored)


def test_a_hand_still_cut_short_after_growth_is_rejected_once(
    tmp_path: Path, history: list[str]
) -> None:
    text = _whole(history)
    start = _hand_start(history, CUT_HAND)
    first_cut, second_cut = _mid_hand_at_a_line_end(history), _inside_the_last_summary_line(history)
    session = tmp_path / "session.txt"
    session.write_text(text[:first_cut], encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(session, "--db", db) == 0
    with open(session, "a", encoding="utf-8") as handle:
        handle.write(text[first_cut:second_cut])
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == CUT_HAND
    [(line, reason)] = query(db, "SELECT source_line, reason FROM rejects")
    assert reason.startswith("summary line cut short")
    assert line > text[:start].count("\n")
    with open(session, "a", encoding="utf-8") as handle:
        handle.write(text[second_cut:])
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == len(history)
    assert count_rows(db, "rejects") == 0
    # every import reconciles: each hand it read was stored or rejected
    assert query(
        db, "SELECT count(*) FROM imports WHERE hands_read != hands_added + rejects_added"
    ) == [(0,)]


def test_a_cut_file_read_in_a_batch_of_small_files_is_read_on_from_the_cut_hand(
    tmp_path: Path, history: list[str]
) -> None:
    text = _whole(history)
    cut = _mid_line(history)
    folder = tmp_path / "room"
    folder.mkdir()
    (folder / "a_done.txt").write_text(_whole(history[CUT_HAND + 1 :]) + "\n", encoding="utf-8")
    session = folder / "b_session.txt"
    session.write_text(text[:cut], encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(folder, "--db", db) == 0
    assert count_rows(db) == len(history) - 1
    assert query(db, "SELECT hands_read, rejects_added FROM imports") == [(len(history), 1)]
    with open(session, "a", encoding="utf-8") as handle:
        handle.write(text[cut:])
    assert ofc_import(folder, "--db", db) == 0
    assert count_rows(db) == scalar(db, "SELECT count(DISTINCT hand_id) FROM hands")
    assert count_rows(db) == len(history)
    assert count_rows(db, "rejects") == 0
    assert query(db, "SELECT hands_added, hands_duplicate FROM imports WHERE import_id = 2") == [
        (1, len(history) - CUT_HAND - 1)
    ]


def _play_money(history: list[str]) -> list[str]:
    """The hands as played for no money: no stake in the header, no money in the summary."""
    stake = re.compile(r", [0-9.]+ [A-Z]+ per point,")
    money = re.compile(r" = [+-][0-9.,]+ [A-Z]+$", re.MULTILINE)
    return [money.sub("", stake.sub(", play money,", hand)) for hand in history]


#: Cuts of the last summary line of a play-money hand (``Amara Scoop: -12 points (royalties 0),
#: fouled`` here) that still read as a whole line.
LOOKS_WHOLE = {
    "only_its_line_end": lambda line: line,
    "before_its_last_clause": lambda line: line[: line.rindex(", ")],
    "before_its_royalties": lambda line: line[: line.index(" (royalties")],
}


@pytest.mark.parametrize("where", sorted(LOOKS_WHOLE))
def test_a_last_line_without_its_line_end_is_not_stored_until_the_file_grows(
    tmp_path: Path, history: list[str], where: str
) -> None:
    """A play-money summary line cut short can read as a whole one (without ``, fouled``):
    without its line end, the hand is rejected as unfinished, and the grown file stores it
    with the room's figures of the whole line."""
    hands = _play_money(history)
    text = _whole(hands)
    last_line = text.rstrip("\n").rsplit("\n", 1)[1]
    cut_text = text.rstrip("\n")[: -len(last_line)] + LOOKS_WHOLE[where](last_line)
    session = tmp_path / "session.txt"
    session.write_text(cut_text, encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == len(hands) - 1
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert reason.startswith("the file's last line has no line end")
    assert query(db, "SELECT hands_read, hands_added, rejects_added FROM imports") == [
        (len(hands), len(hands) - 1, 1)
    ]

    session.write_text(text, encoding="utf-8")  # the room finished writing the hand
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == len(hands) and count_rows(db, "rejects") == 0
    whole = tmp_path / "whole.duckdb"
    assert ofc_import(session, "--db", whole) == 0
    figures = (
        "SELECT hand_id, seat, reported_points, reported_royalties, reported_fantasyland_next,"
        " mismatch FROM player_hands ORDER BY ALL"
    )
    assert query(db, figures) == query(whole, figures)


def _rejects_of_stored_hands(db: Path) -> int:
    """Rejects of a file at or after the first line of one of its stored hands' own text."""
    return scalar(
        db,
        "SELECT count(*) FROM rejects r JOIN hands h ON r.source_file = h.source_file"
        " AND r.room_hand_id = h.room_hand_id",
    )


def _imported_with_its_last_hand_cut(tmp_path: Path, text: str) -> tuple[Path, Path]:
    """A session file of ``text`` (its last hand cut short) and the database of its import,
    which rejected that hand."""
    session = tmp_path / "session.txt"
    session.write_text(text, encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db, "rejects") == 1
    return session, db


def test_a_file_cut_back_to_its_whole_hands_drops_the_cut_hands_reject(
    tmp_path: Path, history: list[str]
) -> None:
    """The room's client stopped inside a hand and the player cut the file back to its
    whole hands: the reject of the hand cut short goes, the hands stay, and the file's
    record says its new size (it once kept the reject and hashed the file on every import)."""
    text = _whole(history)
    session, db = _imported_with_its_last_hand_cut(
        tmp_path, text[: _mid_hand_at_a_line_end(history)]
    )
    kept = scalar(db, "SELECT bytes_imported FROM source_files")
    session.write_bytes(session.read_bytes()[:kept])
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == CUT_HAND
    assert count_rows(db, "rejects") == 0
    assert query(db, "SELECT size_bytes, bytes_imported FROM source_files") == [(kept, kept)]
    before = sha256(db)
    assert ofc_import(session, "--db", db) == 0  # unchanged now
    assert sha256(db) == before
    with open(session, "ab") as handle:
        handle.write(text.encode("utf-8")[kept:])
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == len(history)
    assert count_rows(db, "rejects") == 0


@pytest.mark.parametrize("watch", [False, True], ids=["import", "watch"])
def test_a_whole_hand_right_after_a_cut_one_is_stored(
    tmp_path: Path, history: list[str], watch: bool
) -> None:
    """A client stopped inside a hand's summary and began the next hand on the next line, no
    blank line between: the cut copy is rejected for what it lacks, the whole hands around
    it are stored (by ``--watch`` too) and the file is taken to its end, as ``ofc parse``
    stores them. The last hand was counted from the last blank line, so the whole hand was
    rejected as "no line end" and never stored, and ``--watch`` stored nothing."""
    cut = history[1][: history[1].rindex(" = ")] + "\n"
    text = history[0] + cut + history[2]
    session = tmp_path / "session.txt"
    session.write_text(text, encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    run_import(
        ImportOptions(paths=(str(session),), db=db, complete_only=watch), Progress(quiet=True)
    )
    assert count_rows(db) == 2 == parse_files([session], tmp_path / "parsed", workers=1).stored
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert reason.startswith("summary line cut short")
    size = len(text.encode("utf-8"))
    assert query(db, "SELECT bytes_imported, size_bytes FROM source_files") == [(size, size)]


@pytest.mark.parametrize("encoding", ["utf-8", "cp1251"])
def test_a_whole_ru_hand_right_after_a_cut_one_is_stored(tmp_path: Path, encoding: str) -> None:
    """The same in ``ru``, in both encodings its rooms write (the header looked for is
    ``Раздача №`` in the file's own encoding)."""
    path = simulate(tmp_path / "ru.txt", 3, seed=54, fmt="ru")
    first, second, third = en_hands(path.read_text(encoding="utf-8"))
    cut = second[: second.rstrip("\n").rindex(" ")] + "\n"
    session = tmp_path / "session.txt"
    text = first + cut + third
    if encoding == "cp1251":  # suits, minus and currency signs as older ru clients write them
        spelled = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "−": "-", "₽": "RUB", "€": "EUR"}
        text = text.translate(str.maketrans(spelled))
    session.write_bytes(text.encode(encoding))
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == 2 and count_rows(db, "rejects") == 1
    size = session.stat().st_size
    assert query(db, "SELECT bytes_imported FROM source_files") == [(size,)]


def test_a_rewritten_file_replaces_its_old_rejects(tmp_path: Path, history: list[str]) -> None:
    """The cut hand's reject sits at the line of its problem, not its first: a rewritten
    copy (CRLF now) read again from the start drops it once the hand is stored."""
    text = _whole(history)
    session, db = _imported_with_its_last_hand_cut(tmp_path, text[: _mid_line(history)])
    session.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert ofc_import(session, "--db", db) == 0
    assert count_rows(db) == len(history)
    assert count_rows(db, "rejects") == 0
    assert _rejects_of_stored_hands(db) == 0


def test_a_zip_downloaded_again_whole_replaces_its_members_old_rejects(
    tmp_path: Path, history: list[str]
) -> None:
    text = _whole(history)
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("m1.txt", _whole(history[:2]) + "\n")
        z.writestr("m2.txt", text[: _mid_line(history)])
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(archive, "--db", db) == 0
    assert count_rows(db, "rejects") == 1
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("m1.txt", _whole(history[:2]) + "\n")
        z.writestr("m2.txt", text + "\n")
    assert ofc_import(archive, "--db", db) == 0
    assert count_rows(db, "rejects") == 0
    assert scalar(db, "SELECT count(DISTINCT hand_id) FROM hands") == len(history)


def test_a_reread_accounts_for_every_hand_it_read(tmp_path: Path, history: list[str]) -> None:
    """The file holds every hand twice: the second copies are rejected by each read, the
    re-read's too (they were uncounted: read 2n, stored 0 + n already stored)."""
    session = tmp_path / "twice.txt"
    session.write_text(_whole(history) + "\n" + _whole(history) + "\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(session, "--db", db) == 0
    assert ofc_import(session, "--db", db, "--reread") == 0
    rows = query(
        db,
        "SELECT hands_read, hands_added, hands_duplicate, hands_conflict, rejects_added"
        " FROM imports ORDER BY import_id",
    )
    n = len(history)
    assert rows == [(2 * n, n, 0, 0, n), (2 * n, 0, n, 0, n)]
    assert count_rows(db, "rejects") == n


def test_a_poll_that_finds_only_part_of_a_hand_leaves_the_database_alone(
    tmp_path: Path, history: list[str]
) -> None:
    """``--watch`` reads a file the room client has begun a hand in: nothing to take yet,
    so no import row and no new copy of the database (docs/schema.md: a run that finds
    nothing new adds no row); the hand is taken once whole."""
    session = tmp_path / "session.txt"
    session.write_text("\n".join(history[:3]) + "\n", encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    watch = ImportOptions(paths=(str(session),), db=db, complete_only=True)
    run_import(watch, Progress(quiet=True))
    before = sha256(db), db.stat().st_mtime_ns
    half = history[3].index("*** SHOWDOWN ***")
    with session.open("a", encoding="utf-8") as out:
        out.write(history[3][:half])
    summary = run_import(watch, Progress(quiet=True))
    assert (sha256(db), db.stat().st_mtime_ns) == before
    assert summary.counts is None and summary.held_back  # and it says what it waits for
    with session.open("a", encoding="utf-8") as out:
        out.write(history[3][half:] + "\n")
    run_import(watch, Progress(quiet=True))
    assert query(db, "SELECT import_id, hands_added FROM imports ORDER BY 1") == [(1, 3), (2, 1)]
