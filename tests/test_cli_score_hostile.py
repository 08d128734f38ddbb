"""``ofc score`` on hostile input: every problem is an input error, exit 2, one line.

A negative stack would turn the table-stakes cap over (the winner would get
the loser's negative stack); NaN and infinities are not JSON numbers; deep
nesting, huge numbers and a lone surrogate in a name must not raise. No
output line may hold anything but strict JSON.
"""

from __future__ import annotations

import json

import pytest

from tests.test_cli_score import ALICE, BOB, ofc_score

RULESET = ("--ruleset", "pineapple-progressive-american")


def _hand(**bob) -> str:
    return json.dumps({"players": [ALICE, {**BOB, **bob}]})


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        (_hand(stack=-150), ["hand 1, player 2 ('Bob'), stack", "-150", "outside 0..1,000,000"]),
        (_hand(stack=10**400), ["hand 1, player 2 ('Bob'), stack"]),
        (_hand(stack=1e300), ["stack", "outside"]),
        (_hand().replace('"Bob"', '"Bob", "stack": -Infinity'), ["hand 1", "-Infinity"]),
        (_hand().replace('"Bob"', '"Bob", "stack": NaN'), ["hand 1", "NaN"]),
        (_hand().replace('"Bob"', '"Bob", "fantasyland_repeats": NaN'), ["hand 1", "NaN"]),
        (_hand().replace('"Bob"', '"Bob", "fantasyland_repeats": Infinity'), ["Infinity"]),
        (_hand(fantasyland_repeats=1e300), ["fantasyland_repeats", "whole number"]),
        (_hand(fantasyland_repeats=1.5), ["fantasyland_repeats", "whole number"]),
        (_hand(fantasyland_repeats=-1), ["fantasyland_repeats", "whole number"]),
        ("[" * 100_000 + "]" * 100_000, ["hand 1", "nested too deeply"]),
        ('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}", ["hand 1", "nested too deeply"]),
        (_hand(name="B\ud800b"), ["hand 1, player 2", "surrogate"]),
        (_hand(name=7), ["hand 1, player 2", "name"]),
    ],
)
def test_hostile_input_is_an_input_error(stdin, words):
    done = ofc_score(stdin, *RULESET)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_a_zero_stack_caps_the_loss_at_zero():
    """Bob fouls and loses to Alice; a stack of 0 caps what he pays (R7), never flips it."""
    done = ofc_score(_hand(stack=0), *RULESET)
    assert done.returncode == 0, done.stderr
    alice, bob = json.loads(done.stdout)["players"]
    assert alice["points"] >= 0 >= bob["points"]
    assert alice["points"] + bob["points"] == 0
