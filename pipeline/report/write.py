"""Writing reports: one player's page, or every player's pages and an index.

File names of ``--all`` pages are made from the player's name but only of
safe characters, with a short hash so that two names never share a file:

>>> file_name("Carol [RU]"), file_name("../../etc/passwd")[:17]
('player-Carol-RU-244871f7.html', 'player-etc-passwd')
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from pathlib import Path

import duckdb

from ofc_core.errors import UserError
from pipeline.report.data import ALL, check_player, check_variant, player_report, players
from pipeline.report.page import index_page, player_page, vega_bundle

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
#: The chart library ``--all`` writes once beside its pages (offline: no CDN).
CHARTS_SCRIPT = "ofc-report-charts.js"


def file_name(player: str) -> str:
    slug = _UNSAFE.sub("-", player).strip("-")[:40]
    digest = hashlib.sha1(player.encode("utf-8")).hexdigest()[:8]
    return f"player-{slug}-{digest}.html" if slug else f"player-{digest}.html"


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def write_player(
    con: duckdb.DuckDBPyConnection, player: str, out: Path, db_name: str, variant: str = ALL
) -> Path:
    """Write one player's report to ``out``, over every variant (``all``) or one."""
    check_player(con, player)
    if variant != ALL:
        check_variant(con, player, variant)
    if out.is_dir():
        out = out / file_name(player)
    if not out.parent.is_dir():
        raise UserError(f"--out: folder {out.parent} does not exist; create it first")
    report = player_report(con, player, variant)
    out.write_text(player_page(report, db_name, _now()), encoding="utf-8")
    return out


def write_all(con: duckdb.DuckDBPyConnection, out: Path, db_name: str) -> list[Path]:
    """Write every player's report and ``index.html`` into the folder ``out``, with the chart
    library once beside them (``CHARTS_SCRIPT``). A run that fails (a damaged database, a full
    disk) removes what it wrote, and ``out`` if it made it."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file; --all writes a folder of pages")
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = [out / CHARTS_SCRIPT]
    try:
        written[0].write_text(vega_bundle(), encoding="utf-8")
        entries = [_write_page(con, player, out, db_name, written) for player in players(con)]
        index = out / "index.html"
        written.append(index)
        index.write_text(index_page(entries, db_name, _now()), encoding="utf-8")
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        if made and not any(out.iterdir()):
            out.rmdir()
        raise
    return [index, *written[1:-1]]


def _write_page(
    con: duckdb.DuckDBPyConnection, player: str, out: Path, db_name: str, written: list[Path]
) -> tuple[str, str, int, float | None, float | None, float | None]:
    """Write one player's page of ``--all`` (noted in ``written``); its index entry."""
    report = player_report(con, player)
    path = out / file_name(player)
    written.append(path)
    path.write_text(player_page(report, db_name, _now(), CHARTS_SCRIPT), encoding="utf-8")
    row = report.summary.row(0, named=True)
    return (
        player,
        path.name,
        row["hands"],
        row["points_per_hand"],
        row["points_per_hand_ci_low"],
        row["points_per_hand_ci_high"],
    )
