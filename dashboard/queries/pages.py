"""Every query each page runs for a view, callable without Streamlit (benchmark and tests).

The pages call these same functions (through the cache); this list names
them page by page so ``make bench`` can time each page on a large database.
A page that shows one of several results at a time (Breakdowns: by stakes, by
day, sessions, ...; Hands: one list, sorted and filtered one way) lists them
as choices: it runs only the chosen one, the first when it opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from dashboard.queries import (
    breakdowns,
    coach,
    cumulative,
    fantasyland,
    hands,
    imports,
    options,
    players,
    profile,
    style,
    summary,
)
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters

PAGES = (
    "sidebar",
    "overview",
    "players",
    "style",
    "fantasyland",
    "breakdowns",
    "hands",
    "coach",
    "import",
)


@dataclass(frozen=True)
class PageQuery:
    """One query of one page, ready to run."""

    page: str
    name: str
    run: Callable[[], object]
    #: One of the page's choices, of which it runs one at a time (the first by default).
    choice: bool = False


def _first_hand(db: Database, filters: Filters) -> str:
    listed = hands.hand_list(db, filters, hands.HandFilters())
    return listed["hand_id"][0] if listed.height else ""


def _listed(
    db: Database, filters: Filters, own: hands.HandFilters, page: int = 0, sort: str = hands.NEWEST
) -> tuple[int, object]:
    """What the Hands page runs for one list: its count, and the page of it shown."""
    return hands.hand_count(db, filters, own), hands.hand_list(db, filters, own, page, sort)


def _page(page: str, **runs: Callable[[], object]) -> list[PageQuery]:
    """One page's queries, each named by its keyword."""
    return [PageQuery(page, name, run) for name, run in runs.items()]


def _choices(page: str, **runs: Callable[[], object]) -> list[PageQuery]:
    """One page's choices, each named by its keyword; the first is the page's default."""
    return [PageQuery(page, name, run, choice=True) for name, run in runs.items()]


def _breakdown(db: Database, filters: Filters, choice: str) -> Callable[[], object]:
    """The query the Breakdowns page runs for ``choice`` (one of ``breakdowns.CHOICES``)."""
    if choice == "Session":
        return lambda: breakdowns.sessions(db, filters)
    if choice == "Opponent":
        return lambda: breakdowns.opponents(db, filters)
    return lambda: breakdowns.by(db, filters, choice)


def page_queries(db: Database, filters: Filters) -> list[PageQuery]:
    """The queries of every page for the view ``filters`` (whose hero must be set)."""
    hero, everybody = filters.hero, filters.population()
    rival = filters.opponent or (players.opponents(db, hero, 1) or [hero])[0]
    every_hand, fouled = hands.HandFilters(), hands.HandFilters(fouled=True)
    hand_id = _first_hand(db, filters)
    mine = summary.summaries(db, filters).get(summary.ALL) or {}
    played = mine.get("hands") or 0
    return [
        *_page(
            "sidebar",
            choices=lambda: options.choices(db),
            players=lambda: options.players(db, hero),
            opponents=lambda: players.opponents(db, hero),
        ),
        *_page(
            "overview",
            summaries=lambda: summary.summaries(db, filters),
            population=lambda: summary.summaries(db, everybody),
            money=lambda: summary.money(db, filters),
            cumulative=lambda: cumulative.cumulative_points(db, filters, played),
            cumulative_money=lambda: cumulative.cumulative_money(db, filters, played),
        ),
        *_page(
            "players",
            table=lambda: players.players_table(db, filters),
            search=lambda: players.players_table(db, filters, "9"),
            head_to_head=lambda: players.head_to_head(db, hero, rival, everybody),
        ),
        *_page(
            "style",
            scatter=lambda: style.players(db, filters),
            bottoms=lambda: style.bottom_categories(db, filters),
            bottoms_population=lambda: style.bottom_categories(db, everybody),
            first_street=lambda: style.first_street(db, filters),
            first_street_population=lambda: style.first_street(db, everybody),
            profile=lambda: profile.profile(db, filters),
        ),
        *_page(
            "fantasyland",
            by_ruleset=lambda: fantasyland.by_ruleset(db, filters),
            summaries=lambda: summary.summaries(db, filters),
            population=lambda: summary.summaries(db, everybody),
            cards=lambda: fantasyland.cards_dealt(db, filters),
        ),
        *_choices(
            "breakdowns",
            **{c.lower(): _breakdown(db, filters, c) for c in breakdowns.CHOICES},
        ),
        *_page(
            "hands",
            neighbours=lambda: hands.neighbours(db, filters, every_hand, hand_id),
            viewer=lambda: hands.hand_detail(db, hand_id),
        ),
        *_choices(
            "hands",
            newest=lambda: _listed(db, filters, every_hand),
            fouled=lambda: _listed(db, filters, fouled),
            by_points=lambda: _listed(db, filters, every_hand, sort="Most points"),
            everybody_fouled=lambda: _listed(db, everybody, fouled, page=3),
        ),
        *_page(
            "coach",
            profile=lambda: profile.profile(db, filters),
            fouled_hands=lambda: coach.fouled_hands(db, filters),
            mismatches=lambda: coach.mismatches(db, hero),
            mismatch_count=lambda: coach.mismatch_count(db, hero),
        ),
        *_page(
            "import",
            recent=lambda: imports.recent_imports(db),
            totals=lambda: imports.totals(db),
        ),
    ]


def views(db: Database) -> dict[str, Filters]:
    """The views the benchmark times: the most active player over everything, and
    the same player in one variant, over the later half of the dates, at one stake."""
    found = options.choices(db)
    hero = options.players(db, None, 1)[0]
    plain = Filters(hero=hero)
    if found.first_day is None:
        return {"default": plain}
    middle = found.first_day + (found.last_day - found.first_day) / 2
    stake = next((s for s in found.stakes if s != "play"), None)
    narrow = replace(plain, variant=found.variants[0], date_from=middle, stakes=stake)
    return {"default": plain, "filtered": narrow}
