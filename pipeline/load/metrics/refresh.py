"""Making the metric tables, or refreshing the part of them an import changed.

Each metric table is a query (``metrics/*.sql``, ``days``) over the stored
tables. ``rebuild`` makes every table from all of them. After an import that
added hands to tables already made, ``refresh`` recomputes only the rows the
import can have changed: those of the UTC days its hands were played on (the
tables kept per day or per hour, and ``audit_mismatches``) and those of its
players (the tables kept per player), and makes again the tables summed from
other metric tables. Which days and players those are, ``Touched`` records while
the load changes the stored rows: the stored rows of the hands it replaces
before it deletes them, the rows of the hands it adds and re-scores after.

On the simulated database of 10,000,000 hands (three players, in every hand) a
rebuild takes about 33 s, a refresh after adding 1,000 hands about 9 s, most of it
the per-player tables of players in every hand (docs/benchmarks.md). An import
adding a tenth of the stored hands or more rebuilds (``REBUILD_SHARE``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

import duckdb

from pipeline.load.metrics import days, definitions

#: A day in microseconds: the tables group the UTC day as days since 1970.
DAY_US = 86_400_000_000


def _day(column: str) -> str:
    """SQL: the UTC day of the time ``column``, as days since 1970 (NULL for no time)."""
    return f"fdiv(epoch_us({column}), {DAY_US})::INTEGER"


@dataclass(frozen=True)
class MetricTable:
    """A metric table: its query, and what an import's refresh recomputes of it: its rows
    of the touched days (``day``: the SQL of a row's day), of the touched players
    (``by_player``), or the whole table (neither: it is summed from another metric table)."""

    name: str
    query: str
    day: str | None = None
    by_player: bool = False


def _query(name: str) -> str:
    return resources.files("pipeline.load.metrics").joinpath(f"{name}.sql").read_text("utf-8")


#: In order: ``player_summary`` and ``style_metrics`` read ``player_figures``, the
#: figures of ``player_metrics`` (registered between ``FIRST`` and ``THEN``).
FIRST = (
    MetricTable("audit_mismatches", _query("audit_mismatches"), day=_day("played_at")),
    MetricTable("player_days", days.PLAYER_DAYS_SQL, day="(day - DATE '1970-01-01')"),
    MetricTable("player_metrics", days.PLAYER_METRICS_SQL),
)
THEN = (
    MetricTable("player_summary", _query("player_summary"), by_player=True),
    MetricTable("style_metrics", _query("style_metrics"), by_player=True),
    MetricTable("pair_days", _query("pair_days"), day="(day - DATE '1970-01-01')"),
    MetricTable("player_pairs", _query("player_pairs")),
    MetricTable("player_hours", _query("player_hours"), day=_day("hour")),
)

#: The stored tables a query reads where its refresh narrows them: ``{name}`` in a query.
SOURCES = ("player_hands", "hands", "audit_mismatches")


def _in_touched_days(day: str) -> str:
    """SQL: whether the day ``day`` is one the import touched (a hand without a time has
    a NULL day, touched too when such a hand was)."""
    return (
        f"({day} IN (SELECT day FROM touched_days) OR ({day} IS NULL"
        " AND EXISTS (SELECT 1 FROM touched_days WHERE day IS NULL)))"
    )


_BY_PLAYER = "player IN (SELECT player FROM touched_players)"


def _narrowed(table: MetricTable) -> dict[str, str]:
    """The stored tables as ``table``'s refresh reads them."""
    if table.by_player:
        where = {"player_hands": _BY_PLAYER, "audit_mismatches": _BY_PLAYER}
    else:
        where = {"player_hands": _in_touched_days(_day("played_at"))}
        where["hands"] = where["player_hands"]
    return {name: f"(SELECT * FROM {name} WHERE {cond})" for name, cond in where.items()}


def _with_sources(query: str, sources: dict[str, str]) -> str:
    for name in SOURCES:
        query = query.replace(f"{{{name}}}", sources.get(name, name))
    return query


def _make(con: duckdb.DuckDBPyConnection, table: MetricTable) -> None:
    con.execute(f"CREATE OR REPLACE TABLE {table.name} AS {_with_sources(table.query, {})}")


def _refresh(con: duckdb.DuckDBPyConnection, table: MetricTable) -> None:
    if table.day is None and not table.by_player:
        _make(con, table)
        return
    stale = _BY_PLAYER if table.by_player else _in_touched_days(table.day)
    con.execute(f"DELETE FROM {table.name} WHERE {stale}")
    query = _with_sources(table.query, _narrowed(table))
    con.execute(f"INSERT INTO {table.name} BY NAME {query}")


def _each(
    con: duckdb.DuckDBPyConnection, step: Callable[[duckdb.DuckDBPyConnection, MetricTable], None]
) -> None:
    for table in FIRST:
        step(con, table)
    stats = con.sql("SELECT * FROM player_metrics").pl()
    con.register("player_figures", definitions.with_figures(stats))
    try:
        for table in THEN:
            step(con, table)
    finally:
        con.unregister("player_figures")


#: What the metric tables were made by: a digest of their queries, kept in ``meta``
#: (key ``metrics``). Tables made by other queries are made again, not refreshed.
QUERIES = hashlib.sha256("\n".join(t.query for t in FIRST + THEN).encode()).hexdigest()[:16]


def rebuild(con: duckdb.DuckDBPyConnection) -> None:
    """Make every metric table from all the stored rows."""
    _each(con, _make)
    con.execute("INSERT OR REPLACE INTO meta VALUES ('metrics', ?)", [QUERIES])


def _made(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether every metric table was made, by this version's queries."""
    names = [t.name for t in FIRST + THEN]
    found = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' "
        "AND database_name = current_database() AND list_contains(?, table_name)",
        [names],
    ).fetchall()[0][0]
    made_by = con.execute("SELECT value FROM meta WHERE key = 'metrics'").fetchall()
    return found == len(names) and made_by == [(QUERIES,)]


#: An import adding at least this share of the hands stored before it makes the metric
#: tables again: recomputing most of their days costs more than making them (1,000,000
#: hands into a database of 1,000,000: loading 21.6 s rebuilt, 25.1 s refreshed).
REBUILD_SHARE = 0.1


class Touched:
    """The (player, UTC day) pairs of the rows a load changes, in temp table ``touched``;
    nothing is recorded where the metric tables are to be made whole: a new database,
    tables made by other queries, or an import of ``adding`` hands that is large beside
    the hands stored."""

    def __init__(self, con: duckdb.DuckDBPyConnection, adding: int) -> None:
        self.con = con
        stored = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
        self.made = _made(con) and adding < REBUILD_SHARE * stored
        con.execute("CREATE OR REPLACE TEMP TABLE touched (player VARCHAR, day INTEGER)")

    def rows_of(self, hand_ids: str) -> None:
        """Record the stored rows of the hands ``hand_ids`` (SQL: a query of hand ids): the
        days of both their ``player_hands`` and ``hands`` times, which a database written by
        an older version may hold apart."""
        if not self.made:
            return
        self.con.execute(f"""
            INSERT INTO touched SELECT DISTINCT player, day FROM (
                SELECT p.player, unnest([{_day("p.played_at")}, {_day("h.played_at")}]) AS day
                FROM player_hands AS p JOIN hands AS h USING (hand_id)
                WHERE p.hand_id IN ({hand_ids})
            )
        """)

    def refresh(self) -> None:
        """Bring the metric tables up to date: refreshed, or made whole (see the class)."""
        if not self.made:
            rebuild(self.con)
            return
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE touched_days AS SELECT DISTINCT day FROM touched"
        )
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE touched_players AS SELECT DISTINCT player FROM touched"
        )
        _each(self.con, _refresh)
