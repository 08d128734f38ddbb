"""R10 (docs/rules.md): Pineapple and Pineapple 2-7 are for 2 or 3 players, classic and turbo
for 2 to 4. A hand with more players than its variant allows is not a valid hand: ``ofc score``
stops with one line and exit code 2, the parsers reject it with that reason (both readers of
the text formats, and ofc-jsonl), and every hand read is still stored or rejected."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ofc_core.rulesets import load_ruleset
from pipeline.simulator import simulate
from tests.parse_helpers import parse_bytes

PLAYERS = [
    {"top": "Ah Ad 4c", "middle": "Kd Kh Qh 6s 6d", "bottom": "7c 7s 7d 2h 9d"},
    {"top": "Qs Qd 3h", "middle": "5d 5c 8c 8d Ts", "bottom": "9s 9h Jh Kc 4s"},
    {"top": "2c 3c 4h", "middle": "Tc Jc 2d 8h 6c", "bottom": "As Ks Qc 5s 3s"},
    {"top": "2s 3d 4d", "middle": "5h 6h 7h 8s 9c", "bottom": "Th Td Js Jd Ac"},  # the rest
]


def ofc_score(ruleset: str, players: list[dict]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "score", "--ruleset", ruleset],
        input=json.dumps({"players": players}),
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(
    ("ruleset", "most"),
    [
        ("pineapple-1-6-american", 3),
        ("pineapple-27", 3),
        ("pineapple-2-4-pokerdom", 3),
        ("classic-1-6-american", 4),
        ("turbo-1-6-american", 4),
    ],
)
def test_r10_most_players_per_variant(ruleset, most):
    rules = load_ruleset(ruleset)
    assert rules.max_players == most
    assert rules.player_count_problem(most) is None
    assert rules.player_count_problem(most + 1) is not None
    assert rules.player_count_problem(1) is not None


def test_r10_ofc_score_refuses_four_pineapple_players_in_one_line():
    done = ofc_score("pineapple-1-6-american", PLAYERS)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().count("\n") == 0
    assert "a pineapple hand has 2 or 3 players, this one has 4" in done.stderr
    assert "docs/rules.md" in done.stderr


def test_r10_ofc_score_takes_four_classic_players_and_three_pineapple():
    assert ofc_score("classic-1-6-american", PLAYERS).returncode == 0
    assert ofc_score("pineapple-1-6-american", PLAYERS[:3]).returncode == 0


def test_r10_ofc_score_refuses_five_classic_players():
    five = [*PLAYERS, {"top": "2h 3h 4s", "middle": "5s 6c 7h 8c Th", "bottom": "Jh Qs Kd Tc 9h"}]
    done = ofc_score("classic-1-6-american", five)
    assert done.returncode == 2
    assert "a classic hand has 2 to 4 players, this one has 5" in done.stderr


def test_r10_a_user_ruleset_may_allow_fewer_but_not_more(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text('[rulesets.heads-up]\nextends = "classic-1-6-american"\nmax_players = 2\n')
    assert load_ruleset("heads-up", rules).player_count_problem(3) is not None
    rules.write_text('[rulesets.big]\nextends = "pineapple-1-6-american"\nmax_players = 4\n')
    with pytest.raises(Exception, match="max_players for pineapple must be"):
        load_ruleset("big", rules)


def test_r10_the_simulator_refuses_four_pineapple_players():
    with pytest.raises(Exception, match="2 or 3 players"):
        next(iter(simulate("pineapple-1-6-american", 4, 1, seed=1)))


def _four_player_text(fmt: str) -> bytes:
    """Four-player classic hands whose header is made to say Pineapple."""
    from pipeline.simulator.render import en as render_en
    from pipeline.simulator.render import ru as render_ru

    batch = next(iter(simulate("classic-1-6-american", 4, 3, seed=5, source_format=fmt)))
    module = {"en": render_en, "ru": render_ru}[fmt]
    tables = batch.as_dict()
    hero = tables["player_hands"]["player"][0].as_py()
    hands = module.render_hands(tables["hands"], tables["player_hands"], tables["placements"], hero)
    text = "\n\n".join(hands) + "\n"
    word = {"en": ("Classic 1-6", "Pineapple 1-6"), "ru": ("Классика", "Ананас")}[fmt]
    first, *rest = text.split("\n\n")
    return "\n\n".join([first.replace(*word, 1), *rest]).encode()


@pytest.mark.parametrize("fmt", ["en", "ru"])
def test_r10_parsers_reject_a_four_player_pineapple_hand(tmp_path, fmt):
    summary, tables = parse_bytes(_four_player_text(fmt), tmp_path)
    assert summary.read == summary.stored + summary.rejected == 3
    assert summary.rejected == 1
    reason = tables["rejects"]["reason"][0]
    assert "a pineapple hand has 2 or 3 players, this one has 4" in reason


@pytest.mark.parametrize("fmt", ["en", "ru"])
def test_r10_both_readers_agree(tmp_path, fmt):
    """The fast path stores nothing the thorough reader would reject."""
    from parsers.run import parse_files

    path = tmp_path / "in.txt"
    path.write_bytes(_four_player_text(fmt))
    summary = parse_files([path], tmp_path / "out")
    assert (summary.stored, summary.rejected) == (2, 1)


def test_r10_jsonl_rejects_a_four_player_pineapple_hand(tmp_path):
    from parsers.jsonl import jsonl_bytes

    batch = next(iter(simulate("classic-1-6-american", 4, 2, seed=5)))
    lines = jsonl_bytes(**batch.as_dict()).splitlines()
    hand = json.loads(lines[0])
    hand["variant"], hand["ruleset"] = "pineapple", "pineapple-1-6-american"
    data = b"\n".join([json.dumps(hand).encode(), lines[1]]) + b"\n"
    summary, tables = parse_bytes(data, tmp_path, name="in.jsonl")
    assert (summary.read, summary.stored, summary.rejected) == (2, 1, 1)
    assert "a pineapple hand has 2 or 3 players, this one has 4" in tables["rejects"]["reason"][0]
