"""Results and rates of one player, or of everybody, in the current view: in all and per variant.

When the view is a player and a variant only, the answer comes from the
pre-aggregated ``player_summary``; with dates, stakes, a ruleset or an
opponent it is computed from ``player_hands`` (whose ``pairings`` and
``scoops`` count each player-hand's pairwise settlements) with the same
formulas (docs/metrics.md, ``pipeline/load/metrics``).
"""

from __future__ import annotations

from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, played_by, scope

#: z of a two-sided 95% interval.
Z95 = 1.959964
ALL = "all"

FIGURES = (
    "hands",
    "points",
    "points_per_hand",
    "points_per_hand_ci_low",
    "points_per_hand_ci_high",
    "money",
    "currencies",
    "foul_rate",
    "scoop_rate",
    "fantasyland_entry_rate",
    "fantasyland_stay_rate",
    "fantasyland_share",
    "points_per_fantasyland_hand",
    "royalties_per_hand",
)

_PLAYER_ROWS = f"SELECT variant, {', '.join(FIGURES)} FROM player_summary WHERE player = ?"

_EVERYBODY = """
SELECT
    variant,
    sum(hands) AS hands,
    sum(points) AS points,
    sum(points) / nullif(sum(hands), 0) AS points_per_hand,
    NULL AS points_per_hand_ci_low,
    NULL AS points_per_hand_ci_high,
    sum(money) AS money,
    NULL AS currencies,
    sum(fouls) / nullif(sum(hands), 0) AS foul_rate,
    sum(scoops) / nullif(sum(pairings), 0) AS scoop_rate,
    sum(fantasyland_entries) / nullif(sum(live_non_fantasyland_hands), 0)
        AS fantasyland_entry_rate,
    sum(fantasyland_stays) / nullif(sum(fantasyland_hands), 0) AS fantasyland_stay_rate,
    sum(fantasyland_hands) / nullif(sum(hands), 0) AS fantasyland_share,
    sum(points_per_fantasyland_hand * fantasyland_hands) / nullif(sum(fantasyland_hands), 0)
        AS points_per_fantasyland_hand,
    sum(royalties_per_hand * hands) / nullif(sum(hands), 0) AS royalties_per_hand
FROM player_summary
GROUP BY variant
"""

_COMPUTED = f"""
WITH stats AS (
    SELECT
        CASE WHEN grouping(variant) = 1 THEN '{ALL}' ELSE variant END AS variant,
        count(*) AS hands,
        sum(points) AS points,
        avg(points) AS points_per_hand,
        stddev_samp(points) AS sd,
        sum(money) AS money,
        count(*) FILTER (WHERE foul) AS fouls,
        count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland) AS live,
        count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland AND fantasyland_next) AS entries,
        count(*) FILTER (WHERE in_fantasyland) AS fl_hands,
        count(*) FILTER (WHERE in_fantasyland AND fantasyland_stay) AS stays,
        avg(points) FILTER (WHERE in_fantasyland) AS points_per_fantasyland_hand,
        avg(royalties) AS royalties_per_hand
    FROM player_hands p
    WHERE {{where}}
    GROUP BY GROUPING SETS ((variant), ())
)
SELECT
    variant,
    hands,
    points,
    points_per_hand,
    points_per_hand - {Z95} * sd / sqrt(hands) AS points_per_hand_ci_low,
    points_per_hand + {Z95} * sd / sqrt(hands) AS points_per_hand_ci_high,
    money,
    NULL AS currencies,
    fouls / nullif(hands, 0) AS foul_rate,
    NULL AS scoop_rate,
    entries / nullif(live, 0) AS fantasyland_entry_rate,
    stays / nullif(fl_hands, 0) AS fantasyland_stay_rate,
    fl_hands / nullif(hands, 0) AS fantasyland_share,
    points_per_fantasyland_hand,
    royalties_per_hand
FROM stats
WHERE hands > 0
"""

_SCOOPS = "SELECT sum(p.scoops) / nullif(sum(p.pairings), 0) FROM player_hands p WHERE {where}"

_POOLED_SCOOPS = (
    "SELECT sum(scoops) / nullif(sum(pairings), 0) FROM player_summary WHERE variant = ?"
)
_PLAYER_SCOOPS = "SELECT scoop_rate FROM player_summary WHERE player = ? AND variant = ?"


def scoop_rate(db: Database, filters: Filters) -> float | None:
    """Scoops / pairwise settlements of the hero (or everybody) in the view.

    Summed over the view's player-hands: the hero's, or everybody's; with an
    opponent and no hero, every player-hand of the opponent's hands, the
    opponent's too (both sides of every pair).
    """
    if filters.summarised:
        if filters.hero:
            return db.value(_PLAYER_SCOOPS, [filters.hero, filters.variant_key])
        return db.value(_POOLED_SCOOPS, [filters.variant_key])
    where = scope(filters)
    if filters.opponent and not filters.hero:
        where = played_by(scope(filters.population()), filters.opponent, "p")
    return db.value(_SCOOPS.format(where=where.sql), list(where.params))


def _rows(db: Database, sql: str, params: list[object]) -> dict[str, dict[str, object]]:
    return {row[0]: dict(zip(FIGURES, row[1:], strict=True)) for row in db.rows(sql, params)}


def summaries(db: Database, filters: Filters) -> dict[str, dict[str, object]]:
    """The figures of ``filters.hero`` (or everybody, without a hero), under the key
    ``all`` and under each variant; empty when there is no hand in the view.

    Computed views leave out the scoop rate (``scoop_rate``) and the currencies.
    """
    if filters.summarised:
        if filters.hero:
            found = _rows(db, _PLAYER_ROWS, [filters.hero])
        else:
            found = _rows(db, _EVERYBODY, [])
        if filters.variant:
            chosen = found.get(filters.variant)
            return {ALL: chosen, filters.variant: chosen} if chosen else {}
        return found
    where = scope(filters)
    return _rows(db, _COMPUTED.format(where=where.sql), list(where.params))


_MONEY = """
SELECT p.currency, sum(p.money) AS money
FROM player_hands p
WHERE p.money IS NOT NULL AND {where}
GROUP BY p.currency
ORDER BY abs(sum(p.money)) DESC
"""


def money_by_currency(db: Database, filters: Filters) -> list[tuple[str, float]]:
    """Money won in each currency (the hero's, in this view), largest amount first."""
    where = scope(filters)
    return [tuple(row) for row in db.rows(_MONEY.format(where=where.sql), list(where.params))]


def money(
    db: Database, filters: Filters, total: float | None, currencies: str | None
) -> list[tuple[str, float]]:
    """Money won per currency, given the view's ``total`` and ``currencies`` (from
    ``summaries``): read from the summary or the stake when there is one currency,
    queried per currency otherwise (``player_summary.money`` is NULL when currencies
    mix). Empty for play money.

    >>> money(None, Filters(stakes="0.5 USD"), 12.0, None)
    [('USD', 12.0)]
    >>> money(None, Filters(), 3.0, "EUR"), money(None, Filters(stakes="play"), None, None)
    ([('EUR', 3.0)], [])
    """
    _, _, stake_currency = (filters.stakes or "").partition(" ")
    if filters.stakes == "play" or (filters.summarised and not currencies):
        return []
    if currencies and "," not in currencies:
        return [(currencies, total)] if total is not None else []
    if stake_currency:
        return [(stake_currency, total)] if total is not None else []
    return money_by_currency(db, filters)
