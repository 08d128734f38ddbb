"""The ``ru`` renderer writes the spec's words, numbers and clock (ofc-text-ru.md)."""

from __future__ import annotations

import pytest

from pipeline.simulator.render.common import write_hands
from pipeline.simulator.render.ru import card_words, render_hands
from tests.hand_builder import build, example_hand


def _render(hand, hero: str, **options) -> str:
    return next(iter(render_hands(*build([hand]), hero, **options)))


def test_header_table_and_seats_in_russian():
    lines = _render(example_hand(point_value=1250.5, currency="RUB"), "Alice").splitlines()
    assert lines[0] == (
        "Раздача №7402331950 · Ананас (прогрессивная фантазия) · счёт 1-6 · "
        "роялти: американские · 29.11.2026 17:03:11 (МСК)"
    )
    assert lines[1] == "Стол «Helsinki II» · 3 игрока · очко = 1 250,50 ₽ · баттон: место 3"
    assert lines[2] == "Матч №5001277, раздача 2 из 3"
    assert lines[5] == "Место 3: Carol [RU] (150) — фантазия, 14 карт"


def test_streets_hide_opponents_and_show_the_hero():
    text = _render(example_hand(), "Alice")
    assert "Alice получает: Д♥ 9♦ 3♣" in text
    assert "Alice: середина Д♥ | низ 9♦ | сброс 3♣" in text
    assert "Bob получает 3 карты (закрыты)" in text
    assert "Bob: середина 8♣ | низ В♥ | сброс (закрыт)" in text
    assert "Carol [RU] получает 14 карт (закрыты)" in text


def test_showdown_and_summary_with_unicode_minus():
    text = _render(example_hand(), "Alice")
    assert (
        "Bob: верх Д♠ Д♦ 3♥ · середина 5♦ 5♣ 8♣ 8♦ 10♠ · низ 9♠ 9♥ В♥ К♣ 4♠ — мёртвая рука" in text
    )
    assert "Alice: +30 (роялти 9), фантазия (16 карт) = +15 $" in text
    assert "Bob: \u221221, мёртвая рука = \u221210,50 $" in text


def test_cp1251_text_encodes_and_uses_latin_suits(tmp_path):
    texts = list(render_hands(*build([example_hand(currency="RUB")]), "Alice", cp1251=True))
    assert "Alice получает: Дh 9d 3c" in texts[0]
    assert "₽" not in texts[0] and "\u2212" not in texts[0]
    path = tmp_path / "hands.txt"
    assert write_hands(path, texts, encoding="cp1251", newline="\r\n") == 1
    assert path.read_bytes().decode("cp1251").replace("\r\n", "\n").rstrip("\n") == texts[0]


def test_card_words_cover_the_deck_with_cyrillic_ranks():
    words = card_words()
    assert len(set(words.values())) == 52
    assert words["As"] == "Т♠" and words["Ts"] == "10♠" and words["Jd"] == "В♦"


def test_unknown_clock_label_is_refused():
    with pytest.raises(ValueError, match="clock label"):
        _render(example_hand(), "Alice", zone="PST")
