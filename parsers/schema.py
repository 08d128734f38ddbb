"""The hand model: the four Parquet tables every stage shares.

Parsers write these tables, the simulator writes them, the rules engine reads
them and the pipeline loads them into DuckDB. Column names and types are a
public contract, documented column by column in ``docs/schema.md``.

A column that is never null is declared so (``required``): Parquet then
stores no null flags for it, which spares a sixth of the time a parse spends
writing its parts (``docs/benchmarks.md``), and a null there is refused
when the rows are buffered (``parsers.dataset``) instead of written.
"""

from __future__ import annotations

import pyarrow as pa

ROWS = ("top", "middle", "bottom")
PLACEMENT_ROWS = (*ROWS, "discard")
SOURCE_FORMATS = ("en", "ru", "jsonl")


def required(name: str, type_: pa.DataType) -> pa.Field:
    """A column that is never null (written as a required Parquet column: no null flags to
    write or read).

    >>> required("seat", pa.int8())
    pyarrow.Field<seat: int8 not null>
    """
    return pa.field(name, type_, nullable=False)


#: A row of cards: a list that is never null, of cards that are never null.
_cards = pa.list_(required("item", pa.string()))

HANDS = pa.schema(
    [
        required("hand_id", pa.string()),
        required("room_hand_id", pa.string()),
        required("source_format", pa.string()),
        required("variant", pa.string()),
        required("ruleset", pa.string()),
        ("played_at", pa.timestamp("us", tz="UTC")),
        ("table_name", pa.string()),
        ("max_players", pa.int8()),
        ("button_seat", pa.int8()),
        ("point_value", pa.float64()),
        ("currency", pa.string()),
        ("match_id", pa.string()),
        ("match_hand", pa.int16()),
        ("match_hands", pa.int16()),
        required("fantasyland_continuation", pa.bool_()),
        ("source_file", pa.string()),
        ("source_line", pa.int64()),
    ]
)

PLAYER_HANDS = pa.schema(
    [
        required("hand_id", pa.string()),
        required("seat", pa.int8()),
        required("player", pa.string()),
        required("position", pa.int8()),
        ("starting_stack", pa.float64()),
        required("in_fantasyland", pa.bool_()),
        required("fantasyland_cards", pa.int8()),
        required("top", _cards),
        required("middle", _cards),
        required("bottom", _cards),
        required("discards", _cards),
        required("hidden_discards", pa.int8()),
        required("timed_out", pa.bool_()),
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
        required("hand_id", pa.string()),
        required("seat", pa.int8()),
        required("street", pa.int8()),
        ("card", pa.string()),
        required("row", pa.string()),
        required("auto", pa.bool_()),
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
        field = schema.field(at)
        if pa.types.is_list(field.type):
            type_ = pa.list_(field.type.value_field.with_type(_DICTIONARY))
        else:
            type_ = _DICTIONARY
        schema = schema.set(at, field.with_type(type_))
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
