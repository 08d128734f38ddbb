"""Hands: a filtered list of player-hands and a street-by-street viewer of one hand."""

from __future__ import annotations

import datetime as dt
from pathlib import PurePath

import polars as pl
import streamlit as st

from dashboard import columns, hand_view, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count, signed
from dashboard.queries import hands
from dashboard.queries.filters import Filters, stakes_key
from pipeline.report.format import money

hand_list = cached(hands.hand_list)
hand_count = cached(hands.hand_count)
hand_detail = cached(hands.hand_detail)
neighbours = cached(hands.neighbours)

EITHER = {"Any": None, "Yes": True, "No": False}
HAND_KEY = "hand"  # URL parameter of the hand shown in the viewer
SORT_KEY = "list_sort"
LIST_COLUMNS = {
    "played_at": columns.PLAYED,
    "hand_id": "Hand",
    "player": "Player",
    "opponents": "Opponents",
    "variant": "Variant",
    "stakes": "Stakes",
    "points": columns.points("Points", 0),
    "money_text": "Money",
    "royalties": "Royalties",
    "foul": "Foul",
    "in_fantasyland": "In FL",
    "fantasyland_next": "→ FL",
    "mismatch": "Mismatch",
}


def _own_filters() -> tuple[hands.HandFilters, bool]:
    cells = st.columns([1.2, 1, 1, 1, 1, 1.3])
    cells[0].selectbox("Sort by", list(hands.SORTS), key=SORT_KEY)
    fouled = cells[1].selectbox("Fouled", list(EITHER), key="list_fouled")
    fantasyland = cells[2].selectbox("In Fantasyland", list(EITHER), key="list_fl")
    mismatch = cells[3].selectbox("Room mismatch", list(EITHER), key="list_mismatch")
    royalties = cells[4].number_input("Royalties at least", 0, 100, 0, key="list_royalties")
    with cells[5]:
        st.write("")
        everyone = st.toggle("Every player's hands", key="list_everyone")
    own = hands.HandFilters(
        fouled=EITHER[fouled],
        min_royalties=int(royalties),
        fantasyland=EITHER[fantasyland],
        mismatch=EITHER[mismatch],
    )
    return own, everyone


def _open(hand_id: str) -> None:
    st.session_state[HAND_KEY] = hand_id


def _on_row_selected() -> None:
    """Opens the hand of the row clicked in the list (a callback: runs before the script)."""
    rows = st.session_state["list_table"].selection.rows
    ids = st.session_state.get("_list_ids", [])
    if rows and rows[0] < len(ids):
        _open(ids[rows[0]])


def _on_pick() -> None:
    picked = st.session_state.get("list_pick")
    if picked:
        _open(picked)


def _shown(frame: pl.DataFrame) -> pl.DataFrame:
    """The page's rows as the list shows them: stakes and money with its currency in words."""
    stakes = [
        stakes_key(v, c) for v, c in zip(frame["point_value"], frame["currency"], strict=True)
    ]
    amounts = [
        money(m, c) if m is not None else "—"
        for m, c in zip(frame["money"], frame["currency"], strict=True)
    ]
    return frame.with_columns(
        stakes=pl.Series(stakes, dtype=pl.String),
        money_text=pl.Series(amounts, dtype=pl.String),
        opponents=pl.col("opponents").fill_null("—"),
    ).select(list(LIST_COLUMNS))


def _list(context: Context) -> tuple[str | None, Filters, hands.HandFilters]:
    """Draw the list; the first hand listed (the viewer's default), and the list's filters."""
    own, everyone = _own_filters()
    filters = context.filters
    if everyone or not filters.hero:
        filters = filters.with_hero(None)
    sort = st.session_state.get(SORT_KEY, hands.NEWEST)
    total = hand_count(context.db, filters, own)
    pages = max((total - 1) // hands.PAGE_SIZE + 1, 1)
    left, right = st.columns([5, 1])
    page = right.number_input("Page", 1, pages, 1, key="list_page", label_visibility="collapsed")
    within = " within each currency, in alphabetical order" if sort in hands.MONEY_SORTS else ""
    left.caption(
        f"{count(total)} player-hands · page {page} of {pages} · {sort.lower()}{within} (over"
        " every hand of the list) · click a row to open the hand"
    )
    frame = hand_list(context.db, filters, own, page - 1, sort)
    st.session_state["_list_ids"] = frame["hand_id"].to_list()
    ui.dataframe(
        _shown(frame),
        hide_index=True,
        column_config=LIST_COLUMNS,
        height=300,
        width="stretch",
        key="list_table",
        on_select=_on_row_selected,
        selection_mode="single-row",
    )
    if frame.is_empty():
        return None, filters, own
    labels = {
        r["hand_id"]: f"{_when(r['played_at'])} · {r['hand_id']} · {signed(r['points'])}"
        for r in frame.iter_rows(named=True)
    }
    st.selectbox(
        "Open a hand from this page",
        list(labels),
        index=None,
        format_func=labels.get,
        key="list_pick",
        placeholder="Choose a hand…",
        on_change=_on_pick,
    )
    return frame["hand_id"][0], filters, own


def _when(played_at: dt.datetime | None) -> str:
    """A hand's time, or "no plausible date" (``dashboard.queries.dates``)."""
    return "no plausible date" if played_at is None else f"{played_at:%Y-%m-%d %H:%M}"


def _meta(detail: hands.HandDetail) -> str:
    hand = detail.hand
    stakes = stakes_key(hand["point_value"], hand["currency"])
    parts = [
        hand["variant"],
        hand["ruleset"],
        f"{_when(hand['played_at'])} UTC",
        f"table {hand['table_name'] or '?'}",
        "play money" if stakes == "play" else f"{stakes} a point",
        f"room hand {hand['room_hand_id'] or '?'}",
        f"{PurePath(hand['source_file'] or '?').name}:{hand['source_line']}",
    ]
    return " · ".join(parts)


def _step(context: Context, listed: Filters, own: hands.HandFilters, hand_id: str) -> None:
    """Buttons to the list's hands played just before and just after this one."""
    earlier, later = neighbours(context.db, listed, own, hand_id)
    left, right, _ = st.columns([1, 1, 4])
    left.button(
        "◀ Previous hand",
        disabled=earlier is None,
        on_click=_open,
        args=(earlier,),
        key="hand_previous",
        help="The hand of this list played just before",
    )
    right.button(
        "Next hand ▶",
        disabled=later is None,
        on_click=_open,
        args=(later,),
        key="hand_next",
        help="The hand of this list played just after",
    )


def _by_room_id(context: Context, typed: str) -> tuple[str, hands.HandDetail | None]:
    """The hand a typed room hand number (no format prefix) names, when it names one; else
    says what is wrong."""
    found = [] if ":" in typed else hands.hand_ids_of_room_id(context.db, typed)
    if len(found) == 1:
        return found[0], hand_detail(context.db, found[0])
    if found:
        ui.text(f"Room hand {typed} was read in several formats: type one of {', '.join(found)}.")
    else:
        ui.text(f"No hand {typed} in this database: check the id.")
    return typed, None


def _viewer(context: Context, latest: str | None, listed: Filters, own: hands.HandFilters) -> None:
    st.subheader("Hand viewer", anchor=False)
    typed = st.text_input(
        "Hand id", key=HAND_KEY, bind="query-params", placeholder="e.g. en:7402331950 or 7402331950"
    ).strip()
    hand_id = typed or latest
    if not hand_id:
        ui.nothing("No hand in this list: widen the filters, or type a hand id.")
        return
    if not typed:
        st.caption("The first hand of the list as sorted; click a row above to open another.")
    detail = hand_detail(context.db, hand_id)
    if detail is None and typed:
        hand_id, detail = _by_room_id(context, typed)
    if detail is None:
        return
    ui.text(_meta(detail))
    _step(context, listed, own, hand_id)
    last = hand_view.last_street(detail)
    street = last
    if last > 1:
        street = st.select_slider(
            "Street", options=list(range(1, last + 1)), value=last, key=f"street_{hand_id}"
        )
    boards = hand_view.boards(detail, street, context.filters.hero)
    columns = st.columns(len(boards))
    st.html(hand_view.STYLES)
    for column, board in zip(columns, boards, strict=True):
        with column:
            st.html(board)
    st.markdown("**The room's figures beside the recomputed ones** (differences in red)")
    st.html(hand_view.figures_table(detail, context.filters.hero))
    if not detail.pairwise.is_empty():
        with st.expander("Settlements between each pair of players"):
            ui.dataframe(detail.pairwise, hide_index=True, width="stretch")


def render(context: Context) -> None:
    ui.title("Hands", context.filters)
    _viewer(context, *_list(context))
