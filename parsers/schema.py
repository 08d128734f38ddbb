"""The hand model: the four Parquet tables every stage shares.

Parsers write these tables, the simulator writes them, the rules engine reads
them and the pipeline loads them into DuckDB. Column names and types are a
public contract, documented column by column in ``docs/schema.md``.
"""

from __future__ import annotations

import pyarrow as pa

VARIANTS = ("classic", "pineapple", "turbo", "pineapple-27")
ROWS = ("top", "middle", "bottom")
PLACEMENT_ROWS = (*ROWS, "discard")
SOURCE_FORMATS = ("en", "ru", "jsonl")

_cards = pa.list_(pa.string())

HANDS = pa.schema(
    [
        ("hand_id", pa.string()),
        ("room_hand_id", pa.string()),
        ("source_format", pa.string()),
        ("variant", pa.string()),
        ("ruleset", pa.string()),
        ("played_at", pa.timestamp("us", tz="UTC")),
        ("table_name", pa.string()),
        ("max_players", pa.int8()),
        ("button_seat", pa.int8()),
        ("point_value", pa.float64()),
        ("currency", pa.string()),
        ("match_id", pa.string()),
        ("match_hand", pa.int16()),
        ("match_hands", pa.int16()),
        ("fantasyland_continuation", pa.bool_()),
        ("source_file", pa.string()),
        ("source_line", pa.int64()),
    ]
)

PLAYER_HANDS = pa.schema(
    [
        ("hand_id", pa.string()),
        ("seat", pa.int8()),
        ("player", pa.string()),
        ("position", pa.int8()),
        ("starting_stack", pa.float64()),
        ("in_fantasyland", pa.bool_()),
        ("fantasyland_cards", pa.int8()),
        ("top", _cards),
        ("middle", _cards),
        ("bottom", _cards),
        ("discards", _cards),
        ("hidden_discards", pa.int8()),
        ("timed_out", pa.bool_()),
        ("reported_points", pa.float64()),
        ("reported_royalties", pa.float64()),
        ("reported_foul", pa.bool_()),
        ("reported_money", pa.float64()),
        ("reported_fantasyland_next", pa.bool_()),
        ("reported_fantasyland_cards", pa.int8()),
        ("reported_fantasyland_stay", pa.bool_()),
    ]
)

PLACEMENTS = pa.schema(
    [
        ("hand_id", pa.string()),
        ("seat", pa.int8()),
        ("street", pa.int8()),
        ("card", pa.string()),
        ("row", pa.string()),
        ("auto", pa.bool_()),
    ]
)

REJECTS = pa.schema(
    [
        ("source_file", pa.string()),
        ("source_line", pa.int64()),
        ("room_hand_id", pa.string()),
        ("reason", pa.string()),
        ("excerpt", pa.string()),
    ]
)

TABLES: dict[str, pa.Schema] = {
    "hands": HANDS,
    "player_hands": PLAYER_HANDS,
    "placements": PLACEMENTS,
    "rejects": REJECTS,
}


def hand_id(source_format: str, room_hand_id: str) -> str:
    """The dataset-wide identity of a hand: its room id within its source format.

    >>> hand_id("en", "7402331950")
    'en:7402331950'
    """
    return f"{source_format}:{room_hand_id}"
