"""The dashboard's filters: their URL form, and the parameterised SQL they make."""

from __future__ import annotations

import datetime as dt
from urllib.parse import parse_qsl, urlsplit

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from dashboard.links import player_links, player_url
from dashboard.queries.filters import PARAMS, Filters, hand_scope, scope, stakes_key

names = st.text(min_size=1, max_size=30).filter(lambda s: s.strip() == s and s)
optional = st.none() | names
days = st.none() | st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 1, 1))
stakes = (
    st.none()
    | st.just("play")
    | st.builds(
        stakes_key,
        st.floats(0.01, 1000).map(lambda v: round(v, 2)),
        st.sampled_from(["USD", "EUR"]),
    )
)
filters = st.builds(
    Filters,
    hero=optional,
    variant=optional,
    ruleset=optional,
    date_from=days,
    date_to=days,
    stakes=stakes,
    opponent=optional,
)


@given(filters)
def test_filters_survive_the_url(view: Filters) -> None:
    params = view.to_params()
    assert set(params) <= set(PARAMS.values())
    assert Filters.from_params(params) == view


@given(filters)
def test_every_value_is_a_parameter_never_sql_text(view: Filters) -> None:
    for where in (scope(view), scope(view.population()), hand_scope(view)):
        assert where.sql.count("?") == len(where.params)
        for name in (view.hero, view.opponent, view.variant, view.ruleset):
            if name and len(name) > 3:
                assert name not in where.sql


@given(filters, names)
def test_a_player_link_opens_the_overview_of_that_player_in_the_same_view(
    view: Filters, player: str
) -> None:
    url = urlsplit(player_url(player, view))
    assert url.path == "./"
    assert Filters.from_params(dict(parse_qsl(url.query))) == view.with_hero(player)


def test_player_links_add_one_url_per_row() -> None:
    frame = pl.DataFrame({"player": ["Anna", "a&b=c"], "hands": [3, 1]})
    linked = player_links(frame, Filters(hero="Chen", variant="classic", opponent="Bo"))
    assert linked["overview"].to_list() == [
        "./?hero=Anna&variant=classic&opponent=Bo",
        "./?hero=a%26b%3Dc&variant=classic&opponent=Bo",
    ]
    assert linked.drop("overview").equals(frame)


def test_unreadable_values_are_dropped() -> None:
    view = Filters.from_params({"from": "yesterday", "to": "2025-13-40", "hero": ""})
    assert view == Filters()


def test_summarised_views_are_player_and_variant_only() -> None:
    assert Filters(hero="Anna", variant="classic").summarised
    assert not Filters(hero="Anna", stakes="play").summarised
    assert not Filters(date_to=dt.date(2025, 1, 1)).summarised
    assert Filters(variant="turbo").variant_key == "turbo"
    assert Filters().variant_key == "all"


def test_population_drops_hero_and_opponent() -> None:
    view = Filters(hero="Anna", opponent="Boris", variant="pineapple")
    assert view.population() == Filters(variant="pineapple")


def test_dates_are_whole_utc_days() -> None:
    where = scope(Filters(date_from=dt.date(2025, 3, 1), date_to=dt.date(2025, 3, 31)))
    assert where.params == (dt.date(2025, 3, 1), dt.date(2025, 4, 1))
    assert where.sql == "p.played_at >= ? AND p.played_at < ?"
