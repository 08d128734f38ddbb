"""What the dashboard draws and what its URL says, in a real browser (Chromium + Playwright).

A missing figure reads "—" in every table, never "None" (the grid draws on a
canvas, so the test records the text the page draws); a date typed in the
sidebar applies on Enter; and whatever the keyboard does in the hero picker,
the URL reopens exactly the view on screen.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.browser import chromium, chromium_path, serve, wait_for_drawing, wait_until_idle
from tests.dashboard_data import HERO

pytestmark = pytest.mark.slow

#: Records every text the page draws on a canvas (the tables' cells) in ``window.drawnTexts``.
RECORD_CANVAS_TEXT = """
window.drawnTexts = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  window.drawnTexts.push(String(text));
  return fillText.call(this, text, ...rest);
};
"""


@pytest.fixture(scope="module")
def server(dashboard_db: Path, tmp_path_factory: pytest.TempPathFactory):
    assert chromium_path(), "Debian's chromium is missing: `make test` installs it"
    with serve(dashboard_db, tmp_path_factory.mktemp("streamlit")) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright, chromium(playwright) as context:
        context.add_init_script(RECORD_CANVAS_TEXT)
        yield context


@pytest.fixture
def page(browser):
    opened = browser.new_page()
    yield opened
    opened.close()


def visit(page: Page, url: str) -> None:
    page.goto(url)
    wait_until_idle(page)


def view_on_screen(page: Page) -> str:
    """The page's title and the view it describes (the line under the title)."""
    return (
        page.locator("h1").first.inner_text()
        + " | "
        + page.locator(".ofc-h1 + .ofc-line").first.inner_text()
    )


def reopened(browser, url: str) -> str:
    """The view a fresh page shows for ``url``."""
    other = browser.new_page()
    try:
        visit(other, url)
        return view_on_screen(other)
    finally:
        other.close()


def test_a_missing_figure_is_a_dash_in_the_tables(page: Page, server, dashboard_db: Path) -> None:
    with duckdb.connect(str(dashboard_db), read_only=True) as con:
        stays = con.sql(
            "SELECT count(*) FROM player_hands WHERE player = ? AND in_fantasyland", params=[HERO]
        ).fetchall()[0][0]
    assert stays == 0  # so the hero's stay rate is missing in the Fantasyland table
    visit(page, f"{server.url}/fantasyland?hero={HERO}")
    wait_for_drawing(page)
    drawn = page.evaluate("() => window.drawnTexts")
    assert "—" in drawn
    assert "None" not in drawn


def _type_date(page: Page, label: str, day: dt.date) -> None:
    """Type ``day`` digit by digit into the sidebar's date field ``label``, as a user does."""
    field = page.get_by_test_id("stDateInput").filter(has_text=label)
    field.get_by_role("spinbutton").first.focus()
    page.keyboard.type(day.strftime("%Y%m%d"))


def test_a_typed_to_date_applies_on_enter(page: Page, browser, server, dashboard_db: Path) -> None:
    with duckdb.connect(str(dashboard_db), read_only=True) as con:
        first, last = con.sql(
            "SELECT min(played_at)::DATE, max(played_at)::DATE FROM hands"
        ).fetchall()[0]
    until = first + (last - first) / 2
    visit(page, f"{server.url}/?hero={HERO}")
    _type_date(page, "To", until)
    page.keyboard.press("Enter")
    wait_until_idle(page)
    expect(page).to_have_url(re.compile(f"[?&]to={until.isoformat()}"))
    expect(page.locator(".ofc-h1 + .ofc-line").first).to_have_text(f"start → {until.isoformat()}")
    assert reopened(browser, page.url) == view_on_screen(page)


def test_escape_in_the_hero_picker_leaves_the_url_and_the_page_agreeing(
    page: Page, browser, server
) -> None:
    visit(page, f"{server.url}/?hero=Chen")
    picker = page.get_by_test_id("stSelectbox").filter(has_text="Hero / student").locator("input")
    picker.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    wait_until_idle(page)
    assert reopened(browser, page.url) == view_on_screen(page)
    expect(page.locator("h1").first).to_have_text("Overview · Chen")


def test_everybody_is_a_view_the_url_names(page: Page, browser, server) -> None:
    visit(page, server.url)  # no hero in the URL: the most active player
    expect(page.locator("h1").first).to_have_text(f"Overview · {HERO}")
    assert reopened(browser, page.url) == view_on_screen(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Hero / student").click()
    page.get_by_role("option", name="Everybody", exact=True).click()
    wait_until_idle(page)
    expect(page).to_have_url(f"{server.url}/?hero=Everybody")
    expect(page.locator("h1").first).to_have_text("Overview")
    assert reopened(browser, page.url) == view_on_screen(page)
