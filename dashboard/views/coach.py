"""Coach audit: a student's leaks against the population, fouled hands to review,
the room's mismatches, and the HTML report of ``ofc report``."""

from __future__ import annotations

import streamlit as st

from dashboard import charts, columns, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count
from dashboard.links import hand_links
from dashboard.queries import coach
from dashboard.queries.filters import Filters
from dashboard.report import report_button
from dashboard.views.profile_table import (
    describe,
    opponent_note,
    percentile_frame,
    player_profile,
    profile_table,
)
from pipeline.report.audit import MIN_HANDS, MIN_PLAYERS, MIN_POPULATION_HANDS, TOO_FEW_PLAYERS

fouled_hands = cached(coach.fouled_hands)
mismatches = cached(coach.mismatches)
mismatch_count = cached(coach.mismatch_count)

#: The columns that name a hand and open it in the viewer.
HAND_COLUMNS = {
    "played_at": columns.PLAYED,
    "hand_id": "Hand",
    "hand": st.column_config.LinkColumn("Viewer", display_text="open ↗"),
}
FOUL_COLUMNS = {
    **HAND_COLUMNS,
    "variant": "Variant",
    "points": columns.points("Points", 0),
    "category_top": "Top",
    "category_middle": "Middle",
    "category_bottom": "Bottom",
    "timed_out": "Timed out",
}
MISMATCH_COLUMNS = {
    **HAND_COLUMNS,
    "disagreements": "Differs",
    "reported_points": columns.points("Room points"),
    "points": columns.points("Recomputed"),
    "points_difference": columns.points("Room − rules"),
    "source_file": "File",
    "source_line": "Line",
}


def _leaks(context: Context) -> None:
    result = player_profile(context.db, context.filters)
    if result is None or not result.findings:
        ui.nothing(
            f"{context.filters.hero} has no hands in this view: widen the filters in the sidebar."
        )
        return
    leaks = [f.label for f in result.leaks]
    if not result.enough:
        lacking = "players" if result.shortfall == TOO_FEW_PLAYERS else "hands"
        st.warning(
            f"Too few {lacking} to call anything a leak: {count(result.hands)} hands of the"
            f" student, {result.population_players} other players with at least"
            f" {MIN_POPULATION_HANDS} hands in the student's variants"
            f" ({MIN_HANDS} hands and {MIN_PLAYERS} players needed).",
            icon=":material/hourglass_empty:",
        )
    elif leaks:
        st.error(f"Leaks: {', '.join(leaks)}", icon=":material/flag:")
    else:
        st.success(
            "No leak: no metric's 95% interval lies on the bad side of the population's figure.",
            icon=":material/check_circle:",
        )
    if note := opponent_note(context.filters):
        st.info(note, icon=":material/info:")
    left, right = st.columns([1, 1.6])
    with left:
        st.altair_chart(
            charts.percentiles(percentile_frame(list(result.findings))), width="stretch"
        )
    with right:
        profile_table(list(result.findings))
    ui.text(result.sample_note())
    ui.text(
        describe(result, context.filters) + " Percentiles rank the student among those players;"
        " red dots are leaks, grey ones styles (neither good nor bad)."
    )


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Coach audit", filters)
    student = filters.hero
    if not student:
        ui.nothing("Pick the student in the sidebar (Hero / student).")
        return
    st.subheader("Leaks against the population", anchor=False)
    _leaks(context)
    left, right = st.columns(2)
    with left:
        st.subheader("Fouled hands to review", anchor=False)
        fouls = fouled_hands(context.db, filters)
        st.caption(f"The latest {fouls.height} fouled hands outside Fantasyland in this view")
        ui.dataframe(
            hand_links(fouls, filters).select(list(FOUL_COLUMNS)),
            hide_index=True,
            column_config=FOUL_COLUMNS,
            width="stretch",
        )
    with right:
        st.subheader("Room mismatches", anchor=False)
        total = mismatch_count(context.db, student)
        ui.text(
            f"{count(total)} of {student}'s hands where the room's figures differ from the"
            " rules: every hand, whatever the filters (variant, ruleset, stakes, dates)"
        )
        every_hand = Filters(hero=student)  # the links open each hand, not the view's filters
        ui.dataframe(
            hand_links(mismatches(context.db, student), every_hand).select(list(MISMATCH_COLUMNS)),
            hide_index=True,
            column_config=MISMATCH_COLUMNS,
            width="stretch",
        )
    st.subheader("Report", anchor=False)
    report_button(context, student)
