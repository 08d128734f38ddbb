"""The ids a file stored in earlier chunks (``parsers.seen_ids``): exact, and cheap per chunk.

A hand repeating the room id of an earlier hand of its file is rejected
(``docs/parsers.md``, rejects). ``SeenIds`` is checked against a plain list
of every id stored so far, with a hash that collides often (two ids must
never pass for each other), and through ``parse_files`` on files whose
repeats fall in other chunks.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from parsers import seen_ids
from parsers.seen_ids import SeenIds
from pipeline.simulator.render import en as render_en
from tests.hand_builder import build, example_hand
from tests.parse_helpers import parse_bytes


def _stored(ids: list[str], first_line: int) -> pl.DataFrame:
    return pl.DataFrame(
        {"room_hand_id": ids, "n": list(range(first_line, first_line + len(ids)))},
        schema=seen_ids.SCHEMA,
    )


def _grown(rng: np.random.Generator, adds: int) -> tuple[SeenIds, pl.DataFrame]:
    """A ``SeenIds`` after ``adds`` chunks of 0-40 new ids, and every row it was given."""
    seen, given, line = SeenIds(), [], 1
    pool = rng.permutation(100_000)
    for _ in range(adds):
        size = int(rng.integers(0, 41))
        ids = [str(i) for i in pool[:size]]
        pool = pool[size:]
        rows = _stored(ids, line)
        seen, line = seen.plus(rows), line + 50 * size
        given.append(rows)
    return seen, pl.concat(given)


def _expected(given: pl.DataFrame, query: list[str | None]) -> list[tuple[str, int]]:
    return sorted(given.filter(pl.col("room_hand_id").is_in(query)).rows())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matching_is_the_stored_rows_whose_id_is_asked(seed):
    rng = np.random.default_rng(seed)
    seen, given = _grown(rng, 300)
    assert len(seen) == given.height
    assert len(seen._runs) <= np.log2(given.height) + 1  # runs merge as they grow
    stored = given.get_column("room_hand_id").to_list()
    for size in (0, 1, 7, 200):
        query = [*rng.choice(stored, size).tolist(), *[f"x{i}" for i in range(size)], None]
        got = seen.matching(pl.Series(query, dtype=pl.String))
        assert sorted(got.rows()) == _expected(given, query)


def test_ids_that_share_a_hash_never_pass_for_each_other(monkeypatch):
    monkeypatch.setattr(seen_ids, "id_hashes", lambda ids: ids.str.len_bytes().to_numpy() % 3)
    seen, given = _grown(np.random.default_rng(4), 60)
    stored = given.get_column("room_hand_id").to_list()
    query = [*stored[::7], "123456", "7", "99999999"]
    assert sorted(seen.matching(pl.Series(query)).rows()) == _expected(given, query)


def test_plus_leaves_the_earlier_value_as_it_was():
    one = SeenIds().plus(_stored(["1", "2"], 1))
    two = one.plus(_stored(["3"], 90))
    assert len(one) == 2 and len(two) == 3
    assert one.matching(pl.Series(["3"])).height == 0
    assert two.matching(pl.Series(["3"])).rows() == [("3", 90)]


@pytest.mark.parametrize("chunk_bytes", [3_000, 1 << 20])
def test_a_repeat_in_a_later_chunk_is_rejected_naming_the_first_line(tmp_path, chunk_bytes):
    hands = [example_hand(room_hand_id=str(100 + i)) for i in range(43)]
    text = "\n\n".join(render_en.render_hands(*build(hands), "Alice")) + "\n"
    for last, again in (("140", "103"), ("141", "131"), ("142", "139")):
        text = text.replace(f"#{last}:", f"#{again}:")
    summary, tables = parse_bytes(text.encode(), tmp_path, chunk_bytes=chunk_bytes)
    assert summary.stored == 40 and summary.rejected == 3
    first = dict(tables["hands"].select("room_hand_id", "source_line").iter_rows())
    rejects = tables["rejects"].sort("source_line")
    assert rejects.get_column("room_hand_id").to_list() == ["103", "131", "139"]
    assert rejects.get_column("reason").to_list() == [
        f"hand #{i} appears twice in this file (first on line {first[i]})"
        for i in ("103", "131", "139")
    ]
