"""Breakdowns: the hero's results by stakes, ruleset, month or day, by table session,
and against each opponent, each with n and 95% intervals."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboard import columns, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.queries import breakdowns

by = cached(breakdowns.by)
sessions = cached(breakdowns.sessions)
opponents = cached(breakdowns.opponents)

POINTS = {
    "hands": columns.count("Hands (n)"),
    "points": columns.points("Points", 0),
    "points_per_hand": columns.points("Points / hand"),
    "points_per_hand_low": columns.points("95% from"),
    "points_per_hand_high": columns.points("95% to"),
}
GROUPED = {
    "group": "Group",
    **POINTS,
    "foul_rate": columns.rate("Foul rate"),
    "foul_rate_low": columns.rate("95% from"),
    "foul_rate_high": columns.rate("95% to"),
    "money_text": "Money",
}
SESSIONS = {
    "started_at": columns.PLAYED,
    "table_name": "Table",
    "minutes": columns.count("Minutes"),
    **POINTS,
    "money_text": "Money",
}
OPPONENTS = {"opponent": "Opponent", **POINTS}


def _money(frame: pl.DataFrame) -> pl.DataFrame:
    """``money`` with its currency as text; "—" for play money or mixed currencies."""
    texts = [
        f"{m:+,.2f} {c}" if m is not None and c else "—"
        for m, c in zip(frame["money"], frame["currency"], strict=True)
    ]
    return frame.with_columns(money_text=pl.Series(texts, dtype=pl.String))


def _grouped(context: Context, key: str) -> None:
    frame = _money(by(context.db, context.filters, key))
    shown = frame.with_columns(pl.col("foul_rate", "foul_rate_low", "foul_rate_high") * 100)
    ui.dataframe(
        shown.select(list(GROUPED)), hide_index=True, column_config=GROUPED, width="stretch"
    )
    ui.text(
        f"{frame.height} groups. Money is given only where a group plays in one currency:"
        " amounts in different currencies are never added up."
    )


def _session_chart(frame: pl.DataFrame) -> alt.Chart:
    """Points per session over time, coloured by sign."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("started_at:T", title="Session start (UTC)"),
            y=alt.Y("points:Q", title="Points in the session", axis=alt.Axis(format="+,.0f")),
            color=alt.condition(alt.datum.points >= 0, alt.value("#1f6f5c"), alt.value("#c8553d")),
            tooltip=[
                alt.Tooltip("started_at:T", title="Start", format="%Y-%m-%d %H:%M"),
                alt.Tooltip("table_name:N", title="Table"),
                alt.Tooltip("hands:Q", title="Hands", format=","),
                alt.Tooltip("points:Q", title="Points", format="+,.0f"),
                alt.Tooltip("minutes:Q", title="Minutes"),
            ],
        )
        .properties(height=240)
    )


def _sessions(context: Context) -> None:
    frame = _money(sessions(context.db, context.filters))
    if frame.is_empty():
        ui.nothing("No hands in this view.")
        return
    st.altair_chart(_session_chart(frame), width="stretch")
    ui.dataframe(
        frame.select(list(SESSIONS)), hide_index=True, column_config=SESSIONS, width="stretch"
    )
    ui.text(
        f"The latest {frame.height} sessions: a session is a run of hands at one table with no"
        f" pause over {breakdowns.SESSION_GAP_MINUTES} minutes."
    )


def _opponents(context: Context) -> None:
    frame = opponents(context.db, context.filters)
    ui.dataframe(
        frame.select(list(OPPONENTS)), hide_index=True, column_config=OPPONENTS, width="stretch"
    )
    ui.text(
        "The hero's own settlements with each opponent (each pair of players at a table"
        " settles separately), after table-stakes caps; intervals are 95% (t)."
    )


def render(context: Context) -> None:
    ui.title("Breakdowns", context.filters)
    if not context.filters.hero:
        ui.nothing("Pick a hero in the sidebar to break their results down.")
        return
    choice = st.radio("Break down by", breakdowns.CHOICES, horizontal=True, key="breakdown")
    if choice == "Session":
        _sessions(context)
    elif choice == "Opponent":
        _opponents(context)
    else:
        _grouped(context, choice)
