"""The ``en`` renderer writes the spec's text from the hero's point of view (ofc-text-en.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from pipeline.simulator.render.en import header_words, render_hands
from tests.hand_builder import EXAMPLE_EN, build, example_hand


def _render(hand, hero: str, **options) -> str:
    return next(iter(render_hands(*build([hand]), hero, **options)))


def test_spec_example_is_reproduced_line_for_line():
    assert _render(example_hand(), "Alice") == EXAMPLE_EN


def test_opponents_cards_and_discards_stay_hidden_and_the_heros_show():
    text = _render(example_hand(), "Bob")
    assert "Dealt to Alice (5 cards)" in text
    assert "Dealt to Bob [Qs 5d 5c 9s 9h]" in text
    assert "Alice: sets middle [Qh], bottom [9d]; discards 1 card" in text
    assert "Bob: sets middle [8c], bottom [Jh]; discards [6h]" in text
    assert "3c" not in text  # Alice's discard (R2: opponents never see discards)


def test_hero_in_fantasyland_lists_the_hand_and_its_discards():
    text = _render(example_hand(), "Carol [RU]")
    lines = text.splitlines()
    fl = lines.index("*** FANTASYLAND ***")
    assert lines[fl + 1] == "Dealt to Carol [RU] [2c 3d 4h Tc Jc 2d 8h 6c As Ks Qc 5s 3s Ac]"
    assert lines[fl + 2] == (
        "Carol [RU]: sets top [2c 3d 4h], middle [Tc Jc 2d 8h 6c], bottom [As Ks Qc 5s 3s];"
        " discards [Ac]"
    )


def test_opponent_fantasyland_hand_appears_only_at_showdown():
    text = _render(example_hand(), "Alice")
    before_showdown = text.split("*** SHOWDOWN ***")[0]
    assert "Carol [RU]:" not in before_showdown
    assert "Dealt to Carol [RU] (14 cards)" in before_showdown


def test_timeout_line_comes_before_the_automatic_placement():
    hand = example_hand()
    alice, bob, carol = hand.players
    hand = dataclasses.replace(
        hand, players=(alice, dataclasses.replace(bob, auto_streets=(3,)), carol)
    )
    lines = _render(hand, "Alice").splitlines()
    i = lines.index("Bob: timed out, cards set automatically")
    assert lines[i - 1] == "Dealt to Bob (3 cards)"
    assert lines[i + 1].startswith("Bob: sets top [Qd]")


@pytest.mark.parametrize(
    ("zone", "when", "clock"),
    [
        ("ET", dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.UTC), "2026/07/01 08:00:00 ET"),  # EDT
        ("ET", dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC), "2026/01/15 07:00:00 ET"),  # EST
        ("CET", dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.UTC), "2026/07/01 13:00:00 CET"),
        ("+03:00", dt.datetime(2026, 12, 31, 22, 30, tzinfo=dt.UTC), "2027/01/01 01:30:00 +03:00"),
    ],
)
def test_header_clock_in_the_rooms_zone(zone, when, clock):
    first = _render(example_hand(played_at=when), "Alice", zone=zone).splitlines()[0]
    assert first.endswith(f"- {clock}")


def test_play_money_table_shows_no_money():
    text = _render(example_hand(point_value=None, currency=None), "Alice")
    assert ", play money, Seat #3" in text
    assert "USD" not in text


def test_every_preset_has_header_words_and_unknown_rulesets_are_refused():
    assert header_words("classic-stars-2013") == "Classic [No FL] 1-6 Stars-2013"
    assert header_words("pineapple-27") == "Pineapple 2-7 1-6 American"
    with pytest.raises(ValueError, match="no header words"):
        header_words("my-house-rules")


def test_unknown_clock_label_is_refused():
    with pytest.raises(ValueError, match="clock label"):
        _render(example_hand(), "Alice", zone="PST")
