"""The tables of a simulation: who sits where, the stakes, the clock.

Each table is a session of consecutive hands with the same players. Its
seats, name, stake, starting time and starting stack are drawn from the
chunk's seed, so a table looks the same however the work is split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.variants import MAX_PLAYERS

_CITIES = [
    "Helsinki",
    "Tampere",
    "Oulu",
    "Turku",
    "Riga",
    "Tallinn",
    "Vilnius",
    "Kazan",
    "Samara",
    "Sochi",
    "Minsk",
    "Kyiv",
    "Odesa",
    "Lviv",
    "Warsaw",
    "Krakow",
    "Prague",
    "Vienna",
    "Berlin",
    "Hamburg",
    "Oslo",
    "Bergen",
    "Malmo",
    "Reno",
    "Macau",
    "Tbilisi",
    "Batumi",
]
_NUMERALS = ("", " II", " III", " IV", " V", " VI")
#: (money per point, currency); ``None`` is play money.
STAKES = (
    (0.1, "USD"), (0.25, "USD"), (0.5, "USD"), (1.0, "USD"), (2.0, "USD"),
    (0.5, "EUR"), (1.0, "EUR"), (10.0, "RUB"), (25.0, "RUB"), (5.0, "UAH"), (None, None),
)  # fmt: skip
STACKS = (100.0, 200.0, 300.0, 500.0)
TABLE_STAKES_STACKS = (25.0, 50.0, 100.0, 150.0)
EPOCH = np.datetime64("2026-01-05T00:00:00", "s")
SESSION_SPREAD_DAYS = 300


@dataclass(frozen=True, eq=False)
class Tables:
    """``(tables,)`` and ``(tables, players)`` arrays; players in seat order."""

    roster_index: np.ndarray  # (T, P) which roster player sits in each seat
    seat: np.ndarray  # (T, P) seat numbers, ascending
    max_players: np.ndarray
    name: list[str]
    point_value: np.ndarray  # float, nan for play money
    currency: list[str | None]
    start: np.ndarray  # datetime64[s] of the first hand
    stack: np.ndarray  # starting stack (the rebuy amount)


def draw_tables(
    rng: np.random.Generator,
    count: int,
    players: int,
    roster_size: int,
    hero: int,
    variant: str,
    table_stakes: bool,
) -> Tables:
    """Set up ``count`` tables of ``players`` drawn from the roster, the hero always seated."""
    others = np.array([i for i in range(roster_size) if i != hero])
    picks = np.argsort(rng.random((count, len(others))), axis=1)[:, : players - 1]
    seated = np.concatenate([np.full((count, 1), hero), others[picks]], axis=1)
    seated = np.take_along_axis(seated, np.argsort(rng.random(seated.shape), axis=1), axis=1)
    wider = (rng.random(count) < 0.25) & (players < MAX_PLAYERS[variant])
    max_players = np.where(wider, players + 1, players).astype(np.int8)
    spread = np.sort(np.argsort(rng.random((count, players + 1)), axis=1)[:, :players], axis=1)
    seat = np.where(wider[:, None], spread, np.arange(players)) + 1
    stake = rng.integers(len(STAKES), size=count)
    stacks = np.array(TABLE_STAKES_STACKS if table_stakes else STACKS)
    offset = rng.integers(SESSION_SPREAD_DAYS * 86400, size=count)
    return Tables(
        roster_index=seated,
        seat=seat.astype(np.int8),
        max_players=max_players,
        name=[
            _CITIES[c] + _NUMERALS[n]
            for c, n in zip(
                rng.integers(len(_CITIES), size=count),
                rng.integers(len(_NUMERALS), size=count),
                strict=True,
            )
        ],
        point_value=np.array([np.nan if STAKES[s][0] is None else STAKES[s][0] for s in stake]),
        currency=[STAKES[s][1] for s in stake],
        start=EPOCH + offset.astype("timedelta64[s]"),
        stack=stacks[rng.integers(len(stacks), size=count)],
    )
