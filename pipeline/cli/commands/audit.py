"""``ofc audit``: a player's metrics against the population and their leaks, for batch use.

The same audit as the dashboard's Coach audit page (``pipeline.report.audit``),
over all dates and stakes, in all variants or one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ofc_core.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", required=True, type=Path, metavar="FILE", help="DuckDB file made by `ofc import`"
    )
    parser.add_argument("--player", required=True, metavar="NAME", help="the screen name, exactly")
    parser.add_argument("--variant", metavar="NAME", help="one variant only (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON (default: a table)")


class _Connection:
    """A read-only DuckDB connection that answers queries as polars frames."""

    def __init__(self, con) -> None:
        self.con = con

    def frame(self, sql: str, params: list[object] | None = None):
        return self.con.sql(sql, params=params or []).pl()


def _checked(db: Path) -> None:
    from pipeline.load.database import schema_problem, schema_version
    from pipeline.report.data import missing_database

    if not db.is_file():
        raise missing_database(db)
    problem = schema_problem(db, schema_version(db))
    if problem:
        raise UserError(problem)


def _table(result) -> str:
    from pipeline.report.format import count, figure, interval

    lines = [f"{result.player}: {result.hands:,} hands", result.sample_note(), ""]
    width = max(len(f.label) for f in result.findings)
    for f in result.findings:
        shown = f"{figure(f.metric, f.value):>9} {interval(f.metric, f.low, f.high):<22}"
        population = (
            f"population {figure(f.metric, f.population):>9}"
            f" {interval(f.metric, f.population_low, f.population_high):<22}"
            f" n={count(f.population_n):<9}"
        )
        lines.append(f"{f.label:<{width}}  {shown} n={f.n:<8,.0f} {population} {f.verdict}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from pipeline.report.audit import audit, by_variant
    from pipeline.report.data import check_player, check_variant, connect

    _checked(args.db)
    con = connect(args.db)
    try:
        check_player(con, args.player)
        variant = args.variant or "all"
        if args.variant is not None:
            check_variant(con, args.player, variant)
        stats, params = by_variant(variant)
        result = audit(_Connection(con), args.player, stats, params)
    finally:
        con.close()
    if result is None:
        raise UserError(f"{args.player!r} has no hands in variant {variant!r}")
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        print(_table(result))
    return 0
