"""The columns that are never null: one definition (``parsers.schema``), documented in
``docs/schema.md`` and declared required in every Parquet part a parse writes."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from parsers.dataset import DatasetWriter
from parsers.run import parse_files
from parsers.schema import TABLES

ROOT = Path(__file__).parent.parent
SAMPLE = ROOT / "data" / "sample"


def _documented_not_null(table: str) -> set[str]:
    """The columns ``docs/schema.md`` marks ``not null`` in the section of ``table``."""
    text = (ROOT / "docs" / "schema.md").read_text()
    section = text.split(f"## `{table}`", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \| [^|]*, not null \|", section, re.M))


def _required(schema: pa.Schema) -> set[str]:
    return {field.name for field in schema if not field.nullable}


@pytest.mark.parametrize("table", list(TABLES))
def test_docs_mark_the_columns_the_schema_declares_not_null(table: str) -> None:
    assert _documented_not_null(table) == _required(TABLES[table])


def test_the_big_tables_have_required_columns() -> None:
    assert {"hand_id", "seat", "street", "row", "auto"} <= _required(TABLES["placements"])
    assert "card" not in _required(TABLES["placements"])  # a hidden discard has no card
    cards = TABLES["player_hands"].field("top").type
    assert not cards.value_field.nullable


@pytest.mark.parametrize("folder", ["en", "ru", "jsonl"])
def test_every_part_a_parse_writes_declares_them_required(folder: str, tmp_path: Path) -> None:
    summary = parse_files(sorted((SAMPLE / folder).iterdir()), tmp_path, workers=1)
    assert summary.stored > 0
    for table, schema in TABLES.items():
        for part in (tmp_path / table).glob("*.parquet"):
            assert _required(pq.read_schema(part)) == _required(schema), part


def test_a_null_in_a_required_column_is_refused_not_written(tmp_path: Path) -> None:
    table = pa.table(
        {
            "hand_id": pa.array([None], pa.string()),
            "seat": pa.array([1], pa.int8()),
            "street": pa.array([1], pa.int8()),
            "card": ["Ah"],
            "row": ["top"],
            "auto": [False],
        }
    )
    with DatasetWriter(tmp_path, "w") as writer, pytest.raises(ValueError, match="non-nullable"):
        writer.add("placements", table)
    assert not list((tmp_path / "placements").glob("*.parquet"))
