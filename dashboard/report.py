"""The Coach audit's report button: the HTML report of ``ofc report`` for the student, to download.

The report is written by the pipeline's own ``write_player`` (the function
behind ``ofc report --player [--variant]``) on the dashboard's read-only
snapshot, of the view's variant if it names one, into a temporary folder, and
handed to the browser as a download.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

from dashboard import ui
from dashboard.context import Context
from dashboard.queries.filters import Filters
from ofc_core.errors import UserError
from pipeline.report.data import ALL
from pipeline.report.write import write_player


def report_html(context: Context, student: str) -> tuple[str, bytes]:
    """The report's file name and content: of the view's variant, if it names one."""
    cursor = context.db.cursor()
    variant = context.filters.variant or ALL
    try:
        with tempfile.TemporaryDirectory(prefix="ofc-report-") as folder:
            written = write_player(cursor, student, Path(folder), context.path.name, variant)
            return written.name, written.read_bytes()
    finally:
        cursor.close()


def report_button(context: Context, student: str) -> None:
    variant = context.filters.variant
    covers = (
        f"all of {student}'s {variant} hands in the database (every date and stake)"
        if variant
        else f"all of {student}'s hands in the database (every variant, date and stake)"
    )
    view = context.filters.with_hero(None)
    if ui.describe(view) != ui.describe(Filters(variant=variant)):
        covers += f", not only this page's view ({ui.describe(view)})"
    ui.text(
        f"The self-contained HTML report that ofc report writes for {student}"
        f" (charts inline, opens without network): it covers {covers}."
    )
    key = f"report:{student}"
    if st.button("Write the HTML report", icon=":material/description:", key="write_report"):
        try:
            st.session_state[key] = report_html(context, student)
        except UserError as error:
            st.error(str(error))
    if key in st.session_state:
        name, data = st.session_state[key]
        st.download_button(
            f"Download {name} ({len(data) / 1024:,.0f} KB)",
            data,
            file_name=name,
            mime="text/html",
            icon=":material/download:",
            key="download_report",
        )
