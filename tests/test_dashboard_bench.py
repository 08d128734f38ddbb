"""``ofc bench --only dashboard``: the large database it builds and the figures it reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from dashboard.bench import pages
from dashboard.bench.database import HERO, build
from dashboard.queries.pages import PAGES
from pipeline.benchkit.options import BenchOptions

pytestmark = pytest.mark.slow


def _value(con: duckdb.DuckDBPyConnection, sql: str) -> object:
    return con.sql(sql).fetchall()[0][0]


def test_the_built_database_follows_the_schema(tmp_path: Path) -> None:
    db = build(tmp_path / "bench.duckdb", 900, seed=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert _value(con, "SELECT count(*) FROM hands") == 900
        assert _value(con, "SELECT count(*) FROM player_hands") == 2700
        assert _value(con, "SELECT count(*) FROM pairwise") == 2700
        hero = f"SELECT hands FROM player_summary WHERE player = '{HERO}' AND variant = 'all'"
        assert _value(con, hero) == 900
        misreported = "SELECT count(*) FROM player_hands WHERE points <> reported_points"
        audited = "SELECT count(*) FROM audit_mismatches WHERE disagreements LIKE '%points%'"
        assert _value(con, misreported) == _value(con, audited) > 0
        incomplete = (
            "SELECT count(*) FROM (SELECT hand_id, seat, count(*) FILTER (WHERE row <> 'discard')"
            " AS placed FROM placements GROUP BY ALL) WHERE placed <> 13"
        )
        assert _value(con, incomplete) == 0  # every player-hand places its 13 cards
        unlike = (
            "SELECT count(*) FROM player_hands p JOIN hands h USING (hand_id)"
            " WHERE p.point_value IS DISTINCT FROM h.point_value"
            " OR p.currency IS DISTINCT FROM h.currency"
            " OR p.table_name IS DISTINCT FROM h.table_name"
        )
        assert _value(con, unlike) == 0  # the stake and table copied from hands
        assert _value(con, "SELECT count(DISTINCT currency) FROM player_hands") == 2
    finally:
        con.close()


def test_every_page_gets_a_figure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "CACHE", tmp_path)
    figures = pages.run(BenchOptions(quick=True))
    choosing = ("breakdowns", "hands")  # the pages that show one of several results
    assert set(figures) == {f"{page}_ms" for page in PAGES} | {
        f"{page}_slowest_choice_ms" for page in choosing
    }
    assert "default choice (stakes)" in figures["breakdowns_ms"].note
    assert "default choice (newest)" in figures["hands_ms"].note
    for page in choosing:
        assert figures[f"{page}_slowest_choice_ms"].value >= figures[f"{page}_ms"].value
    assert all(f.value is not None and f.value > 0 and f.target == 500 for f in figures.values())
    assert list(tmp_path.glob("dashboard-*.duckdb"))


def test_the_pages_are_timed_on_a_database_of_the_users_choice(dashboard_db: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dashboard.bench.pages", "--db", str(dashboard_db), "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        *(f"{page}_ms" for page in PAGES[:5]),
        "breakdowns_ms",
        "breakdowns_slowest_choice_ms",
        "hands_ms",
        "hands_slowest_choice_ms",
        *(f"{page}_ms" for page in PAGES[7:]),
    ]
    with duckdb.connect(str(dashboard_db), read_only=True) as con:
        hands = _value(con, "SELECT count(*) FROM hands")
    assert all(f"{hands:,} hands in {dashboard_db.name}" in line for line in lines)
