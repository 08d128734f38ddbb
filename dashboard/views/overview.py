"""Overview: the hero's results, the cumulative points graph, and rates next to the population's."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count, number, percent, signed
from dashboard.queries import cumulative, summary

summaries = cached(summary.summaries)
money = cached(summary.money)
scoop_rate = cached(summary.scoop_rate)
cumulative_points = cached(cumulative.cumulative_points)

#: Rates shown against the population: key, label, whether higher is better.
RATES = (
    ("foul_rate", "Foul rate", False),
    ("scoop_rate", "Scoop rate", True),
    ("fantasyland_entry_rate", "Fantasyland entry", True),
    ("fantasyland_stay_rate", "Fantasyland stay", True),
)


def _money_cell(cell, amounts: list[tuple[str, float]]) -> None:
    if not amounts:
        cell.metric("Money", "–", border=True, help="Play money only in this view.")
        return
    currency, amount = amounts[0]
    cell.metric(f"Money ({currency})", f"{amount:+,.2f}", border=True)
    if len(amounts) > 1:
        cell.caption("also " + " · ".join(f"{a:+,.2f} {c}" for c, a in amounts[1:]))


def _headline(context: Context, mine: dict) -> None:
    cells = st.columns([1, 1, 1.3, 1.2])
    cells[0].metric("Hands", count(mine["hands"]), border=True)
    cells[1].metric("Points", signed(mine["points"]), border=True)
    low, high = mine["points_per_hand_ci_low"], mine["points_per_hand_ci_high"]
    interval = f"95%: {signed(low, 2)} … {signed(high, 2)}" if low is not None else None
    cells[2].metric(
        "Points per hand",
        signed(mine["points_per_hand"], 2),
        delta=interval,
        delta_color="off",
        delta_arrow="off",
        border=True,
        help="Mean points per hand, with its 95% interval (mean ± 1.96 standard errors).",
    )
    amounts = money(context.db, context.filters, mine["money"], mine["currencies"])
    _money_cell(cells[3], amounts)


def _rates(mine: dict, everybody: dict) -> None:
    grid = [st.columns(2), st.columns(2)]
    for index, (key, label, higher_is_better) in enumerate(RATES):
        cell = grid[index // 2][index % 2]
        ours, theirs = mine[key], everybody.get(key)
        delta = None
        if ours is not None and theirs is not None:
            delta = f"{100 * (ours - theirs):+.1f} pp vs {percent(theirs)}"
        cell.metric(
            label,
            percent(ours),
            delta=delta,
            delta_color="normal" if higher_is_better else "inverse",
            border=True,
        )


def _rates_chart(mine: dict, everybody: dict) -> None:
    rows = [
        {"rate": label, "who": who, "value": figures[key]}
        for key, label, _ in RATES
        for who, figures in (("Hero", mine), ("Population", everybody))
        if figures.get(key) is not None
    ]
    if rows:
        st.altair_chart(charts.rates_against_population(pl.DataFrame(rows)), width="stretch")


def _variants(found: dict[str, dict]) -> None:
    rows = [
        {
            "Variant": variant,
            "Hands": count(r["hands"]),
            "Points": signed(r["points"]),
            "Points / hand": signed(r["points_per_hand"], 2),
            "Foul rate": percent(r["foul_rate"]),
            "Fantasyland entry": percent(r["fantasyland_entry_rate"]),
            "In Fantasyland": percent(r["fantasyland_share"]),
            "Royalties / hand": number(r["royalties_per_hand"]),
        }
        for variant, r in sorted(found.items(), key=lambda item: -item[1]["hands"])
        if variant != summary.ALL
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
    _headline(context, mine)
    st.subheader("Cumulative points", anchor=False)
    st.altair_chart(
        charts.cumulative_points(cumulative_points(context.db, filters, mine["hands"])),
        width="stretch",
    )
    everybody = dict(summaries(context.db, filters.population()).get(summary.ALL) or {})
    mine = {**mine, "scoop_rate": scoop_rate(context.db, filters)}
    everybody["scoop_rate"] = scoop_rate(context.db, filters.population())
    st.subheader("Against the population", anchor=False)
    left, right = st.columns([1, 1])
    with left:
        _rates(mine, everybody)
    with right:
        _rates_chart(mine, everybody)
    st.subheader("By variant", anchor=False)
    _variants(found)
