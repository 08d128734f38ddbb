"""The dashboard's Altair charts, sized for a laptop screen.

Every chart takes small, already aggregated frames (the query layer's
results): nothing here touches the database.
"""

from __future__ import annotations

import altair as alt
import polars as pl

HERO = "#1f6f5c"
POPULATION = "#a3adb8"
LEAK = "#c8553d"
GOOD = "#2a9d8f"
HEIGHT = 320


def cumulative_points(frame: pl.DataFrame) -> alt.Chart:
    """Lines of cumulative points against hands played: all variants, and each variant."""
    width = alt.condition(alt.datum.series == "all variants", alt.value(3), alt.value(1.6))
    return (
        alt.Chart(frame)
        .mark_line(interpolate="linear")
        .encode(
            x=alt.X("hands:Q", title="Hands played"),
            y=alt.Y("points:Q", title="Cumulative points"),
            color=alt.Color(
                "series:N",
                title=None,
                scale=alt.Scale(scheme="tableau10"),
                legend=alt.Legend(orient="top"),
            ),
            strokeWidth=width,
            tooltip=[
                alt.Tooltip("series:N", title="Series"),
                alt.Tooltip("hands:Q", title="Hands", format=","),
                alt.Tooltip("points:Q", title="Points", format="+,.0f"),
                alt.Tooltip("until:T", title="Until", format="%Y-%m-%d %H:%M"),
            ],
        )
        .properties(height=HEIGHT)
    )


def rates_against_population(frame: pl.DataFrame) -> alt.Chart:
    """Grouped bars: each rate (``rate``) for ``who`` (hero, population), ``value`` 0..1."""
    return (
        alt.Chart(frame)
        .mark_bar(cornerRadiusEnd=3)
        .encode(
            y=alt.Y("rate:N", title=None, sort=None),
            yOffset=alt.YOffset("who:N", sort=None),
            x=alt.X("value:Q", title=None, axis=alt.Axis(format="%")),
            color=alt.Color(
                "who:N",
                title=None,
                sort=None,
                scale=alt.Scale(range=[HERO, POPULATION]),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("who:N", title="Who"),
                alt.Tooltip("rate:N", title="Rate"),
                alt.Tooltip("value:Q", title="Value", format=".1%"),
            ],
        )
        .properties(height=HEIGHT - 60)
    )


QUADRANTS = (
    ("Tight & disciplined", "left", "bottom"),
    ("Aggressive & disciplined", "left", "top"),
    ("Aggressive & reckless", "right", "top"),
    ("Tight & error-prone", "right", "bottom"),
)


def _domain(values: pl.Series, split: float) -> list[float]:
    """An axis range around the values and the split line, padded, within 0..1."""
    low = min(float(values.min() or 0), split)
    high = max(float(values.max() or 0), split)
    pad = max((high - low) * 0.08, 0.01)
    return [max(low - pad, 0.0), min(high + pad, 1.0)]


def style_scatter(
    frame: pl.DataFrame, hero: str | None, x_split: float, y_split: float
) -> alt.Chart:
    """Players by foul rate (x) and bottom aggression (y), sized by hands, quadrants named
    around the population's rates (``x_split``, ``y_split``)."""
    data = frame.with_columns(is_hero=pl.col("player") == (hero or ""))
    x_domain = _domain(data["foul_rate"], x_split)
    y_domain = _domain(data["bottom_aggression"], y_split)
    x_scale = alt.Scale(domain=x_domain, nice=False, zero=False)
    y_scale = alt.Scale(domain=y_domain, nice=False, zero=False)
    points = (
        alt.Chart(data)
        .mark_circle(opacity=0.6, stroke="white", strokeWidth=0.6)
        .encode(
            x=alt.X(
                "foul_rate:Q",
                title="Foul rate",
                axis=alt.Axis(format="%", tickCount=8),
                scale=x_scale,
            ),
            y=alt.Y(
                "bottom_aggression:Q",
                title="Bottom aggression (unmade street-1 bottom)",
                axis=alt.Axis(format="%", tickCount=8),
                scale=y_scale,
            ),
            size=alt.Size(
                "style_hands:Q", title="Hands", scale=alt.Scale(range=[25, 700]), legend=None
            ),
            color=alt.condition(alt.datum.is_hero, alt.value(LEAK), alt.value(HERO)),
            opacity=alt.condition(alt.datum.is_hero, alt.value(0.95), alt.value(0.55)),
            order=alt.Order("is_hero:O"),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip("style_hands:Q", title="Hands", format=","),
                alt.Tooltip("foul_rate:Q", title="Foul rate", format=".1%"),
                alt.Tooltip("bottom_aggression:Q", title="Bottom aggression", format=".1%"),
            ],
        )
    )
    hero_label = (
        alt.Chart(data.filter(pl.col("is_hero")))
        .mark_text(align="left", dx=14, dy=-10, fontWeight="bold", fontSize=13, color=LEAK)
        .encode(
            x=alt.X("foul_rate:Q", scale=x_scale),
            y=alt.Y("bottom_aggression:Q", scale=y_scale),
            text="player:N",
        )
    )
    rule = {"strokeDash": [4, 4], "color": "#8a939c"}
    rules = alt.layer(
        alt.Chart(pl.DataFrame({"x": [x_split]})).mark_rule(**rule).encode(x="x:Q"),
        alt.Chart(pl.DataFrame({"y": [y_split]})).mark_rule(**rule).encode(y="y:Q"),
    )
    (x0, x1), (y0, y1) = x_domain, y_domain
    corners = pl.DataFrame(
        {
            "label": [q[0] for q in QUADRANTS],
            "x": [
                x0 + 0.01 * (x1 - x0) if q[1] == "left" else x1 - 0.01 * (x1 - x0)
                for q in QUADRANTS
            ],
            "y": [
                y0 + 0.02 * (y1 - y0) if q[2] == "bottom" else y1 - 0.02 * (y1 - y0)
                for q in QUADRANTS
            ],
            "align": [q[1] for q in QUADRANTS],
            "baseline": [q[2] for q in QUADRANTS],
        }
    )
    labels = [
        alt.Chart(corners.filter(pl.col("align") == side, pl.col("baseline") == base))
        .mark_text(align=side, baseline=base, fontSize=13, fontWeight="bold", color="#5b6670")
        .encode(x=alt.X("x:Q", scale=x_scale), y=alt.Y("y:Q", scale=y_scale), text="label:N")
        for _, side, base in QUADRANTS
    ]
    return alt.layer(rules, *labels, points, hero_label).properties(height=440)


def stacked_shares(frame: pl.DataFrame, order: list[str], title: str) -> alt.Chart:
    """100% stacked horizontal bars: for each ``who``, the ``share`` of each ``category``."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("who:N", title=None, sort=None),
            x=alt.X("share:Q", title=title, axis=alt.Axis(format="%"), stack="normalize"),
            color=alt.Color(
                "category:N",
                title=None,
                sort=order,
                scale=alt.Scale(domain=order, scheme="viridis"),
                legend=alt.Legend(orient="right", labelFontSize=11, symbolSize=70, rowPadding=1),
            ),
            order=alt.Order("rank:Q"),
            tooltip=[
                alt.Tooltip("who:N", title="Who"),
                alt.Tooltip("category:N", title="Category"),
                alt.Tooltip("share:Q", title="Share", format=".1%"),
            ],
        )
        .properties(height=150)
    )


def grouped_bars(
    frame: pl.DataFrame, x: str, x_title: str, group: str, value_format: str
) -> alt.Chart:
    """Vertical bars of ``value`` per ``x`` (short labels), side by side per ``group``."""
    axis = alt.Axis(labelAngle=0)
    chart = _bars(frame, x, group, value_format, vertical=True, title=x_title, axis=axis)
    return chart.properties(height=HEIGHT - 60)


def horizontal_bars(frame: pl.DataFrame, y: str, group: str, value_format: str) -> alt.Chart:
    """Horizontal bars of ``value`` per ``y`` (long labels), grouped by ``group``."""
    axis = alt.Axis(labelLimit=320)
    chart = _bars(frame, y, group, value_format, vertical=False, title=None, axis=axis)
    return chart.properties(height=max(64 * frame[y].n_unique(), 150))


def _bars(
    frame: pl.DataFrame,
    label: str,
    group: str,
    value_format: str,
    *,
    vertical: bool,
    title: str | None,
    axis: alt.Axis,
) -> alt.Chart:
    """Bars of ``value`` per ``label``, side by side per ``group``: standing up when
    ``vertical`` (labels along x, legend on top), else lying down (legend bottom right)."""
    labels = f"{label}:N"
    values = alt.Axis(format=value_format)
    if vertical:
        channels = {
            "x": alt.X(labels, title=title, sort=None, axis=axis),
            "xOffset": alt.XOffset(f"{group}:N", sort=None),
            "y": alt.Y("value:Q", title=None, axis=values),
        }
    else:
        channels = {
            "y": alt.Y(labels, title=title, sort=None, axis=axis),
            "yOffset": alt.YOffset(f"{group}:N", sort=None),
            "x": alt.X("value:Q", title=None, axis=values),
        }
    return (
        alt.Chart(frame)
        .mark_bar(cornerRadiusEnd=3)
        .encode(
            **channels,
            color=_group_colours(group, "top" if vertical else "bottom-right"),
            tooltip=[
                alt.Tooltip(labels),
                alt.Tooltip(f"{group}:N"),
                alt.Tooltip("value:Q", format=value_format),
            ],
        )
    )


def _group_colours(group: str, legend: str) -> alt.Color:
    return alt.Color(
        f"{group}:N",
        title=None,
        sort=None,
        scale=alt.Scale(range=[HERO, POPULATION, "#e9c46a", "#457b9d"]),
        legend=alt.Legend(orient=legend),
    )


def percentiles(frame: pl.DataFrame) -> alt.Chart:
    """Each metric's percentile among players, drawn from the median (50%): red dots are
    leaks, grey ones styles (neither good nor bad)."""
    data = frame.with_columns(
        kind=pl.when(pl.col("leak"))
        .then(pl.lit("leak"))
        .when(pl.col("higher_is_better").is_null())
        .then(pl.lit("style"))
        .otherwise(pl.lit("fine")),
        middle=pl.lit(0.5),
    )
    colour = alt.Color(
        "kind:N",
        title=None,
        scale=alt.Scale(domain=["fine", "leak", "style"], range=[HERO, LEAK, "#8a939c"]),
        legend=None,
    )
    y = alt.Y("label:N", title=None, sort=None, axis=alt.Axis(labelLimit=260))
    x = alt.X(
        "percentile:Q",
        title="Percentile among players",
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format="%"),
    )
    tooltip = [
        alt.Tooltip("label:N", title="Metric"),
        alt.Tooltip("value:Q", title="Student", format=".3f"),
        alt.Tooltip("population_median:Q", title="Population median", format=".3f"),
        alt.Tooltip("percentile:Q", title="Percentile", format=".0%"),
    ]
    stems = alt.Chart(data).mark_rule(strokeWidth=3).encode(y=y, x=x, x2="middle:Q", color=colour)
    dots = (
        alt.Chart(data)
        .mark_circle(size=140, opacity=1)
        .encode(y=y, x=x, color=colour, tooltip=tooltip)
    )
    median = alt.Chart(pl.DataFrame({"x": [0.5]})).mark_rule(color="#555", strokeDash=[3, 3])
    return alt.layer(median.encode(x="x:Q"), stems, dots).properties(
        height=max(34 * frame.height, 120)
    )
