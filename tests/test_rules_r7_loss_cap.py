"""R7 (docs/rules.md): the loss cap per match ("просчёт", Cap), ruleset option ``match_loss_cap``.

With a cap, a player's stack counts in every settlement of a match as
``min(stack, cap - points lost so far in the match)``; the rest of the stack
is safe until the match ends. A preset that states no cap has none.
"""

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

from ofc_core.errors import UserError
from ofc_core.rulesets import PRESET_NAMES, load_ruleset
from tests.hands import player, score

WINNER = player("Ah Ad Kc", "Ts Th Td 8s 8h", "9s 9h 9d 9c 3s")  # wins 25+ against LOSER
LOSER = player("2h 3d 5d", "3h 4h 6d 8d 7h", "Jh Qc 5h Kh Ac")
LOSER_2 = player("2c 3c 5c", "4s 4c 6c 7d 2d", "Js Jc Jd Qh Qd")

RULES = """
[rulesets.capped]
extends = "pineapple-2-4-pokerbet"
match_loss_cap = 20

[rulesets.capped-no-stakes]
extends = "pineapple-1-6-american"
match_loss_cap = 20

[rulesets.capped-covered]
extends = "capped"
stack_must_cover_cap = true
"""


@pytest.fixture
def rules_file(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text(RULES)
    return str(path)


def test_r7_no_preset_states_a_cap():
    assert all(load_ruleset(name).match_loss_cap is None for name in PRESET_NAMES)


def test_r7_a_stack_above_the_cap_risks_only_the_cap(rules_file):
    result = score(
        "capped",
        WINNER | {"starting_stack": 100},
        LOSER | {"starting_stack": 100},
        rules_file=rules_file,
    )
    assert result.pairwise.row(0, named=True)["points_a"] == 20
    assert result.player_hands["points"].to_list() == [20, -20]


def test_r7_what_was_lost_earlier_in_the_match_counts(rules_file):
    """Lost 15 of a 20 cap already: only 5 is at risk, whatever the stack."""
    result = score(
        "capped",
        WINNER | {"starting_stack": 100, "match_loss": 0.0},
        LOSER | {"starting_stack": 100, "match_loss": 15.0},
        rules_file=rules_file,
    )
    assert result.player_hands["points"].to_list() == [5, -5]


def test_r7_the_cap_limits_winning_too_as_a_stack_does(rules_file):
    """The capped stack counts for both limits of a settlement (table stakes, R7)."""
    result = score(
        "capped",
        LOSER | {"starting_stack": 100, "match_loss": 0.0},
        WINNER | {"starting_stack": 100, "match_loss": 17.0},
        rules_file=rules_file,
    )
    assert result.player_hands["points"].to_list() == [-3, 3]


def test_r7_a_smaller_stack_still_caps_below_the_cap(rules_file):
    result = score(
        "capped",
        WINNER | {"starting_stack": 100},
        LOSER | {"starting_stack": 8},
        rules_file=rules_file,
    )
    assert result.player_hands["points"].to_list() == [8, -8]


def test_r7_the_capped_stack_moves_between_settlements(rules_file):
    """P1 loses the cap to P2 (P1-P2 settles first): nothing is left at risk against P3."""
    result = score(
        "capped",
        LOSER | {"starting_stack": 100},
        WINNER | {"starting_stack": 100},
        LOSER_2 | {"starting_stack": 100},
        rules_file=rules_file,
    )
    pairs = {
        (r["position_a"], r["position_b"]): r["points_a"]
        for r in result.pairwise.iter_rows(named=True)
    }
    assert pairs[(1, 2)] == -20
    assert pairs[(1, 3)] == 0
    assert sum(result.player_hands["points"]) == 0


def test_r7_a_cap_without_table_stakes_still_caps_the_loss(rules_file):
    result = score(
        "capped-no-stakes",
        WINNER,
        LOSER | {"match_loss": 12.0},
        rules_file=rules_file,
    )
    assert result.player_hands["points"].to_list() == [8, -8]


def test_r7_match_loss_caps_in_ofc_score(rules_file):
    hand = {
        "players": [
            {"name": "A", "top": "Ah Ad Kc", "middle": "Ts Th Td 8s 8h",
             "bottom": "9s 9h 9d 9c 3s", "stack": 100},
            {"name": "B", "top": "2h 3d 5d", "middle": "3h 4h 6d 8d 7h",
             "bottom": "Jh Qc 5h Kh Ac", "stack": 100, "match_loss": 15},
        ]
    }  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "score", "--ruleset", "capped",
         "--rules-file", rules_file],
        input=json.dumps(hand), capture_output=True, text=True, check=True,
    )  # fmt: skip
    players = json.loads(out.stdout)["players"]
    assert [p["points"] for p in players] == [5, -5]


def test_r7_a_cap_must_be_positive(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[rulesets.bad]\nextends = "pineapple-2-4-pokerbet"\nmatch_loss_cap = -5\n')
    with pytest.raises(Exception, match="match_loss_cap"):
        load_ruleset("bad", path)


def test_r7_a_stack_must_cover_the_cap_only_where_the_room_says_so(rules_file):
    assert not load_ruleset("capped", rules_file).stack_must_cover_cap
    covered = load_ruleset("capped-covered", rules_file)
    assert covered.stack_must_cover_cap and covered.stack_to_start == 20
    assert load_ruleset("capped", rules_file).stack_to_start == 0


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ("stack_must_cover_cap = true", "needs a match_loss_cap"),
        ("match_loss_cap = 20\nstack_must_cover_cap = 1", "true or false"),
    ],
)
def test_r7_stack_must_cover_cap_is_checked(tmp_path, options, error):
    path = tmp_path / "bad.toml"
    path.write_text(f'[rulesets.bad]\nextends = "pineapple-2-4-pokerbet"\n{options}\n')
    with pytest.raises(UserError, match=error):
        load_ruleset("bad", path)


def test_r7_a_stack_below_the_cap_rebuys_before_the_match():
    """Seat 0 ends a match with 5 of a 20 cap: where the stack must cover the cap it
    rebuys (to its starting stack, at least the cap) before the next match starts."""
    from pipeline.simulator.match import MatchState

    for cover, expected in ((20.0, 100.0), (0.0, 5.0)):
        state = MatchState.begin(np.random.default_rng(0), np.array([100.0]), 3)
        state.next_hand(button_moves_in_fantasyland=False, cover=cover)
        state.stacks[:] = [[5.0, 100.0, 100.0]]
        state.ending[:] = True  # the match ends after this hand
        setup = state.next_hand(button_moves_in_fantasyland=False, cover=cover)
        assert setup.new_match[0] and setup.stacks[0].tolist() == [expected, 100.0, 100.0]


def test_r7_simulated_matches_start_with_stacks_that_cover_the_cap(rules_file):
    """Stacks shrink below the cap of 20 as players lose: without the option some
    matches start with such a stack, with it none does (the short stack rebuys first)."""
    from pipeline.simulator import simulate

    def match_starts(ruleset: str) -> pl.Series:
        batches = list(simulate(ruleset, 3, 900, seed=5, rules_file=rules_file))
        hands = pl.from_arrow(pa.concat_tables([b.hands for b in batches]))
        players = pl.from_arrow(pa.concat_tables([b.player_hands for b in batches]))
        first = hands.filter(pl.col("match_hand") == 1).select("hand_id")
        return players.join(first, on="hand_id").get_column("starting_stack")

    assert (match_starts("capped") < 20).sum() > 0, "no short stack: the test proves nothing"
    assert match_starts("capped-covered").min() >= 20


def test_r7_the_import_computes_match_loss_from_the_matchs_earlier_hands(tmp_path, rules_file):
    """The simulator plays the cap (its reported points are capped); the import, given the
    hands in one file, finds every match's losses itself: no room mismatch, and capped
    settlements the uncapped engine would not give."""
    from pipeline.cli.main import main
    from tests.import_support import ofc_import, scalar

    history = tmp_path / "capped.jsonl"
    args = ["simulate", "--ruleset", "capped", "--rules-file", rules_file, "--players", "3"]
    args += ["--hands", "300", "--seed", "4", "--out", str(history), "--workers", "1"]
    assert main(args) == 0
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db, "--rules-file", rules_file) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 300
    assert scalar(db, "SELECT count(*) FROM player_hands WHERE mismatch") == 0
    capped = "SELECT count(*) FROM pairwise WHERE points_a <> points_a_uncapped"
    assert scalar(db, capped) > 0
    # Over a match, nobody loses more than the cap.
    worst = scalar(
        db,
        "SELECT min(total) FROM (SELECT sum(p.points) AS total FROM player_hands AS p "
        "JOIN hands AS h USING (hand_id) GROUP BY h.match_id, p.player)",
    )
    assert worst >= -20 - 1e-9


def test_r7_a_match_split_between_imports_is_scored_with_its_earlier_hands(tmp_path, rules_file):
    """The second import holds the later hands of matches begun in the first: their
    losses come from the hands already stored, so no room figure differs."""
    from pipeline.cli.main import main
    from tests.import_support import ofc_import, scalar

    history = tmp_path / "capped.jsonl"
    args = ["simulate", "--ruleset", "capped", "--rules-file", rules_file, "--players", "3"]
    args += ["--hands", "120", "--seed", "4", "--out", str(history), "--workers", "1"]
    assert main(args) == 0
    lines = history.read_bytes().splitlines(keepends=True)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_bytes(b"".join(lines[:62]))
    second.write_bytes(b"".join(lines[62:]))
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(first, "--db", db, "--rules-file", rules_file) == 0
    assert ofc_import(second, "--db", db, "--rules-file", rules_file) == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 120
    split = scalar(
        db,
        "SELECT count(*) FROM (SELECT match_id FROM hands GROUP BY match_id "
        "HAVING count(DISTINCT import_id) > 1)",
    )
    assert split > 0, "no match was split: the test proves nothing"
    assert scalar(db, "SELECT count(*) FROM player_hands WHERE mismatch") == 0
