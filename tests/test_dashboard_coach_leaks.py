"""Coach audit in a real browser on a database with enough players for leaks: the page
names exactly the leaks ``ofc audit --json`` finds (they share the code), states the
minimum sample, and names none when the view is too small."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

import duckdb
import pytest
from playwright.sync_api import Page, sync_playwright

from pipeline.cli.main import main
from tests.audit_data import STUDENT, database
from tests.browser import chromium, chromium_path, serve, wait_until_idle


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return database(tmp_path_factory.getbasetemp() / "audit-db", 1200)


@pytest.fixture(scope="module")
def page(db: Path, tmp_path_factory: pytest.TempPathFactory):
    assert chromium_path(), "Debian's chromium is missing: `make test` installs it"
    with (
        serve(db, tmp_path_factory.mktemp("streamlit-audit")) as server,
        sync_playwright() as playwright,
        chromium(playwright) as context,
    ):
        page = context.new_page()
        page.base = server.url
        yield page


def visit(page: Page, path: str, **params: str) -> str:
    page.goto(f"{page.base}/{path}?{urlencode(params)}")
    wait_until_idle(page)
    assert page.get_by_test_id("stException").count() == 0
    return page.get_by_test_id("stMain").inner_text()


def test_the_page_names_the_leaks_ofc_audit_finds(page: Page, db: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["audit", "--db", str(db), "--player", STUDENT, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    labels = [m["label"] for m in found["metrics"] if m["verdict"] == "leak"]
    assert "Foul rate" in labels
    text = visit(page, "coach", hero=STUDENT)
    assert f"Leaks: {', '.join(labels)}" in text
    assert "A leak needs at least 200 hands of the player" in text
    assert (
        f"{found['other_players_ranked']['players']} other players with at least 100 hands" in text
    )
    rows = page.get_by_test_id("stTable").first.locator("tr").all()
    verdicts = {
        cells[0]: cells[-1]
        for cells in ([c.strip() for c in r.locator("th, td").all_inner_texts()] for r in rows)
        if cells
    }
    assert {label for label, verdict in verdicts.items() if verdict == "leak"} == set(labels)
    table = [[c.strip() for c in r.locator("th, td").all_inner_texts()] for r in rows]
    header = table[0]
    assert {"Population", "Population 95% interval", "Population n"} <= set(header)
    foul = next(m for m in found["metrics"] if m["metric"] == "foul_rate")
    shown = dict(zip(header, next(r for r in table if r[0] == "Foul rate"), strict=True))
    assert shown["Population n"] == f"{foul['population_n']:,.0f}"
    low, high = (100 * foul[f"population_{end}"] for end in ("low", "high"))
    assert shown["Population 95% interval"] == f"95%: {low:.1f}% – {high:.1f}%"


def test_a_view_too_small_names_no_leak(page: Page, db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    first = con.execute("SELECT min(played_at)::DATE FROM hands").fetchall()[0][0]
    hands = con.execute(
        "SELECT count(*) FROM player_hands WHERE player = ? AND played_at::DATE = ?",
        [STUDENT, first],
    ).fetchall()[0][0]
    con.close()
    assert hands < 200
    text = visit(page, "coach", hero=STUDENT, to=first.isoformat())
    assert "Too few hands to call anything a leak" in text and "Leaks:" not in text
