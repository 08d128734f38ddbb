"""An import into a database with its metric tables recomputes only the days and players
it touched (``pipeline.load.metrics.refresh``); the tables must then be what a rebuild
from every stored row makes: after new hands, after a hand replaced (whose old copy had
no time), after hands of an earlier import re-scored."""

from __future__ import annotations

import datetime as dt
import shutil
from dataclasses import replace
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from pipeline.load.metrics import refresh
from pipeline.load.metrics.refresh import FIRST, QUERIES, THEN, rebuild
from tests.import_support import en_hands, ofc_import, query, simulate
from tests.test_import_fantasyland_repeats import EXPECTED, FAY, HANDS, write


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = simulate(tmp_path_factory.mktemp("sim") / "all.txt", 40, seed=53, misreport=0.2)
    return en_hands(path.read_text(encoding="utf-8"))


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The imports' rebuilds of the metric tables from here on, one entry each."""
    made: list[str] = []

    def counted(con: duckdb.DuckDBPyConnection) -> None:
        made.append("rebuilt")
        rebuild(con)

    monkeypatch.setattr(refresh, "rebuild", counted)
    return made


def _metric_tables(db: Path) -> dict[str, pl.DataFrame]:
    tables = {}
    with duckdb.connect(str(db), read_only=True) as con:
        for table in FIRST + THEN:
            frame = con.sql(f"SELECT * FROM {table.name}").pl()
            keys = [c for c, dtype in frame.schema.items() if not dtype.is_float()]
            tables[table.name] = frame.sort(keys, nulls_last=True)
    return tables


def _assert_as_rebuilt(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "rebuilt.duckdb"
    shutil.copy(db, copy)
    with duckdb.connect(str(copy)) as con:
        rebuild(con)
    refreshed, rebuilt = _metric_tables(db), _metric_tables(copy)
    for name, frame in rebuilt.items():
        assert frame.height > 0, name
        assert_frame_equal(refreshed[name], frame, check_exact=False), name


def _write(path: Path, hands: list[str]) -> Path:
    path.write_text("\n".join(hands), encoding="utf-8")
    return path


def test_new_hands(tmp_path: Path, history: list[str], rebuilds: list[str]) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(_write(tmp_path / "first.txt", history[:37]), "--db", db) == 0
    assert ofc_import(_write(tmp_path / "second.txt", history[37:]), "--db", db) == 0
    assert len(rebuilds) == 1  # the first import's; the second adds 3 hands to 37
    assert query(db, "SELECT count(*) FROM audit_mismatches") != [(0,)]
    _assert_as_rebuilt(db, tmp_path)


def test_a_large_import_makes_the_tables_again(
    tmp_path: Path, history: list[str], rebuilds: list[str]
) -> None:
    """Adding a tenth of the hands stored or more recomputes most days: it rebuilds."""
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(_write(tmp_path / "first.txt", history[:36]), "--db", db) == 0
    assert ofc_import(_write(tmp_path / "second.txt", history[36:]), "--db", db) == 0
    assert len(rebuilds) == 2  # 4 hands beside 36
    _assert_as_rebuilt(db, tmp_path)


@pytest.mark.parametrize(
    ("timeless", "null_days"),
    [
        (("hands", "player_hands"), ("player_days", "pair_days")),
        (("hands",), ("pair_days",)),  # older versions could write the two apart
    ],
)
def test_a_replaced_hand_whose_old_copy_had_no_time(
    tmp_path: Path,
    history: list[str],
    rebuilds: list[str],
    timeless: tuple[str, ...],
    null_days: tuple[str, ...],
) -> None:
    db, path = tmp_path / "ofc.duckdb", _write(tmp_path / "all.txt", history)
    assert ofc_import(path, "--db", db) == 0
    victim = query(db, "SELECT hand_id FROM hands ORDER BY played_at LIMIT 1")[0][0]
    # What an older version stored of a hand whose last summary line was cut short.
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE player_hands SET reported_money = NULL WHERE hand_id = ?", [victim])
        con.execute("UPDATE hands SET fingerprint = 'incomplete' WHERE hand_id = ?", [victim])
        for table in timeless:
            con.execute(f"UPDATE {table} SET played_at = NULL WHERE hand_id = ?", [victim])
        rebuild(con)
    for table in null_days:
        assert query(db, f"SELECT count(*) FROM {table} WHERE day IS NULL") != [(0,)], table
    assert ofc_import(path, "--db", db, "--reread") == 0
    assert len(rebuilds) == 1  # the first import's
    assert query(db, "SELECT hands_added FROM imports WHERE import_id = 2") == [(1,)]
    for table in null_days:
        assert query(db, f"SELECT count(*) FROM {table} WHERE day IS NULL") == [(0,)], table
    _assert_as_rebuilt(db, tmp_path)


def test_hands_of_an_earlier_import_re_scored(
    tmp_path: Path, history: list[str], rebuilds: list[str]
) -> None:
    """The later hand of a Fantasyland match, played the next day, is stored first; the
    earlier ones, imported next, change its repeats (docs/rules.md R6): it is re-scored,
    and the rows of its day are refreshed too."""
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(_write(tmp_path / "others.txt", history), "--db", db) == 0
    later = replace(HANDS[2], played_at=HANDS[2].played_at + dt.timedelta(days=1))
    assert ofc_import(write(tmp_path / "later.jsonl", [later]), "--db", db) == 0
    assert ofc_import(write(tmp_path / "earlier.jsonl", HANDS[:2]), "--db", db) == 0
    assert len(rebuilds) == 1  # the first import's
    assert query(db, FAY) == EXPECTED  # 773's repeats: 1 once its match is whole
    _assert_as_rebuilt(db, tmp_path)


def test_tables_made_by_other_queries_are_made_again(
    tmp_path: Path, history: list[str], rebuilds: list[str]
) -> None:
    """A database whose metric tables an older version made (other queries) gets them made
    again by its next import, however small, not refreshed."""
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(_write(tmp_path / "first.txt", history[:37]), "--db", db) == 0
    assert query(db, "SELECT value FROM meta WHERE key = 'metrics'") == [(QUERIES,)]
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE meta SET value = 'older' WHERE key = 'metrics'")
        con.execute("DELETE FROM player_days")  # what the older queries made differs
    assert ofc_import(_write(tmp_path / "second.txt", history[37:]), "--db", db) == 0
    assert len(rebuilds) == 2
    assert query(db, "SELECT value FROM meta WHERE key = 'metrics'") == [(QUERIES,)]
    _assert_as_rebuilt(db, tmp_path)
