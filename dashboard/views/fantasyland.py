"""Fantasyland: entry and stay rates, cards dealt, points per Fantasyland hand against
normal hands; every rate and mean with its n and 95% interval."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, columns, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count, interval, population_interval, population_n, value_of, verdict
from dashboard.queries import fantasyland, summary
from dashboard.views.profile_table import player_profile
from pipeline.report.audit import Audit
from pipeline.report.format import figure
from pipeline.report.population import Pooled

by_ruleset = cached(fantasyland.by_ruleset)
cards_dealt = cached(fantasyland.cards_dealt)
summaries = cached(summary.summaries)

RATE_COLUMNS = [
    f"{m.name}{end}" for m in fantasyland.METRICS if m.is_rate for end in ("", "_low", "_high")
]
TABLE = {
    "variant": "Variant",
    "ruleset": "Ruleset",
    "hands": columns.count("Hands"),
    "fantasyland_entry_rate": columns.rate("Entry rate"),
    "fantasyland_entry_rate_low": columns.rate("Entry 95% from"),
    "fantasyland_entry_rate_high": columns.rate("Entry 95% to"),
    "fantasyland_entry_rate_n": columns.count("Entry n"),
    "fantasyland_stay_rate": columns.rate("Stay rate"),
    "fantasyland_stay_rate_low": columns.rate("Stay 95% from"),
    "fantasyland_stay_rate_high": columns.rate("Stay 95% to"),
    "fantasyland_hands": columns.count("FL hands"),
    "fantasyland_share": columns.rate("In FL"),
    "fantasyland_share_low": columns.rate("In FL 95% from"),
    "fantasyland_share_high": columns.rate("In FL 95% to"),
    "cards_per_fantasyland_hand": columns.number("Cards dealt"),
    "points_per_fantasyland_hand": columns.points("Pts / FL hand"),
    "points_per_fantasyland_hand_low": columns.points("FL 95% from"),
    "points_per_fantasyland_hand_high": columns.points("FL 95% to"),
    "points_per_normal_hand": columns.points("Pts / normal hand"),
    "points_per_normal_hand_low": columns.points("Normal 95% from"),
    "points_per_normal_hand_high": columns.points("Normal 95% to"),
}


#: The table's rates (shown from percentages).
RATE_COLUMNS = [
    column
    for column in TABLE
    if column.removesuffix("_low").removesuffix("_high")
    in {m.name for m in fantasyland.METRICS if m.is_rate}
]


#: Short labels of the headline's cards.
SHORT = {
    "fantasyland_entry_rate": "Entry rate",
    "fantasyland_stay_rate": "Stay rate",
    "fantasyland_share": "Hands in Fantasyland",
    "points_per_fantasyland_hand": "Points / FL hand",
    "points_per_normal_hand": "Points / normal hand",
}


def _headline(mine: dict, everybody: dict[str, Pooled | None] | None, sample: Audit | None) -> None:
    """The view's figures with their n and interval; against the population's (and a
    verdict) only for a hero: ``everybody`` is None when the view is everybody already."""
    cells = st.columns(len(fantasyland.METRICS))
    for cell, metric in zip(cells, fantasyland.METRICS, strict=True):
        key = metric.name
        own = f"n {count(mine[f'{key}_n'])} · {interval(key, mine[f'{key}_low'], mine[f'{key}_high'])}"
        theirs = None if everybody is None else everybody.get(key)
        cell.metric(
            SHORT[key],
            figure(key, mine[key]),
            delta=None if everybody is None else f"population {figure(key, value_of(theirs))}",
            delta_color="off",
            delta_arrow="off",
            border=True,
            help=own.replace(" · ", "; "),
        )
        if everybody is None:
            cell.caption(own)
            continue
        cell.caption(
            f"{own} · {verdict(metric, mine, value_of(theirs), sample)} · population "
            f"{population_interval(key, theirs)}, n {population_n(theirs)}"
        )


def _points_chart(mine: pl.DataFrame) -> None:
    rows = [
        {
            "group": f"{r['variant']} · {r['ruleset']}",
            "hand": hand,
            "n": r[column + "_n"],
            "value": r[column],
            "low": r[column + "_low"],
            "high": r[column + "_high"],
        }
        for r in mine.iter_rows(named=True)
        for hand, column in (
            ("Fantasyland hands", "points_per_fantasyland_hand"),
            ("normal hands", "points_per_normal_hand"),
        )
        if r[column] is not None
    ]
    if rows:
        chart = charts.mean_bars(pl.DataFrame(rows), "group", "hand", "Points per hand")
        st.altair_chart(chart, width="stretch")
        ui.text("Bars: mean points per hand; lines: 95% intervals (none from a single hand).")


def _cards_chart(frame: pl.DataFrame) -> None:
    if frame.is_empty():
        ui.nothing("No Fantasyland hand in this view.")
        return
    data = frame.with_columns(cards=pl.col("cards").cast(pl.String)).rename({"hands": "value"})
    order = [str(c) for c in fantasyland.CARDS]
    chart = charts.grouped_bars(
        data, "cards", "Cards dealt in Fantasyland", "variant", ",d", "Fantasyland hands", order
    )
    st.altair_chart(chart, width="stretch")


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Fantasyland", filters)
    mine = by_ruleset(context.db, filters)
    found = summaries(context.db, filters).get(summary.ALL)
    if mine.is_empty() or found is None:
        ui.nothing("No hands in this view: widen the filters in the sidebar.")
        return
    if filters.hero:
        everybody = summary.against(
            summaries(context.db, filters), summaries(context.db, filters.population())
        )
        _headline(found, everybody, player_profile(context.db, filters))
        ui.text(
            f"Population: {ui.population(filters)}. A difference is named only when the 95%"
            " interval excludes the population's figure and the sample allows it as on the"
            " Coach audit page; FL: Fantasyland."
        )
    else:
        _headline(found, None, None)
        ui.text(
            "Everybody's hands in the view, pooled: they are the population, so nothing is"
            " set against it. Pick a hero in the sidebar to compare a player with everybody;"
            " FL: Fantasyland."
        )
    left, right = st.columns(2)
    with left:
        st.subheader("Points per hand, in and out", anchor=False)
        _points_chart(mine)
    with right:
        st.subheader("Cards dealt", anchor=False)
        _cards_chart(cards_dealt(context.db, filters))
    st.subheader("By variant and ruleset", anchor=False)
    ui.text(
        f"{count(int(mine['hands'].sum()))} hands. Entry rate: entries into Fantasyland / hands"
        " neither fouled nor played in Fantasyland (its n); stay rate: stays / FL hands; in FL:"
        " FL hands / hands. Intervals: 95% (Wilson for rates, t for points per hand, whose n"
        " are the FL hands and the others)."
    )
    shown = mine.select(list(TABLE)).with_columns(pl.col(RATE_COLUMNS) * 100)
    ui.dataframe(shown, hide_index=True, column_config=TABLE, width="stretch")
