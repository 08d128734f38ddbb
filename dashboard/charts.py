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


def cumulative(
    frame: pl.DataFrame,
    by_date: bool,
    title: str = "Cumulative points",
    value_format: str = "+,.0f",
) -> alt.Chart:
    """Lines of a running total (``points``) against hands played (or the date, ``until``),
    one per ``series``; the 'all variants' line is drawn thicker."""
    width = alt.condition(alt.datum.series == "all variants", alt.value(3), alt.value(1.6))
    x = (
        alt.X("until:T", title="Date (UTC)")
        if by_date
        else alt.X("hands:Q", title="Hands played", axis=alt.Axis(format=",d", tickMinStep=1))
    )
    return (
        alt.Chart(frame)
        .mark_line(interpolate="linear")
        .encode(
            x=x,
            y=alt.Y(
                "points:Q", title=title, axis=alt.Axis(format=value_format.replace(".2f", ".2~f"))
            ),
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
                alt.Tooltip("points:Q", title=title, format=value_format),
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


#: Up to this many players, every dot of the style scatter carries its name.
MAX_NAMED = 40

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
    return [low - pad, min(high + pad, 1.0 + pad)]


#: Percent axis labels without the padding's negative ticks.
PERCENT_LABELS = "datum.value < 0 || datum.value > 1 ? '' : format(datum.value, '.0%')"


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
                axis=alt.Axis(labelExpr=PERCENT_LABELS, tickCount=8),
                scale=x_scale,
            ),
            y=alt.Y(
                "bottom_aggression:Q",
                title="Bottom aggression (unmade street-1 bottom)",
                axis=alt.Axis(labelExpr=PERCENT_LABELS, tickCount=8),
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
                alt.Tooltip("style_hands:Q", title="Hands (n)", format=","),
                alt.Tooltip("foul_rate:Q", title="Foul rate", format=".1%"),
                alt.Tooltip("foul_rate_low:Q", title="Foul rate 95% from", format=".1%"),
                alt.Tooltip("foul_rate_high:Q", title="Foul rate 95% to", format=".1%"),
                alt.Tooltip("bottom_aggression:Q", title="Bottom aggression", format=".1%"),
                alt.Tooltip("bottom_aggression_low:Q", title="Aggression 95% from", format=".1%"),
                alt.Tooltip("bottom_aggression_high:Q", title="Aggression 95% to", format=".1%"),
            ],
        )
    )
    names = (
        alt.Chart(data.filter(~pl.col("is_hero")))
        .mark_text(align="left", dx=8, dy=-6, fontSize=10, color="#4a545e")
        .encode(
            x=alt.X("foul_rate:Q", scale=x_scale),
            y=alt.Y("bottom_aggression:Q", scale=y_scale),
            text="player:N",
            tooltip=alt.value(None),
        )
    )
    hero_label = (
        alt.Chart(data.filter(pl.col("is_hero")))
        .mark_text(align="left", dx=14, dy=-10, fontWeight="bold", fontSize=13, color=LEAK)
        .encode(
            x=alt.X("foul_rate:Q", scale=x_scale),
            y=alt.Y("bottom_aggression:Q", scale=y_scale),
            text="player:N",
            tooltip=alt.value(None),
        )
    )
    rule = {"strokeDash": [4, 4], "color": "#8a939c"}
    rules = alt.layer(
        alt.Chart(pl.DataFrame({"x": [x_split]}))
        .mark_rule(**rule)
        .encode(x="x:Q", tooltip=alt.value(None)),
        alt.Chart(pl.DataFrame({"y": [y_split]}))
        .mark_rule(**rule)
        .encode(y="y:Q", tooltip=alt.value(None)),
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
        .encode(
            x=alt.X("x:Q", scale=x_scale),
            y=alt.Y("y:Q", scale=y_scale),
            text="label:N",
            tooltip=alt.value(None),
        )
        for _, side, base in QUADRANTS
    ]
    named = [names] if data.height <= MAX_NAMED else []  # more: the tooltip names them
    return alt.layer(rules, *labels, points, *named, hero_label).properties(height=440)


def stacked_shares(frame: pl.DataFrame, order: list[str], title: str, scheme: str) -> alt.Chart:
    """100% stacked horizontal bars: for each ``who``, the ``share`` of each ``category``,
    with each share's 95% interval (``low``, ``high``) in the tooltip."""
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("who:N", title=None, sort=None, axis=alt.Axis(labelLimit=240)),
            x=alt.X("share:Q", title=title, axis=alt.Axis(format="%"), stack="normalize"),
            color=alt.Color(
                "category:N",
                title=None,
                sort=order,
                scale=alt.Scale(domain=order, scheme=scheme),
                legend=alt.Legend(orient="right", labelFontSize=11, symbolSize=70, rowPadding=1),
            ),
            order=alt.Order("rank:Q"),
            tooltip=[
                alt.Tooltip("who:N", title="Who"),
                alt.Tooltip("category:N", title="Category"),
                alt.Tooltip("share:Q", title="Share", format=".1%"),
                alt.Tooltip("low:Q", title="95% from", format=".1%"),
                alt.Tooltip("high:Q", title="95% to", format=".1%"),
                alt.Tooltip("n:Q", title="n", format=","),
            ],
        )
        .properties(height=150)
    )


def grouped_bars(
    frame: pl.DataFrame,
    x: str,
    x_title: str,
    group: str,
    value_format: str,
    y_title: str,
    order: list[str],
) -> alt.Chart:
    """Vertical bars of ``value`` per ``x`` (in ``order``), side by side per ``group``,
    the legend above the plot."""
    return (
        alt.Chart(frame)
        .mark_bar(cornerRadiusEnd=3)
        .encode(
            x=alt.X(f"{x}:N", title=x_title, sort=order, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset(f"{group}:N", sort=None),
            y=alt.Y("value:Q", title=y_title, axis=alt.Axis(format=value_format)),
            color=_group_colours(group, "top"),
            tooltip=[
                alt.Tooltip(f"{x}:N", title=x_title),
                alt.Tooltip(f"{group}:N", title=group.capitalize()),
                alt.Tooltip("value:Q", title=y_title, format=value_format),
            ],
        )
        .properties(height=HEIGHT - 60)
    )


def mean_bars(frame: pl.DataFrame, y: str, group: str, title: str) -> alt.Chart:
    """Horizontal bars of means (``value``) per ``y``, grouped by ``group``, with their 95%
    intervals (``low``, ``high``) as lines; the legend below the plot."""
    base = alt.Chart(frame).encode(
        y=alt.Y(f"{y}:N", title=None, sort=None, axis=alt.Axis(labelLimit=320)),
        yOffset=alt.YOffset(f"{group}:N", sort=None),
    )
    tooltip = [
        alt.Tooltip(f"{y}:N", title="Where"),
        alt.Tooltip(f"{group}:N", title="Hands"),
        alt.Tooltip("n:Q", title="n", format=","),
        alt.Tooltip("value:Q", title=title, format="+.2f"),
        alt.Tooltip("low:Q", title="95% from", format="+.2f"),
        alt.Tooltip("high:Q", title="95% to", format="+.2f"),
    ]
    bars = base.mark_bar(cornerRadiusEnd=3).encode(
        x=alt.X("value:Q", title=title, axis=alt.Axis(format="+.1f")),
        color=_group_colours(group, "bottom"),
        tooltip=tooltip,
    )
    whiskers = base.mark_rule(color="#333", strokeWidth=1.5).encode(
        x="low:Q", x2="high:Q", tooltip=tooltip
    )
    return alt.layer(bars, whiskers).properties(height=max(64 * frame[y].n_unique(), 150))


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
    data = frame.with_columns(middle=pl.lit(0.5))
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
        alt.Tooltip("population:Q", title="Population (pooled)", format=".3f"),
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
