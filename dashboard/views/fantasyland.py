"""Fantasyland: entry and stay rates, cards dealt, points per Fantasyland hand against normal hands."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, columns, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count, percent, signed
from dashboard.queries import fantasyland

by_ruleset = cached(fantasyland.by_ruleset)
cards_dealt = cached(fantasyland.cards_dealt)

RATE_COLUMNS = ["entry_rate", "stay_rate", "fantasyland_share"]
TABLE = {
    "variant": "Variant",
    "ruleset": "Ruleset",
    "hands": columns.count("Hands"),
    "entry_rate": columns.rate("Entry rate"),
    "stay_rate": columns.rate("Stay rate"),
    "fantasyland_hands": columns.count("FL hands"),
    "fantasyland_share": columns.rate("In FL"),
    "cards_per_fantasyland_hand": columns.number("Cards dealt"),
    "points_per_fantasyland_hand": columns.points("Pts / FL hand"),
    "points_per_normal_hand": columns.points("Pts / normal hand"),
}


def _headline(mine: dict, everybody: dict) -> None:
    cells = st.columns(5)
    labels = (
        ("entry_rate", "Entry rate", percent),
        ("stay_rate", "Stay rate", percent),
        ("fantasyland_share", "Hands in Fantasyland", percent),
        ("points_per_fantasyland_hand", "Points / FL hand", lambda v: signed(v, 2)),
        ("points_per_normal_hand", "Points / normal hand", lambda v: signed(v, 2)),
    )
    for cell, (key, label, shown) in zip(cells, labels, strict=True):
        cell.metric(
            label,
            shown(mine[key]),
            delta=f"population {shown(everybody[key])}",
            delta_color="off",
            delta_arrow="off",
            border=True,
        )


def _points_chart(mine: pl.DataFrame) -> None:
    rows = [
        {"group": f"{r['variant']} · {r['ruleset']}", "hand": hand, "value": r[column]}
        for r in mine.iter_rows(named=True)
        for hand, column in (
            ("Fantasyland hand", "points_per_fantasyland_hand"),
            ("normal hand", "points_per_normal_hand"),
        )
        if r[column] is not None
    ]
    if rows:
        chart = charts.horizontal_bars(pl.DataFrame(rows), "group", "hand", "+.2f")
        st.altair_chart(chart, width="stretch")


def _cards_chart(frame: pl.DataFrame) -> None:
    if frame.is_empty():
        ui.nothing("No Fantasyland hand in this view.")
        return
    data = frame.with_columns(cards=pl.col("cards").cast(pl.String) + " cards").rename(
        {"hands": "value"}
    )
    chart = charts.grouped_bars(data, "cards", "Cards dealt in Fantasyland", "variant", ",d")
    st.altair_chart(chart, width="stretch")


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Fantasyland", filters)
    mine = by_ruleset(context.db, filters)
    if mine.is_empty():
        ui.nothing("No hands in this view: widen the filters in the sidebar.")
        return
    everybody = by_ruleset(context.db, filters.population())
    _headline(fantasyland.totals(mine), fantasyland.totals(everybody))
    left, right = st.columns(2)
    with left:
        st.subheader("Points per hand, in and out", anchor=False)
        _points_chart(mine)
    with right:
        st.subheader("Cards dealt", anchor=False)
        _cards_chart(cards_dealt(context.db, filters))
    st.subheader("By variant and ruleset", anchor=False)
    st.caption(
        f"{count(int(mine['hands'].sum()))} hands. Entry rate: entries / live hands not played in"
        " Fantasyland; stay rate: stays / Fantasyland hands (docs/rules.md, Fantasyland)."
    )
    shown = mine.select(list(TABLE)).with_columns(pl.col(RATE_COLUMNS) * 100)
    st.dataframe(shown, hide_index=True, column_config=TABLE, width="stretch")
