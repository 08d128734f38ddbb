"""Overview: the hero's results, money per currency, cumulative points and money,
and rates next to the population's (in the hero's mix of variants), each with its n and
95% interval."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import (
    count,
    interval,
    population_interval,
    population_n,
    signed,
    value_of,
    verdict,
    with_interval,
)
from dashboard.queries import cumulative, summary
from dashboard.queries.filters import Filters
from dashboard.views.profile_table import player_profile
from pipeline.load.metrics.definitions import BY_NAME
from pipeline.report.audit import Audit
from pipeline.report.format import figure, money, money_interval
from pipeline.report.population import Pooled

summaries = cached(summary.summaries)
money_rows = cached(summary.money)
cumulative_points = cached(cumulative.cumulative_points)
cumulative_money = cached(cumulative.cumulative_money)

#: Rates shown against the population.
RATES = ("foul_rate", "scoop_rate", "fantasyland_entry_rate", "fantasyland_stay_rate")
X_AXIS = {"By hands": False, "By date": True}


def _headline(mine: dict) -> None:
    cells = st.columns(3)
    cells[0].metric("Hands", count(mine["hands"]), border=True)
    cells[1].metric("Points", signed(mine["points"]), border=True)
    low, high = mine["points_per_hand_low"], mine["points_per_hand_high"]
    cells[2].metric(
        "Points per hand",
        signed(mine["points_per_hand"], 2),
        delta=f"95%: {signed(low, 2)} … {signed(high, 2)}" if low is not None else None,
        delta_color="off",
        delta_arrow="off",
        border=True,
        help="Mean points per hand over the hands counted, with its 95% t interval.",
    )


def _money(rows: list[dict], hands: int) -> None:
    st.subheader("Money", anchor=False)
    if not rows:
        ui.text("Play money only in this view.")
        return
    table = [
        {
            "Currency": r["currency"],
            "Hands": count(r["hands"]),
            "Points": signed(r["points"]),
            "Money": money(r["money"], r["currency"]),
            "Money per hand": money(r["money_per_hand"], r["currency"]),
            "95% interval": money_interval(
                r["money_per_hand_low"], r["money_per_hand_high"], r["currency"]
            ),
        }
        for r in rows
    ]
    st.table(pl.DataFrame(table))
    ui.text(money_note(hands, rows))


def money_note(hands: int, rows: list[dict]) -> str:
    """What the money table shows of the view's ``hands``: the hands of its currency
    ``rows``, and how many more were played for play money.

    >>> money_note(2143, [{"hands": 1500}, {"hands": 403}])
    'One row per currency: amounts in different currencies are never added up. The other 240 hands were played for play money.'
    >>> money_note(10, [{"hands": 10}]).endswith("added up.")
    True
    """
    play = hands - sum(r["hands"] for r in rows)
    also = f" The other {count(play)} hands were played for play money." if play else ""
    return "One row per currency: amounts in different currencies are never added up." + also


def _charts(context: Context, hands: int) -> None:
    filters = context.filters
    left, right = st.columns([4, 1])
    left.subheader("Cumulative points and money", anchor=False)
    choice = right.radio(
        "X axis", list(X_AXIS), horizontal=True, key="x_axis", label_visibility="collapsed"
    )
    by_date = X_AXIS[choice]
    points, cash = st.columns(2)
    with points:
        st.altair_chart(
            charts.cumulative(cumulative_points(context.db, filters, hands), by_date),
            width="stretch",
        )
    with cash:
        found = cumulative_money(context.db, filters, hands)
        if found.is_empty():
            ui.nothing("No hand played for money in this view.")
        else:
            chart = charts.cumulative(found, by_date, "Cumulative money", "+,.2f")
            st.altair_chart(chart, width="stretch")


def _rates(
    mine: dict, everybody: dict[str, Pooled | None], filters: Filters, sample: Audit | None
) -> None:
    rows = [
        {
            "Rate": BY_NAME[key].label,
            "Hero": figure(key, mine[key]),
            "95% interval": interval(key, mine[f"{key}_low"], mine[f"{key}_high"]),
            "n": count(mine[f"{key}_n"]),
            "Population": figure(key, value_of(everybody.get(key))),
            "Population 95% interval": population_interval(key, everybody.get(key)),
            "Population n": population_n(everybody.get(key)),
            "Verdict": verdict(BY_NAME[key], mine, value_of(everybody.get(key)), sample),
        }
        for key in RATES
        if mine[key] is not None
    ]
    st.table(pl.DataFrame(rows))
    ui.text(
        f"Population: {ui.population(filters)}. Better or worse only when the hero's 95%"
        " interval excludes the population's figure, and the sample allows it as on the Coach"
        " audit page (the hero's hands and enough other players: docs/metrics.md)."
    )


def _rates_chart(mine: dict, everybody: dict[str, Pooled | None]) -> None:
    theirs = {key: value_of(everybody.get(key)) for key in RATES}
    rows = [
        {"rate": BY_NAME[key].label, "who": who, "value": figures[key]}
        for key in RATES
        for who, figures in (("Hero", mine), ("Population", theirs))
        if figures.get(key) is not None
    ]
    if rows:
        st.altair_chart(charts.rates_against_population(pl.DataFrame(rows)), width="stretch")


#: The figures compared across variants, each with its 95% interval and n.
VARIANT_FIGURES = (
    "points_per_hand",
    "foul_rate",
    "fantasyland_entry_rate",
    "fantasyland_share",
    "royalties_per_hand",
)


def _variants(found: dict[str, dict]) -> None:
    """One column per variant (most hands first), one row per figure."""
    variants = sorted((v for v in found if v != summary.ALL), key=lambda v: -found[v]["hands"])
    rows = [
        {"Figure": "Hands", **{v: count(found[v]["hands"]) for v in variants}},
        {"Figure": "Points", **{v: signed(found[v]["points"]) for v in variants}},
        *(
            {"Figure": BY_NAME[key].label, **{v: with_interval(key, found[v]) for v in variants}}
            for key in VARIANT_FIGURES
        ),
    ]
    st.table(pl.DataFrame(rows))


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Overview", filters)
    if not filters.hero:
        ui.nothing("Pick a hero in the sidebar to see their results.")
        return
    found = summaries(context.db, filters)
    mine = found.get(summary.ALL)
    if mine is None:
        ui.nothing("The hero has no hands in this view: widen the filters in the sidebar.")
        return
    _headline(mine)
    _money(money_rows(context.db, filters), mine["hands"])
    _charts(context, mine["hands"])
    everybody = summary.against(found, summaries(context.db, filters.population()))
    st.subheader("Against the population", anchor=False)
    left, right = st.columns([1.3, 1])
    with left:
        _rates(mine, everybody, filters, player_profile(context.db, filters))
    with right:
        _rates_chart(mine, everybody)
    st.subheader("By variant", anchor=False)
    _variants(found)
