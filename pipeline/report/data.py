"""What a player's report shows, read from an ``ofc import`` database (read-only).

Every figure comes from the tables of docs/schema.md. The population a player
is compared with is the dashboard's and ``ofc audit``'s: every player-hand of
the database pooled (``pipeline.report.audit``); each metric has its n and 95%
interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from ofc_core.errors import UserError, did_you_mean
from ofc_core.paths import check_not_a_folder
from pipeline.load import database
from pipeline.load.metrics import definitions, intervals
from pipeline.report.audit import Audit, audit, by_variant
from pipeline.report.decisions import OF_VARIANT, DecisionReview, decision_review

#: Points drawn at most on the cumulative points chart (hands are bucketed beyond).
MAX_POINTS = 1500
AUDIT_ROWS = 100

#: Shares of the style table besides the metrics, with the count each is a share of.
STYLE_SHARES = {
    "first_street_pair_share": ("street 1: pair or better on the bottom", "first_street_hands"),
    "first_street_flush_draw_share": ("street 1: flush draw on the bottom", "first_street_hands"),
    "first_street_straight_draw_share": (
        "street 1: straight draw on the bottom",
        "first_street_hands",
    ),
    "bottom_flush_share": ("final bottom: flush", "live_hands"),
    "bottom_full_house_share": ("final bottom: full house", "live_hands"),
}
#: A report over every variant, or the variant it names.
ALL = "all"
#: Keeps the rows of the report's variant (``$variant``; ``all``: every row). Tables with a
#: ``variant`` row per player and ``all`` keep that row; ``IN_VARIANT_HANDS`` asks ``hands``.
IN_VARIANT = "($variant = 'all' OR variant = $variant)"
IN_VARIANT_HANDS = f"($variant = 'all' OR {OF_VARIANT})"

#: The key figures of each variant, each with its n and 95% interval.
KEY_FIGURES = (
    definitions.POINTS_PER_HAND,
    definitions.FOUL_RATE,
    definitions.SCOOP_RATE,
    definitions.ROWS_WON,
    definitions.ROYALTIES_PER_HAND,
)
#: First-street bottom setups as the report names them.
SETUPS = {
    "pair_or_better": "pair or better",
    "flush_draw": "flush draw",
    "straight_draw": "straight draw",
    "high_cards": "high cards",
}


class Frames:
    """A DuckDB connection answering queries as polars frames (what ``audit`` needs)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def frame(self, sql: str, params: list[object] | None = None) -> pl.DataFrame:
        return self.con.sql(sql, params=params or []).pl()


@dataclass(frozen=True)
class PlayerReport:
    """Everything one player's page shows."""

    player: str
    summary: pl.DataFrame  # player_summary rows (variant 'all' first; the variant's alone)
    key: pl.DataFrame  # variant, hands, points, KEY_FIGURES with _n, _low, _high ('all' first)
    findings: Audit  # every metric against the pooled population, in the report's variants
    shares: pl.DataFrame  # label, player, n, low, high, population(_n, _low, _high)
    cumulative: pl.DataFrame  # hand, played_at, points (cumulative)
    fouls_by_setup: pl.DataFrame  # setup, hands, foul_rate, low, high
    audit: pl.DataFrame  # audit_mismatches rows of the player (latest first)
    audit_total: int
    money: pl.DataFrame  # currency, hands, money, money_per_hand, _low, _high: per currency
    decisions: DecisionReview  # value lost against the best play (ofc review)
    variant: str = ALL  # the variant the report covers (``all``: every one)


def missing_database(db: Path) -> UserError:
    """The error for a ``--db`` that is not a file: a folder, or nothing yet."""
    check_not_a_folder(db)
    return UserError(f"no database at {db}: make one with `ofc import PATH... --db {db}`")


def connect(db: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a database made by ``ofc import``."""
    if not db.is_file():
        raise missing_database(db)
    problem = database.schema_problem(db, database.schema_version(db))
    if problem:
        raise UserError(problem)
    return duckdb.connect(str(db), read_only=True)


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pl.DataFrame:
    return con.sql(sql, params=params).pl()


def players(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every player, by name."""
    rows = con.execute(
        "SELECT player FROM player_summary WHERE variant = 'all' ORDER BY player"
    ).fetchall()
    return [row[0] for row in rows]


def check_player(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """A ``UserError`` unless ``name`` is a player of the database: it names the closest
    names, or else the players with most hands (names are exact, case counts)."""
    known = players(con)
    if name in known:
        return
    hint = did_you_mean(name, known)
    if not hint and known:
        most = con.execute(
            "SELECT player FROM player_summary WHERE variant = 'all'"
            " ORDER BY hands DESC, player LIMIT 3"
        ).fetchall()
        hint = (
            f"; its {len(known):,} players include {', '.join(repr(p) for (p,) in most)}"
            " (most hands first; the dashboard's Players page lists them all)"
        )
    raise UserError(f"no player {name!r} in the database{hint}")


def check_variant(con: duckdb.DuckDBPyConnection, player: str, variant: str) -> None:
    """A ``UserError`` unless ``player`` has hands in ``variant``, listing the variants they
    have and a close match."""
    known = [
        row[0]
        for row in con.execute(
            "SELECT variant FROM player_summary WHERE player = ? AND variant <> 'all' "
            "ORDER BY variant",
            [player],
        ).fetchall()
    ]
    if variant in known:
        return
    raise UserError(
        f"{player!r} has no hands in variant {variant!r}{did_you_mean(variant, known, n=2)}"
        f" (their variants: {', '.join(known) or 'none'})"
    )


def _shares(con, player: str, variant: str) -> pl.DataFrame:
    """The player's ``STYLE_SHARES`` and the pooled population's, each with its n and
    Wilson interval."""
    parts = ", ".join(
        f'sum({column} * {base}) FILTER (WHERE player = $player) AS "k_{column}", '
        f'max({base}) FILTER (WHERE player = $player) AS "n_{column}", '
        f'sum({column} * {base}) AS "pk_{column}", sum({base}) AS "pn_{column}"'
        for column, (_, base) in STYLE_SHARES.items()
    )
    row = con.execute(
        f"SELECT {parts} FROM style_metrics WHERE variant = $variant",
        {"player": player, "variant": variant},
    ).fetchall()[0]
    rows = [
        {"figure": column, "label": label, "k": k or 0.0, "n": n or 0.0}
        | {"population_k": pk or 0.0, "population_n": pn or 0.0}
        for (column, (label, _)), (k, n, pk, pn) in zip(
            STYLE_SHARES.items(), zip(*[iter(row)] * 4, strict=True), strict=True
        )
    ]
    shares = intervals.with_rate(pl.DataFrame(rows), "player", "k", "n")
    shares = intervals.with_rate(shares, "population", "population_k", "population_n")
    return shares.rename({"player_low": "low", "player_high": "high"})


def _cumulative(con, player: str, variant: str) -> pl.DataFrame:
    return _frame(
        con,
        f"""
        WITH ordered AS (
            SELECT played_at, hand_id,
                row_number() OVER (ORDER BY played_at, hand_id) AS hand,
                sum(points) OVER (ORDER BY played_at, hand_id ROWS UNBOUNDED PRECEDING) AS points
            FROM player_hands WHERE player = $player AND {IN_VARIANT}
        ),
        bucketed AS (
            SELECT *, (hand - 1) * $max // (SELECT count(*) FROM ordered) AS bucket FROM ordered
        )
        SELECT max(hand) AS hand, max(played_at) AS played_at, arg_max(points, hand) AS points
        FROM bucketed GROUP BY bucket ORDER BY hand
        """,
        {"player": player, "max": MAX_POINTS, "variant": variant},
    )


_FOULS_BY_SETUP = f"""
SELECT first_street_bottom AS setup, count(*) AS hands, count(*) FILTER (WHERE foul) AS fouls
FROM player_hands
WHERE player = $player AND NOT in_fantasyland AND NOT timed_out
  AND first_street_bottom IS NOT NULL AND {IN_VARIANT}
GROUP BY ALL
ORDER BY setup
"""


def _fouls_by_setup(con, player: str, variant: str) -> pl.DataFrame:
    found = _frame(con, _FOULS_BY_SETUP, {"player": player, "variant": variant})
    found = intervals.with_rate(found, "foul_rate", "fouls", "hands")
    return found.rename({"foul_rate_low": "low", "foul_rate_high": "high"}).with_columns(
        pl.col("setup").replace(SETUPS)
    )


_MONEY = f"""
SELECT currency, count(*) AS hands, sum(money) AS money, sum(money * money) AS squares
FROM player_hands
WHERE player = $player AND currency IS NOT NULL AND money IS NOT NULL AND {IN_VARIANT}
GROUP BY currency
ORDER BY currency
"""


def _key(con, player: str, variant: str, summary: pl.DataFrame) -> pl.DataFrame:
    """``KEY_FIGURES`` per variant from ``player_metrics`` (one definition), with hands and
    points from ``summary``, in its order."""
    columns = ", ".join(definitions.stat_columns(KEY_FIGURES))
    stats = _frame(
        con,
        f"SELECT variant, {columns} FROM player_metrics WHERE player = $player AND {IN_VARIANT}",
        {"player": player, "variant": variant},
    )
    figures = definitions.with_figures(stats, KEY_FIGURES).drop(
        definitions.stat_columns(KEY_FIGURES)
    )
    return summary.select("variant", "hands", "points").join(
        figures, on="variant", how="left", maintain_order="left"
    )


def player_report(con: duckdb.DuckDBPyConnection, player: str, variant: str = ALL) -> PlayerReport:
    """The data of one player's report, over every variant (``all``) or one."""
    args = {"player": player, "variant": variant}
    summary = _frame(
        con,
        f"SELECT * FROM player_summary WHERE player = $player AND {IN_VARIANT}"
        " ORDER BY variant <> 'all', variant",
        args,
    )
    mismatches = _frame(
        con,
        f"SELECT * FROM audit_mismatches WHERE player = $player AND {IN_VARIANT_HANDS}"
        " ORDER BY played_at DESC, hand_id LIMIT $rows",
        args | {"rows": AUDIT_ROWS},
    )
    total = con.execute(
        f"SELECT count(*) FROM audit_mismatches WHERE player = $player AND {IN_VARIANT_HANDS}",
        args,
    ).fetchall()[0][0]
    return PlayerReport(
        player=player,
        summary=summary,
        key=_key(con, player, variant, summary),
        findings=audit(Frames(con), player, *by_variant(variant)),
        shares=_shares(con, player, variant),
        cumulative=_cumulative(con, player, variant),
        fouls_by_setup=_fouls_by_setup(con, player, variant),
        audit=mismatches,
        audit_total=total,
        money=intervals.with_mean(
            _frame(con, _MONEY, args), "money_per_hand", "money", "squares", "hands"
        ),
        decisions=decision_review(con, player, variant),
        variant=variant,
    )
