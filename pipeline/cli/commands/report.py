"""``ofc report``: self-contained HTML reports per player from an ``ofc import`` database."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", required=True, type=Path, metavar="FILE", help="DuckDB file made by `ofc import`"
    )
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--player", metavar="NAME", help="the player's screen name, exactly")
    who.add_argument("--all", action="store_true", help="every player, plus an index page")
    parser.add_argument(
        "--variant",
        metavar="NAME",
        default="all",
        help="with --player: that variant's hands only (default: all)",
    )
    parser.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="PATH",
        help="the HTML file (--player) or the folder to fill (--all)",
    )


def run(args: argparse.Namespace) -> int:
    from ofc_core.errors import UserError
    from ofc_core.paths import check_not_under_a_file
    from pipeline.report.data import connect
    from pipeline.report.write import write_all, write_player

    check_not_under_a_file(args.out, "--out")
    if args.all and args.variant != "all":
        raise UserError("--variant goes with --player: --all writes every player's whole page")
    con = connect(args.db)
    try:
        if args.all:
            written = write_all(con, args.out, args.db.name)
        else:
            written = [write_player(con, args.player, args.out, args.db.name, args.variant)]
    finally:
        con.close()
    print(f"ofc report: wrote {len(written)} page(s): {written[0]}", file=sys.stderr)
    return 0
