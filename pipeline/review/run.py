"""One review run: the decisions not reviewed yet, valued on worker processes, stored.

Under the import lock (imports and reviews of one database queue), the
decisions to do are read from the database, valued in batches (whole
player-hands) on local worker processes (the import's pool,
``pipeline.load.executors``) or a Dask cluster, with a progress bar. Finished
batches are committed as the run goes (``Commits``): each commit writes into
a copy of the database that replaces it atomically (``pipeline.load.snapshot``),
as an import does, so readers are never disturbed and a run stopped midway
(Ctrl-C, SIGTERM: at the next finished batch, what is finished is stored
first; a second Ctrl-C or a kill: at once, the last commit stands) keeps what
it committed. A decision is reviewed once: the next run
skips the player-hands already in ``decisions`` and continues with the rest.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from ofc_core.errors import UserError, did_you_mean
from ofc_core.paths import check_not_a_folder, check_not_under_a_file
from pipeline.load import database
from pipeline.load.executors import run_functions
from pipeline.load.progress import Progress
from pipeline.load.recompute import ruleset_loader
from pipeline.load.snapshot import Paths, import_lock, remove_work, start_copy, swap_in
from pipeline.review.spots import Spot, load_spots
from pipeline.review.value import Reviewed, has_choice, review_spot

#: Decisions per task sent to a worker, at least (whole player-hands).
BATCH = 25
#: Seconds between commits, at least ...
COMMIT_SECONDS = 30.0
#: ... and at least this many times the last commit's own time (a large database's copy).
COMMIT_FACTOR = 10.0


@dataclass(frozen=True)
class ReviewOptions:
    """What ``ofc review`` was asked to do."""

    db: Path
    players: tuple[str, ...] | None  # None: every player whose cards the history shows
    since: dt.datetime | None = None
    rollouts: int = 2000
    fantasyland_value: float | None = None
    workers: int = 1
    rules_file: str | None = None
    scheduler: str | None = None  # a Dask scheduler's address; None: local processes


@dataclass(frozen=True)
class ReviewSummary:
    """What a run did (``interrupted``: stopped by Ctrl-C or SIGTERM, ``reviewed`` stored)."""

    db: Path
    reviewed: int
    seconds: float
    median_se_loss: float | None
    interrupted: bool = False


def review_batch(
    spots: list[Spot], rollouts: int, worth: float | None, rules_file: str | None
) -> list[Reviewed]:
    """Value a batch of decisions (runs on a worker)."""
    load = ruleset_loader(rules_file)
    return [review_spot(spot, load(spot.ruleset), rollouts, worth) for spot in spots]


def _batches(spots: list[Spot], options: ReviewOptions) -> Iterator[tuple]:
    """Tasks of at least ``BATCH`` decisions, never splitting a player-hand (whose
    decisions are stored together)."""
    start = 0
    while start < len(spots):
        end = min(start + BATCH, len(spots))
        while end < len(spots) and spots[end].key[:2] == spots[end - 1].key[:2]:
            end += 1
        yield (spots[start:end], options.rollouts, options.fantasyland_value, options.rules_file)
        start = end


def _check(options: ReviewOptions) -> None:
    check_not_a_folder(options.db)
    check_not_under_a_file(options.db, "--db")
    if not options.db.is_file():
        raise UserError(
            f"{options.db} does not exist: `ofc import PATH... --db {options.db}` makes it"
        )
    if options.rollouts < 2:
        raise UserError(f"--rollouts must be at least 2, not {options.rollouts}")
    version = database.schema_version(options.db)
    if version is None:
        raise UserError(database.schema_problem(options.db, None))
    if version not in (database.SCHEMA_VERSION, *database.UPGRADABLE):
        raise UserError(database.schema_problem(options.db, version))


def _todo(options: ReviewOptions, progress: Progress) -> list[Spot]:
    """The decisions not reviewed yet (read-only; an older database has no ``decisions``)."""
    con = duckdb.connect(str(options.db), read_only=True)
    try:
        if options.players is not None:
            _check_players(con, options.players)
        progress.phase(f"reading the decisions to review from {options.db.name}")
        if not con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'decisions'"
        ).fetchall()[0][0]:
            con.execute("CREATE TEMP TABLE decisions (hand_id VARCHAR, player VARCHAR)")
        return [s for s in load_spots(con, options.players, options.since) if has_choice(s)]
    finally:
        con.close()


def _check_rulesets(spots: list[Spot], rules_file: str | None) -> None:
    """Every ruleset the decisions were played under is known (before any worker starts)."""
    load = ruleset_loader(rules_file)
    for name in sorted({spot.ruleset for spot in spots}):
        try:
            load(name)
        except UserError as error:
            hint = (
                ""
                if rules_file
                else ": hands imported with a ruleset of a rules file are reviewed with the"
                " same --rules-file (docs/rulesets.md)"
            )
            raise UserError(f"{error}{hint}") from None


#: Players whose cards the histories show: the ones ``load_spots`` can review.
_SHOWN_SQL = """
    SELECT p.player, count(*) AS hands FROM player_hands AS p
    WHERE p.hidden_discards = 0
      AND EXISTS (SELECT 1 FROM placements AS x WHERE x.hand_id = p.hand_id AND x.seat = p.seat)
    GROUP BY p.player ORDER BY hands DESC, p.player
"""


def _most(shown: list[str]) -> str:
    """The first three of ``shown`` (most hands first), as a message lists them."""
    return ", ".join(map(repr, shown[:3])) + (" ..." if len(shown) > 3 else "") or "nobody"


def _check_players(con: duckdb.DuckDBPyConnection, players: tuple[str, ...]) -> None:
    """Each of ``players`` is in the database and has cards the histories show."""
    known = [row[0] for row in con.execute("SELECT DISTINCT player FROM player_hands").fetchall()]
    shown = [row[0] for row in con.execute(_SHOWN_SQL).fetchall()]
    for name in players:
        if name not in known:
            hint = did_you_mean(name, known)
            raise UserError(
                f"no player {name!r} in the database{hint}"
                if hint
                else f"no player {name!r} in the database: give a name as the hands spell it; "
                f"the players whose cards the histories show include {_most(shown)} (the "
                "dashboard's Players page lists every player)"
            )
        if name not in shown:
            some = ", ".join(map(repr, shown[:5])) + (" ..." if len(shown) > 5 else "")
            who = f": {some}" if shown else ": none in this database"
            raise UserError(
                f"{name!r} cannot be reviewed: the histories do not show all the cards {name} "
                "was dealt (a room's history shows every card of its owner only, not an "
                "opponent's discards); only a player whose cards the files show can be "
                f"reviewed{who}"
            )


@dataclass
class Commits:
    """Finished decisions, committed to the database every ``COMMIT_SECONDS`` (at least
    ``COMMIT_FACTOR`` times the last commit's time) and when asked."""

    paths: Paths
    stored: list[Reviewed] = field(default_factory=list)
    pending: list[Reviewed] = field(default_factory=list)
    due: float = 0.0

    def __post_init__(self) -> None:
        self.due = time.monotonic() + COMMIT_SECONDS

    def add(self, batch: list[Reviewed]) -> None:
        self.pending.extend(batch)
        if time.monotonic() >= self.due:
            self.commit()

    def commit(self) -> None:
        """Store the pending decisions now (also with none: upgrades an older database)."""
        began = time.monotonic()
        _store(self.paths, self.pending)
        self.stored += self.pending
        self.pending = []
        now = time.monotonic()
        self.due = now + max(COMMIT_SECONDS, COMMIT_FACTOR * (now - began))


class _StopRequested(Exception):
    """Ctrl-C or SIGTERM arrived: the run stops after the batch at hand."""


@contextmanager
def _stop_signals() -> Iterator[threading.Event]:
    """Ctrl-C and SIGTERM set the event: the run stops at the next finished batch and
    stores what is finished (raising from the handler could land inside compiled or
    DuckDB code). A second one exits at once, like a kill: the last commit stands."""
    requested = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield requested  # only the main thread may handle signals
        return

    def handler(signum, frame) -> None:
        if requested.is_set():
            os._exit(128 + signum)
        requested.set()

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield requested
    finally:
        for number, action in previous.items():
            signal.signal(number, action)


def run_review(options: ReviewOptions, progress: Progress) -> ReviewSummary:
    """Review what is not reviewed yet (see the module docstring)."""
    began = time.monotonic()
    _check(options)
    paths = Paths(options.db.resolve())
    with (
        import_lock(paths, on_wait=lambda: progress.phase("waiting for an import to finish")),
        _stop_signals() as stop,
    ):
        spots = _todo(options, progress)
        _check_rulesets(spots, options.rules_file)
        progress.start(len(spots))
        commits = Commits(paths)

        def on_result(batch: list[Reviewed]) -> None:
            progress.add(len(batch), 0, len(batch))
            commits.add(batch)
            if stop.is_set():
                raise _StopRequested

        workers = min(options.workers, max(1, len(spots) // BATCH))
        try:
            tasks = _batches(spots, options)
            run_functions(review_batch, tasks, workers, on_result, options.scheduler)
        except _StopRequested:
            pass
        progress.close()
        if commits.pending:
            progress.phase(_storing(len(commits.pending), len(commits.stored), paths.db.name))
        if commits.pending or not commits.stored:
            commits.commit()
    results = commits.stored
    losses = [r.se_loss for r in results if (r.rollouts or 0) > 1 and r.ev_loss > 0]
    median = float(pl.Series(losses).median()) if losses else None
    return ReviewSummary(paths.db, len(results), time.monotonic() - began, median, stop.is_set())


def _storing(pending: int, stored: int, db: str) -> str:
    """What the last commit is doing, beside what earlier commits stored.

    >>> _storing(3412, 18271, "hands.duckdb")
    'storing the last 3,412 decisions in hands.duckdb (18,271 stored as the review went)'
    >>> _storing(40, 0, "hands.duckdb")
    'storing 40 decisions in hands.duckdb'
    """
    if not stored:
        return f"storing {pending:,} decisions in {db}"
    return f"storing the last {pending:,} decisions in {db} ({stored:,} stored as the review went)"


def _frame(results: list[Reviewed]) -> pl.DataFrame:
    reviewed_at = dt.datetime.now(dt.UTC)
    return pl.DataFrame([asdict(r) for r in results], infer_schema_length=None).with_columns(
        reviewed_at=pl.lit(reviewed_at)
    )


#: New decisions only: a commit interrupted after its swap may be offered again.
_INSERT = """
    INSERT INTO decisions BY NAME SELECT * FROM reviewed AS r
    WHERE NOT EXISTS (SELECT 1 FROM decisions AS d WHERE d.hand_id = r.hand_id
                      AND d.player = r.player AND d.street = r.street)
"""


def _store(paths: Paths, results: list[Reviewed]) -> None:
    """Write ``results`` into a copy of the database and swap it in (also upgrades an older one).

    Interrupted, the database is untouched (the copy is removed) and DuckDB's
    ``InterruptException`` is raised; the caller may store ``results`` again.
    """
    run = f"{os.getpid()}-{time.time_ns()}"
    try:
        work = start_copy(paths, run)
        con = database.connect(work)
        try:
            if results:
                con.register("reviewed", _frame(results))
                con.execute(_INSERT)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        swap_in(work, paths)
    finally:
        remove_work(paths, run)
