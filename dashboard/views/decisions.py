"""Decisions: the value a player gave up against the best play, from ``ofc review``.

EV lost per 100 hands with its 95% interval, by kind and street, by month;
the costliest mistakes (a loss beyond two standard errors), each shown at its
street in the hand viewer with the chosen and the best placement side by side.
"""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboard import columns, hand_view, ui
from dashboard.cache import cached
from dashboard.card_html import RowView, board
from dashboard.context import Context
from dashboard.format import count, signed
from dashboard.queries import decisions, hands

reviewed = cached(decisions.reviewed)
overall = cached(decisions.overall)
over_time = cached(decisions.over_time)
by_kind = cached(decisions.by_kind)
costliest = cached(decisions.costliest)
hand_detail = cached(hands.hand_detail)

EMPTY = (
    "No decisions reviewed in this database yet. Run `ofc review --db FILE --all` "
    "(or `--player NAME`) to value every decision against the best play, then reload."
)
KIND_TABLE = {
    "kind": "Kind",
    "street": "Street",
    "decisions": columns.count("Decisions"),
    "mean": columns.points("EV lost / decision", 3),
    "low": columns.points("95% low", 3),
    "high": columns.points("95% high", 3),
    "mistakes": columns.count("Mistakes (> 2 se)"),
}
MISTAKES = {
    "hand_id": "Hand",
    "player": "Player",
    "kind": "Kind",
    "street": "Street",
    "ev_chosen": columns.points("EV of the play", 3),
    "ev_best": columns.points("EV of the best", 3),
    "ev_loss": columns.points("EV lost", 3),
    "se_loss": columns.points("se of the loss", 3),
}
ROWS = ("top", "middle", "bottom")


def _headline(figures: dict) -> None:
    left, right = st.columns(2)
    left.metric(
        "EV lost per 100 hands",
        f"{figures['per_100']:.1f}" if figures["n"] else "–",
        delta=f"95% interval {figures['low']:.1f} to {figures['high']:.1f}"
        if figures["n"] > 1
        else None,
        delta_color="off",
        delta_arrow="off",
        border=True,
    )
    right.metric("Hands reviewed", count(figures["n"]), border=True)


def _time_chart(frame: pl.DataFrame) -> None:
    if frame.height < 2:
        return
    month = alt.Axis(format="%b %Y", tickCount="month")  # one tick a month, not a fortnight
    base = alt.Chart(frame).encode(x=alt.X("month:T", title="Month", axis=month))
    band = base.mark_area(opacity=0.25).encode(
        y=alt.Y("low:Q", title="EV lost per 100 hands"), y2="high:Q"
    )
    line = base.mark_line(point=True).encode(
        y="per_100:Q", tooltip=["month:T", "per_100:Q", "low:Q", "high:Q", "n:Q"]
    )
    st.altair_chart(band + line, width="stretch")


def _placement(title: str, rows: dict, dealt: list[str], value: float) -> str:
    views = [RowView(r, list(rows[r] or []), [c in dealt for c in rows[r] or []]) for r in ROWS]
    discards = " ".join(rows["discards"] or [])
    return board(
        f"{title} · value {signed(value, 2)}", views, [], f"discards {discards}" if discards else ""
    )


def _decision(context: Context, row: dict) -> None:
    """The hand at the decision's street, and the chosen and best placements side by side."""
    detail = hand_detail(context.db, row["hand_id"])
    ui.text(
        f"{row['hand_id']} · {row['player']} · {row['kind']} (street {row['street']}) · "
        f"lost {row['ev_loss']:.2f} ± {row['se_loss']:.2f} points"
    )
    st.html(hand_view.STYLES)
    if detail is not None:
        st.markdown("**The table after this street**")
        boards = hand_view.boards(detail, max(row["street"], 1))
        for column, html in zip(st.columns(len(boards)), boards, strict=True):
            with column:
                st.html(html)
    st.markdown("**Chosen and best placement**")
    dealt = list(row["dealt"] or [])
    chosen, best = st.columns(2)
    with chosen:
        st.html(_placement("chosen", row["chosen"], dealt, row["ev_chosen"]))
    with best:
        st.html(_placement("best", row["best"], dealt, row["ev_best"]))


def _mistakes(context: Context) -> None:
    frame = costliest(context.db, context.filters)
    st.subheader("Costliest mistakes", anchor=False)
    if frame.is_empty():
        ui.nothing("No decision in this view lost more than two standard errors.")
        return
    labels = {
        i: f"{r['ev_loss']:.2f} pts · {r['hand_id']} · {r['player']} · street {r['street']}"
        for i, r in enumerate(frame.iter_rows(named=True))
    }
    shown = frame.select(
        "hand_id", "player", "kind", "street", "ev_chosen", "ev_best", "ev_loss", "se_loss"
    )
    ui.dataframe(shown, hide_index=True, width="stretch", height=240, column_config=MISTAKES)
    picked = st.selectbox(
        "Open a mistake", list(labels), format_func=labels.get, key="decision_pick"
    )
    _decision(context, frame.row(picked, named=True))


def render(context: Context) -> None:
    filters = context.filters
    ui.title("Decisions", filters)
    if not reviewed(context.db):
        ui.nothing(EMPTY)
        return
    figures = overall(context.db, filters)
    if not figures["n"]:
        ui.nothing("No reviewed decision in this view: widen the filters, or run `ofc review`.")
        return
    _headline(figures)
    ui.text(
        "Value lost against the best play found by `ofc review` (points, Fantasyland counted "
        "at its measured value); a mistake is a loss beyond two standard errors."
    )
    st.subheader("By kind and street", anchor=False)
    ui.dataframe(
        by_kind(context.db, filters).drop("sd"),
        hide_index=True,
        column_config=KIND_TABLE,
        width="stretch",
    )
    st.subheader("Over time", anchor=False)
    _time_chart(over_time(context.db, filters))
    _mistakes(context)
