"""A parsed ``placements`` table as polars, its ``card`` and ``row`` as enums of their names.

``placements`` has some fifty rows a hand, and its card and row are one of 52 and
4 names. As enums (a byte a row) they are never hashed again: fingerprints and
street features read their codes as they are, and the staged Parquet is written
from them with their dictionary (a part of 7,700 hands: 41 -> 23 ms). The parser
hands them over dictionary-encoded, so only a dictionary's few values are matched
to the enum's names, not every row.
"""

from __future__ import annotations

from functools import cache

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from parsers.schema import PLACEMENT_ROWS, PLACEMENTS
from pipeline.rules.rows import CARD_ENUM

ROW_ENUM = pl.Enum(PLACEMENT_ROWS)
PLACEMENT_ENUMS = {"card": CARD_ENUM, "row": ROW_ENUM}


def placements_frame(table: pa.Table) -> pl.DataFrame:
    """``table`` (the parser's ``placements``, dictionary-encoded or plain) with the
    contract's types, but ``card`` and ``row`` as ``PLACEMENT_ENUMS``.

    >>> cards = pa.array(["As", None, "2s", "As"]).dictionary_encode()
    >>> rows = pa.array(["top", "discard", "bottom", "top"])
    >>> table = pa.table({"hand_id": ["h"] * 4, "seat": [1] * 4, "street": [1] * 4,
    ...                   "card": cards, "row": rows, "auto": [False] * 4})
    >>> frame = placements_frame(table)
    >>> frame["card"].dtype == CARD_ENUM, frame["card"].to_list()
    (True, ['As', None, '2s', 'As'])
    >>> frame["row"].dtype == ROW_ENUM, frame["row"].to_physical().to_list()
    (True, [0, 3, 2, 0])
    """
    columns = [
        _as_enum(table[f.name], f.name, PLACEMENT_ENUMS[f.name])
        if f.name in PLACEMENT_ENUMS
        else pl.from_arrow(table[f.name].cast(f.type)).alias(f.name)
        for f in PLACEMENTS
    ]
    return pl.DataFrame(columns)


def _as_enum(column: pa.ChunkedArray, name: str, enum: pl.Enum) -> pl.Series:
    """A column of names as ``enum``: a dictionary chunk through its dictionary, any other
    chunk through polars' cast (which raises on a name the enum lacks)."""
    field = _polars_field(name, enum)
    names = pa.array(enum.categories.to_list(), field.type.value_type)
    position = {n: i for i, n in enumerate(enum.categories.to_list())}
    chunks = []
    for chunk in column.chunks:
        values = chunk.dictionary.to_pylist() if pa.types.is_dictionary(chunk.type) else None
        if values is None or not set(values) <= position.keys():
            series = pl.Series(name, chunk.cast(pa.string())).cast(enum)
            chunks.append(series.to_arrow().cast(field.type))
            continue
        lookup = pa.array([position[v] for v in values], field.type.index_type)
        indices = pc.take(lookup, chunk.indices)
        chunks.append(pa.DictionaryArray.from_arrays(indices, names, ordered=True))
    table = pa.Table.from_arrays([pa.chunked_array(chunks, field.type)], schema=pa.schema([field]))
    return pl.from_arrow(table).to_series()


@cache
def _polars_field(name: str, enum: pl.Enum) -> pa.Field:
    """The Arrow field polars writes for a column of ``enum`` (and reads back as it)."""
    return pl.DataFrame(schema={name: enum}).to_arrow().schema.field(name)
