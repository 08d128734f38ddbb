"""Which ruleset an import scores with: the hand's own, ``--ruleset``, or ``--rules-file`` (R10).

A hand naming a ruleset nobody defines is rejected with a reason saying what
to do, never dropped; once a rules file defines it, re-reading stores the
hand and its reject goes.
"""

from __future__ import annotations

from pathlib import Path

from parsers.jsonl import jsonl_bytes
from tests.hand_builder import build, example_hand
from tests.import_support import ofc_import, query, scalar, simulate

HOUSE = """[rulesets.house-rules]
extends = "pineapple-progressive-american"
foul_penalty = 5
"""


def test_unknown_ruleset_is_rejected_until_a_rules_file_defines_it(tmp_path: Path) -> None:
    history = tmp_path / "house.jsonl"
    history.write_bytes(
        jsonl_bytes(*build([example_hand(ruleset="house-rules", source_format="jsonl")]))
    )
    rules = tmp_path / "house.toml"
    rules.write_text(HOUSE, encoding="utf-8")
    db = tmp_path / "ofc.duckdb"

    assert ofc_import(history, "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 0
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert "house-rules" in reason and "--rules-file" in reason

    assert ofc_import(history, "--db", db, "--rules-file", rules, "--reread") == 0
    assert scalar(db, "SELECT count(*) FROM rejects") == 0
    # R4.4 with a foul penalty of 5: Bob (fouled) pays Alice 5 + 9 royalties and Carol 5.
    assert query(db, "SELECT player, points FROM player_hands ORDER BY seat") == [
        ("Alice", 29.0),
        ("Bob", -19.0),
        ("Carol [RU]", -10.0),
    ]


def test_ruleset_override_scores_and_records_it(tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    history.write_bytes(jsonl_bytes(*build([example_hand(source_format="jsonl")])))
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db, "--ruleset", "pineapple-2-4-pokerdom") == 0
    assert query(db, "SELECT ruleset FROM hands") == [("pineapple-2-4-pokerdom",)]
    assert query(db, "SELECT DISTINCT ruleset FROM player_hands") == [("pineapple-2-4-pokerdom",)]
    assert query(db, "SELECT ruleset_override FROM imports") == [("pineapple-2-4-pokerdom",)]


def test_unknown_override_fails_before_touching_anything(tmp_path: Path, capsys) -> None:
    history = tmp_path / "h.jsonl"
    history.write_bytes(jsonl_bytes(*build([example_hand(source_format="jsonl")])))
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db, "--ruleset", "nope") == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err
    assert not db.exists()


def test_room_text_scored_with_a_users_ruleset(tmp_path: Path) -> None:
    """A Pokerbet export scored with a rules file's ruleset built on Pokerbet (a loss cap
    per match, R7, exists only so): every hand read is stored under it, checked against
    the preset its header names, none refused as an unknown ruleset."""
    from tests.import_support import simulate

    history = simulate(tmp_path / "pokerbet.txt", 60, seed=3, ruleset="pineapple-2-4-pokerbet")
    rules = tmp_path / "capped.toml"
    rules.write_text(
        '[rulesets.capped]\nextends = "pineapple-2-4-pokerbet"\nmatch_loss_cap = 20\n', "utf-8"
    )
    db = tmp_path / "ofc.duckdb"
    args = ("--db", db, "--ruleset", "capped", "--rules-file", rules, "--workers", "1")
    assert ofc_import(history, *args) == 0
    assert scalar(db, "SELECT count(*) FROM rejects") == 0
    assert query(db, "SELECT ruleset, count(*) FROM hands GROUP BY ALL") == [("capped", 60)]
    assert query(db, "SELECT ruleset_override FROM imports") == [("capped",)]


def test_a_ruleset_of_another_variant_does_not_score_ofc_jsonl_hands(tmp_path: Path) -> None:
    """Classic hands scored by a Pineapple ruleset would get Pineapple's Fantasyland counts
    (R6, R10): rejected, as room text whose header names another variant is."""
    history = simulate(
        tmp_path / "classic.jsonl", 6, seed=3, fmt="jsonl", ruleset="classic-1-6-american"
    )
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db, "--ruleset", "pineapple-1-6-american") == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 0
    reasons = {r for (r,) in query(db, "SELECT reason FROM rejects")}
    assert reasons == {
        "the hand is classic but ruleset pineapple-1-6-american plays pineapple"
        " (docs/rules.md R10); import it with a ruleset of its variant"
    }
    assert scalar(db, "SELECT hands_read FROM imports") == 6


def test_a_jsonl_hand_naming_a_ruleset_of_another_variant_is_rejected(tmp_path: Path) -> None:
    hand = example_hand(ruleset="classic-1-6-american", source_format="jsonl")  # Pineapple
    history = tmp_path / "h.jsonl"
    history.write_bytes(jsonl_bytes(*build([hand])))
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 0
    [(reason,)] = query(db, "SELECT reason FROM rejects")
    assert reason.startswith("the hand is pineapple but ruleset classic-1-6-american plays classic")


def test_a_ruleset_given_for_hands_stored_before_says_it_did_not_rescore_them(
    tmp_path: Path, capsys
) -> None:
    history = simulate(tmp_path / "h.txt", 5, seed=4)
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db) == 0
    capsys.readouterr()
    for again in ([], ["--reread"]):
        assert ofc_import(history, "--db", db, "--ruleset", "pineapple-2-4-pokerdom", *again) == 0
        out = capsys.readouterr().out
        assert "--ruleset pineapple-2-4-pokerdom scores the hands this import stores" in out
        assert "import into a new database" in out
    assert query(db, "SELECT DISTINCT ruleset FROM hands") == [("pineapple-1-6-american",)]
