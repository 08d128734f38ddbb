"""Test helpers: a small dashboard database made the way users make one.

``ofc simulate`` writes two hand histories (3-handed Pineapple and classic
OFC, with some misreported results for the audit), two screen names are
replaced by hostile ones (markup and SQL), and ``ofc import`` loads them.
The database is built once per test session (the ``dashboard_db`` fixture of
``tests/conftest.py``); tests that write get a copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pipeline.cli.main import main

HERO = "Anna"  # plays in both files: the most active player, the default hero
XSS_NAME = "<img src=x onerror=alert(1)>"
SQL_NAME = "'; DROP TABLE hands; --"
FILES = (
    ("pineapple-1-6-american", 240, 3, "Anna=tight,Boris=aggressive,Chen=balanced", 0.05),
    ("classic-1-6-american", 120, 4, "Anna=balanced,Dmitry=aggressive,Erin=random", 0.0),
)
RENAMED = {"Boris": XSS_NAME, "Erin": SQL_NAME}


def simulate(out: Path, ruleset: str, hands: int, seed: int, bots: str, misreport: float) -> Path:
    """Write ``hands`` simulated hands to ``out`` with ``ofc simulate``."""
    args = ["simulate", "--ruleset", ruleset, "--hands", str(hands), "--seed", str(seed)]
    args += [
        "--bots",
        bots,
        "--misreport-rate",
        str(misreport),
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    return out


def rename(path: Path, names: dict[str, str]) -> Path:
    """Replace screen names in a JSON Lines hand history (names are untrusted input)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        hand = json.loads(line)
        for player in hand["players"]:
            player["player"] = names.get(player["player"], player["player"])
        lines.append(json.dumps(hand, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def import_files(db: Path, *paths: Path) -> None:
    assert main(["import", *map(str, paths), "--db", str(db), "--workers", "1", "--quiet"]) == 0


def database(folder: Path) -> Path:
    """Build the dashboard tests' database under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    histories = [
        rename(simulate(folder / f"hands-{seed}.jsonl", ruleset, n, seed, bots, bad), RENAMED)
        for ruleset, n, seed, bots, bad in FILES
    ]
    db = folder / "ofc.duckdb"
    import_files(db, *histories)
    return db


def copy_of(db: Path, folder: Path) -> Path:
    """A copy of ``db`` that a test may write to."""
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(db, folder / db.name))


def upload_file(folder: Path) -> Path:
    """A new small hand history (new hand ids) for the Import page."""
    folder.mkdir(parents=True, exist_ok=True)
    return simulate(
        folder / "upload.jsonl",
        "pineapple-1-6-american",
        30,
        9,
        "Anna=tight,Farid=balanced,Gwen=aggressive",
        0.0,
    )
