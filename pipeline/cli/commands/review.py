"""``ofc review``: every decision of an archive valued, the chosen play against the best.

Each street decision of the players whose cards the history shows is valued
by ``ofc decide`` (the chosen placement followed on the same random cards as
the best), each Fantasyland set by ``ofc solve``; the results go to the
database's ``decisions`` table (docs/schema.md), once per decision
(docs/decisions.md, "Reviewing an archive").
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from pathlib import Path

from ofc_core.errors import UserError
from pipeline.cli.options import add_fantasyland_value, add_rollouts, dask_scheduler
from pipeline.decisions.decide import DEFAULT_ROLLOUTS
from pipeline.report.format import MISSING


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", required=True, type=Path, metavar="FILE", help="the DuckDB file `ofc import` made"
    )
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--player", action="append", metavar="NAME", help="review this player (repeatable)"
    )
    who.add_argument(
        "--all", action="store_true", help="every player whose cards the histories show"
    )
    parser.add_argument(
        "--since", metavar="DATE", help="only hands played on or after DATE (YYYY-MM-DD, UTC)"
    )
    add_rollouts(parser, DEFAULT_ROLLOUTS, "rollouts of the best and the chosen placement")
    add_fantasyland_value(
        parser,
        help="points staying in Fantasyland is worth, 0 or more (default: measured per "
        "ruleset, docs/decisions.md)",
    )
    parser.add_argument("--rules-file", help="a TOML file defining the hands' custom rulesets")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="parallel worker processes (default: the number of cores)",
    )
    parser.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="where decisions are valued: local processes, or a Dask cluster (--scheduler)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="the Dask scheduler for --engine dask (tcp://HOST:PORT)",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no progress output, only the closing summary"
    )


def _since(text: str | None) -> dt.datetime | None:
    if text is None:
        return None
    try:
        return dt.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=dt.UTC)
    except ValueError:
        raise UserError(f"--since {text!r}: give a date as YYYY-MM-DD") from None


def run(args: argparse.Namespace) -> int:
    from pipeline.load.progress import Progress
    from pipeline.review.run import ReviewOptions, run_review

    scheduler = dask_scheduler(args.engine, args.scheduler)
    if args.workers < 1:
        raise UserError("--workers must be 1 or more")
    options = ReviewOptions(
        db=args.db,
        players=None if args.all else tuple(args.player),
        since=_since(args.since),
        rollouts=args.rollouts,
        fantasyland_value=args.fantasyland_value,
        workers=args.workers,
        rules_file=args.rules_file,
        scheduler=scheduler,
    )
    progress = Progress(
        quiet=args.quiet, command="ofc review", unit="decisions", verb="reviewed", rejects=False
    )
    summary = run_review(options, progress)
    median = (
        ""
        if summary.median_se_loss is None
        else f"; median se_loss {summary.median_se_loss:.3f} points (of the losses by rollouts)"
    )
    if summary.interrupted:
        print(
            f"ofc review: interrupted; {summary.reviewed:,} decision(s) reviewed are stored in "
            f"{summary.db}: run the same command again to review the rest",
            file=sys.stderr,
        )
        return 130
    print(
        f"reviewed {summary.reviewed:,} decision(s) in {summary.seconds:.1f} s into "
        f"{summary.db} (table decisions){median}",
        file=sys.stdout,
    )
    for line in player_lines(summary.db, options.players):
        print(line, file=sys.stdout)
    return 0


#: Players listed after a review, at most (most reviewed hands first).
LISTED = 10


def player_lines(db: Path, players: tuple[str, ...] | None) -> list[str]:
    """What every review of ``db`` so far says of ``players`` (None: the players with most
    reviewed hands): EV lost per 100 hands with its 95% interval and n, and the mistakes
    (losses beyond two standard errors), as ``ofc report`` shows them."""
    import duckdb

    from pipeline.report.decisions import decision_review

    con = duckdb.connect(str(db), read_only=True)
    try:
        ranked = con.execute(
            "SELECT player, count(DISTINCT hand_id) AS hands FROM decisions"
            " WHERE $all OR list_contains($players, player)"
            " GROUP BY player ORDER BY hands DESC, player",
            {"all": players is None, "players": list(players or ())},
        ).fetchall()
        lines = []
        for player, _ in ranked[:LISTED]:
            review = decision_review(con, player)
            mistakes = int(review.by_kind["mistakes"].sum()) if len(review.by_kind) else 0
            lines.append(
                f"  {player}: {_loss(review.per_100)} points per 100 hands (95% "
                f"{_loss(review.low)} to {_loss(review.high)}; n {review.hands:,} hands), "
                f"{mistakes:,} mistake(s)"
            )
    finally:
        con.close()
    if not lines:
        return []
    more = f" ({len(ranked) - LISTED:,} more players)" if len(ranked) > LISTED else ""
    return [
        f"EV lost against the best play, every review of the database so far{more}:",
        *lines,
        "Each decision: `ofc report --player NAME` or the dashboard's Decisions page.",
    ]


def _loss(value: float | None) -> str:
    """Points lost per 100 hands as shown (no sign: a loss is 0 or more)."""
    return MISSING if value is None else f"{value:,.1f}"
