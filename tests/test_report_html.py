"""``ofc report`` writes self-contained HTML: no network needed, untrusted names escaped.

The pages carry Vega, Vega-Lite and Vega-Embed inline (no ``<script src>``,
no ``http`` address anywhere a browser would load from); a player whose name
is HTML and script is shown as text. When Debian's Chromium is installed the
page is opened offline and its charts must draw without a single request.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.report.write import CHARTS_SCRIPT, file_name
from tests.import_support import ofc_import, simulate

HOSTILE = "</script><b onclick=\"x()\">Zoë & 'co'</b>"
LOADING = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    history = simulate(
        folder / "h.txt",
        150,
        seed=81,
        bots=f"{HOSTILE}=random,Bob=random",
        players=2,
        misreport=0.1,
    )
    path = folder / "ofc.duckdb"
    assert ofc_import(history, "--db", path) == 0
    return path


def test_player_page_is_self_contained_and_escaped(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "zoe.html"
    assert main(["report", "--db", str(db), "--player", HOSTILE, "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert HOSTILE not in page
    assert (
        "<h1>&lt;/script&gt;&lt;b onclick=&quot;x()&quot;&gt;Zoë &amp; &#x27;co&#x27;&lt;/b&gt;</h1>"
        in page
    )
    assert re.findall(r"<script[^>]*>", page) == ['<script type="text/javascript">'] * 2
    assert page.count("</script>") == 2
    assert not LOADING.search(page)
    assert page.count("vegaEmbed('#") == 4
    assert "Audit findings" in page and "player-hands disagree with the rules" in page


def test_all_writes_a_page_per_player_and_an_index(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert main(["report", "--db", str(db), "--all", "--out", str(out)]) == 0
    pages = sorted(p.name for p in out.iterdir() if p.suffix == ".html")
    assert len(pages) == 3 and "index.html" in pages
    index = (out / "index.html").read_text(encoding="utf-8")
    for name in pages:
        if name != "index.html":
            assert re.fullmatch(r"player-[A-Za-z0-9_-]+\.html", name)
            assert f'href="{name}"' in index
    assert HOSTILE not in index and "Bob" in index


def test_all_writes_the_chart_library_once_beside_the_pages(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    single = tmp_path / "bob.html"
    assert main(["report", "--db", str(db), "--all", "--out", str(out)]) == 0
    assert main(["report", "--db", str(db), "--player", "Bob", "--out", str(single)]) == 0
    library = out / CHARTS_SCRIPT
    assert library.stat().st_size > 500_000  # Vega, Vega-Lite and Vega-Embed, once
    assert sorted(p.name for p in out.iterdir() if p.suffix != ".html") == [CHARTS_SCRIPT]
    for page in out.glob("player-*.html"):
        text = page.read_text(encoding="utf-8")
        assert page.stat().st_size < 100_000, page.stat().st_size
        assert f'<script src="{CHARTS_SCRIPT}"></script>' in text
        assert not LOADING.search(text)
    assert single.stat().st_size > library.stat().st_size  # a single page stays self-contained


def test_unknown_player_is_a_user_error(db: Path, tmp_path: Path, capsys) -> None:
    code = main(["report", "--db", str(db), "--player", "Bobb", "--out", str(tmp_path / "x.html")])
    assert code == 2
    assert "did you mean 'Bob'" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["--player", "--all"])
def test_page_draws_its_charts_offline(db: Path, tmp_path: Path, how: str) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("Debian's Chromium is not installed")
    if how == "--player":
        out = tmp_path / "bob.html"
        assert main(["report", "--db", str(db), "--player", "Bob", "--out", str(out)]) == 0
    else:
        assert main(["report", "--db", str(db), "--all", "--out", str(tmp_path)]) == 0
        out = tmp_path / file_name("Bob")
    requests, errors = [], []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(chromium), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(out.as_uri())
        page.wait_for_function("document.querySelectorAll('svg.marks, canvas').length >= 4")
        browser.close()
    assert [url for url in requests if not url.startswith(("file:", "data:"))] == []
    assert errors == []
