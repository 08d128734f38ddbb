"""The metric tables follow docs/metrics.md: each figure recomputed here independently.

The sample archive (data/sample, every format and variant) is imported once;
every figure of ``player_summary`` and ``style_metrics`` is then recomputed in
plain Python from ``player_hands``, ``pairwise`` and ``placements`` and must
agree, as must the street-1 bottom setups, the pairwise settlements and each
player-hand's count of them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import pytest

from tests.import_support import ROOT, ofc_import, query
from tests.t_quantile import t_quantile

SAMPLE = ROOT / "data" / "sample"
Z = 1.959964
RANKS = "23456789TJQKA"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SAMPLE.is_dir():
        pytest.skip("no sample archive (make sample)")
    path = tmp_path_factory.mktemp("formulas") / "sample.duckdb"
    folders = [p for p in sorted(SAMPLE.iterdir()) if p.is_dir()]
    assert ofc_import(*folders, "--db", path) == 0
    return path


def rows(db: Path, sql: str) -> list[dict]:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        cursor = con.execute(sql)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    finally:
        con.close()


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = p + Z * Z / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre - spread) / (1 + Z * Z / n), (centre + spread) / (1 + Z * Z / n)


def by_key(player_hands: list[dict]) -> dict[tuple[str, str], list[dict]]:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in player_hands:
        groups[r["player"], r["variant"]].append(r)
        groups[r["player"], "all"].append(r)
    return groups


def test_player_summary_follows_the_formulas(db: Path) -> None:
    player_hands = rows(
        db, "SELECT ph.*, h.currency FROM player_hands ph JOIN hands h USING (hand_id)"
    )
    sides = defaultdict(list)
    for p in rows(db, "SELECT p.*, h.variant FROM pairwise p JOIN hands h USING (hand_id)"):
        for player, won in ((p["player_a"], p["rows_a"]), (p["player_b"], p["rows_b"])):
            sides[player, p["variant"]].append(won)
            sides[player, "all"].append(won)
    summary = {(r["player"], r["variant"]): r for r in rows(db, "SELECT * FROM player_summary")}
    groups = by_key(player_hands)
    assert set(summary) == set(groups)
    for key, hands in groups.items():
        s, n = summary[key], len(hands)
        points = [h["points"] for h in hands]
        mean = sum(points) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in points) / (n - 1)) if n > 1 else None
        live_non_fl = [h for h in hands if not h["foul"] and not h["in_fantasyland"]]
        fl = [h for h in hands if h["in_fantasyland"]]
        won = sides[key]
        currencies = {h["currency"] for h in hands if h["currency"] is not None}
        expected = {
            "hands": n,
            "points": sum(points),
            "points_per_hand": mean,
            "points_per_hand_ci_low": (
                mean - t_quantile(0.975, n - 1) * sd / math.sqrt(n) if sd is not None else None
            ),
            "foul_rate": sum(h["foul"] for h in hands) / n,
            "pairings": len(won),
            "scoop_rate": sum(w == 3 for w in won) / len(won) if won else None,
            "rows_won_per_row": sum(won) / (3 * len(won)) if won else None,
            "royalties_bottom_per_hand": sum(h["royalties_bottom"] for h in hands) / n,
            "fantasyland_entry_rate": (
                sum(h["fantasyland_next"] for h in live_non_fl) / len(live_non_fl)
                if live_non_fl
                else None
            ),
            "fantasyland_stay_rate": sum(h["fantasyland_stay"] for h in fl) / len(fl)
            if fl
            else None,
            "fantasyland_share": len(fl) / n,
            "money": (
                sum(h["money"] for h in hands if h["money"] is not None)
                if len(currencies) == 1
                else None
            ),
        }
        for name, value in expected.items():
            if name == "points_per_hand_ci_low" and value is not None:  # t: a table, then a series
                assert s[name] == pytest.approx(value, rel=1e-7, abs=1e-6), (key, name)
            else:
                assert close(s[name], value), (key, name, s[name], value)


def setup_of(bottom: list[str]) -> str:
    ranks = [RANKS.index(c[0]) for c in bottom]
    suits = {c[1] for c in bottom}
    if len(set(ranks)) < len(ranks):
        return "pair_or_better"
    if len(bottom) >= 2 and len(suits) == 1:
        return "flush_draw"
    low = [-1 if r == 12 else r for r in ranks]
    if len(bottom) >= 2 and min(max(ranks) - min(ranks), max(low) - min(low)) <= 4:
        return "straight_draw"
    return "high_cards"


def test_first_street_bottom_follows_its_definition(db: Path) -> None:
    streets = defaultdict(lambda: {"bottom": [], "auto": False, "seen": False})
    for p in rows(db, "SELECT * FROM placements WHERE street = 1"):
        state = streets[p["hand_id"], p["seat"]]
        state["seen"] = True
        state["auto"] |= p["auto"]
        if p["row"] == "bottom" and p["card"] is not None:
            state["bottom"].append(p["card"])
    checked = 0
    for r in rows(
        db, "SELECT hand_id, seat, in_fantasyland, first_street_bottom FROM player_hands"
    ):
        state = streets[r["hand_id"], r["seat"]]
        if r["in_fantasyland"] or not state["seen"] or state["auto"]:
            assert r["first_street_bottom"] is None
        else:
            assert r["first_street_bottom"] == setup_of(state["bottom"]), r
            checked += 1
    assert checked > 1000


def test_style_metrics_follow_the_formulas(db: Path) -> None:
    style = {(r["player"], r["variant"]): r for r in rows(db, "SELECT * FROM style_metrics")}
    for key, hands in by_key(rows(db, "SELECT * FROM player_hands")).items():
        s = style[key]
        base = [h for h in hands if not h["in_fantasyland"] and not h["timed_out"]]
        live = [h for h in base if not h["foul"]]
        first = [h for h in hands if not h["in_fantasyland"] and h["first_street_bottom"]]
        unmade = sum(h["first_street_bottom"] != "pair_or_better" for h in first)
        fouls = sum(h["foul"] for h in base)
        assert s["style_hands"] == len(base) and s["live_hands"] == len(live)
        if live:
            flushes = sum(h["category_bottom"] == "flush" for h in live)
            assert close(s["bottom_flush_share"], flushes / len(live))
        if first:
            assert close(s["bottom_aggression"], unmade / len(first))
            low, high = wilson(unmade, len(first))
            assert close(s["bottom_aggression_ci_low"], low)
            assert close(s["bottom_aggression_ci_high"], high)
        if base:
            assert close(s["foul_rate"], fouls / len(base))
            assert close(s["foul_rate_ci_low"], wilson(fouls, len(base))[0])


def test_pairwise_settlements_add_up_to_each_players_points(db: Path) -> None:
    net = defaultdict(float)
    for p in rows(db, "SELECT * FROM pairwise"):
        net[p["hand_id"], p["player_a"]] += p["points_a"]
        net[p["hand_id"], p["player_b"]] -= p["points_a"]
    for r in rows(db, "SELECT hand_id, player, points FROM player_hands"):
        assert close(net[r["hand_id"], r["player"]], r["points"]), r


def test_player_hands_count_their_pairwise_settlements(db: Path) -> None:
    expected = defaultdict(lambda: {"player": None, "pairings": 0, "scoops": 0, "rows_won": 0})
    for p in rows(db, "SELECT * FROM pairwise"):
        for side in ("a", "b"):
            counts = expected[p["hand_id"], p[f"position_{side}"]]
            counts["player"] = p[f"player_{side}"]
            counts["pairings"] += 1
            counts["scoops"] += p[f"rows_{side}"] == 3
            counts["rows_won"] += p[f"rows_{side}"]
    found = rows(
        db, "SELECT hand_id, position, player, pairings, scoops, rows_won FROM player_hands"
    )
    for r in found:
        want = expected.pop((r["hand_id"], r["position"]), None)
        if want is None:  # a player-hand without a settlement
            assert (r["pairings"], r["scoops"], r["rows_won"]) == (0, 0, 0), r
        else:
            assert want == {k: r[k] for k in want}, r
    assert not expected, "every settlement's sides are player-hands"
    assert sum(r["scoops"] for r in found) > 0


def test_audit_lists_every_disagreement_and_nothing_else(db: Path) -> None:
    flagged = {(r[0], r[1]) for r in query(db, "SELECT hand_id, seat FROM audit_mismatches")}
    expected = set()
    for r in rows(db, "SELECT * FROM player_hands"):
        differs = [
            r["reported_points"] is not None and abs(r["reported_points"] - r["points"]) > 1e-6,
            r["reported_royalties"] is not None
            and abs(r["reported_royalties"] - r["royalties"]) > 1e-6,
            r["reported_foul"] is not None and r["reported_foul"] != r["foul"],
            r["reported_money"] is not None
            and r["money"] is not None
            and abs(r["reported_money"] - r["money"]) > 0.005 + 1e-9,
            r["reported_fantasyland_next"] is not None
            and r["reported_fantasyland_next"] != r["fantasyland_next"],
            r["reported_fantasyland_cards"] is not None
            and r["reported_fantasyland_cards"] != r["fantasyland_next_cards"],
            r["reported_fantasyland_stay"] is not None
            and r["reported_fantasyland_stay"] != r["fantasyland_stay"],
        ]
        if any(differs):
            expected.add((r["hand_id"], r["seat"]))
    assert flagged == expected
    assert expected, "the sample's misreported hands should be found"
