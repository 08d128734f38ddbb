"""Every figure ``ofc report`` shows has its n and the one 95% interval of
``pipeline.load.metrics.intervals`` (Wilson for rates, t for means)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import duckdb
import polars as pl
import pytest

from dashboard.queries import decisions as dashboard_decisions
from pipeline.cli.commands.demo import player_lines
from pipeline.cli.main import main
from pipeline.load.metrics import intervals
from pipeline.load.metrics.intervals import T_TABLE
from pipeline.report import page as report_page
from pipeline.report.data import player_report
from pipeline.report.decisions import decision_review
from tests.import_support import ofc_import, simulate


def scalar_row(db: Path, sql: str) -> tuple:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()[0]
    finally:
        con.close()


LOSSES = {1: [1.2, 0.5], 2: [3.0], 3: [0.0, 0.4], 4: [5.1], 5: [2.2, 0.3], 6: [4.0]}


def _decisions_db() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE decisions (player VARCHAR, hand_id BIGINT, street INT, kind VARCHAR, "
        "ev_loss DOUBLE, se_loss DOUBLE, chosen VARCHAR, best VARCHAR, "
        "ev_chosen DOUBLE, ev_best DOUBLE, candidates INT)"
    )
    for hand, losses in LOSSES.items():
        for street, loss in enumerate(losses, 1):
            con.execute(
                "INSERT INTO decisions VALUES ('Anna', ?, ?, 'set', ?, 10, NULL, NULL, 0, 0, 3)",
                [hand, street, loss],
            )
    # a forced street of a database reviewed before they were skipped: not a decision
    con.execute("INSERT INTO decisions VALUES ('Anna', 1, 1, 'set', 0, 0, NULL, NULL, 0, 0, 1)")
    return con


def _t_interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T_TABLE[n - 2] * sd / math.sqrt(n)
    return mean - half, mean + half


def test_ev_lost_per_100_hands_uses_the_t_interval() -> None:
    review = decision_review(_decisions_db(), "Anna")
    low, high = _t_interval([sum(v) for v in LOSSES.values()])
    assert review.hands == 6
    assert review.low == pytest.approx(100 * low)
    assert review.high == pytest.approx(100 * high)


def test_loss_per_decision_by_street_has_a_t_interval() -> None:
    by_kind = decision_review(_decisions_db(), "Anna").by_kind
    first = by_kind.filter(pl.col("street") == 1).row(0, named=True)
    low, high = _t_interval([v[0] for v in LOSSES.values()])
    assert (first["low"], first["high"]) == (pytest.approx(low), pytest.approx(high))


def test_the_dashboard_shares_the_interval() -> None:
    frame = pl.DataFrame({"n": [6], "mean": [3.126], "sd": [1.422389]})
    row = dashboard_decisions.per_100(frame).row(0, named=True)
    assert (round(row["low"], 1), round(row["high"], 1)) == (163.3, 461.9)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report_stats")
    history = simulate(folder / "h.txt", 40, seed=5, bots="Ann=random,Bob=tight", players=2)
    path = folder / "ofc.duckdb"
    assert ofc_import(history, "--db", path) == 0
    return path


def _wilson(k: float, n: float) -> tuple[float, float]:
    frame = pl.DataFrame({"k": [k], "n": [n]})
    return frame.select(
        intervals.wilson_low("k", "n"), intervals.wilson_high("k", "n").alias("h")
    ).row(0)


def _ann_page(db: Path, tmp_path: Path) -> str:
    """The page ``ofc report --player Ann`` writes."""
    out = tmp_path / "ann.html"
    assert main(["report", "--db", str(db), "--player", "Ann", "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def _section(page: str, start: str, end: str) -> str:
    """The part of ``page`` from ``start`` up to ``end``."""
    return page[page.index(start) : page.index(end)]


def test_key_figures_have_their_interval_and_n(db: Path, tmp_path: Path) -> None:
    page = _ann_page(db, tmp_path)
    key = page[page.index("Key figures") : page.index("<h3>Money")]
    fouls, hands, scoops, pairings = scalar_row(
        db,
        "SELECT count_if(foul), count(*), sum(scoops), sum(pairings) FROM player_hands "
        "WHERE player = 'Ann'",
    )
    low, high = _wilson(fouls, hands)
    assert f"{100 * fouls / hands:.1f}% ({100 * low:.1f}% to {100 * high:.1f}%)" in key
    low, high = _wilson(scoops, pairings)
    assert f"{100 * scoops / pairings:.1f}% ({100 * low:.1f}% to {100 * high:.1f}%)" in key
    assert "<th>Pairings</th>" in key and f"<td>{pairings:,}</td>" in key
    assert key.count(" to ") >= 5  # points, fouls, scoops, rows won, royalties per hand
    assert "<th>Population 95% interval</th><th>Population n</th>" in page


def test_index_shows_points_per_hand_with_its_interval(db: Path, tmp_path: Path) -> None:
    assert main(["report", "--db", str(db), "--all", "--out", str(tmp_path / "site")]) == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    low, high = scalar_row(
        db,
        "SELECT points_per_hand_ci_low, points_per_hand_ci_high FROM player_summary "
        "WHERE player = 'Bob' AND variant = 'all'",
    )
    assert f"95%: {low:+,.2f} – {high:+,.2f}" in index


def test_demo_lines_give_rates_with_intervals_and_n(db: Path) -> None:
    lines = player_lines(db)
    assert "fouls [95% CI]" in lines[0] and "bottom aggr. [95% CI]" in lines[0]
    fouls, hands = scalar_row(
        db, "SELECT count_if(foul), count(*) FROM player_hands WHERE player = 'Ann'"
    )
    low, high = _wilson(fouls, hands)
    ann = next(line for line in lines if line.startswith("Ann "))
    assert f"{fouls / hands:.1%} [{100 * low:.1f}, {100 * high:.1f}]" in ann
    assert lines[-1].startswith("n: ")


def test_demo_on_a_folder_without_hands_is_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "notes.md").write_text("# no hands here\n", encoding="utf-8")
    assert main(["demo", "--no-serve", "--sample", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"ofc demo: --sample {tmp_path} holds no hand histories: nothing to show"
    assert "Traceback" not in "\n".join(err)


def test_demo_on_a_typed_missing_folder_does_not_suggest_make_sample(
    tmp_path: Path, capsys
) -> None:
    assert main(["demo", "--no-serve", "--sample", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "no such folder" in err and "make sample" not in err


def test_report_decisions_table_shows_the_interval_per_street() -> None:
    from pipeline.report.page import _decisions

    html = _decisions(decision_review(_decisions_db(), "Anna"))
    low, high = _t_interval([v[0] for v in LOSSES.values()])
    assert "<th>95% interval</th>" in html
    assert f"<td>{low:,.3f} to {high:,.3f}</td>" in html


def _chart(page: str, div: str) -> dict:
    """The Vega-Lite spec a report page draws in ``#div``."""
    start = page.index(f"vegaEmbed('#{div}', ") + len(f"vegaEmbed('#{div}', ")
    spec, _ = json.JSONDecoder().raw_decode(page[start:].replace("<\\/", "</"))
    return spec


@pytest.mark.parametrize("div", ["style", "fantasyland"])
def test_rate_charts_show_the_players_interval_and_n(db: Path, tmp_path: Path, div: str) -> None:
    spec = _chart(_ann_page(db, tmp_path), div)
    values = spec["data"]["values"] if "data" in spec else spec["datasets"].popitem()[1]
    player = [v for v in values if v["who"] == "player"]
    assert player and all(v["n"] > 0 for v in player)
    with_interval = [v for v in player if v["low"] is not None]
    assert with_interval and all(v["low"] <= v["value"] <= v["high"] for v in with_interval)
    assert any(layer["mark"]["type"] == "rule" for layer in spec["layer"])  # the whiskers


@pytest.mark.parametrize("div", ["style", "fantasyland"])
def test_rate_charts_show_the_populations_interval_and_n(
    db: Path, tmp_path: Path, div: str
) -> None:
    """The population's dot has its whisker and tooltip too, as its table row has."""
    spec = _chart(_ann_page(db, tmp_path), div)
    values = spec["data"]["values"] if "data" in spec else spec["datasets"].popitem()[1]
    population = [v for v in values if v["who"] == "population"]
    assert population and all(v["n"] > 0 for v in population)
    assert all(v["low"] <= v["value"] <= v["high"] for v in population)


def test_style_shares_show_the_populations_interval_and_n(db: Path, tmp_path: Path) -> None:
    page = _ann_page(db, tmp_path)
    k, n = scalar_row(
        db,
        "SELECT sum(bottom_flush_share * live_hands), sum(live_hands) FROM style_metrics"
        " WHERE variant = 'all'",
    )
    low, high = _wilson(k, n)
    row = page[page.index("<td>final bottom: flush</td>") :].split("</tr>")[0]
    cells = row.replace("</td>", "").split("<td>")[1:]
    assert cells[4:] == [
        f"{100 * k / n:.1f}%",
        f"95%: {100 * low:.1f}% – {100 * high:.1f}%",
        f"{n:,.0f}",
    ]


def test_fouls_by_setup_are_a_table_too(db: Path, tmp_path: Path) -> None:
    """The figures of the fouls chart can be read without its script."""
    page = _ann_page(db, tmp_path)
    section = _section(page, "<h2>Fouls</h2>", "<h2>Audit findings</h2>")
    hands, fouls = scalar_row(
        db,
        "SELECT count(*), count_if(foul) FROM player_hands WHERE player = 'Ann'"
        " AND NOT in_fantasyland AND NOT timed_out AND first_street_bottom IS NOT NULL",
    )
    cells = [c.split("</td>")[0] for c in section.split("<td>")[1:]]
    assert sum(int(c.replace(",", "")) for c in cells[1::5]) == hands
    assert sum(int(c.replace(",", "")) for c in cells[2::5]) == fouls
    assert all(c.startswith("95%: ") for c in cells[4::5])


def test_fouls_by_setup_say_which_hands_they_count(db: Path, tmp_path: Path) -> None:
    """Fouled hands are counted (a foul rate of live hands would be 0)."""
    page = _ann_page(db, tmp_path)
    section = _section(page, "<h2>Fouls</h2>", "<h2>Audit findings</h2>")
    assert "Hands outside Fantasyland without a timeout, fouled or not" in section
    assert "Live hands" not in section


def test_fouls_by_setup_without_hands_say_so(db: Path) -> None:
    """A player of Fantasyland hands only has no setups: a sentence, not an empty table."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        report = player_report(con, "Ann")
    finally:
        con.close()
    empty = replace(report, fouls_by_setup=report.fouls_by_setup.clear())
    assert report_page._fouls(empty) == (
        "<p>None: the report holds no hand outside Fantasyland without a timeout.</p>"
    )


def test_style_shares_name_the_hands_their_population_pools(db: Path, tmp_path: Path) -> None:
    """The shares' population is the view's pooled hands, not only the player's variants."""
    style = _section(_ann_page(db, tmp_path), "<h2>Style</h2>", "<h2>Fantasyland</h2>")
    assert "their population is every player-hand of the database, in every variant" in style


@pytest.fixture(scope="module")
def two_variants(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("two_variants")
    bots = "Ann=random,Bob=tight"
    files = [
        simulate(folder / "p.txt", 40, seed=5, bots=bots, players=2),
        simulate(
            folder / "c.txt", 30, seed=5, bots=bots, players=2, ruleset="classic-1-6-american"
        ),
    ]
    path = folder / "ofc.duckdb"
    assert ofc_import(*files, "--db", path) == 0
    return path


def test_a_report_of_one_variant_holds_that_variants_hands_only(
    two_variants: Path, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "ann-classic.html"
    args = ["--db", str(two_variants), "--player", "Ann"]
    assert main(["report", *args, "--variant", "classic", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h1>Ann · classic only</h1>" in page
    key = page[page.index("Key figures") : page.index("<h3>Money")]
    rows = key.split("<tr>")[2:]
    assert len(rows) == 1 and rows[0].startswith("<td>classic</td><td>30</td>")
    fouls = page[page.index("<h2>Fouls</h2>") : page.index("<h2>Audit findings</h2>")]
    (setups,) = scalar_row(
        two_variants,
        "SELECT count(*) FROM player_hands WHERE player = 'Ann' AND variant = 'classic'"
        " AND NOT in_fantasyland AND NOT timed_out AND first_street_bottom IS NOT NULL",
    )
    cells = [c.split("</td>")[0] for c in fouls.split("<td>")[1:]]
    assert sum(int(c.replace(",", "")) for c in cells[1::5]) == setups
    capsys.readouterr()
    assert main(["audit", *args, "--variant", "classic", "--json"]) == 0
    audit = json.loads(capsys.readouterr().out)
    assert f"<td>{audit['metrics'][0]['n']:,.0f}</td>" in page
    review = ["review", *args, "--rollouts", "8", "--since", "2000-01-01", "--workers", "1"]
    assert main([*review, "--quiet"]) == 0
    assert main(["report", *args, "--variant", "classic", "--out", str(out)]) == 0
    (reviewed,) = scalar_row(
        two_variants,
        "SELECT count(DISTINCT d.hand_id) FROM decisions d JOIN hands h USING (hand_id)"
        " WHERE d.player = 'Ann' AND h.variant = 'classic'",
    )
    assert 0 < reviewed < 70
    assert f"{reviewed:,} hands reviewed" in out.read_text(encoding="utf-8")
    assert main(["report", *args, "--variant", "omaha", "--out", str(out)]) == 2
    assert main(["report", "--db", str(two_variants), "--all", "--variant", "classic",
                 "--out", str(tmp_path / "site")]) == 2  # fmt: skip
