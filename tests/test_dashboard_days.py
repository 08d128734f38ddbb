"""``player_days`` and ``pair_days``: the views narrowed by dates, stakes or a ruleset.

Every query that sums the daily tables must give what the same query computes
from ``player_hands`` (``FromHands``: the same view, answered the old way) or
an independent DuckDB query of the base tables gives, for every day of the
archive as a first or last date, each stake and each ruleset. The archive's
times are moved so that its first table plays across midnight UTC: its
evening falls on two days, which the day filters must split as ``played_at``
does.
"""

from __future__ import annotations

import datetime as dt
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import duckdb
import polars as pl
import pytest

from dashboard.queries import (
    breakdowns,
    cumulative,
    fantasyland,
    hands,
    options,
    per_player,
    players,
    profile,
    style,
    summary,
)
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, scope, stakes_key
from pipeline.load.database import connect
from pipeline.load.metrics.definitions import METRICS, stat_columns, stats
from pipeline.load.metrics.refresh import rebuild
from tests.dashboard_data import HERO


@dataclass(frozen=True)
class FromHands(Filters):
    """The same view, computed from ``player_hands`` (as a view with an opponent is)."""

    @property
    def daily(self) -> bool:
        return False


#: Moves every time so that midnight UTC falls in the middle of the first table's hands.
_ACROSS_MIDNIGHT = """
SELECT date_trunc('day', min(played_at)) + INTERVAL 1 DAY
    - (min(played_at) + (max(played_at) - min(played_at)) / 2)
FROM hands
WHERE table_name = (SELECT table_name FROM hands ORDER BY played_at LIMIT 1)
"""


@pytest.fixture(scope="module")
def across_midnight(dashboard_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the dashboard database whose first table plays across midnight UTC, and
    whose tables are merged into two: each holds several sessions."""
    path = tmp_path_factory.mktemp("days") / "ofc.duckdb"
    shutil.copy(dashboard_db, path)
    con = connect(path)
    con.execute("SET TimeZone = 'UTC'")
    shift = con.sql(_ACROSS_MIDNIGHT).fetchall()[0][0]
    for table in ("hands", "player_hands"):
        con.execute(f"UPDATE {table} SET played_at = played_at + ?", [shift])
        con.execute(f"UPDATE {table} SET table_name = 'Table ' || (hash(table_name) % 2)")
    rebuild(con)
    con.close()
    return path


@pytest.fixture(scope="module")
def db(across_midnight: Path) -> Database:
    return Database(across_midnight)


@pytest.fixture(scope="module")
def sql(across_midnight: Path):
    con = duckdb.connect(str(across_midnight), read_only=True)
    con.execute("SET TimeZone = 'UTC'")
    yield lambda query, params=(): con.sql(query, params=list(params)).fetchall()
    con.close()


def _days(sql) -> list[dt.date]:
    return [r[0] for r in sql("SELECT DISTINCT played_at::DATE FROM hands ORDER BY 1")]


def _views(sql, hero: str | None = HERO) -> list[Filters]:
    """Views narrowed every way the sidebar can: each day as first or last date, each
    stake, each ruleset, a variant with dates."""
    days = _days(sql)
    base = Filters(hero=hero)
    stakes = [f"{v:g} {c}" for v, c in sql("SELECT DISTINCT point_value, currency FROM hands")]
    rulesets = [r[0] for r in sql("SELECT DISTINCT ruleset FROM hands")]
    return [
        *(replace(base, date_from=day) for day in days),
        *(replace(base, date_to=day) for day in days),
        replace(base, date_from=days[1], date_to=days[-2], variant="pineapple"),
        *(replace(base, stakes=stake) for stake in stakes),
        *(replace(base, ruleset=ruleset) for ruleset in rulesets),
        replace(base, stakes="play"),
    ]


def _same(daily: pl.DataFrame, by_hand: pl.DataFrame, key: list[str]) -> None:
    """Equal frames, rows matched by ``key``, floats within rounding of sums' order."""
    assert daily.columns == by_hand.columns
    assert daily.height == by_hand.height
    left, right = daily.sort(key, nulls_last=True), by_hand.sort(key, nulls_last=True)
    for column in daily.columns:
        a, b = left[column].to_list(), right[column].to_list()
        if left[column].dtype.is_float():
            assert [x is None for x in a] == [x is None for x in b], column
            a, b = [x for x in a if x is not None], [x for x in b if x is not None]
            assert a == pytest.approx(b, rel=1e-9, abs=1e-9, nan_ok=True), column
        else:
            assert a == b, column


def test_some_tables_play_across_midnight_utc(sql) -> None:
    """The day filters must split a table's evening as ``played_at`` does."""
    crossing = sql(
        "SELECT count(*) FROM (SELECT table_name, played_at::DATE AS day FROM hands"
        " GROUP BY ALL) GROUP BY table_name HAVING count(*) > 1"
    )
    assert crossing and len(_days(sql)) >= 5


def test_player_days_add_up_to_every_player_hand(sql) -> None:
    columns = ["hands", *stat_columns()]
    found = sql(
        f"SELECT player, {', '.join(f'sum({c})' for c in columns)} FROM player_days"
        " GROUP BY player ORDER BY player"
    )
    expected = sql(
        f"SELECT p.player, count(*), {stats('p')} FROM player_hands p"
        " GROUP BY p.player ORDER BY p.player"
    )
    assert len(found) == len(expected) > 3
    for got, want in zip(found, expected, strict=True):
        assert got[0] == want[0]
        assert list(got[1:]) == pytest.approx(list(want[1:]), nan_ok=True)


def test_player_metrics_summed_from_days_equal_those_of_player_hands(sql) -> None:
    """``player_metrics`` is summed from ``player_days``; computed directly it is the same."""
    direct = sql(
        f"SELECT p.player, coalesce(p.variant, 'all') AS v, count(*), {stats('p')}"
        " FROM player_hands p GROUP BY GROUPING SETS ((p.player, p.variant), (p.player))"
        " ORDER BY 1, 2"
    )
    table = sql(
        f"SELECT player, variant, hands, {', '.join(stat_columns())} FROM player_metrics"
        " ORDER BY 1, 2"
    )
    assert len(table) == len(direct) > 5 and len(METRICS) > 10
    for got, want in zip(table, direct, strict=True):
        assert got[:3] == want[:3]
        assert list(got[3:]) == pytest.approx(list(want[3:]), nan_ok=True), got[:2]


def test_the_day_is_the_utc_date_of_played_at(tmp_path: Path) -> None:
    """A hand at 23:30 in New York on 1 January is a hand of 2 January (UTC)."""
    con = connect(tmp_path / "tz.duckdb")
    con.execute("SET TimeZone = 'America/New_York'")  # a user's session: must not matter
    con.execute(
        "INSERT INTO hands (hand_id, variant, ruleset, played_at) VALUES"
        " ('h1', 'classic', 'classic-1-6-american', TIMESTAMPTZ '2025-01-01 23:30:00-05')"
    )
    con.execute(
        "INSERT INTO player_hands (hand_id, seat, player, position, in_fantasyland, timed_out,"
        " played_at, variant, ruleset, foul, points, royalties, pairings, scoops, rows_won)"
        " VALUES ('h1', 1, 'Anna', 0, false, false, TIMESTAMPTZ '2025-01-01 23:30:00-05',"
        " 'classic', 'classic-1-6-american', false, 3.0, 0, 0, 0, 0)"
    )
    rebuild(con)
    assert con.sql("SELECT day, hands FROM player_days").fetchall() == [(dt.date(2025, 1, 2), 1)]
    con.close()


@pytest.mark.parametrize("hero", [HERO, None], ids=["hero", "everybody"])
def test_summaries_and_money_from_days_equal_those_from_hands(db: Database, sql, hero) -> None:
    for view in _views(sql, hero):
        daily, by_hand = summary.summaries(db, view), summary.summaries(db, FromHands(**vars(view)))
        assert view.daily and set(daily) == set(by_hand), view
        for variant, figures in by_hand.items():
            for key, value in figures.items():
                assert daily[variant][key] == pytest.approx(value, nan_ok=True), (view, key)
        money = summary.money(db, view)
        assert money == [
            {
                k: pytest.approx(v, nan_ok=True) if isinstance(v, float) else v
                for k, v in row.items()
            }
            for row in summary.money(db, FromHands(**vars(view)))
        ], view


@pytest.mark.parametrize("key", list(breakdowns.KEYS))
def test_breakdowns_from_days_equal_those_from_hands(db: Database, sql, key: str) -> None:
    for view in _views(sql):
        daily = breakdowns.by(db, view, key)
        _same(daily, breakdowns.by(db, FromHands(**vars(view)), key), ["group"])


def test_style_shares_from_days_equal_those_from_hands(db: Database, sql) -> None:
    for view in [*_views(sql), *_views(sql, None)]:
        for query in (style.bottom_categories, style.first_street):
            daily, by_hand = query(db, view), query(db, FromHands(**vars(view)))
            _same(daily.drop("rank"), by_hand.drop("rank"), ["category"])


def test_fantasyland_from_days_equals_fantasyland_from_hands(db: Database, sql) -> None:
    assert sql("SELECT count(*) FROM player_hands WHERE in_fantasyland")[0][0] > 0
    for view in [*_views(sql), *_views(sql, None), Filters(hero=HERO), Filters()]:
        hands_view = FromHands(**vars(view))
        _same(
            fantasyland.by_ruleset(db, view),
            fantasyland.by_ruleset(db, hands_view),
            ["variant", "ruleset"],
        )
        _same(
            fantasyland.cards_dealt(db, view),
            fantasyland.cards_dealt(db, hands_view),
            ["variant", "cards"],
        )


def test_players_table_from_days_equals_the_table_from_hands(db: Database, sql) -> None:
    for view in _views(sql, None):
        for search in ("", "a"):
            daily = players.players_table(db, view, search)
            by_hand = players.players_table(db, FromHands(**vars(view)), search)
            _same(daily, by_hand, ["player"])
    sql_text, _ = per_player.table(Filters(date_from=dt.date(2026, 1, 1)))
    assert "player_days" in sql_text


def _pairwise_sums(sql, first: str, second: str, view: Filters) -> tuple:
    """``first``'s hands, points, scoops and rows won against ``second`` in ``view``
    (dates and a stake only), straight from ``pairwise`` and ``hands``."""
    conditions, params = ["TRUE"], []
    if view.date_from:
        conditions.append("h.played_at >= ?")
        params.append(view.date_from)
    if view.date_to:
        conditions.append("h.played_at < ?")
        params.append(view.date_to + dt.timedelta(days=1))
    if view.stakes and view.stakes != "play":
        value, currency = view.stakes.split()
        conditions.append("abs(h.point_value - ?) < 1e-9 AND h.currency = ?")
        params += [float(value), currency]
    return sql(
        "WITH sides AS ("
        " SELECT hand_id, player_a AS me, player_b AS them, points_a AS points, rows_a AS won"
        " FROM pairwise UNION ALL"
        " SELECT hand_id, player_b, player_a, -points_a, rows_b FROM pairwise)"
        " SELECT count(*), coalesce(sum(points), 0), count(*) FILTER (WHERE won = 3),"
        " coalesce(sum(won), 0)"
        f" FROM sides s JOIN hands h USING (hand_id) WHERE me = ? AND them = ?"
        f" AND {' AND '.join(conditions)}",
        [first, second, *params],
    )[0]


def test_head_to_head_and_opponents_from_pair_days_equal_pairwise(db: Database, sql) -> None:
    rivals = players.opponents(db, HERO)
    assert len(rivals) >= 3
    for view in _views(sql):
        if view.ruleset or view.variant or view.stakes == "play":
            continue
        against = breakdowns.opponents(db, view)
        for rival in rivals:
            hands_, points, scoops, won = _pairwise_sums(sql, HERO, rival, view)
            found = players.head_to_head(db, HERO, rival, view.population())
            everything = found.filter(pl.col("variant") == "all")
            if hands_ == 0:
                assert found.is_empty() and rival not in against["opponent"].to_list()
                continue
            row = everything.row(0, named=True)
            assert (row["hands"], row["scoops"], row["rows_won"]) == (hands_, scoops, won)
            assert row["points"] == pytest.approx(points)
            mine = against.filter(pl.col("opponent") == rival).row(0, named=True)
            assert mine["hands"] == hands_ and mine["points"] == pytest.approx(points)


def test_profiles_count_only_the_views_hands(db: Database, sql) -> None:
    """The coach's profile: every player's statistics in a narrowed view, against a direct
    count over ``player_hands``."""
    day = _days(sql)[3]
    view = Filters(hero=HERO, date_from=day)
    query, params = profile.players_stats(view)
    found = {r[0]: r[1:] for r in sql(query, params)}
    expected = sql(
        f"SELECT p.player, count(*), {stats('p')} FROM player_hands p"
        " WHERE p.played_at >= ? GROUP BY p.player",
        [day],
    )
    assert len(found) == len(expected) > 1
    for row in expected:
        assert list(found[row[0]]) == pytest.approx(list(row[1:]), nan_ok=True)
    assert profile.profile(db, view) is not None


def test_cumulative_lines_by_hour_end_on_each_hours_exact_totals(
    db: Database, sql, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``EXACT_HANDS``, a view over enough hours draws one point per hour end (here
    forced on the small archive): each point holds every hand up to its time."""
    monkeypatch.setattr(cumulative, "EXACT_HANDS", 0)
    monkeypatch.setattr(cumulative, "MIN_HOURS", 2)
    view = Filters(hero=HERO)
    points = cumulative.cumulative_points(db, view, 360)
    money = cumulative.cumulative_money(db, view, 360)
    assert points["series"].n_unique() == 3  # all variants and both variants
    for row in points.filter(pl.col("hands") > 0).iter_rows(named=True):
        variant = "" if row["series"] == cumulative.ALL else "AND variant = ?"
        params = [HERO, row["until"]] + ([] if not variant else [row["series"]])
        hands_, total = sql(
            f"SELECT count(*), sum(points) FROM player_hands WHERE player = ?"
            f" AND played_at <= ? {variant}",
            params,
        )[0]
        assert (row["hands"], row["points"]) == (hands_, pytest.approx(total))
    hours = sql("SELECT count(DISTINCT date_trunc('hour', played_at)) FROM hands")[0][0]
    assert points.filter(pl.col("series") == cumulative.ALL).height == hours + 1  # from (0, 0)
    for row in money.filter(pl.col("hands") > 0).iter_rows(named=True):
        hands_, total = sql(
            "SELECT count(*), sum(money) FROM player_hands WHERE player = ? AND played_at <= ?"
            " AND currency = ? AND money IS NOT NULL",
            [HERO, row["until"], row["series"]],
        )[0]
        assert (row["hands"], row["points"]) == (hands_, pytest.approx(total))
    assert set(money["series"]) == {r[0] for r in sql("SELECT DISTINCT currency FROM hands")}


def test_cumulative_lines_stay_bucketed_over_few_hours(
    db: Database, sql, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fewer hours than ``MIN_HOURS``: the time buckets of ``player_hands``, as before."""
    monkeypatch.setattr(cumulative, "EXACT_HANDS", 0)
    assert sql("SELECT count(DISTINCT date_trunc('hour', played_at)) FROM hands")[0][0] < 400
    for view in (Filters(hero=HERO), Filters(hero=HERO, stakes="0.5 EUR")):
        for line in (cumulative.cumulative_points, cumulative.cumulative_money):
            by_day, by_hand = line(db, view, 360), line(db, FromHands(**vars(view)), 360)
            assert by_day.height > 10
            _same(by_day, by_hand, ["series", "hands"])


@pytest.mark.parametrize(
    "own",
    [
        hands.HandFilters(),
        hands.HandFilters(fouled=True),
        hands.HandFilters(fouled=False),
        hands.HandFilters(fantasyland=True),
        hands.HandFilters(fantasyland=False),
        hands.HandFilters(fouled=False, fantasyland=True),
        hands.HandFilters(mismatch=True),
        hands.HandFilters(min_royalties=2),
    ],
    ids=repr,
)
def test_hand_counts_from_days_equal_the_counts_of_hands(
    db: Database, sql, own: hands.HandFilters
) -> None:
    for view in [*_views(sql), *_views(sql, None), Filters(hero=HERO)]:
        counted = hands.hand_count(db, view, own)
        assert counted == hands.hand_count(db, FromHands(**vars(view)), own), view
        assert counted == hands.hand_list(db, view, own, 0).height or counted > hands.PAGE_SIZE


#: The list as one plain query: every row of the view sorted, each hand's opponents
#: aggregated beside it (what ``hands.hand_list`` returned before it was narrowed).
_PLAIN_LIST = """
SELECT p.hand_id, p.seat, p.points, p.money, p.royalties, (
    SELECT string_agg(o.player, ', ' ORDER BY o.position) FROM player_hands o
    WHERE o.hand_id = p.hand_id AND o.seat <> p.seat
) AS opponents
FROM player_hands p
WHERE {where}
ORDER BY {order}
LIMIT ? OFFSET ?
"""


def _plain_list(sql, view: Filters, own: hands.HandFilters, page: int, sort: str) -> list:
    where = own.where(scope(view))
    query = _PLAIN_LIST.format(where=where.sql, order=hands.SORTS[sort])
    return sql(query, [*where.params, hands.PAGE_SIZE, page * hands.PAGE_SIZE])


@pytest.mark.parametrize("sort", list(hands.SORTS))
@pytest.mark.parametrize(
    "own",
    [hands.HandFilters(), hands.HandFilters(fouled=False), hands.HandFilters(fantasyland=True)],
    ids=repr,
)
def test_every_page_of_every_sort_is_the_page_of_the_plain_sort(
    db: Database, sql, own: hands.HandFilters, sort: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page is read from the days that hold it (sorted by time) or the rows at or past
    its last row's value (sorted by a value), its opponents by a second query: the first
    pages, one in the middle, the last (shorter) one and one past it are the pages of
    one plain query."""
    monkeypatch.setattr(hands, "PAGE_SIZE", 7)  # many pages, some across days
    rival = players.opponents(db, HERO)[0]
    with_rival = Filters(hero=HERO, opponent=rival)
    for view in [Filters(hero=HERO), Filters(), with_rival, *_views(sql)[::6]]:
        last = hands.hand_count(db, view, own) // 7
        for page in sorted({0, 1, 2, last // 2, last, last + 1}):
            listed = hands.hand_list(db, view, own, page, sort)
            columns = ["hand_id", "seat", "points", "money", "royalties", "opponents"]
            assert listed.select(columns).rows() == _plain_list(sql, view, own, page, sort)
            assert listed.equals(hands.hand_list(db, FromHands(**vars(view)), own, page, sort))


def test_the_first_page_is_read_from_its_days_or_its_values(db: Database) -> None:
    view, every_hand = Filters(hero=HERO), hands.HandFilters()
    for sort in ("Newest first", "Oldest first"):
        assert "played_at" in hands.within_days(db, view, every_hand, sort, 7).sql
    where = every_hand.where(scope(view))
    assert "p.points >=" in hands.within_value(db, where, "Most points", 7).sql
    assert not hands.within_value(db, where, "Most points", 10**6).conditions


@pytest.mark.parametrize(
    "own", [hands.HandFilters(), hands.HandFilters(fouled=True), hands.HandFilters(fouled=False)]
)
def test_neighbours_read_only_the_nearest_days_and_find_the_same_hands(
    db: Database, sql, own: hands.HandFilters
) -> None:
    """Previous and next of every hand of the list: from the anchor's day to the nearest
    day with hands of the list, as found over every hand."""
    for view in (Filters(hero=HERO), Filters(hero=HERO, stakes="0.5 EUR")):
        ids = sql(
            "SELECT DISTINCT hand_id FROM player_hands WHERE player = ? ORDER BY hand_id", [HERO]
        )
        for (hand_id,) in ids[::5]:
            found = hands.neighbours(db, view, own, hand_id)
            assert found == hands.neighbours(db, FromHands(**vars(view)), own, hand_id)


def test_the_stakes_offered_are_those_of_the_hands(db: Database, sql) -> None:
    rows = sql("SELECT DISTINCT point_value, currency FROM hands")
    offered = set(options.choices(db).stakes)
    assert offered == {stakes_key(value, currency) for value, currency in rows}
    assert len(offered) > 3


def test_sessions_read_only_the_days_of_the_latest_hands(
    db: Database, sql, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The latest ``SESSION_HANDS`` hands (here 200, over a few days) are looked for in
    their days only: the same sessions as over every hand."""
    monkeypatch.setattr(breakdowns, "SESSION_HANDS", 200)
    for view in (Filters(hero=HERO), Filters(hero=HERO, variant="pineapple")):
        found = breakdowns.sessions(db, view)
        assert found.height >= 2
        assert found.equals(breakdowns.sessions(db, FromHands(**vars(view))))
    assert (
        hands.within_days(db, Filters(hero=HERO), hands.HandFilters(), hands.NEWEST, 200).sql
        != "TRUE"
    )
