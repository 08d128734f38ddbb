"""The dashboard's query layer on a database made by ``ofc simulate`` + ``ofc import``.

Every figure is checked against an independent DuckDB query of the base
tables, and the two ways of answering a view (pre-aggregated tables, or
computed from ``player_hands`` when dates or stakes narrow it) must agree.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboard.queries import (
    breakdowns,
    coach,
    cumulative,
    fantasyland,
    hands,
    options,
    players,
    profile,
    style,
    summary,
)
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters
from dashboard.queries.pages import PAGES, page_queries, views
from pipeline.load.database import connect
from pipeline.load.metrics.refresh import rebuild
from tests.dashboard_data import HERO, SQL_NAME, XSS_NAME

#: A date before every simulated hand: narrows nothing, but forces the computed path.
EARLY = dt.date(2000, 1, 1)


@pytest.fixture(scope="module")
def db(dashboard_db: Path) -> Database:
    return Database(dashboard_db)


@pytest.fixture(scope="module")
def sql(dashboard_db: Path):
    con = duckdb.connect(str(dashboard_db), read_only=True)
    yield lambda query, params=(): con.sql(query, params=list(params)).fetchall()
    con.close()


def test_choices_list_players_most_active_first(db: Database, sql) -> None:
    found = options.choices(db)
    everyone = options.players(db)
    assert everyone[0] == HERO
    assert set(everyone) == {r[0] for r in sql("SELECT DISTINCT player FROM player_hands")}
    assert set(found.variants) == {"pineapple", "classic"}
    assert found.first_day <= found.last_day


def _most_active(sql) -> list[str]:
    """Every player, most hands first, then by name: the pickers' order."""
    rows = sql("SELECT player, count(*) FROM player_hands GROUP BY player")
    return [player for player, _ in sorted(rows, key=lambda r: (-r[1], r[0]))]


def test_the_hero_picker_offers_the_most_active_and_the_linked_player(db: Database, sql) -> None:
    ranked = _most_active(sql)
    assert len(ranked) == 5  # more players than the cap below
    top, rare = tuple(ranked[:3]), ranked[-1]
    assert options.players(db, None, 3) == top
    assert options.players(db, rare, 3) == (*top, rare)  # a link to a rare player keeps it
    assert options.players(db, top[1], 3) == top  # listed once, in its place
    assert options.players(db, "Nobody at all", 3) == top  # an unknown name is not added
    for name in (XSS_NAME, SQL_NAME):  # untrusted names are values, never SQL
        assert options.players(db, name, 0) == (name,)


def test_the_opponent_picker_offers_the_most_met_and_the_linked_opponent(db: Database, sql) -> None:
    met = sql(
        "SELECT CASE WHEN player_a = ? THEN player_b ELSE player_a END AS o, count(*)"
        " FROM pairwise WHERE ? IN (player_a, player_b) GROUP BY o",
        [HERO, HERO],
    )
    ranked = [o for o, _ in sorted(met, key=lambda r: (-r[1], r[0]))]
    assert len(ranked) == 4
    assert players.opponents(db, HERO) == ranked
    assert players.opponents(db, HERO, 2) == ranked[:2]
    assert players.opponents(db, HERO, 2, ranked[-1]) == [*ranked[:2], ranked[-1]]
    assert players.opponents(db, HERO, 2, "Nobody at all") == ranked[:2]
    never_met = "Dmitry"  # classic only; Chen plays Pineapple only
    assert never_met not in players.opponents(db, "Chen")
    assert players.opponents(db, "Chen", 1, never_met) == players.opponents(db, "Chen", 1)


def test_hero_summary_matches_the_base_tables(db: Database, sql) -> None:
    mine = summary.summaries(db, Filters(hero=HERO))[summary.ALL]
    hands_, points, fouls = sql(
        "SELECT count(*), sum(points), count(*) FILTER (WHERE foul) FROM player_hands"
        " WHERE player = ?",
        [HERO],
    )[0]
    assert mine["hands"] == hands_ == 360
    assert mine["points"] == pytest.approx(points)
    assert mine["foul_rate"] == pytest.approx(fouls / hands_)
    assert mine["foul_rate_n"] == hands_
    assert mine["foul_rate_low"] < mine["foul_rate"] < mine["foul_rate_high"]
    assert mine["points_per_hand_low"] < mine["points_per_hand"] < mine["points_per_hand_high"]
    mean, sd = sql(
        "SELECT avg(points), stddev_samp(points) FROM player_hands WHERE player = ?", [HERO]
    )[0]
    half = 1.966594 * sd / hands_**0.5  # t(0.975, 359)
    assert mine["points_per_hand_low"] == pytest.approx(mean - half, rel=1e-5)


def test_everybody_is_pooled_over_every_player_hand(db: Database, sql) -> None:
    everybody = summary.summaries(db, Filters())[summary.ALL]
    computed = summary.summaries(db, Filters(date_from=EARLY))[summary.ALL]
    fouls, hands_, entries, live = sql(
        "SELECT count(*) FILTER (WHERE foul), count(*),"
        " count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland AND fantasyland_next),"
        " count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland) FROM player_hands"
    )[0]
    for found in (everybody, computed):
        assert found["foul_rate"] == pytest.approx(fouls / hands_)
        assert found["fantasyland_entry_rate"] == pytest.approx(entries / live)
        assert found["fantasyland_entry_rate_n"] == live


@pytest.mark.parametrize(
    "filters",
    [
        Filters(hero=HERO),
        Filters(hero=HERO, variant="pineapple"),
        Filters(),
        Filters(variant="classic"),
    ],
    ids=["hero", "hero-pineapple", "everybody", "everybody-classic"],
)
def test_computed_views_agree_with_the_pre_aggregated_tables(
    db: Database, filters: Filters
) -> None:
    computed = Filters(**{**filters.__dict__, "date_from": EARLY})
    assert filters.summarised and not computed.summarised
    table, by_hand = summary.summaries(db, filters), summary.summaries(db, computed)
    assert set(table) == set(by_hand)
    for variant, figures in table.items():
        for key in ("hands", "points", "foul_rate", "fantasyland_entry_rate", "royalties_per_hand"):
            assert by_hand[variant][key] == pytest.approx(figures[key], nan_ok=True), (variant, key)
        for key in ("points_per_hand_low", "scoop_rate", "scoop_rate_high", "foul_rate_n"):
            assert by_hand[variant][key] == pytest.approx(figures[key], nan_ok=True), (variant, key)
    for query in (style.bottom_categories, style.first_street):
        table_shares, computed_shares = query(db, filters), query(db, computed)
        for column in ("share", "n", "low", "high"):
            assert computed_shares[column].to_list() == pytest.approx(
                table_shares[column].to_list()
            )


def test_style_scatter_agrees_with_style_metrics(db: Database, sql) -> None:
    table = style.players(db, Filters()).sort("player", nulls_last=True)
    computed = style.players(db, Filters(date_from=EARLY)).sort("player", nulls_last=True)
    assert table["player"].to_list() == computed["player"].to_list()
    assert HERO in table["player"].to_list()
    for column in ("style_hands", "foul_rate", "bottom_aggression", "foul_rate_low"):
        assert computed[column].to_list() == pytest.approx(table[column].to_list())
    mine = table.filter(table["player"] == HERO).row(0, named=True)
    assert mine["foul_rate"] == pytest.approx(
        sql("SELECT foul_rate FROM style_metrics WHERE player = ? AND variant = 'all'", [HERO])[0][
            0
        ]
    )
    pooled = table.filter(table["player"].is_null()).row(0, named=True)  # the population
    assert pooled["foul_rate"] == pytest.approx(
        sql(
            "SELECT count(*) FILTER (WHERE foul) / count(*) FROM player_hands"
            " WHERE NOT in_fantasyland AND NOT timed_out"
        )[0][0]
    )


def test_date_and_stake_filters_narrow_the_hands(db: Database, sql) -> None:
    first, last = sql("SELECT min(played_at)::DATE, max(played_at)::DATE FROM hands")[0]
    middle = first + (last - first) / 2
    view = Filters(hero=HERO, date_from=middle)
    expected = sql(
        "SELECT count(*) FROM player_hands WHERE player = ? AND played_at >= ?", [HERO, middle]
    )[0][0]
    assert 0 < summary.summaries(db, view)[summary.ALL]["hands"] == expected < 360
    stake = next(s for s in options.choices(db).stakes if s != "play")
    value, currency = stake.split()
    staked = sql(
        "SELECT count(*) FROM player_hands p JOIN hands h USING (hand_id)"
        " WHERE p.player = ? AND h.point_value = ? AND h.currency = ?",
        [HERO, float(value), currency],
    )[0][0]
    assert summary.summaries(db, Filters(hero=HERO, stakes=stake))[summary.ALL]["hands"] == staked
    money = summary.money(db, Filters(hero=HERO, stakes=stake))
    assert [row["currency"] for row in money] == [currency]


def test_money_is_given_per_currency(db: Database, sql) -> None:
    expected = dict(
        sql(
            "SELECT h.currency, sum(p.money) FROM player_hands p JOIN hands h USING (hand_id)"
            " WHERE p.player = ? AND h.currency IS NOT NULL GROUP BY 1",
            [HERO],
        )
    )
    rows = summary.money(db, Filters(hero=HERO))
    found = {row["currency"]: row["money"] for row in rows}
    assert found.keys() == expected.keys()
    assert found == pytest.approx(expected)
    for row in rows:
        assert row["money_per_hand"] == pytest.approx(row["money"] / row["hands"])
        assert row["money_per_hand_low"] < row["money_per_hand"] < row["money_per_hand_high"]


def test_cumulative_points_end_at_the_totals(db: Database) -> None:
    mine = summary.summaries(db, Filters(hero=HERO))
    frame = cumulative.cumulative_points(db, Filters(hero=HERO), mine[summary.ALL]["hands"])
    bucketed = cumulative.cumulative_points(db, Filters(hero=HERO), cumulative.EXACT_HANDS + 1)
    for series in ("all variants", "pineapple", "classic"):
        rows = frame.filter(frame["series"] == series)
        key = summary.ALL if series == "all variants" else series
        assert rows["hands"].to_list() == sorted(rows["hands"].to_list())
        assert rows["hands"][-1] == mine[key]["hands"]
        assert rows["points"][-1] == pytest.approx(mine[key]["points"])
        assert (rows["hands"][0], rows["points"][0]) == (0, 0.0)
        assert rows.height == mine[key]["hands"] + 1  # under 400 hands: every hand
        coarse = bucketed.filter(bucketed["series"] == series)
        assert coarse["hands"][-1] == mine[key]["hands"]
        assert coarse["points"][-1] == pytest.approx(mine[key]["points"])


def test_head_to_head_is_antisymmetric_and_matches_pairwise(db: Database, sql) -> None:
    rival = players.opponents(db, HERO)[0]
    ours = players.head_to_head(db, HERO, rival, Filters()).row(0, named=True)
    theirs = players.head_to_head(db, rival, HERO, Filters()).row(0, named=True)
    assert ours["hands"] == theirs["hands"] > 0
    assert ours["points"] == pytest.approx(-theirs["points"])
    assert (ours["scoops"], ours["scooped"]) == (theirs["scooped"], theirs["scoops"])
    expected = sql(
        "SELECT sum(CASE WHEN player_a = ? THEN points_a ELSE -points_a END) FROM pairwise"
        " WHERE (player_a = ? AND player_b = ?) OR (player_a = ? AND player_b = ?)",
        [HERO, HERO, rival, rival, HERO],
    )[0][0]
    assert ours["points"] == pytest.approx(expected)


@pytest.mark.parametrize("variant", [None, "classic", "pineapple"])
def test_head_to_head_from_player_pairs_is_the_sum_of_pairwise(
    db: Database, variant: str | None
) -> None:
    """Over all dates (``player_pairs``) as summed from ``pairwise`` (a date filter that
    keeps every hand), rival by rival; empty both ways where they never met."""
    for rival in players.opponents(db, HERO):
        stored = players.head_to_head(db, HERO, rival, Filters(variant=variant))
        summed = players.head_to_head(db, HERO, rival, Filters(variant=variant, date_from=EARLY))
        assert_frame_equal(stored, summed, check_dtypes=False)


def test_fantasyland_rates_by_ruleset_and_cards(db: Database, sql) -> None:
    rows = fantasyland.by_ruleset(db, Filters())
    expected = {
        (variant, ruleset): (entries, live, stays, fl_hands)
        for variant, ruleset, entries, live, stays, fl_hands in sql(
            "SELECT variant, ruleset,"
            " count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland AND fantasyland_next),"
            " count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland),"
            " count(*) FILTER (WHERE in_fantasyland AND fantasyland_stay),"
            " count(*) FILTER (WHERE in_fantasyland) FROM player_hands GROUP BY ALL"
        )
    }
    for row in rows.iter_rows(named=True):
        entries, live, _stays, fl_hands = expected[(row["variant"], row["ruleset"])]
        assert row["fantasyland_entry_rate"] == pytest.approx(entries / live)
        assert row["fantasyland_entry_rate_n"] == live
        low, high = row["fantasyland_entry_rate_low"], row["fantasyland_entry_rate_high"]
        assert low <= row["fantasyland_entry_rate"] <= high
        assert row["fantasyland_stay_rate_n"] == fl_hands
    cards = fantasyland.cards_dealt(db, Filters())
    assert int(cards["hands"].sum()) == sum(v[3] for v in expected.values())


def test_hand_list_pages_and_filters(db: Database, sql) -> None:
    view, fouled = Filters(hero=HERO), hands.HandFilters(fouled=True)
    total = hands.hand_count(db, view, fouled)
    assert total == sql("SELECT count(*) FROM player_hands WHERE player = ? AND foul", [HERO])[0][0]
    first = hands.hand_list(db, view, fouled, 0)
    assert first["foul"].all() and (first["player"] == HERO).all()
    assert first.height == min(total, hands.PAGE_SIZE)
    assert first["played_at"].is_sorted(descending=True)
    royal = hands.hand_list(db, Filters(), hands.HandFilters(min_royalties=6))
    assert (royal["royalties"] >= 6).all()


def test_hand_detail_has_every_player_and_placement(db: Database, sql) -> None:
    hand_id = sql("SELECT hand_id FROM hands WHERE variant = 'pineapple' LIMIT 1")[0][0]
    detail = hands.hand_detail(db, hand_id)
    assert detail.players.height == 3
    assert (
        detail.placements.height
        == sql("SELECT count(*) FROM placements WHERE hand_id = ?", [hand_id])[0][0]
    )
    assert detail.pairwise.height == 3
    assert hands.hand_detail(db, "no such hand") is None


def test_profile_is_the_audit_of_the_student(db: Database, sql) -> None:
    found = profile.profile(db, Filters(hero=HERO))
    assert found.player == HERO and found.hands == 360
    # five players in the test database: too few for any leak
    assert found.population_players == 4 and not found.enough and not found.leaks
    foul = next(f for f in found.findings if f.metric == "foul_rate")
    fouls, everybody = sql(
        "SELECT count(*) FILTER (WHERE foul AND player = ?),"
        " count(*) FILTER (WHERE foul) / count(*) FROM player_hands",
        [HERO],
    )[0]
    assert foul.value == pytest.approx(fouls / 360) and foul.n == 360
    assert foul.population == pytest.approx(everybody)
    assert foul.verdict == "too few players" and foul.direction == "lower is better"
    assert all(f.percentile is None or 0 <= f.percentile <= 1 for f in found.findings)


def test_coach_lists_fouls_and_mismatches(db: Database, sql) -> None:
    fouls = coach.fouled_hands(db, Filters(hero=HERO))
    assert fouls.height == min(
        coach.REVIEW_ROWS,
        sql(
            "SELECT count(*) FROM player_hands WHERE player = ? AND foul AND NOT in_fantasyland",
            [HERO],
        )[0][0],
    )
    count = sql("SELECT count(*) FROM audit_mismatches WHERE player = ?", [HERO])[0][0]
    assert coach.mismatch_count(db, HERO) == count
    assert coach.mismatches(db, HERO).height == min(count, coach.REVIEW_ROWS)


@pytest.mark.parametrize("name", [SQL_NAME, XSS_NAME, "Robert'); DROP TABLE player_hands;--"])
def test_hostile_names_are_values_not_sql(db: Database, sql, name: str) -> None:
    found = summary.summaries(db, Filters(hero=name, date_from=EARLY)).get(summary.ALL)
    listed = [r[0] for r in sql("SELECT player FROM player_summary WHERE variant = 'all'")]
    assert (found is not None) == (name in listed)
    players.players_table(db, Filters(), name)
    players.players_table(db, Filters(date_from=EARLY, opponent=name), name)
    hands.hand_list(db, Filters(hero=name, opponent=name), hands.HandFilters())
    assert sql("SELECT count(*) FROM hands")[0][0] == 360


def test_every_page_query_runs_in_both_benchmark_views(db: Database) -> None:
    found = views(db)
    assert set(found) == {"default", "filtered"}
    for filters in found.values():
        queries = page_queries(db, filters)
        assert {q.page for q in queries} == set(PAGES)
        for query in queries:
            query.run()


def test_a_reader_sees_a_swapped_in_database(dashboard_db: Path, tmp_path: Path) -> None:
    path = Path(shutil.copy(dashboard_db, tmp_path / "swap.duckdb"))
    reader = Database(path)
    before = reader.value("SELECT count(*) FROM hands")
    replacement = tmp_path / "new.duckdb"
    shutil.copy(path, replacement)
    con = duckdb.connect(str(replacement))
    con.execute("DELETE FROM hands WHERE variant = 'classic'")
    con.close()
    os.replace(replacement, path)  # what an import does (docs/schema.md)
    assert reader.value("SELECT count(*) FROM hands") == before - 120


def test_the_hand_list_sorts_every_hand_of_the_list_in_sql(db: Database, sql) -> None:
    everybody, every_hand = Filters(), hands.HandFilters()
    top = hands.hand_list(db, everybody, every_hand, 0, "Most points")
    best, worst = sql("SELECT max(points), min(points) FROM player_hands")[0]
    assert top["points"][0] == best and top["points"].is_sorted(descending=True)
    last_page = (hands.hand_count(db, everybody, every_hand) - 1) // hands.PAGE_SIZE
    bottom = hands.hand_list(db, everybody, every_hand, last_page, "Most points")
    assert bottom["points"][-1] == worst
    assert hands.hand_list(db, everybody, every_hand, 0, "Fewest points")["points"][0] == worst
    row = top.row(0, named=True)
    others = sql(
        "SELECT string_agg(player, ', ' ORDER BY position) FROM player_hands"
        " WHERE hand_id = ? AND seat <> ?",
        [row["hand_id"], row["seat"]],
    )[0][0]
    assert row["opponents"] == others
    money = hands.hand_list(db, Filters(hero=HERO), every_hand, 0, "Most money won")
    first, best = sql(
        "SELECT currency, max(money) FROM player_hands WHERE player = ? AND currency IS NOT NULL"
        " GROUP BY currency ORDER BY currency LIMIT 1",
        [HERO],
    )[0]
    assert money["money"][0] == best  # the first currency's best: 800 RUB is not over 100 USD
    currency = dict(
        sql(
            "SELECT hand_id, currency FROM player_hands WHERE player = ? AND hand_id IN"
            " (SELECT unnest(?))",
            [HERO, money["hand_id"].to_list()],
        )
    )
    listed = [
        (currency[h] or "~", -(m or 0))
        for h, m in zip(money["hand_id"], money["money"], strict=True)
    ]
    assert listed[0][0] == first and listed == sorted(listed)  # by currency, then most won


def test_previous_and_next_hand_follow_the_list_in_time(db: Database, sql) -> None:
    view, every_hand = Filters(hero=HERO), hands.HandFilters()
    ordered = [
        r[0]
        for r in sql(
            "SELECT hand_id FROM player_hands WHERE player = ? ORDER BY played_at, hand_id",
            [HERO],
        )
    ]
    around = [None, *ordered, None]
    for i, hand_id in enumerate(ordered, start=1):
        assert hands.neighbours(db, view, every_hand, hand_id) == (around[i - 1], around[i + 1])
    assert hands.neighbours(db, view, every_hand, "no such hand") == (None, None)


def test_previous_and_next_hand_among_hands_played_at_one_time(
    dashboard_db: Path, tmp_path: Path
) -> None:
    """Hands stamped with the same second (a room's clock, or several tables at once)
    follow each other by hand id, and the hands before and after them still follow."""
    path = tmp_path / "ofc.duckdb"
    shutil.copy(dashboard_db, path)
    con = connect(path)
    heros = "SELECT hand_id FROM player_hands WHERE player = ? ORDER BY played_at"
    same = [r[0] for r in con.sql(f"{heros} LIMIT 10 OFFSET 20", params=[HERO]).fetchall()]
    for table in ("hands", "player_hands"):
        con.execute(
            f"UPDATE {table} SET played_at = (SELECT min(played_at) FROM hands"
            " WHERE hand_id IN (SELECT unnest(?))) WHERE hand_id IN (SELECT unnest(?))",
            [same, same],
        )
    rebuild(con)
    ordered = [r[0] for r in con.sql(f"{heros}, hand_id", params=[HERO]).fetchall()]
    con.close()
    db, view, every_hand = Database(path), Filters(hero=HERO), hands.HandFilters()
    around = [None, *ordered, None]
    for i in range(15, 37):
        found = hands.neighbours(db, view, every_hand, ordered[i])
        assert found == (around[i], around[i + 2]), i


@pytest.mark.parametrize("key", list(breakdowns.KEYS))
def test_breakdowns_add_up_to_the_heros_hands(db: Database, sql, key: str) -> None:
    found = breakdowns.by(db, Filters(hero=HERO), key)
    assert found["hands"].sum() == 360
    assert found["points"].sum() == pytest.approx(
        sql("SELECT sum(points) FROM player_hands WHERE player = ?", [HERO])[0][0]
    )
    for row in found.iter_rows(named=True):
        if row["hands"] > 1:
            low, mean, high = (row[f"points_per_hand{s}"] for s in ("_low", "", "_high"))
            assert low <= mean <= high
        assert row["foul_rate_low"] <= row["foul_rate"] <= row["foul_rate_high"]
    if key == "Month":
        months = sql(
            "SELECT strftime(played_at, '%Y-%m'), count(*) FROM player_hands WHERE player = ?"
            " GROUP BY 1",
            [HERO],
        )
        assert dict(zip(found["group"], found["hands"], strict=True)) == dict(months)


def test_sessions_split_at_tables_and_pauses(db: Database, sql) -> None:
    found = breakdowns.sessions(db, Filters(hero=HERO))
    assert found["hands"].sum() == 360
    tables = sql(
        "SELECT count(DISTINCT h.table_name) FROM hands h JOIN player_hands USING (hand_id)"
        " WHERE player = ?",
        [HERO],
    )[0][0]
    assert found.height >= tables
    assert (found["ended_at"] >= found["started_at"]).all()


def test_sessions_are_runs_of_hands_at_a_table_of_hands(db: Database, sql) -> None:
    """Each session as counted here from ``hands.table_name``: the hero's hands per table
    in time order, a new session after a pause over ``SESSION_GAP_MINUTES``."""
    rows = sql(
        "SELECT h.table_name, p.played_at, p.points FROM player_hands p"
        " JOIN hands h USING (hand_id) WHERE p.player = ? ORDER BY 1, 2, p.hand_id",
        [HERO],
    )
    expected: list[list] = []
    gap = dt.timedelta(minutes=breakdowns.SESSION_GAP_MINUTES)
    for (table, played_at, points), before in zip(rows, [None, *rows[:-1]], strict=True):
        if before is None or before[0] != table or played_at - before[1] > gap:
            expected.append([table, played_at, 0, 0.0])
        expected[-1][2:] = [expected[-1][2] + 1, expected[-1][3] + points]
    found = breakdowns.sessions(db, Filters(hero=HERO))
    got = found.select("table_name", "started_at", "hands", pl.col("points").round(6)).rows()
    assert sorted(got) == sorted((t, at, n, round(points, 6)) for t, at, n, points in expected)


def test_results_against_each_opponent_are_the_head_to_head(db: Database) -> None:
    found = breakdowns.opponents(db, Filters(hero=HERO))
    for row in found.iter_rows(named=True):
        pair = players.head_to_head(db, HERO, row["opponent"], Filters()).row(0, named=True)
        assert (row["hands"], row["points"]) == (pair["hands"], pytest.approx(pair["points"]))
        assert row["points_per_hand_low"] == pytest.approx(pair["points_per_hand_low"])


def test_results_against_each_opponent_keep_to_the_hands_the_filtered_opponent_played(
    db: Database, sql
) -> None:
    """docs/metrics.md: the sums of the two players' settlements in the view's hands; with an
    opponent filter, only the hands that opponent played (the table once ignored it)."""
    everyone = breakdowns.opponents(db, Filters(hero=HERO))
    rival = everyone.row(0, named=True)["opponent"]
    found = breakdowns.opponents(db, Filters(hero=HERO, opponent=rival))
    expected = dict(
        (opponent, (n, points))
        for opponent, n, points in sql(
            "SELECT CASE WHEN w.player_a = ? THEN w.player_b ELSE w.player_a END, count(*),"
            " sum(CASE WHEN w.player_a = ? THEN w.points_a ELSE -w.points_a END)"
            " FROM pairwise w WHERE ? IN (w.player_a, w.player_b) AND w.hand_id IN"
            " (SELECT hand_id FROM player_hands WHERE player = ?) GROUP BY 1",
            [HERO, HERO, HERO, rival],
        )
    )
    got = {r["opponent"]: (r["hands"], r["points"]) for r in found.iter_rows(named=True)}
    assert got.keys() == expected.keys()
    for opponent, (n, points) in expected.items():
        assert got[opponent] == (n, pytest.approx(points))
    assert found.get_column("hands").sum() < everyone.get_column("hands").sum()


@pytest.mark.parametrize("variant", [None, "classic"])
def test_opponents_from_player_pairs_are_the_sum_of_pairwise(
    db: Database, variant: str | None
) -> None:
    stored = breakdowns.opponents(db, Filters(hero=HERO, variant=variant))
    summed = breakdowns.opponents(db, Filters(hero=HERO, variant=variant, date_from=EARLY))
    assert stored.height > 0
    assert_frame_equal(stored, summed, check_dtypes=False)


def test_one_variant_draws_no_duplicate_all_line_and_money_runs_per_currency(
    db: Database, sql
) -> None:
    one = cumulative.cumulative_points(db, Filters(hero=HERO, variant="classic"), 120)
    assert set(one["series"]) == {"classic"}
    both = cumulative.cumulative_points(db, Filters(hero=HERO), 360)
    assert set(both["series"]) == {"all variants", "classic", "pineapple"}
    money = cumulative.cumulative_money(db, Filters(hero=HERO), 360)
    expected = dict(
        sql(
            "SELECT currency, sum(money) FROM player_hands WHERE player = ? AND money IS NOT NULL"
            " GROUP BY currency",
            [HERO],
        )
    )
    assert set(money["series"]) == set(expected)  # no line adds currencies up
    for currency, total in expected.items():
        line = money.filter(money["series"] == currency)
        assert line["points"][-1] == pytest.approx(total)
