"""The fast path reads ``ru`` (UTF-8 and Windows-1251) as the thorough ``ru`` reader does.

The same comparison as ``tests/test_parse_fast_path.py`` (``en``): on any
input both readers give the same tables, rejects and reasons, stored ids
and guessed rulesets; on plain input the fast path must take the hands.
Windows-1251 text is decoded once per chunk (``parsers.lines``), so the
chunk the readers see is UTF-8 with Latin suit letters.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from ofc_core.rulesets import PRESET_NAMES
from parsers import fast
from parsers.lines import as_utf8, choose_encoding
from parsers.seen_ids import SeenIds
from pipeline.simulator.render import ru as render_ru
from tests.fast_path_support import (
    assert_renamed_reads_the_same,
    assert_same,
    mutate,
    mutations,
    taken_fast,
)
from tests.hand_builder import build, example_hand
from tests.parse_helpers import FIXTURES, parse


def example_text(hero: str = "Alice", ids=("1", "2", "3"), cp1251: bool = False) -> str:
    hands = [example_hand(room_hand_id=i) for i in ids]
    return "\n\n".join(render_ru.render_hands(*build(hands), hero, cp1251=cp1251)) + "\n"


def as_read(text: str, cp1251: bool) -> bytes:
    """``text`` as a chunk of it reaches the readers from a file in its encoding."""
    return as_utf8(text.encode("cp1251" if cp1251 else "utf-8"), "cp1251" if cp1251 else "utf-8")


@cache
def simulated_text(preset: str, players: int = 3, cp1251: bool = False) -> str:
    """Thirty simulated hands of ``preset`` in ``ru``, from the first player's seat."""
    from pipeline.simulator.chunk import run_chunk
    from pipeline.simulator.run import plan_chunks

    spec = plan_chunks(preset, players, 30, seed=5, source_format="jsonl")[0]
    batch = run_chunk(spec)
    texts = render_ru.render_hands(
        batch.hands,
        batch.player_hands,
        batch.placements,
        spec.roster[spec.hero].name,
        cp1251=cp1251,
    )
    return "\n\n".join(texts) + "\n"


@pytest.mark.parametrize("cp1251", [False, True])
@pytest.mark.parametrize("hero", ["Alice", "Bob", "Carol [RU]", "Nobody"])
def test_spec_example_from_every_seat_is_read_fast_and_the_same(hero, cp1251):
    data = as_read(example_text(hero, cp1251=cp1251), cp1251)
    assert taken_fast(data, "ru") == 3
    assert_same(data, "ru")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulated_hands_are_read_fast_and_the_same(preset):
    data = simulated_text(preset).encode()
    assert taken_fast(data, "ru") == 30
    assert_same(data, "ru")


@pytest.mark.parametrize(
    ("preset", "players"), [("classic-1-6-american", 4), ("pineapple-progressive-american", 3)]
)
def test_simulated_windows_1251_hands_are_read_fast_and_the_same(preset, players):
    data = as_read(simulated_text(preset, players, cp1251=True), cp1251=True)
    assert taken_fast(data, "ru") == 30
    assert_same(data, "ru")


@pytest.mark.parametrize("path", sorted((FIXTURES / "ru").glob("*.txt")), ids=lambda p: p.name)
def test_fixtures_are_read_fast_and_the_same(path):
    raw = path.read_bytes()
    data = as_utf8(raw, choose_encoding(raw))
    assert taken_fast(data, "ru") == 1
    assert_same(data, "ru")


def test_a_windows_1251_file_is_read_fast_and_as_the_thorough_reader_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "hands.txt"
    path.write_bytes(example_text("Bob", cp1251=True).replace("\n", "\r\n").encode("cp1251"))
    summary, got = parse([path], tmp_path / "fast")
    assert (summary.stored, summary.fast_path_fallbacks) == (3, 0)
    monkeypatch.setattr(fast, "read", lambda *args: None)  # the thorough reader alone
    _, want = parse([path], tmp_path / "thorough")
    for name, key in {"hands": ["hand_id"], "player_hands": ["hand_id", "seat"]}.items():
        assert_frame_equal(got[name].sort(key), want[name].sort(key))
    assert got["placements"].height == want["placements"].height


def test_crlf_blank_runs_and_junk_between_hands():
    text = example_text().replace("\n\n", "\n  \n\t\nмусор\n\n", 1).replace("\n", "\r\n")
    assert taken_fast(text.encode(), "ru") == 3
    assert_same(text.encode(), "ru", first_line=40)


def test_bytes_windows_1251_lacks_are_counted_in_their_stray_run():
    """0x98 is no character in Windows-1251: it decodes to U+FFFD, which strays count."""
    raw = example_text(cp1251=True).replace("\n\n", "\n\nмусор\nещё\n\n", 1).encode("cp1251")
    data = as_utf8(raw.replace("мусор".encode("cp1251"), b"\x98\x98"), "cp1251")
    assert "\ufffd".encode() in data
    assert taken_fast(data, "ru") == 3
    assert_same(data, "ru")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Carol [RU]", "Carol"),  # a shorter name
        ("Bob", "Bob: x"),  # a seat name holding ": "
        ("Bob", "Bob получает"),  # a name whose lines read as dealt lines
        ("Bob", "Alice получает"),
        ("Bob", "Б" * 20),  # a name longer than the fast path compares
        ("Alice", "Зоя ✓"),  # Unicode
        ("Alice: верх Т♥ |", "Alice: верх Ah |"),  # Latin rank and suit
        ("Alice: верх Т♥ |", "Alice: верх T♥ |"),  # Latin T is a ten
        ("Alice: верх Т♥ |", "Alice: верх 10♥ |"),
        ("Alice: верх Т♥ |", "Alice: верх 1♥ |"),
        ("Alice: верх Т♥ |", "Alice: верх Т♥  |"),
        ("Alice: верх Т♥ |", "Alice: верх Т |"),
        ("Alice получает: Т♥ К♦", "Alice получает:  Т♥ К♦"),
        ("Alice получает: Т♥ К♦ 7♣ 7♠ 2♥", "Alice получает: Т♥ К♦ 7♣ 7♠ 2♥ "),
        ("Alice получает: Т♥ К♦ 7♣ 7♠ 2♥", "Alice получает: "),
        ("Bob получает 5 карт", "Bob получает 5 карты"),
        ("Bob получает 5 карт", "Bob получает 05 карт"),
        ("Bob получает 5 карт", "Bob получает 4 карт"),
        ("Bob получает 5 карт", "Bob получает 5 карт: x"),
        ("Bob получает 5 карт (закрыты)", "Bob получает 5 карт (закрыт)"),
        ("Bob: середина 8♣ | низ В♥ | сброс (закрыт)", "Bob: середина 8♣ | низ В♥"),
        ("| сброс (закрыт)", "| сброс (закрыт) | сброс (закрыт)"),
        ("| сброс (закрыт)", "| сброс 2♣"),
        ("| сброс (закрыт)", "| сброс 2♣ | сброс (закрыт)"),
        ("Alice: середина Д♥ | низ 9♦", "Alice: середина Д♥ | середина 9♦"),
        ("Alice: середина Д♥ | низ 9♦", "Alice: середина Д♥|низ 9♦"),
        ("Alice: середина Д♥ | низ 9♦", "Alice: середина  | низ 9♦"),
        (
            "Bob: верх Д♠ | середина 5♦ 5♣",
            "Bob: время вышло, карты разложены автоматически\nBob: верх Д♠ | середина 5♦ 5♣",
        ),
        ("== Вскрытие ==", "== Вскрытие ==\nBob: верх Д♠"),
        ("== Улица 2 ==", "== Улица 02 =="),
        ("== Улица 2 ==", "== Улица 12 =="),
        ("== Улица 2 ==", "== Улица 2 ==\r"),
        ("== Улица 2 ==", "==Улица 2 =="),
        ("== Итог ==", "== Итог"),
        ("\n\n", "\n\n== Итог ==\n\n"),  # a section line between hands
        (" — мёртвая рука\n", "\n"),
        (" — мёртвая рука\n", " — мёртвая рука (да)\n"),
        ("Bob: верх Д♠ Д♦ 3♥ ·", "Bob: верх Д♠ Д♦ ·"),
        ("Bob: верх Д♠ Д♦ 3♥ ·", "Bob: верх Д♠ Д♦ 3♥ 4♥ ·"),
        ("Bob: верх Д♠ Д♦ 3♥ ·", "Bob получает: верх Д♠ Д♦ 3♥ ·"),
        ("баттон: место 3", "баттон: место 7"),
        ("3 игрока", "2 игрока"),
        ("очко = 0,50 $", "очко = 0,50 ¥"),
        ("очко = 0,50 $", "очко = 0,50 JPY"),
        ("очко = 0,50 $", "игровые фишки"),
        ("очко = 0,50 $", "очко = 1 250,50 ₽"),
        ("Стол «Helsinki II»", "Стол «Helsinki «II»»"),  # quotes in the table name
        ("Стол «Helsinki II»", "Стол «Хельсинки ЪЪ»"),
        ("(МСК)", "(UTC)"),
        ("(МСК)", "(UTC+05:00)"),
        ("(МСК)", "(UTC+05:30)"),
        ("(МСК)", "(UTC-04:30)"),
        ("(МСК)", "(EST)"),
        ("(МСК)", "(М(СК)"),
        ("(МСК)", "(МСК))"),
        ("(МСК)", "()"),
        ("29.11.2026 17:03:11", "30.02.2026 17:03:11"),
        ("29.11.2026 17:03:11", "31.12.1969 23:59:59"),
        ("29.11.2026 17:03:11", "29.02.2024 00:00:00"),
        ("29.11.2026 17:03:11", "29.02.2100 12:00:00"),
        ("29.11.2026 17:03:11", "29.11.2026 24:00:00"),
        ("29.11.2026 17:03:11", "1.11.2026 17:03:11"),
        ("29.11.2026 17:03:11 (МСК)", "29.11.2026 17:03:11\u00a0(МСК)"),
        ("Раздача №1 ", "Раздача №\u20091 "),
        ("Раздача №1 ", "Раздача №1\u00a0"),
        ("Ананас (прогрессивная фантазия)", "Ананас"),
        ("Ананас (прогрессивная фантазия)", "Ананас (фантазия 15)"),
        ("счёт 1-6", "счет 1-6"),
        ("роялти: американские", "роялти: российские"),
        ("Место 1: Alice", "Место 01: Alice"),
        ("Место 1: Alice", "Место 0: Alice"),
        ("Место 1: Alice (150)", "Место 1: Alice (1 250,50)"),
        ("Место 1: Alice (150)", "Место 1: Alice (−150)"),
        ("Место 1: Alice (150)", "Место 1: Alice (150) (1)"),
        ("— фантазия, 14 карт", "— фантазия, 15 карт"),
        ("Матч №5001277, раздача 2 из 3", "Матч №5001277, продолжение (фантазия)"),
        ("Матч №5001277,", "Матч №50,01277,"),
        ("Матч №5001277, раздача 2 из 3\n", ""),
        ("= +15 $", ""),  # a summary cut short
        ("Alice: +30 (роялти 9)", "Alice: +30,5 (роялти 9)"),
        ("Carol [RU]: −9 = −4,50 $", "Carol [RU]: −9, остаётся в фантазии = −4,50 $"),
    ],
)
def test_edits_read_the_same(old, new):
    text = example_text()
    assert old in text
    assert_same(text.replace(old, new).encode(), "ru")


#: One line of each kind that starts with a name, in ``timed_out_text()``: whose, and its start.
NAMED_LINES = {
    "hero dealt": ("Alice", "Alice получает: Т♥ К♦ 7♣ 7♠ 2♥"),
    "hidden dealt": ("Bob", "Bob получает 5 карт (закрыты)"),
    "placement": ("Alice", "Alice: верх Т♥ | середина К♦ | низ 7♣ 7♠ 2♥"),
    "shown discard": ("Alice", "Alice: середина Д♥ | низ 9♦ | сброс 3♣"),
    "hidden discard": ("Bob", "Bob: середина 8♣ | низ В♥ | сброс (закрыт)"),
    "timeout": ("Bob", "Bob: время вышло, карты разложены автоматически"),
    "showdown": ("Bob", "Bob: верх Д♠ Д♦ 3♥ · середина"),
    "summary": ("Bob", "Bob: −21, мёртвая рука = −10,50 $"),
}


def timed_out_text() -> str:
    """``example_text()`` with Bob timing out on street 2 (a timeout line)."""
    line = NAMED_LINES["hidden discard"][1]
    return example_text().replace(line, f"{NAMED_LINES['timeout'][1]}\n{line}")


@pytest.mark.parametrize("name", ["Вася получает:", "Вася:", "получает:"])
@pytest.mark.parametrize("kind", NAMED_LINES)
def test_a_name_ending_in_a_colon_is_read_on_every_line_kind_and_the_same(kind, name):
    """Names never hold ": " but may end in ":", even in " получает:": the dealt lines
    ``Вася получает: получает: <cards>`` and ``Вася получает: получает 5 карт (закрыты)``
    and the others (``Вася получает:: ...``) name the seat, fast and thorough alike."""
    assert_renamed_reads_the_same(timed_out_text(), NAMED_LINES[kind], name, "ru", {3})


@pytest.mark.parametrize("last", ["== Итог ==", "=="])
def test_text_ending_in_a_section_line_reads_the_same(last):
    """The last line of a chunk has no line end after it (the end of a file)."""
    text = example_text()
    assert_same((text[: text.rindex("== Итог ==")] + last).encode(), "ru")


@pytest.mark.parametrize("ruleset", ["pineapple-2-4-pokerdom", "classic-1-6-american"])
def test_a_ruleset_override_reads_the_same(ruleset):
    assert_same(example_text().encode(), "ru", ruleset=ruleset)


@pytest.mark.parametrize("line", ["Стол «", "Матч №"])
def test_a_hand_missing_a_head_line_leaves_the_others_fast(line):
    first, second, third = example_text().split("\n\n")
    second = "\n".join(row for row in second.splitlines() if not row.startswith(line))
    text = f"{third}\n\n{first}\n\n{second}\n".encode()
    assert taken_fast(text, "ru") == (2 if line == "Стол «" else 3)
    assert_same(text, "ru")


def test_repeated_ids_within_the_chunk_and_from_earlier_chunks():
    assert_same(example_text(ids=("1", "2", "1")).encode(), "ru")
    broken = example_text(ids=("1", "2", "1")).replace("№1 · Ананас", "№1· Ананас", 1)
    assert_same(broken.encode(), "ru")  # a header that does not cut still names its id
    seen = SeenIds().plus(pl.DataFrame({"room_hand_id": ["2"], "n": [1]}))
    assert_same(example_text(ids=("7", "2", "8")).encode(), "ru", seen=seen)


MUTATIONS = mutations("ТКДВ98765432shdc♠♥♦♣ |()·№:,-+ 0\u2212—«»фЁ")
RANKS = "ТКДВAKQJT98765432"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations=MUTATIONS, hero=st.sampled_from(["Alice", "Carol [RU]"]))
def test_mutated_hands_read_the_same(mutations, hero):
    first, second, third = example_text(hero).split("\n\n")
    middle = "\n".join(mutate(second.splitlines(), mutations, RANKS))
    assert_same(f"{first}\n\n{middle}\n\n{third}".encode(), "ru")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mutations=MUTATIONS,
    preset=st.sampled_from(["classic-1-6-american", "pineapple-progressive-american"]),
    cp1251=st.booleans(),
)
def test_mutated_simulated_hands_read_the_same(mutations, preset, cp1251):
    hands = simulated_text(preset, cp1251=cp1251).split("\n\n")[:4]
    hands[1] = "\n".join(mutate(hands[1].splitlines(), mutations, RANKS))
    assert_same("\n\n".join(hands).encode(), "ru")
