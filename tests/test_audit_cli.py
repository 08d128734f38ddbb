"""``ofc audit``: a player's metrics and leaks as JSON, the Coach audit page's figures.

Leaks need enough hands and players and an interval on the bad side of the
pooled population; every figure is checked against DuckDB.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pipeline.cli.main import main
from pipeline.load.metrics.definitions import METRICS
from pipeline.report import audit
from pipeline.report.data import Frames
from tests.audit_data import OTHERS, STUDENT, database
from tests.t_quantile import t_quantile


@pytest.fixture(scope="module")
def enough(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return database(tmp_path_factory.getbasetemp() / "audit-db", 1200)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return database(tmp_path_factory.getbasetemp() / "audit-db", 120)


def ofc_audit(capsys: pytest.CaptureFixture[str], db: Path, player: str) -> dict:
    capsys.readouterr()
    assert main(["audit", "--db", str(db), "--player", player, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def one(db: Path, sql: str, params: list) -> tuple:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall()[0]
    finally:
        con.close()


def wilson(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials, written out here."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return centre - half, centre + half


def test_a_player_who_fouls_most_hands_has_a_foul_rate_leak(enough: Path, capsys) -> None:
    found = ofc_audit(capsys, enough, STUDENT)
    hands, fouls, mean, sd = one(
        enough,
        "SELECT count(*), count(*) FILTER (WHERE foul), avg(points), stddev_samp(points)"
        " FROM player_hands WHERE player = ?",
        [STUDENT],
    )
    assert found["player"] == STUDENT and found["hands"] == hands == 1200
    others = one(
        enough,
        "SELECT count(*) FROM player_summary WHERE variant = 'all' AND player <> ? AND hands >= ?",
        [STUDENT, audit.MIN_POPULATION_HANDS],
    )[0]
    assert found["other_players_ranked"]["players"] == others >= audit.MIN_PLAYERS
    assert found["enough_sample"]
    pooled, everyone = one(
        enough, "SELECT count(*) FILTER (WHERE foul) / count(*), count(*) FROM player_hands", []
    )
    leaks = {leak["metric"]: leak for leak in found["leaks"]}
    assert set(leaks) >= {"foul_rate", "points_per_hand"}
    foul = leaks["foul_rate"]
    assert foul == {
        "metric": "foul_rate",
        "value": pytest.approx(fouls / hands),
        "n": hands,
        "low": pytest.approx(foul["low"]),
        "high": pytest.approx(foul["high"]),
        "population": pytest.approx(pooled),
        "direction": "lower is better",
        "population_n": everyone,
        "population_low": pytest.approx(wilson(pooled * everyone, everyone)[0]),
        "population_high": pytest.approx(wilson(pooled * everyone, everyone)[1]),
    }
    assert pooled < foul["low"] < fouls / hands < foul["high"]
    points = leaks["points_per_hand"]
    half = t_quantile(0.975, hands - 1) * sd / hands**0.5
    assert (points["low"], points["high"]) == pytest.approx((mean - half, mean + half), rel=1e-6)
    assert points["high"] < points["population"]
    metrics = {m["metric"]: m for m in found["metrics"]}
    assert list(metrics) == [m.name for m in METRICS if m.name in metrics]
    assert all(m["verdict"] != audit.LEAK or m["metric"] in leaks for m in metrics.values())


def test_a_careful_player_has_no_leak(enough: Path, capsys) -> None:
    careful = one(
        enough,
        "SELECT player FROM player_summary WHERE variant = 'all' AND player IN ?"
        " ORDER BY hands DESC LIMIT 1",
        [OTHERS],
    )[0]
    found = ofc_audit(capsys, enough, careful)
    assert found["enough_sample"] and found["leaks"] == []
    foul = next(m for m in found["metrics"] if m["metric"] == "foul_rate")
    assert foul["verdict"] == audit.STRENGTH  # far fewer fouls than the pooled population


def test_no_leak_on_a_small_sample(small: Path, capsys) -> None:
    found = ofc_audit(capsys, small, STUDENT)
    assert found["hands"] == 120 < audit.MIN_HANDS
    assert not found["enough_sample"] and found["leaks"] == []
    assert {m["verdict"] for m in found["metrics"]} == {audit.TOO_FEW}
    assert "too few to call anything a leak" in found["rule"]


def test_the_table_and_the_errors(enough: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["audit", "--db", str(enough), "--player", STUDENT]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{STUDENT}: 1,200 hands") and "leak" in out
    assert main(["audit", "--db", str(enough), "--player", "Reckles"]) == 2
    assert "did you mean 'Reckless'" in capsys.readouterr().err
    assert main(["audit", "--db", str(enough.parent / "none.duckdb"), "--player", "x"]) == 2
    assert "no database" in capsys.readouterr().err


def test_json_population_players_and_hands_are_the_same_population(enough: Path, capsys) -> None:
    found = ofc_audit(capsys, enough, STUDENT)
    players, hands = one(enough, "SELECT count(DISTINCT player), count(*) FROM player_hands", [])
    assert found["population"] == {"kind": "pooled", "players": players, "hands": hands}
    ranked = found["other_players_ranked"]
    assert ranked["min_hands"] == audit.MIN_POPULATION_HANDS and ranked["players"] < players


def test_enough_hands_but_too_few_players_says_so(enough: Path) -> None:
    con = duckdb.connect(str(enough), read_only=True)
    try:
        found = audit.audit(
            Frames(con),
            STUDENT,
            "SELECT * FROM player_metrics WHERE variant = ? AND player IN (?, ?, ?)",
            ["all", STUDENT, *OTHERS[:2]],
        )
    finally:
        con.close()
    assert found.hands == 1200 and found.population_players == 2 and not found.enough
    assert "the player's 1,200 hands are enough, but only 2 other players" in found.sample_note()
    assert {f.verdict for f in found.findings if f.n >= audit.MIN_TRIALS} == {audit.TOO_FEW_PLAYERS}


def test_a_wrong_variant_lists_the_players_variants(enough: Path, capsys) -> None:
    (variant,) = one(enough, "SELECT any_value(variant) FROM hands", [])
    capsys.readouterr()
    args = ["audit", "--db", str(enough), "--player", STUDENT, "--variant", variant.upper()]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"did you mean {variant!r}?" in err and f"their variants: {variant})" in err


@pytest.mark.parametrize("command", ["audit", "report"])
def test_db_given_a_folder_says_it_is_a_folder(
    enough: Path, tmp_path: Path, capsys, command: str
) -> None:
    capsys.readouterr()
    args = [command, "--db", str(enough.parent), "--player", STUDENT]
    assert main(args + (["--out", str(tmp_path / "x.html")] if command == "report" else [])) == 2
    err = capsys.readouterr().err
    assert "is a folder" in err and enough.name in err and "make one with" not in err


def test_a_name_close_to_none_lists_the_players_with_most_hands(enough: Path, capsys) -> None:
    (top,) = one(
        enough,
        "SELECT player FROM player_summary WHERE variant = 'all' ORDER BY hands DESC, player"
        " LIMIT 1",
        [],
    )
    for command in (["audit"], ["report", "--out", str(enough.parent / "zq.html")]):
        capsys.readouterr()
        assert main([*command, "--db", str(enough), "--player", "Zq"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no player 'Zq' in the database; its " in err
        assert f"players include {top!r}" in err
