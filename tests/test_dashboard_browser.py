"""The dashboard in a real browser: Debian's Chromium, driven by Playwright, against
``ofc dashboard``'s Streamlit server on a database made by ``ofc simulate`` + ``ofc import``.

The tests run in order on one server and one browser page: every page is
visited, its key numbers are checked against DuckDB, a filter is changed, a
hand is opened, a file is uploaded and imported. Screenshots of every page go
to ``test-artifacts/``. The last test checks the browser console stayed clean.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from urllib.parse import quote, urlencode, urljoin, urlsplit

import duckdb
import pytest
from playwright.sync_api import Page, expect, sync_playwright

from dashboard.format import count, percent, signed
from pipeline.cli.main import main
from tests.browser import (
    Console,
    chromium,
    chromium_path,
    is_base_path_probe,
    screenshot,
    serve,
    wait_until_idle,
)
from tests.dashboard_data import HERO, SQL_NAME, XSS_NAME, copy_of, upload_file

pytestmark = pytest.mark.slow


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval, written out (independent of the dashboard's SQL)."""
    z, p = 1.959964, k / n
    centre, spread = p + z * z / (2 * n), z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def query(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    """One read-only query (a fresh connection: the Import test swaps the file)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql(sql, params=list(params)).fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def db(dashboard_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_of(dashboard_db, tmp_path_factory.mktemp("browser-db"))


@pytest.fixture(scope="module")
def import_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one folder the Import page may read (``ofc dashboard --import-dir``)."""
    folder = tmp_path_factory.mktemp("import-dir")
    (folder / "escape").symlink_to("/etc")
    return folder


@pytest.fixture(scope="module")
def server(db: Path, import_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    assert chromium_path(), "Debian's chromium is missing: `make test` installs it"
    with serve(db, tmp_path_factory.mktemp("streamlit"), (import_dir,)) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright, chromium(playwright) as context:
        yield context


@pytest.fixture(scope="module")
def watched() -> dict[str, list]:
    return {"console": Console(), "dialogs": [], "failed": [], "external": []}


def _watch(page: Page, watched: dict[str, list], base: str) -> Page:
    watched["console"].watch(page)
    page.on("dialog", lambda d: (watched["dialogs"].append(d.message), d.dismiss()))

    def failed(response) -> None:
        probe = response.url.startswith(base) and is_base_path_probe(response.url)
        if response.status >= 400 and not probe:
            watched["failed"].append(f"{response.status} {response.url}")

    page.on("response", failed)
    local = (base, "data:", "blob:", "about:")
    page.on(
        "request",
        lambda r: r.url.startswith(local) or watched["external"].append(r.url),
    )
    return page


@pytest.fixture(scope="module")
def page(browser, server, watched) -> Page:
    return _watch(browser.new_page(), watched, server.url)


def visit(page: Page, url: str) -> None:
    page.goto(url)
    wait_until_idle(page)
    exceptions = page.get_by_test_id("stException")
    assert exceptions.count() == 0, exceptions.first.inner_text()


def metric(page: Page, label: str):
    """The value of the metric labelled ``label`` (a locator: ``expect`` retries until the
    page shows the value, so a check after a click waits for the rerun)."""
    label_el = page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    box = page.get_by_test_id("stMetric").filter(has=label_el)
    return box.get_by_test_id("stMetricValue")


def table_row(page: Page, first_cell: str) -> list[str]:
    """The cells of the row of a ``st.table`` whose first cell is ``first_cell``."""
    for row in page.get_by_test_id("stTable").locator("tr").all():
        cells = [c.strip() for c in row.locator("th, td").all_inner_texts()]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no table row {first_cell!r}")


def grid_cell(page: Page, first_cell: str, column: int):
    """The cell in ``column`` of the row of the first ``st.dataframe`` whose first cell is
    ``first_cell`` (a locator on the grid's accessible table, the canvas's hidden content)."""
    grid = page.get_by_test_id("stDataFrame").first
    name = page.locator("td").filter(has_text=re.compile(f"^{re.escape(first_cell)}$"))
    return grid.locator("tr").filter(has=name).locator("td").nth(column)


def type_date(page: Page, label: str, day: dt.date) -> None:
    """Type ``day`` into the date input labelled ``label``; Escape closes its calendar,
    which commits the date."""
    box = page.get_by_test_id("stDateInput").filter(has_text=label).locator("input")
    box.fill(day.isoformat())
    box.press("Escape")
    wait_until_idle(page)


def choose(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label``."""
    page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_until_idle(page)


def test_overview_shows_the_heros_results(page: Page, server, db: Path) -> None:
    visit(page, server.url)
    hands, points, mean = query(
        db, "SELECT count(*), sum(points), avg(points) FROM player_hands WHERE player = ?", (HERO,)
    )[0]
    assert page.locator("h1").first.inner_text() == f"Overview · {HERO}"
    expect(metric(page, "Hands")).to_have_text(count(hands))
    expect(metric(page, "Points")).to_have_text(signed(points))
    expect(metric(page, "Points per hand")).to_have_text(signed(mean, 2))
    money = query(
        db,
        "SELECT currency, count(*), sum(money) FROM player_hands"
        " WHERE player = ? AND money IS NOT NULL GROUP BY currency ORDER BY currency",
        (HERO,),
    )
    assert money  # the simulated tables play for money
    for currency, played, amount in money:
        row = table_row(page, currency)
        assert row[1] == count(played) and row[3] == f"{amount:+,.2f} {currency}"
        assert row[4] == f"{amount / played:+,.2f} {currency}"
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(3)  # points, money, rates
    everybody = query(
        db,
        "SELECT count(*) FROM player_hands WHERE variant IN"
        " (SELECT variant FROM player_hands WHERE player = ?)",
        (HERO,),
    )[0][0]
    fouls = table_row(page, "Foul rate")  # against the population: its figure, interval, n
    assert fouls[5].startswith("95%: ") and fouls[6] == count(everybody)
    assert fouls[7] == "too few players"  # five players in all: the Coach audit's rule
    for figure in ("Points per hand", "Hands in Fantasyland", "Royalties per hand"):
        by_variant = table_row(page, figure)[1:]  # a column per variant
        assert by_variant and all("95%:" in cell and "; n " in cell for cell in by_variant)
    page.get_by_text("By date", exact=True).click()
    wait_until_idle(page)
    expect(page.locator("svg text").filter(has_text="Date (UTC)")).to_have_count(2)
    screenshot(page, "overview")


def test_a_filter_changes_the_numbers_and_the_url(page: Page, server, db: Path) -> None:
    choose(page, "Variant", "classic")
    expect(page).to_have_url(re.compile(r"variant=classic"))
    hands, points = query(
        db,
        "SELECT count(*), sum(points) FROM player_hands WHERE player = ? AND variant = 'classic'",
        (HERO,),
    )[0]
    assert hands != 360
    expect(metric(page, "Hands")).to_have_text(count(hands))
    expect(metric(page, "Points")).to_have_text(signed(points))
    screenshot(page, "overview-classic")


def test_a_link_opens_exactly_that_view(page: Page, server, db: Path) -> None:
    first, last = query(db, "SELECT min(played_at)::DATE, max(played_at)::DATE FROM hands")[0]
    middle = first + (last - first) / 2
    params = {"hero": "Chen", "variant": "pineapple", "from": middle.isoformat(), "opponent": HERO}
    visit(page, f"{server.url}/?{urlencode(params)}")
    hands, foul_rate = query(
        db,
        "SELECT count(*), avg(foul::INT) FROM player_hands p"
        " WHERE player = 'Chen' AND variant = 'pineapple' AND played_at >= ?"
        " AND hand_id IN (SELECT hand_id FROM player_hands WHERE player = ?)",
        (dt.datetime.combine(middle, dt.time(), dt.UTC), HERO),
    )[0]
    assert page.locator("h1").first.inner_text() == "Overview · Chen"
    expect(metric(page, "Hands")).to_have_text(count(hands))
    row = table_row(page, "Foul rate")
    low, high = wilson(round(foul_rate * hands), hands)
    assert row[1:4] == [percent(foul_rate), f"95%: {percent(low)} – {percent(high)}", count(hands)]
    assert all(f"{key}={value}" in page.url for key, value in params.items())


def test_players_page_and_head_to_head(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/players?hero={HERO}")
    together, points = query(
        db,
        "SELECT count(*),"
        " sum(CASE WHEN player_a = ? THEN points_a ELSE -points_a END)"
        " FROM pairwise WHERE ? IN (player_a, player_b)"
        " GROUP BY CASE WHEN player_a = ? THEN player_b ELSE player_a END"
        " ORDER BY count(*) DESC, any_value(CASE WHEN player_a = ? THEN player_b ELSE player_a END)"
        " LIMIT 1",
        (HERO, HERO, HERO, HERO),
    )[0]
    expect(metric(page, "Hands together")).to_have_text(count(together))
    expect(metric(page, "Points for the player")).to_have_text(signed(points))
    assert page.get_by_test_id("stDataFrame").count() == 2
    hands, fouls = query(
        db, "SELECT count(*), count_if(foul) FROM player_hands WHERE player = ?", (HERO,)
    )[0]
    low, high = wilson(fouls, hands)
    # player, Overview, hands, points, per hand and its two ends, money, fouls, their interval
    expect(grid_cell(page, HERO, 9)).to_have_text(
        f"{100 * low:.1f}% – {100 * high:.1f}% · n {hands}"
    )
    wallet = query(
        db,
        "SELECT currency, sum(money) FROM player_hands WHERE player = ? AND currency IS NOT NULL"
        " GROUP BY currency ORDER BY currency",
        (HERO,),
    )
    assert len(wallet) > 1  # the hero plays in several currencies: each amount on its own
    expect(grid_cell(page, HERO, 7)).to_have_text(
        " · ".join(f"{amount:+,.2f} {currency}" for currency, amount in wallet)
    )
    screenshot(page, "players")


def test_players_page_when_the_hero_and_the_rival_never_met_in_the_view(page: Page, server) -> None:
    visit(page, f"{server.url}/players?hero=Chen&variant=classic")  # Chen plays Pineapple only
    expect(page.get_by_text("These two players never met in this view.")).to_be_visible()


def test_head_to_head_follows_the_hero_chosen_in_the_sidebar(page: Page, server, db: Path) -> None:
    """The pickers were widgets keyed once: choosing another hero in the sidebar left the
    head to head on the first hero and their rival."""
    [(other,)] = query(
        db,
        "SELECT p.player FROM player_hands p JOIN player_hands o"
        " ON o.hand_id = p.hand_id AND o.player <> p.player"
        " WHERE p.player NOT IN (?, ?) GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1",
        (HERO, XSS_NAME),
    )
    visit(page, f"{server.url}/players?hero={HERO}")
    label = page.get_by_test_id("stWidgetLabel").get_by_text("Player", exact=True)
    picker = page.get_by_test_id("stSelectbox").filter(has=label).locator("input")
    expect(picker).to_have_value(HERO)
    choose(page, "Hero / student", other)
    expect(picker).to_have_value(other)
    together = query(
        db,
        "SELECT count(*) FROM pairwise WHERE ? IN (player_a, player_b)"
        " GROUP BY CASE WHEN player_a = ? THEN player_b ELSE player_a END"
        " ORDER BY count(*) DESC LIMIT 1",
        (other, other),
    )[0][0]
    expect(metric(page, "Hands together")).to_have_text(count(together))


def test_a_date_filter_narrows_the_players_table(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/players?hero={HERO}")
    hands = grid_cell(page, HERO, 2)  # player, its Overview link, hands
    expect(hands).to_have_text("360")  # all dates: player_summary
    first, last = query(db, "SELECT min(played_at)::DATE, max(played_at)::DATE FROM hands")[0]
    middle = first + (last - first) / 2
    later = query(
        db,
        "SELECT count(*) FROM player_hands WHERE player = ? AND played_at >= ?",
        (HERO, dt.datetime.combine(middle, dt.time(), dt.UTC)),
    )[0][0]
    type_date(page, "From", middle)
    expect(page).to_have_url(re.compile(f"from={middle.isoformat()}"))
    assert 0 < later < 360
    expect(hands).to_have_text(str(later))
    expect(page.get_by_text(f"{middle.isoformat()} → today (only the hands")).to_be_visible()
    screenshot(page, "players-from")


def test_a_players_row_links_to_that_players_overview_in_the_same_view(
    page: Page, server, db: Path
) -> None:
    visit(page, f"{server.url}/players?hero={HERO}&variant=pineapple")
    link = grid_cell(page, "Chen", 1)  # the grid's accessible copy holds the link's URL
    expect(link).to_have_text("./?hero=Chen&variant=pineapple")
    visit(page, urljoin(page.url, link.inner_text()))
    hands = query(
        db, "SELECT count(*) FROM player_hands WHERE player = 'Chen' AND variant = 'pineapple'"
    )[0][0]
    assert urlsplit(page.url).path == "/"  # the Overview itself, not a fallback to it
    assert page.locator("h1").first.inner_text() == "Overview · Chen"
    expect(metric(page, "Hands")).to_have_text(count(hands))


def test_style_page(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/style?hero={HERO}")
    foul_rate = query(
        db, "SELECT foul_rate FROM style_metrics WHERE player = ? AND variant = 'all'", (HERO,)
    )[0][0]
    fouls, hands = query(
        db,
        "SELECT count(*) FILTER (WHERE foul), count(*) FROM player_hands"
        " WHERE player = ? AND NOT in_fantasyland AND NOT timed_out",
        (HERO,),
    )[0]
    assert foul_rate == fouls / hands
    low, high = wilson(fouls, hands)
    row = table_row(page, "Foul rate (no Fantasyland, no timeout)")
    assert row[1:4] == [percent(foul_rate), f"95%: {percent(low)} – {percent(high)}", count(hands)]
    everybody = query(
        db,
        "SELECT count(*) FROM player_hands WHERE NOT in_fantasyland AND NOT timed_out"
        " AND variant IN (SELECT variant FROM player_hands WHERE player = ?)",
        (HERO,),
    )[0][0]
    assert row[5].startswith("95%: ") and row[6] == count(everybody)  # the population's
    assert row[8:] == ["lower is better", "too few players"]  # five players in all
    assert page.get_by_test_id("stVegaLiteChart").count() == 3
    main = page.get_by_test_id("stMain").inner_text()
    assert "A leak needs at least 200 hands" in main and "pooled" in main
    screenshot(page, "style")


def test_fantasyland_page(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/fantasyland?hero={HERO}")
    entries, live = query(
        db,
        "SELECT count(*) FILTER (WHERE fantasyland_next), count(*) FROM player_hands"
        " WHERE player = ? AND NOT foul AND NOT in_fantasyland",
        (HERO,),
    )[0]
    expect(metric(page, "Entry rate")).to_have_text(percent(entries / live))
    low, high = wilson(entries, live)
    caption = f"n {count(live)} · 95%: {percent(low)} – {percent(high)}"
    expect(page.get_by_text(caption)).to_be_visible()
    everybody = query(
        db,
        "SELECT count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland) FROM player_hands"
        " WHERE variant IN (SELECT variant FROM player_hands WHERE player = ?)",
        (HERO,),
    )[0][0]
    expect(
        page.get_by_text(re.compile(f"population 95%: .*, n {count(everybody)}$"))
    ).to_have_count(1)
    expect(page.get_by_text(re.compile(r"· (better|worse|higher|lower) ·"))).to_have_count(0)
    assert "RULES.md" not in page.get_by_test_id("stMain").inner_text()
    screenshot(page, "fantasyland")


def test_fantasyland_for_everybody_sets_nothing_against_itself(
    page: Page, server, db: Path
) -> None:
    """Everybody's figures are the population's: no verdict, no population beside them."""
    visit(page, f"{server.url}/fantasyland?hero=Everybody")
    entries, live = query(
        db,
        "SELECT count(*) FILTER (WHERE fantasyland_next), count(*) FROM player_hands"
        " WHERE NOT foul AND NOT in_fantasyland",
    )[0]
    expect(metric(page, "Entry rate")).to_have_text(percent(entries / live))
    low, high = wilson(entries, live)
    expect(
        page.get_by_text(f"n {count(live)} · 95%: {percent(low)} – {percent(high)}", exact=True)
    ).to_be_visible()
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(re.compile("population|in line|too few", re.IGNORECASE))).to_have_count(
        1
    )
    expect(
        main.get_by_text("they are the population, so nothing is set against it", exact=False)
    ).to_be_visible()


def test_hand_viewer_draws_the_rows_street_by_street(page: Page, server, db: Path) -> None:
    hand_id, names = query(
        db,
        "SELECT hand_id, list(player ORDER BY position) FROM player_hands"
        " WHERE variant = 'pineapple' GROUP BY hand_id"
        " HAVING list_contains(list(player), ?) AND NOT bool_or(in_fantasyland)"
        " ORDER BY hand_id LIMIT 1",
        (XSS_NAME,),
    )[0]
    visit(page, f"{server.url}/hands?{urlencode({'hero': HERO, 'hand': hand_id})}")
    titles = page.locator(".ofc-board h4").all_inner_texts()
    assert [t.split(" · seat")[0] for t in titles] == sorted(names, key=lambda n: n != HERO)
    cards = page.locator(".ofc-row .ofc-card[class*='suit-']")
    expect(cards).to_have_count(39)
    screenshot(page, "hands")
    page.get_by_test_id("stSlider").get_by_role("slider").focus()
    page.keyboard.press("Home")
    wait_until_idle(page)
    expect(cards).to_have_count(15)  # street 1: five cards each
    assert page.locator(".ofc-figures").count() == 1
    newest = query(
        db,
        "SELECT hand_id FROM player_hands WHERE player = ? ORDER BY played_at DESC, hand_id LIMIT 1",
        (HERO,),
    )[0][0]
    page.get_by_test_id("stSelectbox").filter(has_text="Open a hand from this page").click()
    page.get_by_role("option").filter(has_text=newest).click()
    wait_until_idle(page)
    expect(page.get_by_label("Hand id")).to_have_value(newest)
    assert f"hand={quote(newest, safe='')}" in page.url or f"hand={newest}" in page.url


def test_the_viewer_opens_a_hand_by_the_rooms_own_number(page: Page, server, db: Path) -> None:
    """A coach pastes the number from the history file, without the format prefix."""
    (room_id,) = query(
        db,
        "SELECT room_hand_id FROM hands WHERE room_hand_id IN (SELECT room_hand_id"
        " FROM hands GROUP BY 1 HAVING count(*) = 1) ORDER BY hand_id LIMIT 1",
    )[0]
    visit(page, f"{server.url}/hands?{urlencode({'hero': HERO, 'hand': room_id})}")
    expect(page.locator(".ofc-board").first).to_be_visible()
    main = page.get_by_test_id("stMain").inner_text()
    assert "No hand" not in main and f"room hand {room_id}" in main, main[-2000:]
    visit(page, f"{server.url}/hands?{urlencode({'hero': HERO, 'hand': 'no-such-1'})}")
    expect(page.get_by_text("No hand no-such-1 in this database: check the id.")).to_be_visible()


def test_the_viewer_names_rows_marks_the_foul_and_steps_through_the_list(
    page: Page, server, db: Path
) -> None:
    hand_id, source = query(
        db,
        "SELECT hand_id, source_file FROM player_hands JOIN hands USING (hand_id)"
        " WHERE player = ? AND foul AND NOT timed_out AND hands.variant = 'pineapple'"
        " ORDER BY hands.played_at, hand_id LIMIT 1",
        (HERO,),
    )[0]
    visit(page, f"{server.url}/hands?{urlencode({'hero': HERO, 'hand': hand_id})}")
    titles = page.locator(".ofc-board h4").all_inner_texts()
    assert titles[0].startswith(f"{HERO} · seat")  # the hero first, whatever the seat
    fouling = page.locator(".ofc-row.ofc-fouling")
    expect(fouling).to_have_count(1)
    assert "makes the foul" in fouling.inner_text()
    labels = page.locator(".ofc-board").first.locator(".ofc-row-label").all_inner_texts()
    assert len(labels) == 3 and all(labels)
    meta = page.get_by_test_id("stMain").inner_text()
    assert f" · {Path(source).name}:" in meta and source not in meta  # no folders
    assert "R4" not in meta
    _, before, after = query(
        db,
        "SELECT * FROM (SELECT hand_id, lag(hand_id) OVER w AS before, lead(hand_id) OVER w"
        " AS after FROM player_hands WHERE player = ? WINDOW w AS (ORDER BY played_at, hand_id))"
        " WHERE hand_id = ?",
        (HERO, hand_id),
    )[0]
    page.get_by_role("button", name="Next hand ▶").click()
    wait_until_idle(page)
    expect(page.get_by_label("Hand id")).to_have_value(after)
    page.get_by_role("button", name="◀ Previous hand").click()
    wait_until_idle(page)
    expect(page.get_by_label("Hand id")).to_have_value(hand_id)
    if before is None:
        expect(page.get_by_role("button", name="◀ Previous hand")).to_be_disabled()


def test_the_hand_list_sorts_over_every_hand(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/hands?hero={HERO}")
    choose(page, "Sort by", "Most points")
    best = {
        r[0]
        for r in query(
            db,
            "SELECT hand_id FROM player_hands WHERE player = ? AND points ="
            " (SELECT max(points) FROM player_hands WHERE player = ?)",
            (HERO, HERO),
        )
    }
    grid = page.get_by_test_id("stDataFrame").first
    first_row = grid.locator("tbody tr").first.locator("td").all_inner_texts()
    assert first_row[1] in best  # the best hand of all 360, not of the 50 on screen


def test_breakdowns_by_month_and_sessions(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/breakdowns?hero={HERO}")
    page.get_by_text("Month", exact=True).click()
    wait_until_idle(page)
    month, hands = query(
        db,
        "SELECT strftime(played_at, '%Y-%m'), count(*) FROM player_hands WHERE player = ?"
        " GROUP BY 1 ORDER BY 1 DESC LIMIT 1",
        (HERO,),
    )[0]
    expect(grid_cell(page, month, 1)).to_have_text(str(hands))
    page.get_by_text("Session", exact=True).click()
    wait_until_idle(page)
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(1)
    assert "a session is a run of hands at one table" in page.get_by_test_id("stMain").inner_text()
    screenshot(page, "breakdowns-sessions")


def test_hostile_names_are_shown_as_text(page: Page, server, db: Path) -> None:
    for name in (XSS_NAME, SQL_NAME):
        visit(page, f"{server.url}/?hero={quote(name)}")
        assert page.locator("h1").first.inner_text() == f"Overview · {name}"
    assert page.locator("img[src='x']").count() == 0
    assert query(db, "SELECT count(*) FROM hands")[0][0] == 360


def test_coach_audit_and_its_report(page: Page, server, db: Path) -> None:
    visit(page, f"{server.url}/coach?hero={HERO}")
    mismatches = query(db, "SELECT count(*) FROM audit_mismatches WHERE player = ?", (HERO,))[0][0]
    main = page.get_by_test_id("stMain").inner_text()
    assert f"{count(mismatches)} of {HERO}'s hands" in main
    assert (
        "Too few players to call anything a leak: 360 hands of the student, 4 other players" in main
    )
    assert "Leaks:" not in main
    screenshot(page, "coach")
    page.get_by_role("button", name="Write the HTML report").click()
    wait_until_idle(page)
    with page.expect_download() as download:
        page.get_by_test_id("stDownloadButton").get_by_role("button").click()
    report = Path(download.value.path()).read_text(encoding="utf-8")
    assert report.lstrip().lower().startswith("<!doctype html") and HERO in report
    assert "not only this page's view" not in main
    visit(page, f"{server.url}/coach?hero={HERO}&variant=pineapple")
    says = f"it covers all of {HERO}'s pineapple hands in the database (every date and stake)."
    expect(page.get_by_text(says)).to_be_visible()
    page.get_by_role("button", name="Write the HTML report").click()
    wait_until_idle(page)
    with page.expect_download() as download:
        page.get_by_test_id("stDownloadButton").get_by_role("button").click()
    report = Path(download.value.path()).read_text(encoding="utf-8")
    assert f"<h1>{HERO} · pineapple only</h1>" in report
    visit(page, f"{server.url}/coach?hero={HERO}&variant=pineapple&from=2000-01-01")
    says = f"it covers all of {HERO}'s pineapple hands in the database (every date and stake)"
    expect(
        page.get_by_text(re.compile(re.escape(f"{says}, not only this page's view")))
    ).to_be_visible()


def test_decisions_page_before_and_after_a_review(page: Page, server, db: Path) -> None:
    """Empty, it says to run ``ofc review``; after a review of the hero's Pineapple hands it
    shows the loss per 100 hands of the database and opens a mistake, chosen beside best."""
    visit(page, f"{server.url}/decisions?hero={HERO}")
    expect(page.get_by_text("ofc review --db FILE --all", exact=False)).to_be_visible()
    review = ["review", "--db", str(db), "--player", HERO, "--rollouts", "8"]
    assert main([*review, "--since", "2000-01-01", "--workers", "1", "--quiet"]) == 0
    hands, loss = query(
        db,
        "SELECT count(*), 100 * avg(loss) FROM (SELECT hand_id, sum(ev_loss) AS loss"
        " FROM decisions WHERE player = ? GROUP BY hand_id)",
        (HERO,),
    )[0]
    assert hands > 0
    visit(page, f"{server.url}/decisions?hero={HERO}")
    expect(metric(page, "Hands reviewed")).to_have_text(count(hands))
    expect(metric(page, "EV lost per 100 hands")).to_have_text(f"{loss:.1f}")
    titles = page.locator(".ofc-board h4")
    expect(titles.filter(has_text="chosen · value")).to_have_count(1)
    expect(titles.filter(has_text="best · value")).to_have_count(1)
    screenshot(page, "decisions")


def test_import_page_uploads_a_file_and_other_sessions_keep_working(
    page: Page, browser, server, db: Path, watched, tmp_path: Path
) -> None:
    other = _watch(browser.new_page(), watched, server.url)
    visit(other, server.url)
    expect(metric(other, "Hands")).to_have_text(count(360))
    visit(page, f"{server.url}/import")
    page.get_by_test_id("stFileUploader").locator("input[type=file]").set_input_files(
        str(upload_file(tmp_path))
    )
    page.get_by_test_id("stFileChip").wait_for()
    page.get_by_role("button", name="Import").click()
    page.get_by_text("Import #2 finished").wait_for(timeout=60_000)
    wait_until_idle(page)
    expect(metric(page, "Stored")).to_have_text("30")
    expect(metric(page, "Hands read")).to_have_text("30")
    screenshot(page, "import")
    visit(other, server.url)  # the other session reads the swapped-in database
    expect(metric(other, "Hands")).to_have_text(count(390))
    other.close()
    # the same hands again: stored before, which is no warning
    visit(page, f"{server.url}/import")
    page.get_by_test_id("stFileUploader").locator("input[type=file]").set_input_files(
        str(upload_file(tmp_path / "again"))
    )
    page.get_by_test_id("stFileChip").wait_for()
    page.get_by_role("button", name="Import").click()
    page.get_by_text("every hand read was stored before").wait_for(timeout=60_000)
    main = page.get_by_test_id("stMain").inner_text()
    assert "30 already stored" in main and "stored no hand" not in main


def test_a_file_of_garbage_is_a_warning_not_a_success(page: Page, server, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.jsonl"  # (a .txt would first compile the fast en reader)
    garbage.write_text("this is not a hand history\n" * 20, encoding="utf-8")
    visit(page, f"{server.url}/import")
    label = page.get_by_test_id("stFileUploader").inner_text()
    assert "200 MB per file and in all" in label
    page.get_by_test_id("stFileUploader").locator("input[type=file]").set_input_files(str(garbage))
    page.get_by_test_id("stFileChip").wait_for()
    page.get_by_role("button", name="Import").click()
    warning = page.get_by_text(
        re.compile(r"stored no hand: garbage.jsonl skipped, not a hand history")
    )
    warning.wait_for(timeout=120_000)
    main = page.get_by_test_id("stMain").inner_text()
    assert "Nothing new" not in main and "stored no hand" in main
    assert "ofc-upload-" not in main  # rejects name the uploaded file, not its temporary path


@pytest.mark.parametrize("path", ["coach", "style"])
def test_the_audit_says_it_counts_every_opponent(page: Page, server, db: Path, path) -> None:
    """Its header says "against X", but a leak is the player's whole record."""
    rival = query(
        db,
        "SELECT o.player FROM player_hands p JOIN player_hands o USING (hand_id)"
        " WHERE p.player = ? AND o.player <> ? GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
        (HERO, HERO),
    )[0][0]
    visit(page, f"{server.url}/{path}?hero={HERO}&opponent={quote(rival)}")
    says = f"count all of {HERO}'s hands in the view, not only those against {rival}"
    expect(page.get_by_text(says, exact=False)).to_be_visible()


def test_an_unknown_hero_or_variant_in_the_url_is_named(page: Page, server) -> None:
    visit(page, f"{server.url}/?hero=Nobody+at+all&variant=omaha")
    sidebar = page.get_by_test_id("stSidebar").inner_text()
    assert "No player 'Nobody at all' in this database: showing the most active player" in sidebar
    assert page.locator("h1").first.inner_text() == f"Overview · {HERO}"
    assert "No variant 'omaha' in this database" in sidebar
    assert "hero=Nobody" not in page.url


def test_an_unreadable_day_or_days_in_the_wrong_order_are_named(page: Page, server) -> None:
    visit(page, f"{server.url}/?hero={HERO}&from=2026-13-45")
    sidebar = page.get_by_test_id("stSidebar").inner_text()
    assert "From '2026-13-45' is not a day between" in sidebar and "from filter is off" in sidebar
    assert "from=" not in page.url
    visit(page, f"{server.url}/?hero={HERO}&from=2026-06-01&to=2026-03-01")
    sidebar = page.get_by_test_id("stSidebar").inner_text()
    assert "From 2026-06-01 is after To 2026-03-01: no hand is in between." in sidebar


def test_an_opponent_never_met_or_days_without_hands_are_not_dropped_quietly(
    page: Page, server
) -> None:
    visit(page, f"{server.url}/?hero=Chen&opponent=Dmitry")  # Dmitry plays Classic only
    sidebar = page.get_by_test_id("stSidebar").inner_text()
    assert "'Chen' played no hand against 'Dmitry' in this database: the opponent filter" in sidebar
    assert "opponent=" not in page.url
    visit(page, f"{server.url}/?hero={HERO}&from=2001-01-01&to=2001-12-31")
    main = page.get_by_test_id("stMain").inner_text()
    assert "The hero has no hands in this view" in main
    assert "from=2001-01-01" in page.url and "to=2001-12-31" in page.url
    visit(page, f"{server.url}/coach?hero={HERO}&from=2001-01-01&to=2001-12-31")
    main = page.get_by_test_id("stMain").inner_text()
    assert f"{HERO} has no hands in this view: widen the filters" in main  # not "yet"


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "{dir}/../../../etc/passwd", "{dir}/escape/passwd"]
)
def test_import_page_reads_no_file_outside_its_import_dirs(
    page: Page, server, db: Path, import_dir: Path, path: str
) -> None:
    imports = query(db, "SELECT count(*) FROM imports")
    visit(page, f"{server.url}/import")
    box = page.get_by_test_id("stTextInput").filter(has_text=str(import_dir)).locator("input")
    box.fill(path.format(dir=import_dir))
    page.get_by_role("button", name="Import").click()
    wait_until_idle(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text("outside the folders")
    assert "root:" not in page.get_by_test_id("stMain").inner_text()
    assert query(db, "SELECT count(*) FROM imports") == imports
    assert query(db, "SELECT count(*) FROM rejects WHERE source_file LIKE '%passwd%'") == [(0,)]


def test_the_browser_reported_no_error_and_stayed_offline(watched) -> None:
    assert watched["external"] == []  # no request left the machine
    assert watched["dialogs"] == []
    assert watched["failed"] == []
    assert watched["console"].errors == []


def test_a_link_to_everybody_keeps_naming_everybody(page: Page, server) -> None:
    """``?hero=Everybody`` once became ``?hero=None`` (a link to the most active player) and
    the next page link raised Streamlit's "cannot delete a bound query parameter"."""
    visit(page, f"{server.url}/players?hero=Everybody&variant=pineapple")
    expect(page).to_have_url(re.compile(r"hero=Everybody"))
    assert "hero=None" not in page.url
    page.get_by_test_id("stSidebarNav").get_by_text("Style", exact=True).click()
    wait_until_idle(page)
    assert page.get_by_test_id("stException").count() == 0
    assert "hero=Everybody" in page.url and "hero=None" not in page.url
    assert page.locator("h1").first.inner_text().startswith("Style")
