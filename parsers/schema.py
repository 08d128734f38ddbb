"""The hand model: the four Parquet tables every stage shares.

Parsers write these tables, the simulator writes them, the rules engine reads
them and the pipeline loads them into DuckDB. Column names and types are a
public contract, documented column by column in ``docs/schema.md``.
"""

from __future__ import annotations

import pyarrow as pa

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


#: String columns whose values repeat row after row. Readers of the parsers' tables in
#: memory may find them dictionary-encoded (``encoded``); ``plain`` gives the contract's types.
#: The Parquet files always read back with the contract's types.
REPEATED = {
    "player_hands": ("hand_id", "top", "middle", "bottom", "discards"),
    "placements": ("hand_id", "card", "row"),
}
_DICTIONARY = pa.dictionary(pa.int32(), pa.string())


def encoded(name: str) -> pa.Schema:
    """The schema of table ``name`` with its ``REPEATED`` columns (or a list column's
    values) dictionary-encoded.

    >>> encoded("placements").field("card").type
    DictionaryType(dictionary<values=string, indices=int32, ordered=0>)
    >>> encoded("player_hands").field("top").type.value_type == _DICTIONARY
    True
    >>> encoded("hands") == HANDS
    True
    """
    schema = TABLES[name]
    for column in REPEATED.get(name, ()):
        at = schema.get_field_index(column)
        listed = pa.types.is_list(schema.field(at).type)
        schema = schema.set(at, pa.field(column, pa.list_(_DICTIONARY) if listed else _DICTIONARY))
    return schema


def plain(table: pa.Table, name: str) -> pa.Table:
    """``table`` (of table ``name``) with the contract's types: encoded columns decoded."""
    schema = TABLES[name]
    return table if table.schema.equals(schema) else table.cast(schema)


def hand_id(source_format: str, room_hand_id: str) -> str:
    """The dataset-wide identity of a hand: its room id within its source format.

    >>> hand_id("en", "7402331950")
    'en:7402331950'
    """
    return f"{source_format}:{room_hand_id}"
