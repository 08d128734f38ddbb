"""Test helpers: build player-hands from card text and score them with the engine."""

from __future__ import annotations

import polars as pl

from ofc_core.cards import format_cards, parse_cards
from ofc_core.rulesets import load_ruleset
from pipeline.rules.engine import EngineResult, score_hands


def player(top: str, middle: str, bottom: str, **extra: object) -> dict:
    """One player's rows, from card text in any R1 notation."""
    rows = {
        name: format_cards(parse_cards(text)).split()
        for name, text in (("top", top), ("middle", middle), ("bottom", bottom))
    }
    return rows | extra


def frame(*hands: list[dict]) -> pl.DataFrame:
    """Player-hands of several hands, positions in the order given."""
    records = []
    for number, players in enumerate(hands):
        cards = [c for p in players for row in ("top", "middle", "bottom") for c in p[row]]
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        assert not repeated, f"test hand {number} repeats {repeated}"
        for position, p in enumerate(players, start=1):
            records.append(
                {"hand_id": f"h{number}", "position": position, "in_fantasyland": False, **p}
            )
    return pl.DataFrame(records)


def score(ruleset: str, *players: dict, rules_file: str | None = None) -> EngineResult:
    """Score one hand of the given players under a ruleset."""
    return score_hands(frame(list(players)), load_ruleset(ruleset, rules_file))


def points(ruleset: str, *players: dict, rules_file: str | None = None) -> list[float]:
    return score(ruleset, *players, rules_file=rules_file).player_hands["points"].to_list()
