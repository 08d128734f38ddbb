"""``parsers.fast.intern`` files equal texts of a kind under one code, and no others.

Spans are filed from a compiled loop, as the fast path's scans do; the
codes are checked against a plain dictionary of the spans' bytes, across
kinds and with the table as full as ``Filed`` lets it be.
"""

from __future__ import annotations

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.fast.intern import NO_NRT, Filed, intern
from parsers.fast.text import Text


@numba.njit(**{**NO_NRT, "cache": False})
def _file_all(words, starts, ends, kinds, codes, slots, rep_start, rep_end, rep_kind, rep_hash):
    reps = (rep_start, rep_end, rep_kind, rep_hash)
    n = 0
    for i in range(len(starts)):
        codes[i], n = intern(words, starts[i], ends[i], kinds[i], slots, reps, n)
    return n


def _file(texts: list[bytes], kinds: list[int]) -> tuple[list[int], Filed, int, bytes]:
    data = b"".join(texts)
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    filed = Filed.empty(len(texts))
    words = Text.of(data, 1).words
    codes = np.empty(len(texts), dtype=np.int64)
    kinds_ = np.array(kinds, dtype=np.int8)
    count = _file_all(words, starts, ends, kinds_, codes, *filed.arrays())
    return codes.tolist(), filed, count, data


def _check(texts: list[bytes], kinds: list[int]) -> None:
    codes, filed, count, data = _file(texts, kinds)
    expected: dict[tuple[int, bytes], int] = {}
    for text, kind, code in zip(texts, kinds, codes, strict=True):
        assert expected.setdefault((kind, text), code) == code
    assert len(set(expected.values())) == len(expected) == count
    found = filed.interned(count)
    for (kind, text), code in expected.items():
        assert data[found.start[code] : found.end[code]] == text and found.kind[code] == kind


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=6), st.integers(0, 2)), max_size=80))
def test_equal_texts_of_a_kind_share_one_code(spans: list[tuple[bytes, int]]) -> None:
    _check([text for text, _ in spans], [kind for _, kind in spans])


def test_a_table_filled_to_its_capacity_keeps_every_text_apart() -> None:
    texts = [str(i).encode() for i in range(4096)]  # as many distinct texts as room for
    assert len(Filed.empty(len(texts)).slots) == 2 * len(texts)
    _check(texts, [0] * len(texts))
