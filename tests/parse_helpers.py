"""Running ``parse_files`` on test inputs and reading the dataset back."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from parsers.run import Summary, parse_files

FIXTURES = Path(__file__).parent / "fixtures"
TABLES = ("hands", "player_hands", "placements", "rejects")


def parse(paths: list[Path], out: Path, **options) -> tuple[Summary, dict[str, pl.DataFrame]]:
    """Parse ``paths`` into ``out``; the summary and the four tables as polars frames."""
    summary = parse_files(paths, out, **options)
    return summary, {name: pl.read_parquet(out / name) for name in TABLES}


def parse_bytes(data: bytes, tmp_path: Path, name: str = "input.txt", **options):
    """Parse one file holding ``data``."""
    path = tmp_path / name
    path.write_bytes(data)
    return parse([path], tmp_path / "out", **options)


def rows(frame: pl.DataFrame, player: str) -> dict:
    """The ``player_hands`` row of one player."""
    return frame.filter(pl.col("player") == player).row(0, named=True)
