"""The dataset's Parquet encoding: which columns carry a dictionary (``parsers.dataset``)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from parsers.dataset import ROW_VALUES
from parsers.run import parse_files

SAMPLE = Path(__file__).parents[1] / "data" / "sample"


def _chunks(folder: Path) -> list[tuple[str, bool]]:
    """(Parquet path, has a dictionary page) of every column chunk of a table's parts, but
    booleans (Parquet has no dictionary for them)."""
    chunks = []
    for part in sorted(folder.glob("*.parquet")):
        meta = pq.ParquetFile(part).metadata
        for group in range(meta.num_row_groups):
            for column in range(meta.num_columns):
                chunk = meta.row_group(group).column(column)
                if chunk.physical_type != "BOOLEAN":
                    chunks.append((chunk.path_in_schema, chunk.has_dictionary_page))
    return chunks


def test_every_column_but_the_row_values_is_written_with_a_dictionary(tmp_path: Path) -> None:
    """Cards in lists included: their values sit at ``<name>.list.element`` in the file."""
    parse_files(sorted((SAMPLE / "en").iterdir()), tmp_path / "out", workers=1)
    for table in ("hands", "player_hands", "placements"):
        chunks = _chunks(tmp_path / "out" / table)
        assert chunks, table
        for path, has_dictionary in chunks:
            column = path.split(".")[0]
            assert has_dictionary == (column not in ROW_VALUES.get(table, ())), (table, path)
    paths = {path for path, _ in _chunks(tmp_path / "out" / "player_hands")}
    assert {"top.list.element", "discards.list.element"} <= paths
