"""Databases made by an older ofc: schema version 1, before ``player_hands`` held the stake
and its pairwise settlements' counts (``pairings``, ``scoops``, ``rows_won``); schema
version 2, before the metric table ``player_metrics``; version 3, before ``decisions``;
version 4, before ``player_hands.table_name`` and the metric table ``player_pairs``;
version 5, before the metric tables ``player_days``, ``pair_days`` and ``player_hours``;
version 6, before ``hand_no``.

The next ``ofc import`` upgrades one in place, whether it brings new files,
files already imported, or none (``ofc import --db FILE``). The dashboard
reads read-only, so it refuses one with a message saying to run that
command, and following the message must make the dashboard work.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.queries import breakdowns, options, summary
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters
from ofc_core.errors import UserError
from pipeline.cli.commands.dashboard import APP
from pipeline.cli.main import main
from pipeline.load.database import SCHEMA_VERSION
from tests.import_support import (
    UNLIKE_SETTLEMENTS,
    UNNUMBERED,
    ofc_import,
    query,
    scalar,
    simulate,
)

VERSION = "SELECT value FROM meta WHERE key = 'schema_version'"
#: Player-hands whose stake or table differs from their hand's (none after an upgrade).
UNLIKE_HANDS = (
    "SELECT count(*) FROM player_hands p JOIN hands h USING (hand_id)"
    " WHERE p.point_value IS DISTINCT FROM h.point_value"
    " OR p.currency IS DISTINCT FROM h.currency"
    " OR p.table_name IS DISTINCT FROM h.table_name"
)
COLUMNS = "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY 1"
TABLES = (
    "hands",
    "player_hands",
    "placements",
    "pairwise",
    "player_summary",
    "player_metrics",
    "player_pairs",
    "player_days",
    "pair_days",
    "player_hours",
    "imports",
)
#: The ``player_hands`` columns schema version 2 added.
ADDED = ("point_value", "currency", "pairings", "scoops", "rows_won")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A hand history and the database ``ofc import`` makes of it today."""
    folder = tmp_path_factory.mktemp("made")
    history = simulate(folder / "hands.jsonl", 120, seed=5, fmt="jsonl")
    db = folder / "ofc.duckdb"
    assert ofc_import(history, "--db", db) == 0
    return history, db


def _set_version(db: Path, version: str) -> None:
    """``db`` as schema ``version`` stored it (a newer one: as it is, with that number)."""
    con = duckdb.connect(str(db))
    try:
        if int(version) < 7:
            for table in ("hands", "player_hands", "placements", "pairwise"):
                con.execute(f"ALTER TABLE {table} DROP COLUMN hand_no")
        if int(version) < 6:
            con.execute("DROP TABLE player_days")
            con.execute("DROP TABLE pair_days")
            con.execute("DROP TABLE player_hours")
        if int(version) < 5:
            con.execute("ALTER TABLE player_hands DROP COLUMN table_name")
            con.execute("DROP TABLE player_pairs")
        if int(version) < 4:
            con.execute("DROP TABLE decisions")
        if version == "1":
            for column in ADDED:
                con.execute(f"ALTER TABLE player_hands DROP COLUMN {column}")
        con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [version])
        con.execute("CHECKPOINT")
    finally:
        con.close()


@pytest.fixture
def old(made: tuple[Path, Path], tmp_path: Path) -> Path:
    """A copy of the made database, as schema version 1 stored it."""
    db = Path(shutil.copy(made[1], tmp_path / "old.duckdb"))
    _set_version(db, "1")
    columns = {name for name, _ in query(db, COLUMNS, ["player_hands"])}
    assert not {*ADDED, "table_name"} & columns
    return db


def _table(db: Path, table: str) -> list[tuple]:
    columns = ", ".join(name for name, _ in query(db, COLUMNS, [table]))
    return sorted(query(db, f"SELECT {columns} FROM {table}"), key=repr)


def _stored(db: Path, table: str) -> list[tuple]:
    """The rows of ``table`` in the order stored."""
    columns = ", ".join(name for name, _ in query(db, COLUMNS, [table]))
    return query(db, f"SELECT {columns} FROM {table} ORDER BY rowid")


def _is_upgraded(db: Path, made: Path) -> None:
    assert scalar(db, VERSION) == SCHEMA_VERSION == "7"
    assert scalar(db, "SELECT count(table_name) FROM player_hands") > 0
    assert scalar(db, UNLIKE_HANDS) == 0
    assert scalar(db, "SELECT count(point_value) FROM player_hands") > 0
    assert scalar(db, UNLIKE_SETTLEMENTS) == 0
    assert scalar(db, "SELECT sum(scoops) FROM player_hands") > 0
    for table in TABLES:
        assert query(db, COLUMNS, [table]) == query(made, COLUMNS, [table]), table


def test_import_without_files_upgrades_in_place(
    old: Path, made: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert ofc_import("--db", old) == 0
    assert "upgraded from schema version 1 to 7" in capsys.readouterr().out
    _is_upgraded(old, made[1])
    for table in TABLES:
        assert _table(old, table) == _table(made[1], table), table
    left = {path.name for path in old.parent.glob("old.duckdb*")}
    assert left == {"old.duckdb"}  # no lock, work copy, wal or staging


def test_review_upgrades_a_version_3_database(made: tuple[Path, Path], tmp_path: Path) -> None:
    """Version 3 to 4: ``ofc review`` (like an import) gives an older database the
    ``decisions`` table."""
    db = Path(shutil.copy(made[1], tmp_path / "v3.duckdb"))
    _set_version(db, "3")
    player = scalar(db, "SELECT min(player) FROM player_hands")
    args = ["review", "--db", str(db), "--player", player, "--rollouts", "4", "--workers", "1"]
    assert main([*args, "--since", "2999-01-01"]) == 0
    assert scalar(db, VERSION) == "7"
    assert scalar(db, "SELECT count(*) FROM decisions") == 0


def test_import_of_files_already_imported_upgrades(
    old: Path, made: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert ofc_import(made[0], "--db", old) == 0
    out = capsys.readouterr().out
    assert "nothing new in 1 file(s) already imported" in out and "upgraded" in out
    _is_upgraded(old, made[1])
    assert scalar(old, "SELECT count(*) FROM imports") == 1


def test_import_of_new_files_upgrades_and_stores_their_stakes(
    old: Path, made: tuple[Path, Path], tmp_path: Path
) -> None:
    more = simulate(tmp_path / "more.jsonl", 60, seed=4, fmt="jsonl")
    hands = scalar(old, "SELECT count(*) FROM hands")
    assert ofc_import(more, "--db", old) == 0
    _is_upgraded(old, made[1])
    assert scalar(old, "SELECT count(*) FROM hands") > hands
    assert scalar(old, "SELECT count(*) FROM imports") == 2


def test_the_dashboard_refuses_an_old_database_with_advice_that_works(
    old: Path, made: tuple[Path, Path]
) -> None:
    db = Database(old)
    with pytest.raises(UserError, match="older version of ofc") as refused:
        db.rows("SELECT 1")
    advice = re.search(r"`ofc (import[^`]*)`", str(refused.value))
    assert advice and advice.group(1) == f"import --db {old.resolve()}"
    assert main([*advice.group(1).split(), "--quiet"]) == 0
    assert db.rows("SELECT 1") == [(1,)]  # the swapped-in file is opened afresh
    for hero in (None, options.players(db)[0]):
        for stakes in options.choices(db).stakes:
            view = Filters(hero=hero, stakes=stakes)
            assert summary.summaries(db, view) == summary.summaries(Database(made[1]), view)


def test_ofc_dashboard_refuses_an_old_database_in_one_line(
    old: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dashboard", "--db", str(old)]) == 2
    error = capsys.readouterr().err
    assert f"`ofc import --db {old}`" in error and error.count("\n") == 1


def test_the_app_shows_the_advice_instead_of_a_crash(
    old: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["app.py", "--db", str(old)])
    app = AppTest.from_file(str(APP), default_timeout=60).run()
    assert not app.exception
    assert [e.value for e in app.error] == [
        f"{old} was made by an older version of ofc (schema version 1, now 7): upgrade it "
        f"once with `ofc import --db {old}` (it keeps every hand and needs no files), "
        "then open it again"
    ]


def test_a_database_from_a_newer_ofc_is_refused(
    made: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Path(shutil.copy(made[1], tmp_path / "newer.duckdb"))
    _set_version(db, "8")
    before = db.read_bytes()
    assert ofc_import(made[0], "--db", db, "--reread") == 2
    assert "newer version of ofc (schema version 8" in capsys.readouterr().err
    assert db.read_bytes() == before
    with pytest.raises(UserError, match="update ofc"):
        Database(db).rows("SELECT 1")


def test_import_without_files_needs_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "new.duckdb"
    assert ofc_import("--db", db) == 2
    assert f"`ofc import PATH... --db {db}`" in capsys.readouterr().err
    assert not db.exists()
    assert main(["import", "--db", str(db), "--watch"]) == 2
    assert "--watch needs the files or folders to watch" in capsys.readouterr().err


def test_a_version_2_database_gets_player_metrics(
    made: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Path(shutil.copy(made[1], tmp_path / "two.duckdb"))
    _set_version(db, "2")
    con = duckdb.connect(str(db))
    con.execute("DROP TABLE player_metrics")
    con.close()
    with pytest.raises(UserError, match="schema version 2, now 7"):
        Database(db).rows("SELECT 1")
    capsys.readouterr()
    assert ofc_import("--db", db) == 0
    assert "upgraded from schema version 2 to 7" in capsys.readouterr().out
    assert _table(db, "player_metrics") == _table(made[1], "player_metrics")
    assert _table(db, "player_summary") == _table(made[1], "player_summary")


def test_a_version_4_database_gets_table_names_and_the_same_sessions(
    made: tuple[Path, Path], tmp_path: Path
) -> None:
    """Version 4 to 5: each player-hand gets its hand's ``table_name``, so the sessions
    of the Breakdowns page (which read it there) are those of a new database."""
    db = Path(shutil.copy(made[1], tmp_path / "four.duckdb"))
    _set_version(db, "4")
    assert ofc_import("--db", db) == 0
    _is_upgraded(db, made[1])
    assert _table(db, "player_hands") == _table(made[1], "player_hands")
    hero = options.players(Database(db))[0]
    found = breakdowns.sessions(Database(db), Filters(hero=hero))
    assert not found.is_empty()
    assert found.equals(breakdowns.sessions(Database(made[1]), Filters(hero=hero)))


def test_a_version_5_database_gets_the_daily_tables(
    made: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Version 5 to 6: ``player_days`` and ``pair_days``, the same as a new import's, and
    the dashboard's narrowed views read them."""
    db = Path(shutil.copy(made[1], tmp_path / "five.duckdb"))
    _set_version(db, "5")
    with pytest.raises(UserError, match="schema version 5, now 7"):
        Database(db).rows("SELECT 1")
    capsys.readouterr()
    assert ofc_import("--db", db) == 0
    assert "upgraded from schema version 5 to 7" in capsys.readouterr().out
    _is_upgraded(db, made[1])
    for table in ("player_days", "pair_days", "player_hours", "player_pairs", "player_metrics"):
        assert _table(db, table) == _table(made[1], table), table
    hero = options.players(Database(db))[0]
    view = Filters(hero=hero, stakes=options.choices(Database(db)).stakes[0])
    assert summary.summaries(Database(db), view) == summary.summaries(Database(made[1]), view)


def test_a_version_6_database_gets_hand_numbers(
    made: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Version 6 to 7: every hand numbered in the order stored, on all its rows, as a new
    import numbers them."""
    db = Path(shutil.copy(made[1], tmp_path / "six.duckdb"))
    _set_version(db, "6")
    capsys.readouterr()
    assert ofc_import("--db", db) == 0
    assert "upgraded from schema version 6 to 7" in capsys.readouterr().out
    _is_upgraded(db, made[1])
    assert scalar(db, UNNUMBERED) == 0
    for table in ("hands", "player_hands", "placements", "pairwise"):
        assert _table(db, table) == _table(made[1], table), table
        assert _stored(db, table) == _stored(made[1], table), table  # and in the same order


def test_ofc_report_refuses_an_old_or_a_newer_database_in_one_line(
    old: Path, made: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ofc report`` once read an old database into a Binder Error traceback and wrote a
    newer one's pages as if it knew its tables."""
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(old), "--all", "--out", str(tmp_path / "r")]) == 2
    error = capsys.readouterr().err
    assert f"`ofc import --db {old}`" in error and error.count("\n") == 1
    newer = Path(shutil.copy(made[1], tmp_path / "newer.duckdb"))
    _set_version(newer, "8")
    assert main(["report", "--db", str(newer), "--all", "--out", str(out)]) == 2
    assert "update ofc to use it" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("command", ["audit", "report", "import", "dashboard"])
def test_a_file_that_is_not_a_duckdb_database_is_named_at_once(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV or Parquet file read as "cannot launch in-memory database"; a SQLite one made
    DuckDB download an extension (the tool works offline)."""
    for name, data in (("x.csv", b"a,b\n1,2\n"), ("x.db", b"SQLite format 3\x00" + bytes(84))):
        path = tmp_path / name
        path.write_bytes(data)
        args = {"audit": ["--player", "X"], "report": ["--player", "X", "--out", "r.html"]}
        assert main([command, "--db", str(path), *args.get(command, [])]) == 2
        error = capsys.readouterr().err
        assert "is not a DuckDB database" in error and error.count("\n") == 1, error
        assert ("a new name to make one" in error) == (command == "import"), error  # only it can
        assert path.read_bytes() == data
