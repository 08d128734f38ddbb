"""Style: tight against aggressive, final bottom rows, first-street setups, the hero against everybody."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count
from dashboard.queries import profile, style
from dashboard.views.profile_table import describe, opponent_note, profile_table
from pipeline.report.format import figure

style_players = cached(style.players)
bottoms = cached(style.bottom_categories)
first_streets = cached(style.first_street)
player_profile = cached(profile.profile)

FIRST_STREET_LABELS = {
    "pair_or_better": "pair or better",
    "flush_draw": "flush draw",
    "straight_draw": "straight draw",
    "high_cards": "high cards",
}
STYLE_METRICS = (
    "style_foul_rate",
    "bottom_aggression",
    "foul_rate_drawing",
    "top_qq_plus_by_street2_share",
)


def _scatter(context: Context) -> None:
    found = style_players(context.db, context.filters)
    everybody = found.filter(pl.col("player").is_null())
    frame = found.filter(pl.col("player").is_not_null())
    st.subheader("Tight or aggressive?", anchor=False)
    if frame.is_empty():
        ui.nothing(
            f"No player has {style.MIN_STYLE_HANDS} hands outside Fantasyland and without"
            " timeouts in this view: widen the filters in the sidebar."
        )
        return
    x_split = everybody["foul_rate"][0] or 0.0
    y_split = everybody["bottom_aggression"][0] or 0.0
    chart = charts.style_scatter(frame, context.filters.hero, x_split, y_split)
    st.altair_chart(chart, width="stretch")
    ui.text(
        f"{frame.height} players with at least {style.MIN_STYLE_HANDS} hands outside Fantasyland"
        " and without timeouts; a dot's size is the player's number of such hands. Dashed"
        f" lines: the population's pooled foul rate ({figure('foul_rate', x_split)}) and"
        f" bottom aggression ({figure('bottom_aggression', y_split)}: share of first streets"
        " that leave the bottom without a pair, to be made later). Hover a dot for its"
        " player, n and 95% intervals."
    )


def _shares(mine: pl.DataFrame, everybody: pl.DataFrame, hero: str, labels: dict) -> pl.DataFrame:
    """Both frames of shares in one, ``who`` naming each with its n."""
    frames = []
    for who, shares in ((hero, mine), ("Population (pooled)", everybody)):
        if shares.is_empty():
            continue
        named = f"{who} (n={count(shares['n'][0])})"
        frames.append(
            shares.with_columns(
                who=pl.lit(named), category=pl.col("category").replace(labels)
            ).select("who", "category", "share", "low", "high", "n", "rank")
        )
    return pl.concat(frames) if frames else pl.DataFrame()


def _bars(title: str, frame: pl.DataFrame, order: list[str], axis: str, scheme: str) -> None:
    st.subheader(title, anchor=False)
    if frame.is_empty():
        ui.nothing("No such hands in this view.")
        return
    st.altair_chart(charts.stacked_shares(frame, order, axis, scheme), width="stretch")


def _rows(context: Context) -> None:
    filters = context.filters
    hero = filters.hero or "Everybody"
    everybody = filters.population()
    left, right = st.columns(2)
    with left:
        labels = {c: c for c in style.BOTTOM_CATEGORIES}
        frame = _shares(bottoms(context.db, filters), bottoms(context.db, everybody), hero, labels)
        _bars("Final bottom row", frame, list(labels.values()), "Share of live hands", "viridis")
    with right:
        frame = _shares(
            first_streets(context.db, filters),
            first_streets(context.db, everybody),
            hero,
            FIRST_STREET_LABELS,
        )
        order = list(FIRST_STREET_LABELS.values())
        _bars("First-street bottom setup", frame, order, "Share of first streets", "oranges")


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Style", filters)
    _scatter(context)
    _rows(context)
    if filters.hero:
        st.subheader("Against the population", anchor=False)
        result = player_profile(context.db, filters)
        if result is None:
            ui.nothing("The hero has no hands in this view.")
            return
        if note := opponent_note(filters):
            st.info(note, icon=":material/info:")
        profile_table([f for f in result.findings if f.metric in STYLE_METRICS])
        ui.text(result.sample_note())
        ui.text(describe(result, filters))
