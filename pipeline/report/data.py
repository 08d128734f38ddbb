"""What a player's report shows, read from an ``ofc import`` database (read-only).

Every figure comes from the tables of docs/schema.md; the population a
player is compared with is every player of the database (each player counts
once: the mean of their figures).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from ofc_core.errors import UserError

#: Points drawn at most on the cumulative points chart (hands are bucketed beyond).
MAX_POINTS = 1500
AUDIT_ROWS = 100

STYLE_FIGURES = {
    "bottom_aggression": "bottom aggression",
    "foul_rate": "foul rate",
    "foul_rate_drawing": "foul rate when drawing",
    "top_qq_plus_by_street2_share": "QQ+ on top by street 2",
    "first_street_pair_share": "street 1: pair on bottom",
    "first_street_flush_draw_share": "street 1: flush draw on bottom",
    "first_street_straight_draw_share": "street 1: straight draw on bottom",
    "bottom_flush_share": "final bottom: flush",
    "bottom_full_house_share": "final bottom: full house",
}
FANTASYLAND_FIGURES = {
    "fantasyland_entry_rate": "entry rate",
    "fantasyland_stay_rate": "stay rate",
    "fantasyland_share": "share of hands in Fantasyland",
}


@dataclass(frozen=True)
class PlayerReport:
    """Everything one player's page shows."""

    player: str
    summary: pl.DataFrame  # player_summary rows (variant 'all' first)
    style: pl.DataFrame  # figure, label, player, population
    style_intervals: pl.DataFrame  # style_metrics 'all' row of the player
    fantasyland: pl.DataFrame  # figure, label, player, population
    cumulative: pl.DataFrame  # hand, played_at, points (cumulative)
    fouls_by_setup: pl.DataFrame  # setup, hands, foul_rate
    audit: pl.DataFrame  # audit_mismatches rows of the player (latest first)
    audit_total: int
    money: pl.DataFrame  # currency, hands, money: hands played for money, by currency


def connect(db: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a database made by ``ofc import``."""
    if not db.is_file():
        raise UserError(f"no database at {db}: make one with `ofc import PATH... --db {db}`")
    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as error:
        raise UserError(f"cannot open {db} as a DuckDB database: {error}") from None
    tables = {row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if "player_summary" not in tables:
        con.close()
        raise UserError(f"{db} is not a database made by `ofc import` (no player_summary table)")
    return con


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pl.DataFrame:
    return con.sql(sql, params=params).pl()


def players(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every player, by name."""
    rows = con.execute(
        "SELECT player FROM player_summary WHERE variant = 'all' ORDER BY player"
    ).fetchall()
    return [row[0] for row in rows]


def check_player(con: duckdb.DuckDBPyConnection, name: str) -> None:
    known = players(con)
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UserError(f"no player {name!r} in the database{hint}")


def _versus(con, table: str, figures: dict[str, str], player: str) -> pl.DataFrame:
    columns = ", ".join(
        f'max({f}) FILTER (WHERE player = $player) AS "p_{f}", avg({f}) AS "a_{f}"' for f in figures
    )
    row = con.execute(
        f"SELECT {columns} FROM {table} WHERE variant = 'all'", {"player": player}
    ).fetchall()[0]
    return pl.DataFrame(
        {
            "figure": list(figures),
            "label": list(figures.values()),
            "player": [row[2 * i] for i in range(len(figures))],
            "population": [row[2 * i + 1] for i in range(len(figures))],
        },
        schema={
            "figure": pl.String,
            "label": pl.String,
            "player": pl.Float64,
            "population": pl.Float64,
        },
    )


def _cumulative(con, player: str) -> pl.DataFrame:
    return _frame(
        con,
        """
        WITH ordered AS (
            SELECT played_at, hand_id,
                row_number() OVER (ORDER BY played_at, hand_id) AS hand,
                sum(points) OVER (ORDER BY played_at, hand_id ROWS UNBOUNDED PRECEDING) AS points
            FROM player_hands WHERE player = $player
        ),
        bucketed AS (
            SELECT *, (hand - 1) * $max // (SELECT count(*) FROM ordered) AS bucket FROM ordered
        )
        SELECT max(hand) AS hand, max(played_at) AS played_at, arg_max(points, hand) AS points
        FROM bucketed GROUP BY bucket ORDER BY hand
        """,
        {"player": player, "max": MAX_POINTS},
    )


def _fouls_by_setup(con, player: str) -> pl.DataFrame:
    return _frame(
        con,
        """
        SELECT first_street_bottom AS setup, count(*) AS hands,
            avg(foul::INTEGER) AS foul_rate
        FROM player_hands
        WHERE player = $player AND NOT in_fantasyland AND NOT timed_out
          AND first_street_bottom IS NOT NULL
        GROUP BY ALL ORDER BY setup
        """,
        {"player": player},
    )


def player_report(con: duckdb.DuckDBPyConnection, player: str) -> PlayerReport:
    """The data of one player's report."""
    summary = _frame(
        con,
        "SELECT * FROM player_summary WHERE player = $player ORDER BY variant <> 'all', variant",
        {"player": player},
    )
    audit = _frame(
        con,
        "SELECT * FROM audit_mismatches WHERE player = $player "
        "ORDER BY played_at DESC, hand_id LIMIT $rows",
        {"player": player, "rows": AUDIT_ROWS},
    )
    total = con.execute(
        "SELECT count(*) FROM audit_mismatches WHERE player = ?", [player]
    ).fetchall()[0][0]
    return PlayerReport(
        player=player,
        summary=summary,
        style=_versus(con, "style_metrics", STYLE_FIGURES, player),
        style_intervals=_frame(
            con,
            "SELECT * FROM style_metrics WHERE player = $player AND variant = 'all'",
            {"player": player},
        ),
        fantasyland=_versus(con, "player_summary", FANTASYLAND_FIGURES, player),
        cumulative=_cumulative(con, player),
        fouls_by_setup=_fouls_by_setup(con, player),
        audit=audit,
        audit_total=total,
        money=_frame(
            con,
            "SELECT h.currency, count(*) AS hands, sum(ph.money) AS money "
            "FROM player_hands AS ph JOIN hands AS h USING (hand_id) "
            "WHERE ph.player = $player AND h.currency IS NOT NULL GROUP BY ALL ORDER BY 1",
            {"player": player},
        ),
    )
