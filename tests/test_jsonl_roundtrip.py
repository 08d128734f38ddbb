"""``ofc-jsonl`` round trips exactly (docs/formats/ofc-jsonl.md)."""

from __future__ import annotations

import datetime as dt
import json

import pyarrow as pa
import pytest

from parsers.jsonl import SCHEMA_PATH, jsonl_bytes, read_jsonl, write_jsonl
from parsers.schema import HANDS, PLACEMENTS, PLAYER_HANDS
from pipeline.simulator import simulate

WHERE = ["source_file", "source_line"]


def simulated(preset: str, players: int, hands: int) -> dict[str, pa.Table]:
    batches = [b.as_dict() for b in simulate(preset, players, hands, seed=3)]
    return {k: pa.concat_tables([b[k] for b in batches]) for k in batches[0]}


@pytest.mark.parametrize(
    "preset,players",
    [
        ("pineapple-progressive-american", 3),
        ("classic-stars-2013", 4),
        ("pineapple-2-4-pokerbet", 2),
    ],
)
def test_simulated_hands_round_trip_exactly(tmp_path, preset, players):
    tables = simulated(preset, players, 120)
    path = tmp_path / "hands.jsonl"
    assert write_jsonl(path, [tables]) == 120
    back = read_jsonl(path)
    assert back["rejects"].num_rows == 0
    assert back["hands"].drop(WHERE).equals(tables["hands"].drop(WHERE))
    assert back["player_hands"].equals(tables["player_hands"])
    assert back["placements"].equals(tables["placements"])
    assert back["hands"]["source_line"].to_pylist() == list(range(1, 121))
    assert set(back["hands"]["source_file"].to_pylist()) == {str(path)}


def handmade() -> dict[str, pa.Table]:
    """Hands a room file could hold: nulls, hidden discards, microseconds, awkward names."""
    hands = pa.Table.from_pylist(
        [
            dict(
                hand_id="en:1",
                room_hand_id="1",
                source_format="en",
                variant="pineapple",
                ruleset="pineapple-1-6-american",
                played_at=dt.datetime(2026, 11, 29, 14, 3, 11, 250, tzinfo=dt.UTC),
                table_name="Helsinki 'II'",
                max_players=3,
                button_seat=3,
                point_value=None,
                currency=None,
                match_id=None,
                match_hand=None,
                match_hands=None,
                fantasyland_continuation=True,
                source_file="a.txt",
                source_line=7,
            ),
        ],
        schema=HANDS,
    )
    player = dict(
        hand_id="en:1",
        starting_stack=None,
        in_fantasyland=False,
        fantasyland_cards=0,
        discards=[],
        hidden_discards=4,
        timed_out=False,
        reported_points=-1.5,
        reported_royalties=None,
        reported_foul=None,
        reported_money=None,
        reported_fantasyland_next=None,
        reported_fantasyland_cards=None,
        reported_fantasyland_stay=None,
    )
    players = pa.Table.from_pylist(
        [
            player
            | dict(
                seat=1,
                player='Carol [RU] "C"',
                position=1,
                top=["Ah", "Ad", "4c"],
                middle=["Kd", "Kh", "Qh", "6s", "6d"],
                bottom=["7c", "7s", "7d", "2h", "9d"],
                discards=["3c"],
                hidden_discards=0,
            ),
            player
            | dict(
                seat=3,
                player="李伟 (x)",
                position=2,
                top=["Qs", "Qd", "3h"],
                middle=["5d", "5c", "8c", "8d", "Ts"],
                bottom=["9s", "9h", "Jh", "Kc", "4s"],
                reported_points=1.5,
            ),
        ],
        schema=PLAYER_HANDS,
    )
    placements = pa.Table.from_pylist(
        [
            dict(hand_id="en:1", seat=1, street=2, card="Qh", row="middle", auto=False),
            dict(hand_id="en:1", seat=3, street=2, card=None, row="discard", auto=True),
            dict(hand_id="en:1", seat=1, street=1, card="Ah", row="top", auto=False),
        ],
        schema=PLACEMENTS,
    )
    return {"hands": hands, "player_hands": players, "placements": placements}


def test_nulls_hidden_cards_and_row_order_round_trip(tmp_path):
    tables = handmade()
    path = tmp_path / "one.jsonl"
    write_jsonl(path, [tables])
    back = read_jsonl(path)
    assert back["rejects"].num_rows == 0
    assert back["hands"].drop(WHERE).equals(tables["hands"].drop(WHERE))
    assert back["player_hands"].equals(tables["player_hands"])
    assert back["placements"].equals(tables["placements"])


def test_every_written_line_follows_the_shipped_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    tables = simulated("pineapple-27", 3, 40)
    lines = [*jsonl_bytes(**tables).splitlines(), *jsonl_bytes(**handmade()).splitlines()]
    for line in lines:
        errors = list(validator.iter_errors(json.loads(line)))
        assert not errors, errors[0].message


def test_the_json_schema_names_every_model_column():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    hand_keys = set(schema["properties"]) - {"ofc_jsonl", "players", "placements"}
    assert hand_keys == set(HANDS.names) - set(WHERE)
    assert set(schema["$defs"]["player"]["properties"]) == set(PLAYER_HANDS.names) - {"hand_id"}
    placement_keys = set(schema["properties"]["placements"]["properties"])
    assert placement_keys == set(PLACEMENTS.names) - {"hand_id"}
