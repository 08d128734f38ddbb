"""Players: every player's figures in the view (sortable, searchable) and head-to-head results.

Each row links to the Overview of that player in the same view: the sidebar's
hero picker offers only the most active players, this table finds everybody.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import columns, sidebar, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import MISSING, count, interval, signed
from dashboard.links import player_links
from dashboard.queries import players
from dashboard.queries.filters import Filters
from dashboard.queries.options import PICKER_PLAYERS
from pipeline.load.metrics.definitions import BY_NAME
from pipeline.report.format import figure, money

table = cached(players.players_table)
head_to_head = cached(players.head_to_head)
opponents = cached(players.opponents)
money_by_currency = cached(players.money_by_currency)

#: The rates of the table (shown as percentages).
RATES = [name for name in players.FIGURES if BY_NAME[name].is_rate]
#: Figures whose 95% interval and n the table shows as text beside them (points per
#: hand has its bounds as numbers, to sort by; its n is the hands).
WITH_INTERVAL_TEXT = [name for name in players.FIGURES if name != "points_per_hand"]
LABELS = {
    "foul_rate": "Fouls",
    "scoop_rate": "Scoops",
    "rows_won_per_row": "Rows won",
    "royalties_per_hand": "Royalties/hand",
    "fantasyland_entry_rate": "FL entry",
    "fantasyland_stay_rate": "FL stay",
    "fantasyland_share": "In FL",
}
COLUMNS = {
    "player": st.column_config.TextColumn("Player", pinned=True),
    "overview": st.column_config.LinkColumn(
        "Overview", display_text="open ↗", pinned=True, help="This player's Overview, same view"
    ),
    "hands": columns.count("Hands"),
    "points": columns.points("Points", 0),
    "points_per_hand": columns.points("Pts/hand"),
    "points_per_hand_low": columns.points("95% low"),
    "points_per_hand_high": columns.points("95% high"),
    "money": st.column_config.TextColumn("Money"),
    **{
        name: columns.number(label) if name == "royalties_per_hand" else columns.rate(label)
        for name, label in LABELS.items()
    },
    **{
        f"{name}_interval": st.column_config.TextColumn(
            f"{label} 95%", help="95% interval, and n: the hands (or rows) it counts"
        )
        for name, label in LABELS.items()
    },
    "mismatches": columns.count("Mismatches"),
    "first_played_at": columns.day("First hand"),
    "last_played_at": columns.day("Last hand"),
}
SHOWN = [
    "player",
    "overview",
    "hands",
    "points",
    "points_per_hand",
    "points_per_hand_low",
    "points_per_hand_high",
    "money",
    *(c for name in WITH_INTERVAL_TEXT for c in (name, f"{name}_interval")),
    "mismatches",
    "first_played_at",
    "last_played_at",
]


def interval_cell(name: str) -> pl.Expr:
    """The 95% interval of figure ``name`` and its n, as a cell: ``8.0% – 12.5% · n 500``
    (``— · n 33`` without an interval)."""

    def text(row: dict) -> str:
        low, high = row[f"{name}_low"], row[f"{name}_high"]
        n = f"n {count(row[f'{name}_n'])}"
        if low is None or high is None:  # one value, or all alike: no interval, still an n
            return f"{MISSING} · {n}"
        return f"{figure(name, low)} – {figure(name, high)} · {n}"

    parts = pl.struct(f"{name}_low", f"{name}_high", f"{name}_n")
    return parts.map_elements(text, return_dtype=pl.String).alias(f"{name}_interval")


def _money_text(frame: pl.DataFrame, wallets: dict[str, list[tuple[str, float]]]) -> pl.Series:
    """Each row's money, one amount per currency (never added up across currencies:
    docs/schema.md); "play money" for a player without any."""
    texts = [
        " · ".join(money(amount, currency) for currency, amount in wallets.get(player, []))
        or "play money"
        for player in frame["player"].to_list()
    ]
    return pl.Series("money", texts, dtype=pl.String)


def _covers(filters: Filters) -> str:
    """What the table counts, in words: the view's variant, and its dates, stakes,
    ruleset and opponent when they narrow it."""
    if filters.summarised:
        return (
            f"{filters.variant or 'all variants'} · all dates and stakes"
            " (per player and variant, rebuilt at every import)"
        )
    every = "" if filters.variant else "all variants · "
    return f"{every}{ui.describe(filters)} (only the hands of this view)"


def _table(context: Context) -> None:
    search = st.text_input(
        "Search players", key="player_search", placeholder="Part of a screen name…"
    )
    view = context.filters.with_hero(None)
    found = table(context.db, view, search)
    wallets = money_by_currency(context.db, view, found["player"].to_list())
    frame = (
        player_links(found, context.filters)
        .with_columns(*(interval_cell(name) for name in WITH_INTERVAL_TEXT))
        .with_columns(pl.col(RATES) * 100, _money_text(found, wallets))
        .select(SHOWN)
    )
    players_ = "player" if frame.height == 1 else "players"
    ui.text(f"{count(frame.height)} {players_} · {_covers(view)} · click a column header to sort")
    height = min(38 + 35 * max(frame.height, 1), 460)
    ui.dataframe(frame, hide_index=True, column_config=COLUMNS, height=height, width="stretch")


def _pick(label: str, key: str, options: list[str], preferred: str | None) -> str | None:
    """A player picker that starts on ``preferred``; ``key`` names what it follows (a new
    hero in the sidebar, a new first player), so it starts again when that changes instead of
    keeping the earlier choice."""
    index = options.index(preferred) if preferred in options else None
    return st.selectbox(label, options, index=index, key=key, placeholder="Choose a player")


def _head_to_head(context: Context) -> None:
    st.subheader("Head to head", anchor=False)
    everyone = list(sidebar.players(context.db, context.filters.hero))
    left, right = st.columns(2)
    with left:
        first = _pick("Player", f"h2h_first:{context.filters.hero}", everyone, context.filters.hero)
    rivals = opponents(context.db, first, PICKER_PLAYERS, context.filters.opponent) if first else []
    with right:
        preferred = context.filters.opponent or (rivals[0] if rivals else None)
        second = _pick(
            "Against", f"h2h_second:{first}:{context.filters.opponent}", rivals, preferred
        )
    if not (first and second):
        ui.nothing("Choose two players who met at a table.")
        return
    result = head_to_head(context.db, first, second, context.filters.population())
    if result.is_empty():
        ui.nothing("These two players never met in this view.")
        return
    total = result.row(0, named=True)
    cells = st.columns(4)
    cells[0].metric("Hands together", count(total["hands"]), border=True)
    cells[1].metric("Points for the player", signed(total["points"]), border=True)
    cells[2].metric(
        "Per hand",
        signed(total["points_per_hand"], 2),
        delta=interval(
            "points_per_hand", total["points_per_hand_low"], total["points_per_hand_high"]
        ),
        delta_color="off",
        delta_arrow="off",
        border=True,
    )
    cells[3].metric("Scoops", f"{count(total['scoops'])} – {count(total['scooped'])}", border=True)
    won = figure("rows_won_per_row", total["rows_won_share"])
    rows_interval = interval(
        "rows_won_per_row", total["rows_won_share_low"], total["rows_won_share_high"]
    )
    ui.text(
        f"{first} against {second}: {first}'s side of their own settlements only (each pair"
        f" of players at a table settles separately), after table-stakes caps. {first} won"
        f" {won} of the {count(3 * total['hands'])} rows ({rows_interval})."
    )
    ui.dataframe(
        result.select(
            "variant",
            "hands",
            "points",
            "points_per_hand",
            "points_per_hand_low",
            "points_per_hand_high",
            "scoops",
            "scooped",
            "first_played_at",
            "last_played_at",
        ),
        hide_index=True,
        width="stretch",
        column_config={
            "variant": "Variant",
            "hands": columns.count("Hands (n)"),
            "points": columns.points("Points", 0),
            "points_per_hand": columns.points("Pts/hand"),
            "points_per_hand_low": columns.points("95% from"),
            "points_per_hand_high": columns.points("95% to"),
            "scoops": "Scoops",
            "scooped": "Scooped",
            "first_played_at": columns.day("First"),
            "last_played_at": columns.day("Last"),
        },
    )


def render(context: Context) -> None:
    ui.title("Players", context.filters, who="")
    _table(context)
    _head_to_head(context)
