"""The fast ``en`` path (``parsers.fast``) changes speed, never results.

``parse_chunk`` reads plain hands from their bytes and hands the others to
the thorough reader; ``read_thoroughly`` reads everything the thorough way.
On any input both must give the same tables (rows, rejects and their
reasons), the same stored ids and the same guessed rulesets; and on plain
input the fast path must really take the hands (else the comparison proves
nothing).
"""

from __future__ import annotations

from functools import cache

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc_core.rulesets import PRESET_NAMES
from parsers.lines import Chunk
from parsers.run import parse_chunk
from parsers.schema import plain
from parsers.seen_ids import SeenIds
from pipeline.simulator.render import en as render_en
from tests.fast_path_support import (
    assert_renamed_reads_the_same,
    assert_same,
    mutate,
    mutations,
    taken_fast,
)
from tests.hand_builder import build, example_hand
from tests.parse_helpers import FIXTURES


def example_text(hero: str = "Alice", ids=("1", "2", "3")) -> str:
    hands = [example_hand(room_hand_id=i) for i in ids]
    return "\n\n".join(render_en.render_hands(*build(hands), hero)) + "\n"


@cache
def simulated_text(preset: str, players: int = 3) -> str:
    """Thirty simulated hands of ``preset`` in ``en``, from the first player's seat."""
    from pipeline.simulator.chunk import run_chunk
    from pipeline.simulator.run import plan_chunks

    spec = plan_chunks(preset, players, 30, seed=5, source_format="jsonl")[0]
    batch = run_chunk(spec)
    texts = render_en.render_hands(
        batch.hands, batch.player_hands, batch.placements, spec.roster[spec.hero].name
    )
    return "\n\n".join(texts) + "\n"


@pytest.mark.parametrize("hero", ["Alice", "Bob", "Carol [RU]", "Nobody"])
def test_spec_example_from_every_seat_is_read_fast_and_the_same(hero):
    data = example_text(hero).encode()
    assert taken_fast(data) == 3
    assert_same(data)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulated_hands_are_read_fast_and_the_same(preset):
    data = simulated_text(preset).encode()
    assert taken_fast(data) == 30
    assert_same(data)


def test_four_handed_classic_is_read_fast():
    data = simulated_text("classic-1-6-american", 4).encode()
    assert taken_fast(data) == 30
    assert_same(data)


@pytest.mark.parametrize("path", sorted((FIXTURES / "en").glob("*.txt")), ids=lambda p: p.name)
def test_fixtures_are_the_same(path):
    assert_same(path.read_bytes())


@pytest.mark.parametrize(
    "names",
    [("Bobby", "Bob", "Bobby Jr"), ("pokerstar_0001", "pokerstar_0002", "pokerstar_00")],
)
def test_names_sharing_their_first_bytes_are_read_fast(names):
    text = example_text()
    for old, new in zip(("Alice", "Bob", "Carol [RU]"), names, strict=True):
        text = text.replace(f"{old}:", f"{new}:").replace(f"to {old} ", f"to {new} ")
        text = text.replace(f": {old} (", f": {new} (")
    assert taken_fast(text.encode()) == 3
    assert_same(text.encode())


@pytest.mark.parametrize(
    ("before", "last"),
    [
        ("*** SUMMARY ***", "*** SUMMARY ***"),
        ("*** STREET 5 ***", "*** STREET 5 ***"),
        ("*** SUMMARY ***", "***"),
    ],
)
def test_text_ending_in_a_section_line_reads_the_same(before, last):
    """The last line of a chunk has no line end after it (the end of a file)."""
    text = example_text()
    assert_same((text[: text.rindex(before)] + last).encode())


def test_crlf_bom_free_blank_runs_and_junk_between_hands():
    text = example_text().replace("\n\n", "\n  \n\t\nsome junk\n\n", 1).replace("\n", "\r\n")
    assert taken_fast(text.encode()) == 3
    assert_same(text.encode(), first_line=40)


@pytest.mark.parametrize("space", ["\u00a0", "\u3000 ", " \u2007\t", "\u0085"])
def test_lines_of_unicode_white_space_between_hands_are_blank(space):
    """``\\s`` is Unicode's white space, as ``parsers.segment`` reads a blank line."""
    text = example_text().replace("\n\n", f"\n{space}\n", 1)
    assert taken_fast(text.encode()) == 3
    assert_same(text.encode())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Carol [RU]", "Carol"),  # a shorter name
        ("Bob", "Bob: x"),  # a seat name holding ": "
        ("Bob", "Dealt to Bob"),  # a player whose lines start like dealt lines
        ("Bob", "B" * 40),  # a name longer than the fast path compares
        ("Alice", "Zoë ✓"),  # Unicode
        ("[Ah Kd 7c 7s 2h]", "[A♥ Kd 7c 7s 2h]"),  # suit symbols: thorough reader only
        ("[Ah Kd 7c 7s 2h]", "[Ah Kd 7c 7s 10h]"),  # 10 for T
        ("*** SHOWDOWN ***", "*** SHOWDOWN ***\nBob: sets top [Qs]"),
        ("Bob: sets top [Qs]", "Bob: sets top [Qs], top [Qd]"),
        ("discards 1 card", "discards 1 cards"),
        ("discards 1 card", "discards 2 cards"),
        ("Bob: shows top", "Bob: x: shows top"),  # words before the showdown's
        ("(a pair of Aces)", "(a [pair] of Aces)"),
        ("(a pair of Aces)", "()"),
        ("- fouled", "- fouled (really)"),
        ("Seat #3 is the button", "Seat #7 is the button"),
        ("3-max", "2-max"),
        ("UTC", "ET"),
        ("2026/11/29 14:03:11", "2026/02/30 14:03:11"),
        ("2026/11/29 14:03:11", "1969/12/31 23:59:59"),  # before 1970
        ("2026/11/29 14:03:11", "2024/02/29 00:00:00"),  # a leap day
        ("2026/11/29 14:03:11", "2100/02/29 12:00:00"),  # no leap day in 2100
        ("2026/11/29 14:03:11", "2000/02/29 12:00:00"),  # but one in 2000
        ("2026/11/29 14:03:11", "2026/11/29 24:00:00"),
        ("2026/11/29 14:03:11", "2026/11/29 14:03:60"),  # a leap second
        ("2026/11/29 14:03:11", "0000/01/01 00:00:00"),
        ("2026/11/29 14:03:11", "2026/1/29 14:03:11"),
        ("14:03:11 UTC", "14:03:11 UTC+3"),
        ("14:03:11 UTC", "14:03:11\u00a0UTC"),  # a no-break space before the label
        ("OFC Hand #1:", "OFC Hand #\u20091:"),  # a thin space in the id
        ("Seat 1: Alice", "Seat 01: Alice"),
        ("Seat 1: Alice", "Seat 001: Alice"),
        ("Seat 1: Alice", "Seat 0: Alice"),
        ("Table 'Helsinki II'", "Table 'Helsinki 'II''"),  # quotes in the table name
        ("Match #5001277,", "Match #50,01277,"),
        ("Match #5001277, hand 2 of 3", "Match #5001277, Fantasyland continuation"),
        ("Match #5001277, hand 2 of 3\n", ""),
        ("(150 points)", "(1 250.50 points)"),
        ("[Fantasyland, 14 cards]", "[Fantasyland, 15 cards]"),
        ("+30 points", "+30 points, stays in Fantasyland"),
        ("\n\n", "\n\nsome \ufffd junk\n\ufffd\n\n"),  # strays holding U+FFFD
        ("*** STREET 2 ***", "*** STREET 12 ***"),  # section lines: read in the line pass
        ("*** STREET 2 ***", "*** STREET 2 *** "),
        ("*** STREET 2 ***", "*** STREET 2 ***\r"),
        ("*** STREET 2 ***", "***STREET 2 ***"),
        ("*** SHOWDOWN ***", "*** SHOWDOWN"),
        ("*** SUMMARY ***", "*** SUMMARY ****"),
        ("\n\n", "\n\n*** SUMMARY ***\n\n"),  # a section line between hands
    ],
)
def test_edits_read_the_same(old, new):
    text = example_text()
    assert old in text
    assert_same(text.replace(old, new).encode())


#: One line of each kind that names a player, in ``timed_out_text()``: whose, and its start.
NAMED_LINES = {
    "hero dealt": ("Alice", "Dealt to Alice [Ah Kd 7c 7s 2h]"),
    "hidden dealt": ("Bob", "Dealt to Bob (5 cards)"),
    "placement": ("Alice", "Alice: sets top [Ah], middle [Kd], bottom [7c 7s 2h]"),
    "shown discard": ("Alice", "Alice: sets middle [Qh], bottom [9d]; discards [3c]"),
    "hidden discard": ("Bob", "Bob: sets middle [8c], bottom [Jh]; discards 1 card"),
    "timeout": ("Bob", "Bob: timed out, cards set automatically"),
    "showdown": ("Bob", "Bob: shows top [Qs Qd 3h]"),
    "summary": ("Bob", "Bob: -21 points, fouled = -10.50 USD"),
}


def timed_out_text() -> str:
    """``example_text()`` with Bob timing out on street 2 (a timeout line)."""
    line = NAMED_LINES["hidden discard"][1]
    return example_text().replace(line, f"{NAMED_LINES['timeout'][1]}\n{line}")


@pytest.mark.parametrize("name", ["Dealt to Zoë:", "Zoë:", "Dealt to Zoë [Kd]", "Zoë (5 cards)"])
@pytest.mark.parametrize("kind", NAMED_LINES)
def test_a_name_holding_the_dealt_words_is_read_on_every_line_kind_and_the_same(kind, name):
    """Names never hold ": " but may hold the dealt lines' words (``Dealt to``, a card list,
    a count) and end in ":": every line still names its seat, and the fast path stores
    such hands only as the thorough reader does (it may leave them to it)."""
    assert_renamed_reads_the_same(timed_out_text(), NAMED_LINES[kind], name, "en", {0, 3})


@pytest.mark.parametrize("ruleset", ["pineapple-2-4-pokerdom", "classic-1-6-american"])
def test_a_ruleset_override_reads_the_same(ruleset):
    """Same variant: scored by the override; another variant: every hand rejected."""
    assert_same(example_text().encode(), ruleset=ruleset)


def test_a_timeout_is_read_fast_and_marks_the_street_automatic():
    line = "Bob: sets middle [8c], bottom [Jh]; discards 1 card"
    text = example_text().replace(line, f"Bob: timed out, cards set automatically\n{line}")
    assert taken_fast(text.encode()) == 3
    assert_same(text.encode())
    tables = parse_chunk(Chunk(text.encode(), 1, "utf-8"), "in.txt", "en", None, None).tables
    auto = pl.from_arrow(plain(tables["placements"], "placements")).filter("auto")
    assert set(auto.get_column("street")) == {2} and set(auto.get_column("seat")) == {2}


@pytest.mark.parametrize("line", ["Table '", "Match #"])
def test_a_hand_missing_a_head_line_leaves_the_others_fast(line):
    """Its empty spans (at the chunk's start) must not stop the fast path for the chunk."""
    first, second, third = example_text().split("\n\n")
    second = "\n".join(row for row in second.splitlines() if not row.startswith(line))
    text = f"{third}\n\n{first}\n\n{second}\n".encode()
    assert taken_fast(text) == (2 if line == "Table '" else 3)
    assert_same(text)


def test_repeated_ids_within_the_chunk_and_from_earlier_chunks():
    data = example_text(ids=("1", "2", "1")).encode()
    assert_same(data)
    broken = example_text(ids=("1", "2", "1")).replace("#1: Pineapple", "#1:Pineapple", 1)
    assert_same(broken.encode())  # a header that does not cut still names its id
    seen = SeenIds().plus(pl.DataFrame({"room_hand_id": ["2"], "n": [1]}))
    assert_same(example_text(ids=("7", "2", "8")).encode(), seen=seen)


MUTATIONS = mutations("AKQJT98765432shdc []()#:,;-+ 0\u2212Ææ")
CARDS = "AKQJT98765432"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations=MUTATIONS, hero=st.sampled_from(["Alice", "Carol [RU]"]))
def test_mutated_hands_read_the_same(mutations, hero):
    first, second, third = example_text(hero).split("\n\n")
    middle = "\n".join(mutate(second.splitlines(), mutations, CARDS))
    assert_same(f"{first}\n\n{middle}\n\n{third}".encode())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mutations=MUTATIONS,
    preset=st.sampled_from(["classic-1-6-american", "pineapple-progressive-american"]),
)
def test_mutated_simulated_hands_read_the_same(mutations, preset):
    hands = simulated_text(preset).split("\n\n")[:4]
    hands[1] = "\n".join(mutate(hands[1].splitlines(), mutations, CARDS))
    assert_same("\n\n".join(hands).encode())
