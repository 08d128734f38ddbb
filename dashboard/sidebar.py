"""The sidebar's filters, each bound to a URL query parameter.

Every filter widget uses Streamlit's ``bind="query-params"`` with its URL
parameter as key (``hero``, ``variant``, ``ruleset``, ``from``, ``to``,
``stakes``, ``opponent``), so the address bar always holds the view and a
link opens exactly that view. Without a ``hero`` in the URL the most active
player is chosen (and written to the URL).
"""

from __future__ import annotations

import streamlit as st

from dashboard.cache import cached
from dashboard.queries import options as option_queries
from dashboard.queries import players as player_queries
from dashboard.queries.db import Database
from dashboard.queries.filters import PARAMS, Filters

choices = cached(option_queries.choices)
opponents = cached(player_queries.opponents)

BIND = "query-params"


def _default_hero(players: tuple[str, ...]) -> None:
    key = PARAMS["hero"]
    if players and key not in st.query_params and key not in st.session_state:
        st.session_state[key] = players[0]


def _select(label: str, key: str, values: tuple[str, ...], everyone: str, **extra) -> str | None:
    return st.selectbox(
        label,
        values,
        index=None,
        key=key,
        bind=BIND,
        placeholder=everyone,
        **extra,
    )


def filters(db: Database) -> Filters:
    """Draw the filters in the sidebar and return the view they describe."""
    found = choices(db)
    _default_hero(found.players)
    with st.sidebar:
        st.markdown("#### View")
        hero = _select("Hero / student", PARAMS["hero"], found.players, "Everybody")
        variant = _select("Variant", PARAMS["variant"], found.variants, "All variants")
        ruleset = _select("Ruleset", PARAMS["ruleset"], found.rulesets, "All rulesets")
        stakes = _select(
            "Stakes", PARAMS["stakes"], found.stakes, "All stakes", help="Money per point"
        )
        start, end = st.columns(2)
        bounds = {"min_value": found.first_day, "max_value": found.last_day, "format": "YYYY-MM-DD"}
        with start:
            date_from = st.date_input(
                "From", value=None, key=PARAMS["date_from"], bind=BIND, **bounds
            )
        with end:
            date_to = st.date_input("To", value=None, key=PARAMS["date_to"], bind=BIND, **bounds)
        met = tuple(opponents(db, hero)) if hero else ()
        opponent = _select(
            "Opponent",
            PARAMS["opponent"],
            met,
            "Any opponent",
            disabled=not hero,
            help="Only hands the hero played against this player",
        )
    return Filters(
        hero=hero,
        variant=variant,
        ruleset=ruleset,
        date_from=date_from,
        date_to=date_to,
        stakes=stakes,
        opponent=opponent,
    )
