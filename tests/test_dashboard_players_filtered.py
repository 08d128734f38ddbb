"""The Players table and the profile count only the hands of a narrowed view.

On the test database (``ofc simulate`` + ``ofc import``), every figure of the
players table and of the profile with a date range, a stake or an opponent is
recomputed here in polars from the raw rows of ``player_hands``, ``pairwise``
and ``audit_mismatches`` of that view. Unfiltered, both still read
``player_summary`` and ``style_metrics``; a view that narrows nothing computes
exactly what those tables hold.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl
import pytest

from dashboard.queries import players, profile
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters
from pipeline.load.metrics.definitions import BY_NAME
from pipeline.report.audit import MIN_POPULATION_HANDS
from tests.dashboard_data import HERO
from tests.t_quantile import t_quantile

#: A date before every simulated hand: narrows nothing, but forces the computed path.
EARLY = dt.date(2000, 1, 1)
OPPONENT = "Chen"
#: The rates of the players table, each with its Wilson interval.
RATES = tuple(name for name in players.FIGURES if BY_NAME[name].is_rate)


@dataclass(frozen=True)
class Raw:
    """The base tables, read once, as polars frames (times in UTC)."""

    player_hands: pl.DataFrame
    pairwise: pl.DataFrame
    mismatches: pl.DataFrame


@pytest.fixture(scope="module")
def db(dashboard_db: Path) -> Database:
    return Database(dashboard_db)


@pytest.fixture(scope="module")
def raw(dashboard_db: Path) -> Raw:
    con = duckdb.connect(str(dashboard_db), read_only=True)
    try:
        con.execute("SET TimeZone = 'UTC'")
        frames = [
            con.sql(f"SELECT * FROM {table}").pl()
            for table in ("player_hands", "pairwise", "audit_mismatches")
        ]
    finally:
        con.close()
    return Raw(*frames)


@pytest.fixture(scope="module")
def middle(raw: Raw) -> dt.date:
    days = raw.player_hands["played_at"].dt.date()
    return days.min() + (days.max() - days.min()) / 2


def _day(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), dt.UTC)


def _rows(raw: Raw, filters: Filters) -> pl.DataFrame:
    """The view's player-hands, picked in polars (everybody's; with an opponent, the
    others' rows of the hands the opponent played)."""
    rows = raw.player_hands
    for column in ("variant", "ruleset"):
        if getattr(filters, column):
            rows = rows.filter(pl.col(column) == getattr(filters, column))
    if filters.date_from:
        rows = rows.filter(pl.col("played_at") >= _day(filters.date_from))
    if filters.date_to:
        rows = rows.filter(pl.col("played_at") < _day(filters.date_to + dt.timedelta(days=1)))
    if filters.stakes:
        value, currency = filters.stakes.split()
        rows = rows.filter(
            (pl.col("point_value") - float(value)).abs() < 1e-9, pl.col("currency") == currency
        )
    if filters.opponent:
        theirs = rows.filter(pl.col("player") == filters.opponent)["hand_id"]
        rows = rows.filter(
            pl.col("hand_id").is_in(theirs.implode()), pl.col("player") != filters.opponent
        )
    return rows


def _rate(hit: pl.Expr, among: pl.Expr) -> pl.Expr:
    """hits / cases among the rows where ``among`` holds; null without a case."""
    cases = among.fill_null(False)
    return pl.when(cases.sum() > 0).then((hit.fill_null(False) & cases).sum() / cases.sum())


def _counted(name: str, hit: pl.Expr, among: pl.Expr) -> list[pl.Expr]:
    """``name`` as a rate of rows, with its cases (``_n``) and hits (``_k``)."""
    cases = among.fill_null(False)
    return [
        _rate(hit, among).alias(name),
        cases.sum().cast(pl.Float64).alias(f"{name}_n"),
        (hit.fill_null(False) & cases).sum().cast(pl.Float64).alias(f"{name}_k"),
    ]


def _wilson(k: float, n: float, sign: int) -> float | None:
    """One end of Wilson's 95% interval, written out (independent of ``intervals``)."""
    if not n:
        return None
    z, p = 1.959963984540054, k / n
    spread = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return (p + z * z / (2 * n) + sign * spread) / (1 + z * z / n)


def _t_half(sd: float | None, n: int) -> float | None:
    """None for one value, or values that are all the same (docs/metrics.md)."""
    return t_quantile(0.975, n - 1) * sd / n**0.5 if n > 1 and sd else None


def _with_intervals(frame: pl.DataFrame, rates: tuple[str, ...]) -> pl.DataFrame:
    """``frame`` with ``_low`` and ``_high`` of each rate (from ``_k``, ``_n``) and of the
    means points and royalties per hand (from their ``_sd``)."""
    ends = {}
    for name in rates:
        for end, sign in (("low", -1), ("high", 1)):
            ends[f"{name}_{end}"] = pl.struct(k=f"{name}_k", n=f"{name}_n").map_elements(
                lambda r, sign=sign: _wilson(r["k"], r["n"], sign), return_dtype=pl.Float64
            )
    for name in ("points_per_hand", "royalties_per_hand"):
        half = pl.struct(sd=f"{name}_sd", n="hands").map_elements(
            lambda r: _t_half(r["sd"], r["n"]), return_dtype=pl.Float64
        )
        ends[f"{name}_low"], ends[f"{name}_high"] = pl.col(name) - half, pl.col(name) + half
        ends[f"{name}_n"] = pl.col("hands")
    ends["royalties_per_hand_low"] = ends["royalties_per_hand_low"].clip(lower_bound=0.0)
    return frame.with_columns(**ends)


def _pair_stats(raw: Raw, hand_ids: pl.Series) -> pl.DataFrame:
    kept = raw.pairwise.filter(pl.col("hand_id").is_in(hand_ids.implode()))
    sides = pl.concat(
        [
            kept.select(player="player_a", rows_won="rows_a"),
            kept.select(player="player_b", rows_won="rows_b"),
        ]
    )
    return sides.group_by("player").agg(
        scoop_rate=(pl.col("rows_won") == 3).mean(),
        scoop_rate_k=(pl.col("rows_won") == 3).sum().cast(pl.Float64),
        scoop_rate_n=pl.len().cast(pl.Float64),
        rows_won_per_row=pl.col("rows_won").sum() / (3 * pl.len()),
        rows_won_per_row_k=pl.col("rows_won").sum().cast(pl.Float64),
        rows_won_per_row_n=(3 * pl.len()).cast(pl.Float64),
    )


def _expected(raw: Raw, filters: Filters) -> pl.DataFrame:
    """Every player's figures in the view, computed from docs/metrics.md's definitions."""
    rows = _rows(raw, filters)
    fl, foul = pl.col("in_fantasyland"), pl.col("foul")
    style = fl.not_() & pl.col("timed_out").not_()
    setup = pl.col("first_street_bottom")
    drawing = style & setup.is_in(["flush_draw", "straight_draw"])
    currencies = pl.col("currency").drop_nulls().unique()
    figures = rows.group_by("player").agg(
        *_counted("foul_rate", foul, foul.is_not_null()),
        *_counted("fantasyland_entry_rate", pl.col("fantasyland_next"), foul.not_() & fl.not_()),
        *_counted("fantasyland_stay_rate", pl.col("fantasyland_stay"), fl),
        *_counted("fantasyland_share", fl, fl.is_not_null()),
        hands=pl.len(),
        points=pl.col("points").sum(),
        points_per_hand=pl.col("points").mean(),
        points_per_hand_sd=pl.col("points").std(ddof=1),
        money=pl.when(currencies.len() == 1).then(pl.col("money").sum()),
        currencies=pl.when(currencies.len() > 0).then(currencies.sort().str.join(",")),
        royalties_per_hand=pl.col("royalties").mean(),
        royalties_per_hand_sd=pl.col("royalties").std(ddof=1),
        points_per_fantasyland_hand=pl.col("points").filter(fl).mean(),
        first_played_at=pl.col("played_at").min(),
        last_played_at=pl.col("played_at").max(),
        style_foul_rate=_rate(foul, style),
        bottom_aggression=_rate(setup != "pair_or_better", fl.not_() & setup.is_not_null()),
        foul_rate_drawing=_rate(foul, drawing),
        top_qq_plus_by_street2_share=_rate(
            pl.col("top_qq_plus_by_street2"),
            fl.not_() & pl.col("top_qq_plus_by_street2").is_not_null(),
        ),
    )
    hand_ids = rows["hand_id"].unique()
    mismatches = (
        raw.mismatches.filter(pl.col("hand_id").is_in(hand_ids.implode()))
        .group_by("player")
        .agg(mismatches=pl.len())
    )
    found = (
        figures.join(_pair_stats(raw, hand_ids), on="player", how="left")
        .join(mismatches, on="player", how="left")
        .with_columns(pl.col("mismatches").fill_null(0))
    )
    return _with_intervals(found, RATES)


def _close(found: object, expected: object) -> bool:
    if expected is None or found is None:
        return found is None and expected is None
    if isinstance(expected, float):
        return found == pytest.approx(expected, rel=1e-9, abs=1e-12)
    return found == expected


def _assert_same(found: pl.DataFrame, expected: pl.DataFrame, columns: tuple[str, ...]) -> None:
    """Same players, and every column equal (floats to 1e-9)."""
    assert sorted(found["player"]) == sorted(expected["player"])
    by_player = {row["player"]: row for row in expected.iter_rows(named=True)}
    for row in found.iter_rows(named=True):
        want = by_player[row["player"]]
        for column in columns:
            if column.endswith(("_low", "_high")) and want[column] is not None:
                # the t quantile: a table to 30 degrees of freedom, a series beyond (1e-8)
                assert row[column] == pytest.approx(want[column], rel=1e-7, abs=1e-6), (
                    row["player"],
                    column,
                )
            else:
                assert _close(row[column], want[column]), (row["player"], column)


def _views(middle: dt.date) -> dict[str, Filters]:
    return {
        "later-half": Filters(date_from=middle),
        "earlier-half-classic": Filters(variant="classic", date_to=middle),
        "stake": Filters(stakes="0.5 EUR"),
        "opponent": Filters(opponent=OPPONENT, date_from=middle),
    }


@pytest.mark.parametrize("name", ["later-half", "earlier-half-classic", "stake", "opponent"])
def test_a_narrowed_players_table_counts_only_the_views_hands(
    db: Database, raw: Raw, middle: dt.date, name: str
) -> None:
    view = _views(middle)[name]
    found = players.players_table(db, view.with_hero(HERO))  # the hero narrows nothing
    _assert_same(found, _expected(raw, view), players.TABLE_COLUMNS)
    assert found["hands"].is_sorted(descending=True)
    everything = players.players_table(db, Filters(variant=view.variant))
    mine, all_time = (
        frame.filter(pl.col("player") == HERO)["hands"][0] for frame in (found, everything)
    )
    assert 0 < mine < all_time


def test_the_opponent_keeps_who_sat_with_them(db: Database, middle: dt.date) -> None:
    found = players.players_table(db, _views(middle)["opponent"])
    assert OPPONENT not in found["player"].to_list()
    assert set(found["player"]) == {HERO, "<img src=x onerror=alert(1)>"}  # the pineapple table


def test_search_and_the_row_limit_apply_to_a_narrowed_table(
    db: Database, middle: dt.date, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = Filters(date_from=middle)
    assert players.players_table(db, view, "aNN")["player"].to_list() == [HERO]
    assert players.players_table(db, view, "no such player").is_empty()
    monkeypatch.setattr(players, "TABLE_ROWS", 2)
    assert players.players_table(db, view).height == 2


def test_the_summarised_table_is_player_summary(db: Database, raw: Raw) -> None:
    found = players.players_table(db, Filters(hero=HERO, variant="classic"))
    _assert_same(found, _expected(raw, Filters(variant="classic")), players.TABLE_COLUMNS)
    stored = db.frame(
        "SELECT player, hands, foul_rate, points_per_hand_ci_low AS points_per_hand_low"
        " FROM player_summary WHERE variant = 'classic' ORDER BY hands DESC, player"
    )
    assert found.select(stored.columns).equals(stored)


@pytest.mark.parametrize("variant", [None, "pineapple"])
def test_a_view_narrowing_nothing_computes_the_summary(db: Database, variant: str | None) -> None:
    summarised = players.players_table(db, Filters(variant=variant))
    computed = players.players_table(db, Filters(variant=variant, date_from=EARLY))
    assert computed["player"].to_list() == summarised["player"].to_list()
    _assert_same(computed, summarised, players.TABLE_COLUMNS)


def test_a_profile_narrowing_nothing_is_the_summarised_one(db: Database) -> None:
    summarised = profile.profile(db, Filters(hero=HERO))
    computed = profile.profile(db, Filters(hero=HERO, date_from=EARLY))
    assert [f.metric for f in computed.findings] == [f.metric for f in summarised.findings]
    for mine, theirs in zip(computed.findings, summarised.findings, strict=True):
        for key in ("value", "n", "low", "high", "population", "percentile", "verdict"):
            assert _close(getattr(mine, key), getattr(theirs, key)), (mine.metric, key)


def _percentile(values: pl.Series, value: float) -> float:
    below, ties = int((values < value).sum()), int((values == value).sum()) - 1
    return (below + ties / 2) / (values.len() - 1)


def _like_for_like(rows: pl.DataFrame, figure: pl.Expr, trials: pl.Expr) -> float:
    """The population's ``figure`` in the hero's mix of variants: each variant's figure over
    everybody's rows, weighted by the hero's ``trials`` there (docs/metrics.md)."""
    everybody = rows.group_by("variant").agg(figure=figure)
    hero = rows.filter(pl.col("player") == HERO).group_by("variant").agg(trials=trials)
    both = hero.join(everybody, on="variant").filter(pl.col("trials") > 0)
    assert both.height > 1  # the hero plays several variants: the weights matter
    return (both["trials"] * both["figure"]).sum() / both["trials"].sum()


@pytest.mark.parametrize("name", ["later-half", "stake"])
def test_a_narrowed_profile_counts_the_views_hands_only(
    db: Database, raw: Raw, middle: dt.date, name: str
) -> None:
    view = _views(middle)[name].with_hero(HERO)
    found = profile.profile(db, view)
    figures = _expected(raw, view)
    rows = _rows(raw, view.with_hero(None))
    mine = figures.filter(pl.col("player") == HERO).row(0, named=True)
    assert found.hands == mine["hands"]
    ranked = figures.filter((pl.col("hands") >= MIN_POPULATION_HANDS) | (pl.col("player") == HERO))
    style = pl.col("in_fantasyland").not_() & pl.col("timed_out").not_()
    pooled = {
        "foul_rate": _like_for_like(rows, pl.col("foul").mean(), pl.len()),
        "points_per_hand": _like_for_like(rows, pl.col("points").mean(), pl.len()),
        "style_foul_rate": _like_for_like(rows, _rate(pl.col("foul"), style), style.sum()),
    }
    checked = 0
    for finding in found.findings:
        if finding.metric not in figures.columns:
            continue
        assert finding.value == pytest.approx(mine[finding.metric], rel=1e-9), finding.metric
        values = ranked[finding.metric].drop_nulls()
        expected = _percentile(values, mine[finding.metric]) if values.len() > 1 else None
        assert _close(finding.percentile, expected), finding.metric
        if finding.metric in pooled:
            assert finding.population == pytest.approx(pooled[finding.metric], rel=1e-9)
        checked += 1
    assert checked >= 10
    assert not found.enough and not found.leaks  # five players: no leak, whatever the rates
    all_time = profile.profile(db, Filters(hero=HERO))
    assert [f.value for f in found.findings] != [f.value for f in all_time.findings]


def test_the_profile_ignores_the_opponent(db: Database, middle: dt.date) -> None:
    view = Filters(hero=HERO, date_from=middle)
    with_opponent = profile.profile(db, Filters(**{**view.__dict__, "opponent": OPPONENT}))
    assert with_opponent == profile.profile(db, view)


@pytest.mark.parametrize("name", ["all", "later-half", "stake", "opponent"])
def test_money_is_given_per_currency(db: Database, raw: Raw, middle: dt.date, name: str) -> None:
    view = _views(middle).get(name, Filters())
    names = players.players_table(db, view)["player"].to_list()
    found = players.money_by_currency(db, view, names)
    paid = _rows(raw, view).filter(pl.col("currency").is_not_null())
    sums = paid.group_by("player", "currency").agg(pl.col("money").sum())
    expected: dict[str, list[tuple[str, object]]] = {}
    for player, currency, money in sums.sort("player", "currency").iter_rows():
        expected.setdefault(player, []).append((currency, pytest.approx(money)))
    assert found == expected
    several = any(len(amounts) > 1 for amounts in found.values())
    assert several == (name != "stake")  # one stake is one currency
