"""A hand id that comes again with different content is a conflict, not a second hand.

Identity is the room's hand id within its source format (docs/schema.md);
the stored copy is kept, the differing copy is recorded in ``conflicts``
once, and hands that come again unchanged are just counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_support import en_hands, ofc_import, query, scalar, simulate


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = simulate(tmp_path_factory.mktemp("sim") / "all.txt", 12, seed=21)
    return en_hands(path.read_text(encoding="utf-8"))


def renamed_table(hand: str) -> str:
    """The same hand with another table name: same id, different content."""
    lines = hand.split("\n")
    assert lines[1].startswith("Table '")
    lines[1] = "Table 'Somewhere Else'" + lines[1][lines[1].index("'", 7) + 1 :]
    return "\n".join(lines)


def test_changed_copy_is_a_conflict_and_the_stored_hand_stays(
    tmp_path: Path, history: list[str]
) -> None:
    original = tmp_path / "a.txt"
    original.write_text("\n".join(history), encoding="utf-8")
    changed = tmp_path / "b.txt"
    changed.write_text("\n".join([renamed_table(history[3]), history[4]]), encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    ofc_import(original, "--db", db)
    tables_before = query(db, "SELECT hand_id, table_name FROM hands ORDER BY hand_id")

    assert ofc_import(changed, "--db", db) == 0
    assert query(db, "SELECT hand_id, table_name FROM hands ORDER BY hand_id") == tables_before
    assert query(
        db, "SELECT hands_added, hands_duplicate, hands_conflict FROM imports WHERE import_id = 2"
    ) == [(0, 1, 1)]
    conflict = query(
        db,
        "SELECT c.source_file, c.source_line, c.stored_source_file, "
        "c.fingerprint <> c.stored_fingerprint, h.fingerprint = c.stored_fingerprint "
        "FROM conflicts AS c JOIN hands AS h USING (hand_id)",
    )
    assert conflict == [(str(changed), 1, str(original), True, True)]

    assert ofc_import(changed, "--db", db, "--reread") == 0
    assert scalar(db, "SELECT count(*) FROM conflicts") == 1
    assert scalar(db, "SELECT count(*) FROM hands") == len(history)


def test_conflict_inside_one_import_keeps_the_first_copy(
    tmp_path: Path, history: list[str]
) -> None:
    first = tmp_path / "1.txt"
    first.write_text(history[0], encoding="utf-8")
    second = tmp_path / "2.txt"
    second.write_text(renamed_table(history[0]), encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(first, second, "--db", db) == 0
    assert query(db, "SELECT source_file FROM hands") == [(str(first),)]
    assert query(db, "SELECT source_file, stored_source_file FROM conflicts") == [
        (str(second), str(first))
    ]
    assert scalar(db, "SELECT count(*) FROM player_hands") == 3


def test_runs_of_one_seed_for_different_rulesets_are_different_hands(tmp_path: Path) -> None:
    """Two files simulated with the default seed, for two rulesets or player counts, hold
    different hands: they import side by side, not as conflicts."""
    files = [
        simulate(tmp_path / "classic.txt", 20, seed=0, ruleset="classic-1-6-american"),
        simulate(tmp_path / "pineapple.txt", 20, seed=0, ruleset="pineapple-1-6-american"),
        simulate(
            tmp_path / "heads-up.txt", 20, seed=0, ruleset="pineapple-1-6-american", players=2,
            bots="random,random",
        ),
    ]  # fmt: skip
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(*files, "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM conflicts") == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 60
