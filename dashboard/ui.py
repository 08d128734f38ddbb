"""Small building blocks the pages share: titles, lines of text, empty states.

Anything that may hold a screen name, a table name or a file name is drawn
as escaped HTML (``html.escape``), never as Markdown: Markdown would turn
``--`` into a dash, ``*x*`` into italics, ``:red[x]`` into colour.

>>> line("Anna's <b>view</b> -- all")
"<p class='ofc-line'>Anna&#x27;s &lt;b&gt;view&lt;/b&gt; -- all</p>"
"""

from __future__ import annotations

import html

import streamlit as st

from dashboard.queries.filters import Filters
from pipeline.report.format import MISSING

#: Styles of the title and the text lines (Streamlit's look, without Markdown).
STYLE = """<style>
.ofc-h1 { font-size: 2.4rem; font-weight: 700; line-height: 1.2; margin: 0 0 .1rem 0;
  color: rgb(49, 51, 63); letter-spacing: -0.01em; }
.ofc-h1 .ofc-who { color: #1f6f5c; }
.ofc-line { color: rgba(49, 51, 63, .65); font-size: .875rem; margin: 0 0 .6rem 0; }
</style>"""


def describe(filters: Filters) -> str:
    """The view in words (plain text).

    >>> describe(Filters(variant="pineapple", stakes="play"))
    'pineapple · play money'
    >>> describe(Filters(opponent="Bo -- b"))
    'against Bo -- b'
    >>> describe(Filters())
    'all hands'
    """
    parts = []
    if filters.opponent:
        parts.append(f"against {filters.opponent}")
    if filters.variant:
        parts.append(filters.variant)
    if filters.ruleset:
        parts.append(filters.ruleset)
    if filters.stakes:
        parts.append("play money" if filters.stakes == "play" else f"{filters.stakes} a point")
    if filters.date_from or filters.date_to:
        start = filters.date_from.isoformat() if filters.date_from else "start"
        end = filters.date_to.isoformat() if filters.date_to else "today"
        parts.append(f"{start} → {end}")
    return " · ".join(parts) or "all hands"


def population(filters: Filters) -> str:
    """Who the population of a view is, in words: the view's player-hands pooled, over every
    opponent (an opponent filter narrows the hero's hands only).

    >>> population(Filters(hero="Ann", opponent="Bo")).endswith("narrows only the hero's hands")
    True
    """
    pooled = (
        "every player-hand of this view pooled per variant (the hero's too), weighted by"
        " the hero's own n of each figure in each variant (its trials: hands, pairings,"
        " Fantasyland hands...; docs/metrics.md)"
    )
    if filters.opponent:
        return (
            f"{pooled}, against every opponent: the opponent filter narrows only the hero's hands"
        )
    return pooled


def line(text: str) -> str:
    """A muted line of text, escaped."""
    return f"<p class='ofc-line'>{html.escape(text)}</p>"


def text(message: str) -> None:
    """Draw a muted line that may hold untrusted names."""
    st.html(line(message))


def title(page: str, filters: Filters | None, *, who: str | None = None) -> None:
    """The page title, with the player's name (as text) and the view underneath."""
    name = who if who is not None else (filters.hero if filters else None)
    whom = f" <span class='ofc-who'>· {html.escape(name)}</span>" if name else ""
    view = line(describe(filters)) if filters else ""
    st.html(f"{STYLE}<h1 class='ofc-h1'>{html.escape(page)}{whom}</h1>{view}")


def nothing(message: str) -> None:
    st.info(message, icon=":material/info:")


def dataframe(data: object, **options: object) -> object:
    """``st.dataframe`` showing a missing value as "—" (never "None"); the columns keep
    their types, so numbers still sort as numbers."""
    return st.dataframe(data, placeholder=MISSING, **options)
