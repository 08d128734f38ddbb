"""A player's audit drawn as a table: each metric with its n and 95% interval, the
population's pooled figure, the percentile among players, which direction is good,
and the verdict."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import ui
from dashboard.cache import cached
from dashboard.format import VERDICTS, count, interval
from dashboard.queries import profile
from dashboard.queries.filters import Filters
from pipeline.report.audit import MIN_POPULATION_HANDS, Audit, Finding
from pipeline.report.format import MISSING, figure

#: Verdicts as the audit table says them (a leak is a leak here).
WORDS = {**VERDICTS, "leak": "leak", "strength": "strength"}


#: The hero's audit in the view (Coach audit; its sample rule also decides the verdicts of
#: Overview and Fantasyland).
player_profile = cached(profile.profile)


def population(filters: Filters) -> str:
    """The hands the population counts, in words (the opponent filter does not apply).

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


def opponent_note(filters: Filters) -> str | None:
    """What the audit counts when the view names an opponent: the hero's whole record in
    the view, since a leak is a player's, not a pairing's (None without an opponent).

    >>> opponent_note(Filters(hero="Anna", opponent="Bo"))
    "The figures against the population count all of Anna's hands in the view, not only those against Bo: the opponent filter applies to the hand lists and head-to-head figures."
    """
    if not filters.opponent:
        return None
    return (
        f"The figures against the population count all of {filters.hero}'s hands in the view,"
        f" not only those against {filters.opponent}: the opponent filter applies to the hand"
        " lists and head-to-head figures."
    )


def describe(result: Audit, filters: Filters) -> str:
    """Who the population is, in words."""
    return (
        f"Population: every player-hand of the view in the player's variants, pooled per"
        f" variant, in the player's mix of variants ({count(result.population_hands)}"
        f" player-hands; {result.population_players} other players with at least"
        f" {MIN_POPULATION_HANDS} hands there; {population(filters)})."
    )


def _row(f: Finding) -> dict[str, str]:
    return {
        "Metric": f.label,
        "Player": figure(f.metric, f.value),
        "95% interval": interval(f.metric, f.low, f.high),
        "n": count(f.n),
        "Population": figure(f.metric, f.population),
        "Population 95% interval": interval(f.metric, f.population_low, f.population_high),
        "Population n": count(f.population_n),
        "Percentile": MISSING if f.percentile is None else f"{100 * f.percentile:.0f}",
        "Good": f.direction,
        "Verdict": WORDS[f.verdict],
    }


def profile_table(findings: list[Finding]) -> None:
    """Draw the findings as a table."""
    rows = [_row(f) for f in findings]
    st.table(pl.DataFrame(rows) if rows else pl.DataFrame({"Metric": []}))


def percentile_frame(findings: list[Finding]) -> pl.DataFrame:
    """The findings as the percentile chart takes them; each label says which way is good
    (a player's percentile ranks the figure, so the best foul rate sits at the left).

    >>> from pipeline.report.audit import Finding
    >>> fouls = Finding("foul_rate", "Foul rate", 0.07, 300, 0.05, 0.1, 0.11, 0.0,
    ...                 "lower is better", "too few players")
    >>> percentile_frame([fouls])["label"].to_list()
    ['Foul rate (lower is better)']
    """
    return pl.DataFrame(
        [
            {
                "label": f"{f.label} ({f.direction})",
                "value": f.value,
                "population": f.population,
                "percentile": f.percentile,
                "kind": "leak" if f.leak else ("style" if f.direction == "a style" else "fine"),
            }
            for f in findings
            if f.percentile is not None
        ],
        schema={
            "label": pl.String,
            "value": pl.Float64,
            "population": pl.Float64,
            "percentile": pl.Float64,
            "kind": pl.String,
        },
    )
