"""Test helpers: databases for leak detection, made with ``ofc simulate`` + ``ofc import``.

Twelve regulars at 3-handed Pineapple tables: ``Reckless`` (a random bot, who
fouls most hands) sits at every table, eleven careful players share the other
seats (about 200 hands each). ``enough`` holds 1,200 hands: enough hands and
players for a leak; ``small`` only 120 of the same tables: too few.
"""

from __future__ import annotations

from pathlib import Path

from tests.import_support import ofc_import, simulate

STUDENT = "Reckless"
OTHERS = [f"Careful {i:02d}" for i in range(1, 12)]
BOTS = ",".join([f"{STUDENT}=random", *(f"{name}=tight" for name in OTHERS)])

_built: dict[str, Path] = {}


def database(folder: Path, hands: int) -> Path:
    """A database of ``hands`` hands of the roster (built once per size, under ``folder``)."""
    key = f"audit-{hands}"
    if key not in _built:
        folder.mkdir(parents=True, exist_ok=True)
        history = simulate(folder / f"{key}.jsonl", hands, seed=11, fmt="jsonl", bots=BOTS)
        db = folder / f"{key}.duckdb"
        assert ofc_import(history, "--db", db) == 0
        _built[key] = db
    return _built[key]
