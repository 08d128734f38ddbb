"""The report's charts, as Vega-Lite specifications built with Altair.

Data is embedded in each specification (small: the cumulative series is
bucketed to at most ``data.MAX_POINTS`` points), so a page needs no files
and no network. Altair is imported here only, when a report is written.
"""

from __future__ import annotations

import altair as alt
import polars as pl

WIDTH = 640


def _rows(frame: pl.DataFrame) -> list[dict]:
    """Rows for ``alt.Data`` (times as ISO text, which Vega-Lite parses)."""
    return frame.with_columns(pl.col(pl.Datetime).dt.to_string("%Y-%m-%dT%H:%M:%SZ")).to_dicts()


def cumulative_points(frame: pl.DataFrame) -> dict:
    """Cumulative points over the player's hands."""
    data = alt.Data(values=_rows(frame))
    chart = (
        alt.Chart(data, title="Cumulative points")
        .mark_line()
        .encode(
            x=alt.X("hand:Q", title="Hands played"),
            y=alt.Y("points:Q", title="Points (recomputed)"),
            tooltip=[
                alt.Tooltip("hand:Q", title="Hand", format=","),
                alt.Tooltip("played_at:T", title="Played"),
                alt.Tooltip("points:Q", title="Points", format="+,.0f"),
            ],
        )
        .properties(width=WIDTH, height=260)
    )
    return chart.to_dict()


def versus_population(frame: pl.DataFrame, title: str) -> dict:
    """The player's figures against the population's pooled ones: dots, each with its 95%
    interval as a whisker and its n (``page.versus``'s columns)."""
    stats = ("n", "low", "high")
    player = frame.select("figure", "label", "n", "low", "high", value="player")
    population = frame.select(
        "figure",
        "label",
        *(pl.col(f"population_{s}").alias(s) for s in stats),
        value="population",
    )
    long = pl.concat(
        [
            player.with_columns(who=pl.lit("player")),
            population.with_columns(who=pl.lit("population")),
        ]
    ).drop_nulls("value")
    data = alt.Data(values=_rows(long))
    base = alt.Chart(data).encode(
        y=alt.Y("label:N", title=None, sort=None),
        x=alt.X("value:Q", title="Share", axis=alt.Axis(format="%")),
        color=alt.Color("who:N", title=None, scale=alt.Scale(domain=["player", "population"])),
        tooltip=[
            alt.Tooltip("label:N", title="Figure"),
            alt.Tooltip("who:N", title="Who"),
            alt.Tooltip("value:Q", title="Value", format=".1%"),
            alt.Tooltip("low:Q", title="95% from", format=".1%"),
            alt.Tooltip("high:Q", title="95% to", format=".1%"),
            alt.Tooltip("n:Q", title="n", format=","),
        ],
    )
    whiskers = base.mark_rule().encode(x="low:Q", x2="high:Q").transform_filter("datum.low != null")
    dots = base.mark_point(filled=True, size=90)
    return alt.layer(whiskers, dots, title=title).properties(width=WIDTH - 180).to_dict()


def fouls_by_setup(frame: pl.DataFrame) -> dict:
    """Foul rate by how the bottom was set up on street 1."""
    data = alt.Data(values=_rows(frame))
    chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("foul_rate:Q", title="Foul rate", axis=alt.Axis(format="%")),
            y=alt.Y("setup:N", title=None),
            tooltip=[
                alt.Tooltip("setup:N", title="Street-1 bottom"),
                alt.Tooltip("hands:Q", title="Hands (n)", format=","),
                alt.Tooltip("foul_rate:Q", title="Foul rate", format=".1%"),
                alt.Tooltip("low:Q", title="95% from", format=".1%"),
                alt.Tooltip("high:Q", title="95% to", format=".1%"),
            ],
        )
    )
    whiskers = alt.Chart(data).mark_rule(color="#333").encode(x="low:Q", x2="high:Q", y="setup:N")
    layered = alt.layer(chart, whiskers, title="Foul rate by first-street bottom")
    return layered.properties(width=WIDTH - 180).to_dict()
