"""A player's metrics next to the population's median, with percentiles and leaks marked."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import ui
from dashboard.format import number, percent
from dashboard.queries.filters import Filters

RATES = {
    "foul_rate",
    "style_foul_rate",
    "scoop_rate",
    "rows_won_per_row",
    "fantasyland_entry_rate",
    "fantasyland_stay_rate",
    "bottom_aggression",
    "foul_rate_drawing",
    "top_qq_plus_by_street2_share",
}


def _shown(metric: str, value: float | None) -> str:
    return percent(value) if metric in RATES else number(value)


def population(filters: Filters) -> str:
    """The hands the percentiles count, in words (the opponent filter does not apply).

    >>> population(Filters(hero="Anna"))
    'all variants · all dates and stakes'
    >>> population(Filters(variant="classic", stakes="play", opponent="Bo"))
    'classic · play money · all opponents'
    """
    view = filters.population()
    if view.summarised:
        words = f"{view.variant or 'all variants'} · all dates and stakes"
    else:
        words = ui.describe(view) if view.variant else f"all variants · {ui.describe(view)}"
    return f"{words} · all opponents" if filters.opponent else words


def profile_table(frame: pl.DataFrame) -> None:
    """Draw the profile as a table: metric, player, population median, percentile, verdict."""
    rows = [
        {
            "Metric": r["label"],
            "Player": _shown(r["metric"], r["value"]),
            "Population median": _shown(r["metric"], r["population_median"]),
            "Percentile": f"{100 * r['percentile']:.0f}",
            "Verdict": "leak"
            if r["leak"]
            else ("style" if r["higher_is_better"] is None else "ok"),
        }
        for r in frame.iter_rows(named=True)
    ]
    st.table(pl.DataFrame(rows) if rows else pl.DataFrame({"Metric": []}))
