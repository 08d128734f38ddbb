"""`ofc solve`: the exact Fantasyland set (RULES.md R3, R5, R6, R9), proved by brute force.

The solver (``pipeline.decisions``: its own tables and compiled search) is
checked against ``fantasyland_brute_force``, which scores every board of a
deal with the engine's ``fouls``, ``royalties`` and ``fantasyland`` modules.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from ofc_core.cards import format_cards, parse_cards
from ofc_core.rulesets import PRESET_NAMES, Ruleset, load_ruleset
from pipeline.cli.main import main
from pipeline.decisions import fantasyland_value
from pipeline.decisions.fantasyland_solver import (
    FantasylandSet,
    fantasyland_card_counts,
    solve_fantasyland,
)
from pipeline.decisions.fantasyland_value import default_fantasyland_value
from pipeline.rules.evaluate import lowball27, strength3, strength5
from pipeline.rules.fouls import fouled
from pipeline.rules.rows import Rows
from pipeline.rules.royalties import row_royalties
from tests.fantasyland_brute_force import best_boards, splits13

WITH_FANTASYLAND = [n for n in PRESET_NAMES if load_ruleset(n).fantasyland.enabled]

#: A user's rules: stay needs every condition ("all"), one of them any row's royalty >= 10.
STRICT_RULES = """
[rulesets.strict-stay]
extends = "classic-1-6-american"
[rulesets.strict-stay.fantasyland]
entry = { "QQ" = 13 }
stay = [{ row = "bottom", at_least = "flush" }, { any_row_royalty_at_least = 10 }]
stay_combine = "all"
stay_cards = 13
"""


def _keys(found: FantasylandSet, ruleset: Ruleset) -> dict[str, float]:
    """What the brute force compares: value, then the rows' strengths (tie-break order)."""
    middle = strength5(np.array([found.middle]))
    if ruleset.lowball_middle:
        middle = lowball27(middle)
    return {
        "value": found.value,
        "bottom": float(strength5(np.array([found.bottom]))[0]),
        "middle": float(middle[0]),
        "top": float(strength3(np.array([found.top]))[0]),
    }


def _engine_check(found: FantasylandSet, cards: list[int], ruleset: Ruleset) -> None:
    """The set uses the dealt cards once each, does not foul, and earns what it says."""
    rows = (found.top, found.middle, found.bottom, found.discards)
    assert sorted(c for row in rows for c in row) == sorted(cards)
    board = Rows.from_codes(*(np.array([row]) for row in rows[:3]))
    assert not fouled(board, ruleset.lowball_middle)[0]
    royalties = row_royalties(board, ruleset.royalties, ruleset.lowball_middle)
    assert int(royalties.total[0]) == found.royalties


def _assert_exact(cards: list[int], ruleset: Ruleset, stay_value: float) -> None:
    found = solve_fantasyland(cards, ruleset, stay_value)
    expected = best_boards(cards, ruleset, stay_value)
    if expected is None:
        assert found.fouled, format_cards(cards)
        return
    assert _keys(found, ruleset) == pytest.approx(expected), format_cards(cards)
    _engine_check(found, cards, ruleset)


def _deals(seed: int, count: int, size: int, deck: np.ndarray | None = None) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    deck = np.arange(52) if deck is None else deck
    return [rng.choice(deck, size, replace=False).tolist() for _ in range(count)]


#: Small decks where trips, quads, full houses and flushes are common, so stays happen.
RICH_DECKS = {
    "ranks 9-A": np.arange(7 * 4, 52),
    "ranks 2-6 and A": np.r_[0:20, 48:52],
    "hearts and spades": np.array([c for c in range(52) if c % 4 < 2]),
}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_name", [*WITH_FANTASYLAND, "classic-stars-2013"])
def test_every_13_card_board_brute_force_agrees(ruleset_name):
    """All 72,072 boards of 40 random 13-card deals per preset: same value and rows."""
    ruleset = load_ruleset(ruleset_name)
    for index, cards in enumerate(_deals(13, 40, 13)):
        _assert_exact(cards, ruleset, stay_value=[0.0, 7.5, 30.0][index % 3])


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_name", ["classic-1-6-american", "pineapple-2-4-pokerbet"])
@pytest.mark.parametrize("deck", RICH_DECKS)
def test_rich_13_card_deals_stay_as_brute_force_says(ruleset_name, deck):
    """Deals from small decks (trips, quads, flushes): staying against royalties."""
    ruleset = load_ruleset(ruleset_name)
    for index, cards in enumerate(_deals(7, 15, 13, RICH_DECKS[deck])):
        _assert_exact(cards, ruleset, stay_value=[0.0, 4.0, 12.5, 60.0, -3.0][index % 5])


@pytest.mark.slow
def test_pineapple_27_rich_deals_match_brute_force():
    """2-7 (R9): low middles are scarce in deals of low cards and of high cards."""
    ruleset = load_ruleset("pineapple-27")
    low, high = np.arange(0, 36), np.arange(20, 52)
    for index, cards in enumerate(_deals(27, 15, 13, low) + _deals(28, 15, 13, high)):
        _assert_exact(cards, ruleset, stay_value=[0.0, 9.0, 40.0][index % 3])


@pytest.mark.slow
@pytest.mark.parametrize(
    "ruleset_name", ["pineapple-1-6-american", "pineapple-27", "pineapple-2-4-pokerdom"]
)
def test_14_card_deals_match_brute_force_with_the_discard(ruleset_name):
    """14 cards: 14 x 72,072 boards each, for 12 deals (4 from a rich deck)."""
    ruleset = load_ruleset(ruleset_name)
    deals = _deals(14, 8, 14) + _deals(15, 4, 14, RICH_DECKS["ranks 9-A"])
    for index, cards in enumerate(deals):
        _assert_exact(cards, ruleset, stay_value=[0.0, 8.0, 25.0][index % 3])


def test_user_rules_stay_only_when_every_condition_is_met(tmp_path):
    """R6: stay conditions combine with "all", and "any row's royalty >= 10" counts."""
    rules = tmp_path / "rules.toml"
    rules.write_text(STRICT_RULES)
    ruleset = load_ruleset("strict-stay", rules)
    for index, cards in enumerate(_deals(3, 12, 13, RICH_DECKS["hearts and spades"])):
        _assert_exact(cards, ruleset, stay_value=[5.0, 40.0][index % 2])


def test_r6_quads_trips_and_a_straight_flush_stay_in_pineapple():
    """R5, R6: AAA on top (22), quads in the middle (20), 7-high straight flush (15); stays."""
    cards = parse_cards("As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h")
    found = solve_fantasyland(cards, load_ruleset("pineapple-1-6-american"), 10.0)
    row = found.to_json()
    assert (row["top"], row["middle"], row["bottom"]) == (
        "Ad Ah As",
        "Kc 9c 9d 9h 9s",
        "7h 6h 5h 4h 3h",
    )
    assert (row["discards"], row["royalties"], row["stays"], row["value"]) == ("Kd", 57, True, 67)


def test_staying_is_bought_with_royalties_only_when_v_pays_for_it():
    """Pineapple stays with trips on top (R6). Here the best royalties are ``7 7 3`` (2),
    middle ``4 4 2 2 2`` (12), bottom ``6 6 5 5 5`` (6): 20, no stay. Staying takes
    ``2 2 2`` on top (10) with two straights (4 + 2): 16. It pays when V > 4.
    """
    cards = parse_cards("2s 2h 2d 3s 3d 4s 4h 5h 5d 5c 6h 6d 7h 7c")
    ruleset = load_ruleset("pineapple-1-6-american")
    for stay_value, royalties, stays in [(0.0, 20, False), (3.9, 20, False), (4.1, 16, True)]:
        found = solve_fantasyland(cards, ruleset, stay_value)
        assert (found.royalties, found.stays) == (royalties, stays)
        assert found.value == pytest.approx(royalties + stay_value * stays)
    found = solve_fantasyland(cards, ruleset, 50.0)
    assert found.top == tuple(parse_cards("2s 2h 2d")) and found.value == 66
    assert found.value == best_boards(cards, ruleset, 50.0)["value"]


def test_past_the_repeat_limit_nothing_stays():
    """R6, Pokerbet: one repeat only. After a stay the same cards set for royalties alone."""
    cards = parse_cards("2s 2h 2d 3s 3d 4s 4h 5h 5d 5c 6h 6d 7h 7c")
    ruleset = load_ruleset("pineapple-2-4-pokerbet")
    fresh = solve_fantasyland(cards, ruleset, 50.0, repeats=0)
    repeat = solve_fantasyland(cards, ruleset, 50.0, repeats=1)
    assert fresh.stays and fresh.value == fresh.royalties + 50
    assert not repeat.stays and repeat.value == repeat.royalties == 20


def test_r9_example_board_is_legal_and_the_solver_does_at_least_as_well():
    """R9: ``A A 3 / 8 7 6 4 3 / T T 9 9 K`` is legal (9 + 3 royalties); the best is no worse."""
    cards = parse_cards("Ah Ad 3c 8s 7d 6h 4c 3s Th Tc 9d 9c Kh")
    ruleset = load_ruleset("pineapple-27")
    found = solve_fantasyland(cards, ruleset, 0.0)
    assert not found.fouled and found.value >= 12
    assert found.value == best_boards(cards, ruleset, 0.0)["value"]


def test_2_7_hand_without_a_low_fouls_and_is_worth_nothing():
    """R9: with no legal 2-7 middle (every card J+), every board fouls."""
    cards = parse_cards("Jh Jd Jc Js Qh Qd Qc Qs Kh Kd Kc Ks Ah")
    found = solve_fantasyland(cards, load_ruleset("pineapple-27"), 10.0)
    assert found.fouled and (found.value, found.royalties, found.stays) == (0.0, 0, False)


def test_ties_go_to_the_stronger_bottom_then_middle_then_top():
    """Many boards share the best value here; the set is the one with the strongest rows."""
    cards = parse_cards("2c 3d 4h 6s 7c 8d 9h Jc Qs Kd 2d 3h Ks")
    ruleset = load_ruleset("classic-1-6-american")
    boards = np.asarray(cards)[splits13()]
    rows = Rows.from_codes(boards[:, :3], boards[:, 3:8], boards[:, 8:])
    foul = fouled(rows, False)
    value = np.where(foul, -1, row_royalties(rows, ruleset.royalties, False).total)
    best = value == value.max()
    assert len(np.unique(rows.bottom_strength[best])) > 1  # the tie-break decides
    found = solve_fantasyland(cards, ruleset, 0.0)
    keys = _keys(found, ruleset)
    assert keys["bottom"] == rows.bottom_strength[best].max()
    on_bottom = best & (rows.bottom_strength == keys["bottom"])
    assert keys["middle"] == rows.middle_strength[on_bottom].max()
    on_middle = on_bottom & (rows.middle_strength == keys["middle"])
    assert keys["top"] == rows.top_strength[on_middle].max()


def test_card_counts_follow_the_ruleset():
    """R6: 13 classic, 14 pineapple, progressive 14-17, 2-7 14-15 (R9)."""
    counts = {name: fantasyland_card_counts(load_ruleset(name)) for name in PRESET_NAMES}
    assert counts["classic-1-6-american"] == (13,)
    assert counts["pineapple-1-6-american"] == (14,)
    assert counts["pineapple-progressive-american"] == (14, 15, 16, 17)
    assert counts["pineapple-27"] == (14, 15)


@pytest.mark.slow
def test_15_card_progressive_deals_match_brute_force():
    """15 cards (R6 progressive, KK): 105 x 72,072 boards each, two discards chosen too."""
    ruleset = load_ruleset("pineapple-progressive-american")
    deals = _deals(16, 2, 15) + _deals(17, 1, 15, RICH_DECKS["ranks 9-A"])
    for cards, stay_value in zip(deals, [0.0, 17.5, 17.5], strict=True):
        _assert_exact(cards, ruleset, stay_value)


@pytest.mark.parametrize("size", [16, 17])
def test_16_and_17_card_hands_beat_every_board_of_sampled_13_card_choices(size):
    """16-17 cards: a legal set, and no board of a sample of its 13-card choices does better."""
    ruleset = load_ruleset("pineapple-progressive-american")
    for cards in _deals(size, 3, size):
        found = solve_fantasyland(cards, ruleset, 10.0)
        _engine_check(found, cards, ruleset)
        rng = np.random.default_rng(size)
        for _ in range(3):
            kept = rng.choice(cards, 13, replace=False).tolist()
            assert best_boards(kept, ruleset, 10.0)["value"] <= found.value


def ofc_solve(stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "solve", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_one_json_line_per_hand():
    as_list = ["2c", "3c", "4c", "5d", "6d", "7d", "8s", "9s", "Ts", "Jh", "Qh", "Kh", "Ah", "2d"]
    lines = [
        {"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h"},
        {"cards": [*as_list, "2s"], "dead": "Kd"},
    ]
    stdin = "\n".join(json.dumps(line) for line in lines) + "\n\n"
    done = ofc_solve(
        stdin, "--ruleset", "pineapple-progressive-american", "--fantasyland-value", "10"
    )
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == 2
    assert results[0] == {
        "top": "Ad Ah As",
        "middle": "Kc 9c 9d 9h 9s",
        "bottom": "7h 6h 5h 4h 3h",
        "discards": "Kd",
        "royalties": 57,
        "stays": True,
        "value": 67,
        "fouled": False,
    }
    assert len(results[1]["discards"].split()) == 2
    assert results[1]["value"] == results[1]["royalties"] + 10 * results[1]["stays"]


def test_cli_value_defaults_to_the_measured_one_and_the_flag_overrides_it():
    stdin = json.dumps({"cards": "Ac Ad Ah Kc Kd Ks 9s 9h 9d 4c 4d 2h 3s"})
    default = json.loads(ofc_solve(stdin, "--ruleset", "classic-1-6-american").stdout)
    free = json.loads(
        ofc_solve(stdin, "--ruleset", "classic-1-6-american", "--fantasyland-value", "0").stdout
    )
    assert default["stays"] and default["value"] > default["royalties"]
    assert free["value"] == free["royalties"]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"cards": "As Ah Ad"}', "line 2: 3 cards; ruleset pineapple-1-6-american deals 14"),
        ('{"cards": "As As Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h"}', "line 2: As appears twice"),
        ('{"cards": "Xx Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h"}', "line 2, cards: unknown card 'Xx'"),
        ('{"cards": "As Ah', "line 2: malformed JSON"),
        (
            '{"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h", "dead": "Kd 2c"}',
            "line 2: Kd appears in cards and in dead",
        ),
        ('{"hand": "As"}', 'line 2: expected an object with "cards"'),
        ('{"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h", "deadd": ""}', "unknown key"),
        ('{"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h", "fantasyland_repeats": -1}',
         "line 2: fantasyland_repeats must be a whole number from 0 to"),
        ("[" * 100_000 + "]" * 100_000, "line 2: the JSON is nested too deeply"),
        ('{"cards": "As", "fantasyland_repeats": NaN}', "line 2: NaN is not a number JSON allows"),
        ("", "no input"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_line_naming_the_line(stdin, message, monkeypatch, capsys):
    """Nothing is printed for the good first line: the whole input is checked first."""
    first = '{"cards": "2c 3c 4c 5d 6d 7d 8s 9s Ts Jh Qh Kh Ah 2d"}\n' if stdin else ""
    monkeypatch.setattr(sys, "stdin", io.StringIO(first + stdin + "\n"))
    assert main(["solve", "--ruleset", "pineapple-1-6-american"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert message in err


def test_a_ruleset_without_fantasyland_says_so(monkeypatch, capsys):
    """classic-stars-2013 has no Fantasyland (R6): its 13 cards are set as if dealt at once."""
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cards": "As Ah Ad Kc Kd 9s 9h"}\n'))
    assert main(["solve", "--ruleset", "classic-stars-2013"]) == 2
    err = capsys.readouterr().err
    assert "7 cards; ruleset classic-stars-2013 deals 13 at once (it has no Fantasyland" in err


def test_unknown_ruleset_exits_2():
    done = ofc_solve('{"cards": "As"}\n', "--ruleset", "no-such-rules")
    assert done.returncode == 2 and "unknown ruleset 'no-such-rules'" in done.stderr
    assert "Traceback" not in done.stderr


def test_default_value_is_the_measured_one_per_preset_and_variant(tmp_path):
    """docs/decisions.md "Fantasyland value": every preset with Fantasyland has a measured V
    inside its 95% interval; a user's ruleset takes its variant's."""
    measured = tomllib.loads(
        (Path(fantasyland_value.__file__).with_name("fantasyland_value.toml")).read_text()
    )
    for name in WITH_FANTASYLAND:
        figure = measured["preset"][name]
        assert figure["low"] < figure["value"] < figure["high"]
        assert default_fantasyland_value(load_ruleset(name)) == figure["value"]
    rules = tmp_path / "rules.toml"
    rules.write_text(STRICT_RULES)
    user = default_fantasyland_value(load_ruleset("strict-stay", rules))
    assert user == measured["variant"]["classic"]
