"""Style: tight against aggressive, final bottom rows, first-street setups, the hero against everybody."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.queries import profile, style
from dashboard.views.profile_table import population, profile_table

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


def _split(frame: pl.DataFrame, column: str) -> float:
    """The population's rate: each player's rate weighted by their hands."""
    weights = frame["style_hands"]
    return float((frame[column].fill_null(0) * weights).sum() / max(weights.sum(), 1))


def _scatter(context: Context) -> None:
    frame = style_players(context.db, context.filters)
    st.subheader("Tight or aggressive?", anchor=False)
    if frame.is_empty():
        ui.nothing("No player has enough hands in this view for a style.")
        return
    x_split, y_split = _split(frame, "foul_rate"), _split(frame, "bottom_aggression")
    chart = charts.style_scatter(frame, context.filters.hero, x_split, y_split)
    st.altair_chart(chart, width="stretch")
    st.caption(
        f"{frame.height} players with at least {style.MIN_STYLE_HANDS} hands outside Fantasyland"
        " and without timeouts. Dashed lines: the population's foul rate and bottom aggression"
        " (share of first streets that leave the bottom without a pair, to be made later)."
    )


def _shares(labels: dict[str, str], mine: dict, everybody: dict, hero: str) -> pl.DataFrame:
    rows = []
    for who, shares in ((hero, mine), ("Population", everybody)):
        for rank, (key, label) in enumerate(labels.items()):
            if shares.get(key) is not None:
                rows.append({"who": who, "category": label, "share": shares[key], "rank": rank})
    return pl.DataFrame(
        rows,
        schema={"who": pl.String, "category": pl.String, "share": pl.Float64, "rank": pl.Int64},
    )


def _rows(context: Context) -> None:
    filters = context.filters
    hero = filters.hero or "Everybody"
    left, right = st.columns(2)
    with left:
        st.subheader("Final bottom row", anchor=False)
        labels = {c: c for c in style.BOTTOM_CATEGORIES}
        frame = _shares(
            labels, bottoms(context.db, filters), bottoms(context.db, filters.population()), hero
        )
        st.altair_chart(
            charts.stacked_shares(frame, list(labels.values()), "Share of live hands"),
            width="stretch",
        )
    with right:
        st.subheader("First-street bottom setup", anchor=False)
        frame = _shares(
            FIRST_STREET_LABELS,
            first_streets(context.db, filters),
            first_streets(context.db, filters.population()),
            hero,
        )
        order = list(FIRST_STREET_LABELS.values())
        st.altair_chart(
            charts.stacked_shares(frame, order, "Share of first streets"), width="stretch"
        )


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Style", filters)
    _scatter(context)
    _rows(context)
    if filters.hero:
        st.subheader("Against the population", anchor=False)
        found = player_profile(context.db, filters)
        profile_table(found.filter(pl.col("metric").is_in(STYLE_METRICS)))
        ui.text(
            f"Percentiles among players with at least {profile.MIN_HANDS} hands:"
            f" {population(filters)}."
        )
