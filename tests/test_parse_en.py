"""The ``en`` parser reads every line shape of ofc-text-en.md (hand-written fixtures)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from tests.parse_helpers import FIXTURES, parse, rows

UTC = dt.UTC


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("en")
    summary, tables = parse(sorted((FIXTURES / "en").glob("*.txt")), out / "data")
    return summary, tables


def hand(tables, room_id: str) -> dict:
    return tables["hands"].filter(pl.col("room_hand_id") == room_id).row(0, named=True)


def players(tables, room_id: str) -> pl.DataFrame:
    return tables["player_hands"].filter(pl.col("hand_id") == f"en:{room_id}")


def placements(tables, room_id: str) -> pl.DataFrame:
    return tables["placements"].filter(pl.col("hand_id") == f"en:{room_id}")


def test_every_fixture_hand_is_stored(dataset):
    summary, tables = dataset
    assert tables["rejects"].height == 0, tables["rejects"].to_dicts()
    assert summary.read == summary.stored == 3


def test_header_words_map_to_presets(dataset):
    _, tables = dataset
    assert hand(tables, "7402331950")["ruleset"] == "pineapple-progressive-american"
    assert hand(tables, "55001")["ruleset"] == "classic-1-6-american"  # [FL 13] is the default
    assert hand(tables, "9000001")["ruleset"] == "turbo-1-6-american"


def test_clocks_become_utc(dataset):
    _, tables = dataset
    assert hand(tables, "7402331950")["played_at"] == dt.datetime(
        2026, 11, 29, 14, 3, 11, tzinfo=UTC
    )
    # ET in July is EDT (UTC-4); CET is a fixed UTC+1 (parsers.zones).
    assert hand(tables, "55001")["played_at"] == dt.datetime(2026, 7, 4, 13, 30, tzinfo=UTC)
    assert hand(tables, "9000001")["played_at"] == dt.datetime(2026, 7, 1, 13, 0, tzinfo=UTC)


def test_table_line_with_quotes_play_money_and_match_lines(dataset):
    _, tables = dataset
    awkward = hand(tables, "9000001")
    assert awkward["table_name"] == 'Joe\'s "Lucky" Room'
    assert awkward["point_value"] is None and awkward["currency"] is None
    assert awkward["match_id"] is None
    example = hand(tables, "7402331950")
    assert (example["point_value"], example["currency"], example["max_players"]) == (0.5, "USD", 3)
    assert (example["match_id"], example["match_hand"], example["match_hands"]) == ("5001277", 2, 3)
    continuation = hand(tables, "55001")
    assert continuation["fantasyland_continuation"] and continuation["match_hand"] is None


def test_names_with_brackets_quotes_digits_and_unicode(dataset):
    _, tables = dataset
    names = set(players(tables, "9000001").get_column("player"))
    assert names == {"x_Ace (2)", 'Zoë "Z" [FI] 2'}
    assert rows(players(tables, "7402331950"), "Carol [RU]")["seat"] == 3


def test_positions_count_from_the_seat_after_the_button(dataset):
    _, tables = dataset
    got = dict(players(tables, "7402331950").select("player", "position").iter_rows())
    assert got == {"Alice": 1, "Bob": 2, "Carol [RU]": 3}
    assert dict(players(tables, "55001").select("player", "position").iter_rows()) == {
        "Mika": 1,
        "Rex": 2,
    }


def test_hero_cards_and_discards_shown_opponent_discards_hidden(dataset):
    _, tables = dataset
    example = players(tables, "7402331950")
    alice, bob = rows(example, "Alice"), rows(example, "Bob")
    assert alice["discards"] == ["3c", "2s", "4d", "5h"] and alice["hidden_discards"] == 0
    assert bob["discards"] == [] and bob["hidden_discards"] == 4
    hidden = placements(tables, "7402331950").filter(
        (pl.col("seat") == 2) & (pl.col("row") == "discard")
    )
    assert hidden.height == 4 and hidden.get_column("card").null_count() == 4


def test_opponent_fantasyland_hand_comes_from_the_showdown(dataset):
    _, tables = dataset
    carol = rows(players(tables, "7402331950"), "Carol [RU]")
    assert carol["in_fantasyland"] and carol["fantasyland_cards"] == 14
    assert carol["bottom"] == ["As", "Ks", "Qc", "5s", "3s"] and carol["hidden_discards"] == 1
    street0 = placements(tables, "7402331950").filter(pl.col("seat") == 3)
    assert set(street0.get_column("street")) == {0}
    assert street0.filter(pl.col("row") != "discard").height == 13


def test_hero_fantasyland_hand_rows_in_any_order(dataset):
    _, tables = dataset
    mika = rows(players(tables, "55001"), "Mika")
    assert mika["in_fantasyland"] and mika["fantasyland_cards"] == 13
    assert mika["top"] == ["5c", "5d", "5h"] and mika["bottom"] == ["Ac", "Ah", "As", "Ad", "2c"]
    assert mika["starting_stack"] == 99.5
    placed = placements(tables, "55001").filter(pl.col("seat") == 2)
    assert set(placed.get_column("street")) == {0} and placed.height == 13


def test_classic_streets_of_one_card(dataset):
    _, tables = dataset
    rex = placements(tables, "55001").filter(pl.col("seat") == 1)
    per_street = dict(rex.group_by("street").len().iter_rows())
    assert per_street == {1: 5, **{s: 1 for s in range(2, 10)}}


def test_timeout_line_marks_that_street_automatic(dataset):
    _, tables = dataset
    zoe = rows(players(tables, "9000001"), 'Zoë "Z" [FI] 2')
    assert zoe["timed_out"]
    auto = placements(tables, "9000001").filter(pl.col("auto"))
    assert set(auto.get_column("street")) == {3} and set(auto.get_column("seat")) == {2}


def test_ten_and_suit_symbols_become_canonical(dataset):
    _, tables = dataset
    zoe = rows(players(tables, "9000001"), 'Zoë "Z" [FI] 2')
    assert zoe["top"] == ["Qs", "Qd", "3h"] and zoe["middle"] == ["5d", "5c", "8c", "8d", "Ts"]


def test_summary_figures_as_reported(dataset):
    _, tables = dataset
    alice = rows(players(tables, "7402331950"), "Alice")
    assert (alice["reported_points"], alice["reported_royalties"], alice["reported_money"]) == (
        30,
        9,
        15,
    )
    assert alice["reported_fantasyland_next"] and alice["reported_fantasyland_cards"] == 16
    bob = rows(players(tables, "7402331950"), "Bob")
    assert (
        bob["reported_foul"]
        and bob["reported_royalties"] is None
        and bob["reported_money"] == -10.5
    )
    mika, rex = rows(players(tables, "55001"), "Mika"), rows(players(tables, "55001"), "Rex")
    assert mika["reported_fantasyland_stay"] and mika["reported_fantasyland_next"]
    assert mika["reported_fantasyland_cards"] is None
    assert (rex["reported_points"], rex["reported_money"]) == (-39, -3.9)  # Unicode minus
    x_ace = rows(players(tables, "9000001"), "x_Ace (2)")
    assert x_ace["reported_money"] is None and x_ace["reported_fantasyland_cards"] == 13


def test_sources_are_named_with_their_lines(dataset):
    _, tables = dataset
    example = hand(tables, "7402331950")
    assert example["source_file"].endswith("spec_example.txt") and example["source_line"] == 1
