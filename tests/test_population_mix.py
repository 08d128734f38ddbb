"""The population a player is held against, over several variants: like for like.

Variants differ (a foul costs more in one, Fantasyland pays more in another),
so a pool over every variant is a different mix from any one player's. The
audit compares a player with the population's figure in the player's own mix
of variants (docs/metrics.md, "The population is pooled"); here a player of
the variant where everybody fouls more is not called worse for it, and one who
fouls more than the players of their own variant still is.
"""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from pipeline.load.metrics.definitions import stat_columns
from pipeline.report import audit
from pipeline.report.data import Frames

HANDS = 1000
#: Everybody's foul rate in each variant: 2-7 fouls far more than Pineapple; Turbo has
#: too few players to call a leak in.
FOULS = {"pineapple-27": 0.40, "pineapple": 0.10, "turbo": 0.20}
PLAYERS = {"pineapple-27": 12, "pineapple": 20, "turbo": 3}


def _row(player: str, variant: str, hands: int, fouls: int) -> dict[str, object]:
    row: dict[str, object] = dict.fromkeys(stat_columns(), 0.0)
    row.update(player=player, variant=variant, hands=hands)
    row.update(foul_rate__k=float(fouls), foul_rate__n=float(hands))
    return row


def _audit(player: str, own: list[tuple[str, int, int]], variant: str | None = None) -> audit.Audit:
    """``player`` with ``own`` rows (variant, hands, fouls) among the population above, in
    every variant or in ``variant`` alone."""
    rows = [_row(player, *row) for row in own]
    for played, count in PLAYERS.items():
        for i in range(count):
            fouls = round(FOULS[played] * HANDS)
            rows.append(_row(f"{played}-{i}", played, HANDS, fouls))
    con = duckdb.connect()
    try:
        con.register("stats", pl.DataFrame(rows))
        if variant is None:
            return audit.audit(Frames(con), player, "SELECT * FROM stats", [])
        return audit.audit(Frames(con), player, "SELECT * FROM stats WHERE variant = ?", [variant])
    finally:
        con.close()


def _foul(found: audit.Audit) -> audit.Finding:
    return next(f for f in found.findings if f.metric == "foul_rate")


def test_a_player_of_the_variant_that_fouls_more_is_compared_with_that_variant() -> None:
    found = _foul(_audit("Rita", [("pineapple-27", HANDS, 400)]))
    pooled_over_all = (13 * 400 + 20 * 100 + 3 * 200) / (36 * HANDS)
    assert found.high < 0.45 and found.low > pooled_over_all  # the pool would call it a leak
    assert found.population == pytest.approx(0.40)
    assert found.verdict == audit.IN_LINE


def test_a_mix_of_variants_is_weighted_by_the_players_own_hands() -> None:
    found = _foul(_audit("Mia", [("pineapple-27", 500, 200), ("pineapple", 500, 50)]))
    pineapple_27 = (12 * 400 + 200) / (12 * HANDS + 500)
    pineapple = (20 * 100 + 50) / (20 * HANDS + 500)
    assert found.population == pytest.approx((pineapple_27 + pineapple) / 2)
    assert found.value == pytest.approx(0.25) and found.verdict == audit.IN_LINE


def test_a_player_worse_than_their_own_variant_is_still_a_leak() -> None:
    found = _foul(_audit("Rex", [("pineapple-27", HANDS, 550)]))
    assert found.low > found.population and found.verdict == audit.LEAK


def test_the_populations_figure_has_its_n_and_interval() -> None:
    """In one variant, the variant's pooled trials and interval; over two, the trials of
    both and the variants' standard errors combined with the player's weights."""
    alone = _foul(_audit("Rita", [("pineapple-27", HANDS, 400)]))
    assert alone.population_n == 13 * HANDS
    assert alone.population_low < alone.population < alone.population_high
    assert alone.population_high - alone.population_low < alone.high - alone.low

    mixed = _foul(_audit("Mia", [("pineapple-27", 500, 200), ("pineapple", 500, 50)]))
    n27, n = 12 * HANDS + 500, 20 * HANDS + 500
    assert mixed.population_n == n27 + n
    p27, p = (12 * 400 + 200) / n27, (20 * 100 + 50) / n
    se = 0.5 * ((p27 * (1 - p27) / n27) + (p * (1 - p) / n)) ** 0.5  # Wald, for scale
    half = (mixed.population_high - mixed.population_low) / 2
    assert half == pytest.approx(1.96 * se, rel=0.02)
    assert mixed.population_low < mixed.population < mixed.population_high


def test_the_other_players_are_counted_in_the_players_own_variants() -> None:
    """Three others play Turbo: too few to call a leak in, however many play the other
    variants; the audit over every variant says what the audit of Turbo alone says."""
    everywhere = _audit("Kim", [("turbo", HANDS, 500)])
    in_turbo = _audit("Kim", [("turbo", HANDS, 500)], variant="turbo")
    for found in (everywhere, in_turbo):
        assert (found.population_players, found.pooled_players) == (3, 4)
        assert found.population_hands == 4 * HANDS and not found.enough
        assert _foul(found).verdict == audit.TOO_FEW_PLAYERS
        assert "only 3 other players have 100 hands" in found.sample_note()
    assert everywhere.findings == in_turbo.findings
