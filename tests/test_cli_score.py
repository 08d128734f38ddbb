"""The user's calculator: `ofc score` reads JSON hands and prints one JSON line per hand."""

import json
import subprocess
import sys

import pytest

ALICE = {"name": "Alice", "top": "Ah Ad 4c", "middle": "Kd Kh Qh 6s 6d", "bottom": "7c 7s 7d 2h 9d"}
BOB = {"name": "Bob", "top": "Qs Qd 3h", "middle": "5d 5c 8c 8d Ts", "bottom": "9s 9h Jh Kc 4s"}
CAROL = {
    "name": "Carol [RU]",
    "top": "2♣ 3♦ 4♥",
    "middle": "10c Jc 2d 8h 6c",
    "bottom": "As Ks Qc 5s 3s",
    "in_fantasyland": True,
    "stack": 150,
}


def ofc_score(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "score", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_spec_example_hand_scores_as_the_room_reports():
    """The example of formats/ofc-text-en.md: +30, -21 (fouled), -9; Alice enters FL with 16."""
    done = ofc_score(
        json.dumps({"players": [ALICE, BOB, CAROL]}), "--ruleset", "pineapple-progressive-american"
    )
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert [p["points"] for p in players] == [30, -21, -9]
    assert [p["foul"] for p in players] == [False, True, False]
    assert players[0]["royalties"] == {"top": 9, "middle": 0, "bottom": 0, "total": 9}
    assert players[0]["categories"] == {"top": "pair", "middle": "two pair", "bottom": "trips"}
    assert (players[0]["fantasyland_next"], players[0]["fantasyland_cards"]) == (True, 16)
    assert players[2]["name"] == "Carol [RU]"


def test_json_lines_give_one_line_per_hand():
    lines = "\n".join(
        json.dumps({"players": p}) for p in ([ALICE, BOB], [BOB, CAROL], [ALICE, CAROL])
    )
    done = ofc_score(lines + "\n", "--ruleset", "classic-1-6-american")
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == 3
    assert all(sum(p["points"] for p in r["players"]) == 0 for r in results)


@pytest.mark.parametrize(
    ("stdin", "args", "message"),
    [
        (
            '{"players": [{"name": "A", "top": "Ah Ah 4c"',
            ["--ruleset", "classic-1-6-american"],
            "malformed JSON",
        ),
        (
            json.dumps({"players": [ALICE | {"top": "Ah Ad 4c 5c"}, BOB]}),
            ["--ruleset", "classic-1-6-american"],
            "top has 4 cards, expected 3",
        ),
        (
            json.dumps({"players": [ALICE | {"top": "Ah Zd 4c"}, BOB]}),
            ["--ruleset", "classic-1-6-american"],
            "unknown card 'Zd'",
        ),
        (
            json.dumps({"players": [ALICE, BOB | {"top": "Ah Qd 3h"}]}),
            ["--ruleset", "classic-1-6-american"],
            "Ah appears twice",
        ),
        (json.dumps({"players": [ALICE, BOB]}), ["--ruleset", "no-such-room"], "unknown ruleset"),
        (
            json.dumps({"players": [ALICE, BOB]}),
            ["--ruleset", "x", "--rules-file", "/nonexistent.toml"],
            "does not exist",
        ),
        ("", ["--ruleset", "classic-1-6-american"], "no input"),
        (json.dumps({"players": [ALICE]}), ["--ruleset", "classic-1-6-american"], "this one has 1"),
        (  # the value as the JSON spells it, not as Python does (True)
            json.dumps({"players": [ALICE | {"stack": True}, BOB]}),
            ["--ruleset", "classic-1-6-american"],
            "stack: expected a number, got true",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_problem(stdin, args, message):
    done = ofc_score(stdin, *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_object_over_several_lines_is_named_by_its_line_and_column():
    pretty = "\n" + json.dumps({"players": [ALICE, BOB]}, indent=2)
    broken = pretty.replace('"name": "Bob"', '"name": "Bob",,', 1)
    line = broken[: broken.index(",,") + 1].count("\n") + 1
    done = ofc_score(broken, "--ruleset", "classic-1-6-american")
    assert done.returncode == 2
    assert "hand 1: malformed JSON: Expecting property name" in done.stderr
    assert f"at line {line}, column " in done.stderr


def test_second_bad_hand_is_named_by_its_line():
    lines = (
        json.dumps({"players": [ALICE, BOB]})
        + "\n"
        + json.dumps({"players": [ALICE | {"bottom": "7c"}, BOB]})
    )
    done = ofc_score(lines, "--ruleset", "classic-1-6-american")
    assert done.returncode == 2
    assert "hand 2 (line 2)" in done.stderr
