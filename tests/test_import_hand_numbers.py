"""``hand_no``: each stored hand's number, the same on all its rows (docs/schema.md).

The Hands page finds a hand's rows by it: numbers given in the order hands are
stored keep a hand's rows in one row group of each table.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.load.staging import _numbered
from tests.import_support import UNNUMBERED, ofc_import, query, scalar, simulate

#: Hands of a file whose number order is not their line order.
OUT_OF_ORDER = """
SELECT count(*) FROM (
    SELECT row_number() OVER (PARTITION BY source_file ORDER BY source_line) AS by_line,
        row_number() OVER (PARTITION BY source_file ORDER BY hand_no) AS by_number
    FROM hands
) WHERE by_line <> by_number
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("numbers")
    return [simulate(folder / f"h{seed}.txt", 40, seed=seed) for seed in (1, 2, 3)]


def test_hands_are_numbered_in_the_order_read(files: list[Path], tmp_path: Path) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(files[0], files[1], "--db", db) == 0
    assert scalar(db, UNNUMBERED) == 0
    assert scalar(db, OUT_OF_ORDER) == 0
    assert query(db, "SELECT min(hand_no), max(hand_no), count(*) FROM hands") == [(1, 80, 80)]


def test_a_later_import_numbers_on(files: list[Path], tmp_path: Path) -> None:
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(files[0], "--db", db) == 0
    assert ofc_import(files[2], "--db", db) == 0
    assert scalar(db, UNNUMBERED) == 0
    [(first_last, second_first)] = query(
        db,
        "SELECT max(hand_no) FILTER (WHERE import_id = 1), "
        "min(hand_no) FILTER (WHERE import_id = 2) FROM hands",
    )
    assert second_first == first_last + 1


@settings(max_examples=200, deadline=None)
@given(
    ids=st.lists(st.sampled_from("abcde"), max_size=40),
    stored=st.lists(st.sampled_from("abcde"), unique=True),
)
def test_rows_get_their_hands_number_as_a_join_would_give_it(
    ids: list[str], stored: list[str]
) -> None:
    """Staging numbers a table's rows by the runs of their hand ids: the same rows, order and
    numbers as an inner join on every row, whatever the runs (hands not stored drop out)."""
    rows = pl.DataFrame(
        {"hand_id": ids, "k": range(len(ids))}, schema={"hand_id": pl.String, "k": pl.Int64}
    )
    numbers = pl.DataFrame(
        {"hand_id": stored, "hand_no": range(len(stored))},
        schema={"hand_id": pl.String, "hand_no": pl.Int64},
    )
    joined = rows.join(numbers, on="hand_id", how="inner", maintain_order="left")
    assert _numbered(rows, numbers).equals(joined)
