"""Who plays: the roster of named bots (``--bots``) and the hero (``--hero``).

``--bots`` is a comma-separated list with one entry per player of the
roster, each a style (``tight``) or a name and a style (``Rock Rita=tight``).
Unnamed players get generated names (``names.py``). A roster may be larger
than a table: each table then seats the hero and players drawn from the
rest. The hero is the account whose point of view the text formats take;
by default the first player.

>>> [(b.name, b.style) for b in parse_bots("Rock Rita=tight,aggressive", 2, seed=1)][:1]
[('Rock Rita', 'tight')]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.errors import UserError
from pipeline.simulator.names import player_names
from pipeline.simulator.styles import STYLE_NAMES

DEFAULT_STYLES = ("tight", "aggressive", "balanced", "tight")
_ROSTER_STREAM = 0x5EA7  # seed stream for names, apart from the chunks' streams


@dataclass(frozen=True)
class Bot:
    """One player of the roster."""

    name: str
    style: str


def parse_bots(spec: str | None, players: int, seed: int) -> tuple[Bot, ...]:
    """The roster given by ``--bots`` (or the default styles) for tables of ``players``."""
    entries = [e.strip() for e in spec.split(",")] if spec else list(DEFAULT_STYLES[:players])
    named: list[tuple[str | None, str]] = []
    for entry in entries:
        name, _, style = entry.rpartition("=")
        style = style.strip()
        if style not in STYLE_NAMES:
            raise UserError(
                f"--bots: unknown style {style!r} in {entry!r}; styles: {', '.join(STYLE_NAMES)}"
            )
        named.append((name.strip() or None, style))
    if len(named) < players:
        raise UserError(
            f"--bots lists {len(named)} player(s) but tables seat {players}; list at least {players}"
        )
    given = tuple(n for n, _ in named if n)
    if len(set(given)) != len(given):
        raise UserError("--bots: the same name is given twice")
    rng = np.random.default_rng([seed, _ROSTER_STREAM])
    fresh = iter(player_names(rng, sum(n is None for n, _ in named), taken=given))
    return tuple(Bot(name or next(fresh), style) for name, style in named)


def hero_index(roster: tuple[Bot, ...], hero: str | None) -> int:
    """Index of the hero in the roster (the first player when not given)."""
    if hero is None:
        return 0
    for i, bot in enumerate(roster):
        if bot.name == hero:
            return i
    names = ", ".join(repr(b.name) for b in roster)
    raise UserError(f"--hero {hero!r} is not in the roster; players: {names}")
