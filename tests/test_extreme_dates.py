"""A database holding dates at the ends of what DuckDB stores (1 BC, year 1, year 9999,
written by older versions before dates were bounded) still reports and draws.

``ofc report`` and every dashboard page (a real browser, as in
``tests/test_dashboard_browser.py``) must work: the date inputs' bounds are
clamped to the plausible range of ``parsers.bounds``.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from playwright.sync_api import sync_playwright

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters
from dashboard.queries.hands import HandFilters, neighbours
from dashboard.queries.options import choices
from dashboard.shell import PAGES
from parsers.bounds import FIRST_DAY, LAST_DAY
from pipeline.cli.main import main
from tests.browser import chromium, chromium_path, serve, wait_until_idle
from tests.dashboard_data import HERO, copy_of

#: Seconds since 1970 of 29 November 1 BC (the year 0), 1 January of year 1, 31 December 9999.
EXTREMES = (-62_138_448_000, -62_135_596_800, 253_402_293_600)


@pytest.fixture(scope="module")
def db(dashboard_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = copy_of(dashboard_db, tmp_path_factory.mktemp("extreme-db"))
    con = duckdb.connect(str(path))
    try:
        # Every hand of the hero at one of the extremes: they are the pages' latest hands.
        con.execute(
            "UPDATE hands SET played_at = to_timestamp(list_extract(?, CAST(1 + hash(hand_id) % 3 AS INTEGER))) "
            "WHERE hand_id IN (SELECT hand_id FROM player_hands WHERE player = ?)",
            [list(EXTREMES), HERO],
        )
        oldest = "SELECT min(played_at) < TIMESTAMPTZ '0001-01-01 00:00:00+00' FROM hands"
        assert con.execute(oldest).fetchall()[0][0]
    finally:
        con.close()
    return path


def test_report_works(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "hero.html"
    assert main(["report", "--db", str(db), "--player", HERO, "--out", str(out)]) == 0
    assert out.stat().st_size > 0


def test_a_hand_on_the_last_day_has_neighbours_without_overflow(db: Path) -> None:
    """The nearest day after a hand of 31 December 9999 is that day: no day follows it."""
    database = Database(db)
    last = database.value(
        "SELECT hand_id FROM player_hands JOIN hands AS h USING (hand_id) WHERE player = ?"
        " ORDER BY h.played_at DESC, hand_id DESC LIMIT 1",
        [HERO],
    )
    assert database.value("SELECT year(played_at) FROM hands WHERE hand_id = ?", [last]) == 9999
    earlier, later = neighbours(database, Filters(hero=HERO), HandFilters(), last)
    assert earlier is not None and later is None


def test_the_date_inputs_bounds_are_clamped(db: Path) -> None:
    found = choices(Database(db))
    assert found.first_day == FIRST_DAY.date()
    assert found.last_day == LAST_DAY.date()


def test_every_dashboard_page_draws(db: Path, tmp_path: Path) -> None:
    assert chromium_path(), "Debian's chromium is missing: `make test` installs it"
    with (
        serve(db, tmp_path) as server,
        sync_playwright() as playwright,
        chromium(playwright) as context,
    ):
        page = context.new_page()
        failed = {}
        for _module, title, path, _icon in PAGES:
            page.goto(f"{server.url}/{path}")
            wait_until_idle(page)
            exceptions = page.get_by_test_id("stException")
            if exceptions.count():
                failed[title] = exceptions.first.inner_text()
            assert page.get_by_test_id("stDateInput").count() == 2, title
        assert failed == {}
