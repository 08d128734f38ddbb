"""The ``ru`` parser reads every line shape of ofc-text-ru.md (hand-written fixtures)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from parsers.run import parse_files
from tests.parse_helpers import FIXTURES, parse, parse_bytes, rows


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("ru")
    return parse(sorted((FIXTURES / "ru").glob("*.txt")), out / "data")


def hand(tables, room_id: str) -> dict:
    return tables["hands"].filter(pl.col("room_hand_id") == room_id).row(0, named=True)


def players(tables, room_id: str) -> pl.DataFrame:
    return tables["player_hands"].filter(pl.col("hand_id") == f"ru:{room_id}")


def test_every_fixture_hand_is_stored(dataset):
    summary, tables = dataset
    assert tables["rejects"].height == 0, tables["rejects"].to_dicts()
    assert summary.read == summary.stored == 2
    assert {f.format for f in summary.files} == {"ru"}


def test_spec_example_header_table_and_clock(dataset):
    _, tables = dataset
    h = hand(tables, "88120045")
    # "Ананас · счёт 1-6 · роялти: российские" names no preset exactly: the nearest (parsers.header_words).
    assert h["ruleset"] == "pineapple-1-6-american"
    assert h["played_at"] == dt.datetime(2026, 11, 29, 14, 3, 11, tzinfo=dt.UTC)  # МСК = UTC+3
    assert (h["table_name"], h["max_players"], h["point_value"], h["currency"]) == (
        "Москва 3",
        3,
        10,
        "RUB",
    )
    assert (h["match_id"], h["match_hand"], h["match_hands"], h["button_seat"]) == ("301", 1, 3, 1)


def test_spec_example_players_cards_and_figures(dataset):
    _, tables = dataset
    ph = players(tables, "88120045")
    alice, boris = rows(ph, "Алиса"), rows(ph, "Борис «Бэ»")
    assert alice["position"] == 1 and alice["starting_stack"] == 1000
    assert alice["top"] == ["Ah", "Ad", "4c"]  # Cyrillic Т is an ace
    assert alice["discards"] == ["3c", "2s", "4d", "5h"]
    assert boris["middle"] == ["5d", "5c", "8c", "8d", "Ts"]  # 10 is a ten
    assert boris["hidden_discards"] == 4 and boris["reported_foul"]
    assert (alice["reported_points"], alice["reported_royalties"], alice["reported_money"]) == (
        30,
        9,
        300,
    )
    assert alice["reported_fantasyland_next"] and alice["reported_fantasyland_cards"] == 14
    assert (boris["reported_points"], boris["reported_money"]) == (-21, -210)  # Unicode minus


def test_placement_parts_in_any_order(dataset):
    _, tables = dataset
    katya = tables["placements"].filter(
        (pl.col("hand_id") == "ru:88120045") & (pl.col("street") == 4)
    )
    katya = katya.filter(pl.col("seat") == 1)
    assert sorted(katya.get_column("row").to_list()) == ["bottom", "bottom", "discard"]


def test_cp1251_file_with_latin_suits_decimal_commas_and_offset_zone(dataset):
    _, tables = dataset
    h = hand(tables, "4401")
    assert h["ruleset"] == "pineapple-2-4-pokerbet"
    assert h["played_at"] == dt.datetime(2026, 2, 1, 5, 0, tzinfo=dt.UTC)
    assert h["point_value"] == 1250.5 and h["fantasyland_continuation"]
    ph = players(tables, "4401")
    petr, ivan = rows(ph, "Пётр"), rows(ph, "Ivan_77")
    assert petr["in_fantasyland"] and petr["fantasyland_cards"] == 15
    assert petr["discards"] == ["2c", "2d"] and petr["starting_stack"] == 12500.5
    assert ivan["middle"] == ["7d", "7h", "Tc", "Td", "2s"]  # Latin T is a ten, Cyrillic Т an ace
    assert ivan["bottom"] == ["Ac", "Ad", "Ah", "6d", "6c"]
    assert ivan["timed_out"] and ivan["hidden_discards"] == 4
    assert (ivan["reported_points"], ivan["reported_money"]) == (-4, -5002)


def test_hidden_discards_without_a_count_are_what_the_deal_leaves(dataset):
    _, tables = dataset
    hidden = tables["placements"].filter(
        (pl.col("hand_id") == "ru:4401") & (pl.col("seat") == 2) & (pl.col("row") == "discard")
    )
    assert hidden.height == 4 and hidden.get_column("card").null_count() == 4
    assert sorted(hidden.get_column("street").to_list()) == [2, 3, 4, 5]


def test_no_break_and_narrow_spaces_between_thousands(tmp_path):
    text = (FIXTURES / "ru" / "spec_example.txt").read_text(encoding="utf-8")
    text = text.replace("(1 000)", "(1\u00a0000,5)").replace("= +300 ₽", "= +1\u202f300,25 ₽")
    _, tables = parse_bytes(text.encode(), tmp_path)
    alice = rows(tables["player_hands"], "Алиса")
    assert alice["reported_money"] == 1300.25
    assert set(tables["player_hands"].get_column("starting_stack")) == {1000.5}


def test_ruleset_option_overrides_the_header(tmp_path):
    summary = parse_files(
        [FIXTURES / "ru" / "spec_example.txt"], tmp_path / "o", ruleset="pineapple-2-4-pokerdom"
    )
    assert summary.stored == 1
    assert pl.read_parquet(tmp_path / "o" / "hands").get_column("ruleset").to_list() == [
        "pineapple-2-4-pokerdom"
    ]
