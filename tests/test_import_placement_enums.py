"""Staging keeps the placements' ``card`` and ``row`` as enums (``pipeline/load/placement_enums.py``).

The enums are a speed path: they must hold exactly the names the parser read,
whichever way the parser handed them over, and reach the staged Parquet and the
database as the same text.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest

from parsers.lines import Chunk, as_utf8
from parsers.run import parse_chunk
from parsers.schema import plain
from pipeline.load.placement_enums import PLACEMENT_ENUMS, placements_frame
from tests.import_support import ofc_import, query

SAMPLE = Path(__file__).parents[1] / "data" / "sample"


def _parsed_placements(path: Path, fmt: str) -> pa.Table:
    data = gzip.decompress(path.read_bytes())
    chunk = Chunk(as_utf8(data, "utf-8"), 1, "utf-8", False, data.count(b"\n"))
    return parse_chunk(chunk, path.name, fmt, None, None).tables["placements"]


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (SAMPLE / "en" / "pineapple-progressive-american.txt.gz", "en"),
        (SAMPLE / "ru" / "pineapple-2-4-pokerdom.txt.gz", "ru"),
    ],
)
def test_enums_hold_the_names_the_parser_read(path: Path, fmt: str) -> None:
    table = _parsed_placements(path, fmt)
    assert pa.types.is_dictionary(table.schema.field("card").type)  # the path under test
    frame = placements_frame(table)
    expected = pl.from_arrow(plain(table, "placements"))
    for name, enum in PLACEMENT_ENUMS.items():
        assert frame[name].dtype == enum
    assert frame.with_columns(pl.col(*PLACEMENT_ENUMS).cast(pl.String)).equals(expected)
    assert frame["card"].null_count() == expected["card"].null_count() > 0  # hidden discards


def _placements(card: pa.ChunkedArray, row: pa.ChunkedArray) -> pa.Table:
    size = len(card)
    return pa.table(
        {
            "hand_id": ["h"] * size,
            "seat": pa.array([1] * size, pa.int8()),
            "street": pa.array([1] * size, pa.int8()),
            "card": card,
            "row": row,
            "auto": [False] * size,
        }
    )


def test_chunks_with_dictionaries_of_their_own_keep_their_names() -> None:
    first = pa.array(["Ah", "2c", None]).dictionary_encode()
    second = pa.array(["Kd", "Ah"]).dictionary_encode()  # other codes for "Ah"
    rows = pa.chunked_array([["top", "middle", "discard"], ["bottom", "top"]])
    frame = placements_frame(_placements(pa.chunked_array([first, second]), rows))
    assert frame["card"].to_list() == ["Ah", "2c", None, "Kd", "Ah"]
    assert frame["row"].to_list() == ["top", "middle", "discard", "bottom", "top"]


def test_plain_columns_read_as_dictionary_ones_do() -> None:
    cards = pa.chunked_array([["Ah", None], ["Ts"]])
    rows = pa.chunked_array([["top", "discard"], ["bottom"]])
    frame = placements_frame(_placements(cards, rows))
    assert frame["card"].to_list() == ["Ah", None, "Ts"]
    assert frame["row"].to_list() == ["top", "discard", "bottom"]


def test_a_name_outside_the_enum_is_an_error_not_a_null() -> None:
    table = _placements(
        pa.chunked_array([pa.array(["Xx"]).dictionary_encode()]), pa.chunked_array([["top"]])
    )
    with pytest.raises(pl.exceptions.InvalidOperationError):
        placements_frame(table)


def test_the_database_holds_the_cards_as_text(tmp_path: Path) -> None:
    db = tmp_path / "ofc.duckdb"
    source = SAMPLE / "ru" / "pineapple-2-4-pokerdom.txt.gz"
    assert ofc_import(source, "--db", db) == 0
    types = query(
        db,
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = 'placements' AND column_name IN ('card', 'row') ORDER BY 1",
    )
    assert types == [("card", "VARCHAR"), ("row", "VARCHAR")]
    expected = pl.from_arrow(plain(_parsed_placements(source, "ru"), "placements"))
    stored = query(db, 'SELECT card, "row", count(*) FROM placements GROUP BY ALL ORDER BY ALL')
    wanted = expected.group_by("card", "row").len().sort("card", "row", nulls_last=True).rows()
    assert stored == wanted
