"""The app around the pages: page setup, the sidebar's filters, navigation between pages."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

import duckdb
import streamlit as st

from dashboard import sidebar, ui
from dashboard.cache import database
from dashboard.context import Context
from dashboard.settings import AppSettings
from ofc_core.errors import UserError
from ofc_core.faults import storage_problem

#: Tighter page margins than Streamlit's default, so a laptop screen shows more.
CSS = """<style>
[data-testid="stMainBlockContainer"] { padding-top: 2.2rem; padding-bottom: 2rem; }
</style>"""

#: (module in ``dashboard.views``, title, URL path, icon), in menu order.
PAGES = (
    ("overview", "Overview", "overview", ":material/insights:"),
    ("players", "Players", "players", ":material/groups:"),
    ("style", "Style", "style", ":material/scatter_plot:"),
    ("fantasyland", "Fantasyland", "fantasyland", ":material/auto_awesome:"),
    ("breakdowns", "Breakdowns", "breakdowns", ":material/table_chart:"),
    ("hands", "Hands", "hands", ":material/style:"),
    ("coach", "Coach audit", "coach", ":material/school:"),
    ("decisions", "Decisions", "decisions", ":material/rule:"),
    ("imports", "Import", "import", ":material/upload_file:"),
)


def _page(module: str, context: Context) -> Callable[[], None]:
    def render() -> None:
        import_module(f"dashboard.views.{module}").render(context)

    return render


def run(settings: AppSettings) -> None:
    """Draw the app for one rerun: the filters first, then the chosen page."""
    st.set_page_config(page_title="OFC coach", page_icon="♠", layout="wide")
    st.html(CSS)
    db = database(str(settings.db))
    try:
        view = sidebar.filters(db)
    except UserError as error:  # no database, or one this version cannot read
        st.error(str(error))
        st.stop()
    context = Context(db=db, filters=view, import_dirs=settings.import_dirs)
    with st.sidebar:
        ui.text(f"Database: {settings.db.name}")
    pages = [
        st.Page(_page(module, context), title=title, url_path=path, icon=icon, default=i == 0)
        for i, (module, title, path, icon) in enumerate(PAGES)
    ]
    try:
        st.navigation(pages).run()
    except duckdb.Error as error:  # a damaged database file: say so, not a traceback
        st.error(storage_problem(error) or f"cannot read {settings.db}: {error}")
