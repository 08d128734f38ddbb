"""The numbers tied to the truth the simulator knows (docs/metrics.md).

* Style: a tight and an aggressive bot are told apart by ``style_metrics``:
  the aggressive one has the higher ``bottom_aggression`` and foul rate, with
  the 95% intervals apart (its lower bound above the tight one's upper bound).
* Audit: the same seed simulated with and without ``--misreport-rate`` gives
  the same hands except the corrupted ones; ``audit_mismatches`` lists exactly
  those, with the room's and the recomputed points side by side.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_support import ofc_import, query, simulate

STYLE_HANDS = 1500
AUDIT_HANDS = 400
MISREPORT_RATE = 0.08


@pytest.fixture(scope="module")
def styles_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("styles")
    history = simulate(
        folder / "styles.txt", STYLE_HANDS, seed=61, bots="Tina=tight,Ace=aggressive", players=2
    )
    db = folder / "styles.duckdb"
    assert ofc_import(history, "--db", db) == 0
    return db


def _interval(db: Path, player: str, metric: str) -> tuple[float, float, float]:
    return query(
        db,
        f"SELECT {metric}_ci_low, {metric}, {metric}_ci_high FROM style_metrics "
        "WHERE player = ? AND variant = 'all'",
        [player],
    )[0]


@pytest.mark.parametrize("metric", ["bottom_aggression", "foul_rate"])
def test_aggressive_bot_is_told_apart_from_tight(styles_db: Path, metric: str) -> None:
    tight_low, tight, tight_high = _interval(styles_db, "Tina", metric)
    aggressive_low, aggressive, aggressive_high = _interval(styles_db, "Ace", metric)
    assert tight_low <= tight <= tight_high
    assert aggressive_low <= aggressive <= aggressive_high
    assert aggressive_low > tight_high, (metric, tight_high, aggressive_low)


def test_style_metrics_count_only_hands_outside_fantasyland(styles_db: Path) -> None:
    rows = query(
        styles_db,
        "SELECT s.player, s.style_hands, s.first_street_hands, "
        "count(*) FILTER (WHERE NOT ph.in_fantasyland AND NOT ph.timed_out), "
        "count(ph.first_street_bottom) "
        "FROM style_metrics AS s JOIN player_hands AS ph USING (player) "
        "WHERE s.variant = 'all' GROUP BY ALL",
    )
    assert len(rows) == 2
    for _, style_hands, first_street, expected_style, expected_first in rows:
        assert style_hands == expected_style
        assert first_street == expected_first


@pytest.fixture(scope="module")
def audit_dbs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("audit")
    dbs = []
    for name, rate in (("clean", 0.0), ("misreported", MISREPORT_RATE)):
        history = simulate(folder / f"{name}.txt", AUDIT_HANDS, seed=62, misreport=rate)
        db = folder / f"{name}.duckdb"
        assert ofc_import(history, "--db", db) == 0
        dbs.append(db)
    return dbs[0], dbs[1]


def test_audit_lists_exactly_the_misreported_hands(audit_dbs: tuple[Path, Path]) -> None:
    clean, misreported = audit_dbs
    reported = "SELECT hand_id, seat, reported_points FROM player_hands ORDER BY 1, 2"
    truth = {
        (hand, seat): points
        for (hand, seat, points), (_, _, wrong) in zip(
            query(clean, reported), query(misreported, reported), strict=True
        )
        if points != wrong
    }
    assert len(truth) > AUDIT_HANDS * MISREPORT_RATE / 2
    assert query(clean, "SELECT count(*) FROM audit_mismatches") == [(0,)]
    found = query(
        misreported,
        "SELECT hand_id, seat, points, reported_points - points, disagreements "
        "FROM audit_mismatches",
    )
    assert {(hand, seat) for hand, seat, *_ in found} == set(truth)
    for hand, seat, points, difference, disagreements in found:
        assert points == truth[hand, seat]
        assert difference != 0
        assert "points" in disagreements.split(",")


def test_misreport_changes_nothing_but_the_reports(audit_dbs: tuple[Path, Path]) -> None:
    clean, misreported = audit_dbs
    results = "SELECT hand_id, seat, points, foul, royalties FROM player_hands ORDER BY 1, 2"
    assert query(clean, results) == query(misreported, results)
    summary = "SELECT player, hands, points, mismatches FROM player_summary ORDER BY 1, 2"
    clean_rows = query(clean, summary)
    assert [r[:3] for r in clean_rows] == [r[:3] for r in query(misreported, summary)]
    assert all(r[3] == 0 for r in clean_rows)
