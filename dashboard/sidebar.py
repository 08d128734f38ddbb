"""The sidebar's filters, each bound to a URL query parameter.

Every filter widget uses Streamlit's ``bind="query-params"`` with its URL
parameter as key (``hero``, ``variant``, ``ruleset``, ``from``, ``to``,
``stakes``, ``opponent``), so the address bar always holds the view and a
link opens exactly that view. The hero picker's default is the most active
player, so a URL without ``hero`` shows that player; the view without a hero
is an entry of its own (``?hero=Everybody``), never an empty picker, which the
URL could not tell from the default (Escape would clear the hero while the
URL still meant the most active player). The player pickers offer the most
active players only (``PICKER_PLAYERS``) plus the one the URL names, so a
link to a rare player still opens that player. Enter in a date field applies
the date (``keyboard.py``).
"""

from __future__ import annotations

import contextlib
import datetime as dt

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard import keyboard
from dashboard.cache import cached
from dashboard.queries import options as option_queries
from dashboard.queries import players as player_queries
from dashboard.queries.db import Database
from dashboard.queries.filters import PARAMS, Filters
from parsers.bounds import FIRST_DAY, LAST_DAY

choices = cached(option_queries.choices)
players = cached(option_queries.players)
opponents = cached(player_queries.opponents)

BIND = "query-params"
PICKER = f"{option_queries.PICKER_PLAYERS:,}"
HERO_HELP = (
    f"The {PICKER} most active players, and the one the link names."
    " The Players page finds everybody: each row opens that player's Overview."
)
OPPONENT_HELP = (
    f"Only hands the hero played against this player. The {PICKER} players the hero met"
    " most, and the one the link names; the Players page finds everybody."
)


def _linked(name: str) -> str | None:
    """The player the URL names for the filter ``name`` (``hero`` or ``opponent``)."""
    return st.query_params.get(PARAMS[name]) or None


#: The hero picker's entry for the view without a hero (every player's hands).
EVERYBODY = "Everybody"


def everybody_label(heroes: tuple[str, ...]) -> str:
    """How the picker and the URL name the view without a hero: ``Everybody``, unless a
    player has that name.

    >>> everybody_label(("Anna",)), everybody_label(("Everybody",))
    ('Everybody', 'Everybody (all players)')
    """
    return EVERYBODY if EVERYBODY not in heroes else f"{EVERYBODY} (all players)"


def _hero(heroes: tuple[str, ...], everybody: str) -> str | None:
    """The hero picker: the most active player by default, or everybody (None). Its entries
    are the texts the URL holds (an entry None would be written to the URL as ``None``)."""
    chosen = st.selectbox(
        "Hero / student",
        (everybody, *heroes),
        index=1 if heroes else 0,
        key=PARAMS["hero"],
        bind=BIND,
        help=HERO_HELP,
    )
    return None if chosen == everybody else chosen


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


def _unknown(offered: dict[str, tuple[str, ...]]) -> list[str]:
    """What the URL names that this database does not hold, in words (the filter is
    then left out, the hero is the default one); the URL parameter is dropped so the
    address shows the view."""
    problems = []
    for name, values in offered.items():
        key = PARAMS[name]
        linked = st.query_params.get(key)
        if linked and linked not in values:
            what = "player" if name in ("hero", "opponent") else name
            instead = (
                "showing the most active player" if name == "hero" else f"the {key} filter is off"
            )
            problems.append(f"No {what} {linked!r} in this database: {instead}.")
            _drop_param(key)
    return problems


def _unreadable_days() -> list[str]:
    """What is wrong with the dates the URL names, in words: a date that is not a day ofc
    can hold (its filter is then left out), or a first day after the last."""
    problems = []
    for name, label in (("date_from", "From"), ("date_to", "To")):
        key = PARAMS[name]
        linked = st.query_params.get(key)
        if linked and _linked_day(key) is None:
            problems.append(
                f"{label} {linked!r} is not a day between {FIRST_DAY:%Y-%m-%d} and"
                f" {LAST_DAY:%Y-%m-%d} (YYYY-MM-DD): the {key} filter is off."
            )
            _drop_param(key)
    first, last = _linked_day(PARAMS["date_from"]), _linked_day(PARAMS["date_to"])
    if first and last and first > last:
        problems.append(f"From {first} is after To {last}: no hand is in between.")
    return problems


def _date_bounds(first: dt.date | None, last: dt.date | None) -> dict[str, dt.date | None]:
    """The date pickers' bounds: the data's first and last days, widened to the dates the
    URL names (within ``parsers.bounds``), so a link to days without hands shows a view
    without hands rather than every hand."""
    for key in (PARAMS["date_from"], PARAMS["date_to"]):
        day = _linked_day(key)
        if day is not None and first is not None and last is not None:
            first, last = min(first, day), max(last, day)
    return {"min_value": first, "max_value": last}


def _linked_day(key: str) -> dt.date | None:
    """The day the URL names for the date filter ``key``, if it is one ofc can hold."""
    try:
        day = dt.date.fromisoformat(st.query_params.get(key) or "")
    except ValueError:
        return None
    return day if FIRST_DAY.date() <= day <= LAST_DAY.date() else None


def _drop_param(key: str) -> None:
    """Take ``key`` out of the URL and the widget's state. A parameter a widget has bound
    already (a later run of the page) is reset through the widget's state instead: Streamlit
    refuses to delete it."""
    with contextlib.suppress(StreamlitAPIException):
        del st.query_params[key]
    st.session_state.pop(key, None)


def filters(db: Database) -> Filters:
    """Draw the filters in the sidebar and return the view they describe."""
    found = choices(db)
    heroes = players(db, _linked("hero"))
    everybody = everybody_label(heroes)
    unknown = _unknown(
        {
            "hero": (*heroes, everybody),
            "variant": found.variants,
            "ruleset": found.rulesets,
            "stakes": found.stakes,
        }
    )
    unknown += _unreadable_days()
    with st.sidebar:
        keyboard.install()
        st.markdown("#### View")
        for problem in unknown:
            st.warning(problem, icon=":material/help:")
        hero = _hero(heroes, everybody)
        variant = _select("Variant", PARAMS["variant"], found.variants, "All variants")
        ruleset = _select("Ruleset", PARAMS["ruleset"], found.rulesets, "All rulesets")
        stakes = _select(
            "Stakes", PARAMS["stakes"], found.stakes, "All stakes", help="Money per point"
        )
        # one date a line: side by side, the sidebar clips them ("2026 - 0")
        bounds = _date_bounds(found.first_day, found.last_day) | {"format": "YYYY-MM-DD"}
        date_from = st.date_input("From", value=None, key=PARAMS["date_from"], bind=BIND, **bounds)
        date_to = st.date_input("To", value=None, key=PARAMS["date_to"], bind=BIND, **bounds)
        picker = option_queries.PICKER_PLAYERS
        linked = _linked("opponent")
        met = tuple(opponents(db, hero, picker, linked)) if hero else ()
        if hero and linked and linked not in met:
            st.warning(
                f"{hero!r} played no hand against {linked!r} in this database:"
                " the opponent filter is off.",
                icon=":material/help:",
            )
            _drop_param(PARAMS["opponent"])
        opponent = _select(
            "Opponent",
            PARAMS["opponent"],
            met,
            "Any opponent",
            disabled=not hero,
            help=OPPONENT_HELP,
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
