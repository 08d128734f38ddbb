"""R7 (docs/rules.md): a point value per pair, ruleset option ``pair_point_values``.

"Two players may agree a money value per point different from the table's;
the settlement in money uses each pair's own value." A player's money is then
the sum over the player's settlements of points times that pair's value (the
table's for pairs that agreed nothing). R10: a ruleset may carry per-pair
point values; no preset does.
"""

import pytest

from ofc_core.errors import UserError
from ofc_core.rulesets import PRESET_NAMES, PairPointValue, load_ruleset
from pipeline.cli.main import main
from tests.import_support import ofc_import, scalar

RULES = """
[rulesets.home]
extends = "pineapple-2-4-pokerbet"
pair_point_values = [{ players = ["Anna", "Boris"], point_value = 3.0 }]

[rulesets.home-same]
extends = "pineapple-1-6-american"
pair_point_values = [
  { players = ["Anna", "Boris"], point_value = 10.0 },
  { players = ["Boris", "Cy"], point_value = 10.0 },
]
"""

#: Each player-hand's money worked out from its settlements, in SQL: points of each
#: settlement times the pair's agreed value (Anna-Boris: 3) or the table's.
MONEY_FROM_SETTLEMENTS = """
WITH sides AS (
    SELECT hand_id, position_a AS position, player_a AS player, player_b AS other,
        points_a AS points FROM pairwise
    UNION ALL
    SELECT hand_id, position_b, player_b, player_a, -points_a FROM pairwise
),
valued AS (
    SELECT s.hand_id, s.position, sum(s.points * CASE
        WHEN list_sort([s.player, s.other]) = ['Anna', 'Boris'] THEN 3.0
        ELSE h.point_value END) AS money
    FROM sides AS s JOIN hands AS h USING (hand_id)
    WHERE h.point_value IS NOT NULL
    GROUP BY ALL
)
SELECT count(*) FROM player_hands AS p JOIN hands AS h USING (hand_id)
LEFT JOIN valued AS v ON v.hand_id = p.hand_id AND v.position = p.position
WHERE p.money IS DISTINCT FROM v.money AND abs(p.money - v.money) > 1e-9
    OR (h.point_value IS NULL) <> (p.money IS NULL)
"""


@pytest.fixture
def rules_file(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text(RULES)
    return str(path)


def _simulated(tmp_path, rules_file, ruleset, seed=5):
    history = tmp_path / f"{ruleset}.jsonl"
    args = ["simulate", "--ruleset", ruleset, "--rules-file", rules_file, "--players", "3"]
    args += ["--bots", "Anna=tight,Boris=aggressive,Cy=tight", "--hands", "240"]
    args += ["--seed", str(seed), "--out", str(history), "--workers", "1"]
    assert main(args) == 0
    db = tmp_path / f"{ruleset}.duckdb"
    assert ofc_import(history, "--db", db, "--rules-file", rules_file) == 0
    return db


def test_r10_no_preset_agrees_a_pair_value():
    assert all(load_ruleset(name).pair_point_values == () for name in PRESET_NAMES)


def test_r7_a_rules_file_names_pairs_and_their_value(rules_file):
    ruleset = load_ruleset("home", rules_file)
    assert ruleset.pair_point_values == (PairPointValue(("Anna", "Boris"), 3.0),)


@pytest.mark.parametrize(
    "value",
    [
        '{ players = ["Anna", "Boris"], point_value = 2 }',  # not a list
        '[{ players = ["Anna"], point_value = 2 }]',
        '[{ players = ["Anna", "Anna"], point_value = 2 }]',
        '[{ players = ["Anna", ""], point_value = 2 }]',
        '[{ players = ["Anna", "Boris"], point_value = -1 }]',
        '[{ players = ["Anna", "Boris"], point_value = "2" }]',
        '[{ players = ["Anna", "Boris"], point_value = true }]',
        '[{ players = ["Anna", "Boris"] }]',
        '[{ players = ["Anna", "Boris"], point_value = 2, note = "x" }]',
        '[{ players = ["Anna", "Boris"], point_value = 2 }, '
        '{ players = ["Boris", "Anna"], point_value = 3 }]',
    ],
)
def test_r7_a_malformed_pair_value_is_refused_by_name(tmp_path, value):
    path = tmp_path / "bad.toml"
    path.write_text(
        f'[rulesets.bad]\nextends = "pineapple-1-6-american"\npair_point_values = {value}\n'
    )
    with pytest.raises(UserError, match="pair_point_values"):
        load_ruleset("bad", path)


def test_r7_the_import_values_each_settlement_at_its_pairs_value(tmp_path, rules_file):
    """Anna and Boris settle at 3 a point, every other pair at the table's value: each
    player-hand's money is its settlements' sum (worked out again in SQL), and the
    simulated room, which reports money the same way, is not contradicted."""
    db = _simulated(tmp_path, rules_file, "home")
    assert scalar(db, "SELECT count(*) FROM hands") == 240
    assert scalar(db, MONEY_FROM_SETTLEMENTS) == 0
    assert scalar(db, "SELECT count(*) FROM audit_mismatches") == 0
    agreed = "SELECT count(*) FROM player_hands WHERE abs(money - points * point_value) > 1e-9"
    assert scalar(db, agreed) > 0, "no hand where the agreement changed the money"


def test_r7_a_pair_value_equal_to_the_tables_changes_nothing(tmp_path, rules_file):
    """Every pair's settlements summed at the table's own value give points x value."""
    db = _simulated(tmp_path, rules_file, "home-same")
    at_ten = "SELECT count(*) FROM player_hands WHERE point_value = 10"
    assert scalar(db, at_ten) > 0, "no table at 10 a point: the test proves nothing"
    different = (
        "SELECT count(*) FROM player_hands WHERE point_value = 10 "
        "AND abs(money - points * point_value) > 1e-9"
    )
    assert scalar(db, different) == 0


def test_r7_room_text_cannot_name_a_users_ruleset(tmp_path, rules_file, capsys):
    out = tmp_path / "h.txt"
    args = ["simulate", "--ruleset", "home", "--rules-file", rules_file, "--hands", "5"]
    assert main([*args, "--format", "en", "--out", str(out), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "--format jsonl" in err and "Traceback" not in err
