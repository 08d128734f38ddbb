"""The small compiled and array helpers of the fast reader against plain references.

Each helper replaced a slower way of computing the same thing (a search, a
sort, a byte-by-byte comparison); these properties pin that they still
compute it, on inputs with the corner cases the fast reader meets: repeated
keys, missing and repeated dealt lines, literals across 8-byte words,
section lines that are cut, run on or name a section the format lacks.
"""

from __future__ import annotations

import numba
import numpy as np
import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from parsers.fast import sections
from parsers.fast.bits import trailing_zeros
from parsers.fast.body import _first_dealt
from parsers.fast.grammar import GRAMMARS
from parsers.fast.literals import packed, same, spells
from parsers.formats import en, ru
from parsers.groups import ranks
from parsers.segment import UNKNOWN

_PAD = 64


def _words(data: bytes) -> np.ndarray:
    """``data`` as ``Text.words`` has it (each offset's 8 bytes as one integer)."""
    buf = np.frombuffer(data + bytes(_PAD), dtype=np.uint8)
    return np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))


@given(st.lists(st.integers(0, 30), max_size=200))
def test_ranks_count_the_equal_keys_before_each(keys):
    keys = np.sort(np.array(keys, dtype=np.int64))
    expected = [keys[:i].tolist().count(k) for i, k in enumerate(keys.tolist())]
    assert ranks(keys).tolist() == expected


_SEATS, _SECS = st.integers(0, 3), st.integers(-2, 8) | st.integers(100, 110)


@settings(max_examples=200, deadline=None)  # the first example compiles
@given(
    st.lists(st.tuples(_SEATS, _SECS, st.integers(0, 17)), max_size=60),
    st.lists(st.tuples(_SEATS, st.integers(0, 7)), min_size=1, max_size=30),
)
@example(dealt=[(1, 2, 3), (1, 2, 5), (0, 2, 4)], wanted=[(1, 2), (0, 2), (2, 2)])
def test_first_dealt_is_the_first_dealt_line_of_the_seat_and_street(dealt, wanted):
    seat, sec, count = np.array(dealt, dtype=np.int64).reshape(-1, 3).T.copy()
    asked_seat, asked_sec = np.array(wanted, dtype=np.int64).T.copy()
    expected = [next((c for s, e, c in dealt if (s, e) == q), 0) for q in wanted]
    got = _first_dealt(seat, sec.astype(np.int16), count, asked_seat, asked_sec.astype(np.int16))
    assert got.tolist() == expected


_TEXT = st.binary(max_size=40) | st.text(alphabet="=* Улица·STREET1", max_size=20).map(str.encode)


@settings(deadline=None)
@given(_TEXT, st.lists(_TEXT, min_size=1, max_size=4), st.data())
def test_spells_is_a_comparison_of_the_bytes(data, literals, pick):
    words, lits = _words(data), packed(*literals)
    at = pick.draw(st.integers(0, len(data)))
    for row, literal in enumerate(literals):
        padded = data + bytes(_PAD)
        assert spells(words, at, lits, row) == (padded[at : at + len(literal)] == literal)


@settings(deadline=None)
@given(st.binary(max_size=40).map(lambda b: b + b[::-1]), st.data())
@example(b"SvetlanaSvetlanX", None)
def test_same_is_a_comparison_of_two_spans(data, pick):
    words = _words(data)
    if pick is None:  # the example: equal for 7 bytes, not for the 8th
        assert same(words, 0, 8, 7) and not same(words, 0, 8, 8)
        return
    at, other = (pick.draw(st.integers(0, len(data))) for _ in range(2))
    length = pick.draw(st.integers(0, len(data) - max(at, other)))
    assert same(words, at, other, length) == (
        data[at : at + length] == data[other : other + length]
    )


def _lines_of(fmt) -> st.SearchStrategy[str]:
    words = fmt.FORMAT.sections
    named = [words.line(w) for w in (words.fantasyland, words.showdown, words.summary)]
    streets = [words.street_format().format(n) for n in ("1", "5", "9", "0", "10", "x", "")]
    whole = st.sampled_from(named + streets)
    cut = st.tuples(whole, st.integers(0, 30)).map(lambda t: t[0][: t[1]])
    run_on = st.tuples(whole, st.sampled_from(["", " ", "x", "*", "=", "9"])).map("".join)
    other = st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=24)
    return st.one_of(whole, cut, run_on, other)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([("en", en), ("ru", ru)]).flatmap(lambda f: st.tuples(
    st.just(f), st.lists(_lines_of(f[1]), min_size=1, max_size=8))))  # fmt: skip
def test_section_codes_are_the_thorough_readers_or_stricter(case):
    (name, fmt), lines = case
    data = "\n".join(lines).encode()
    words, starts = _words(data), np.cumsum([0] + [len(x.encode()) + 1 for x in lines[:-1]])
    got = [
        sections.code(words, int(s), int(s) + len(x.encode()), GRAMMARS[name].sections)
        for s, x in zip(starts, lines, strict=True)
    ]
    prefix = fmt.FORMAT.sections.prefix
    thorough = fmt.FORMAT.sections.code(pl.Series(lines)).to_list()
    for line, fast, slow in zip(lines, got, thorough, strict=True):
        if not line.startswith(prefix):
            assert fast == sections.NO_SECTION, line
        else:
            # stricter: two-digit streets go to the thorough reader
            assert fast in (slow, UNKNOWN), line
            assert slow != UNKNOWN or fast == UNKNOWN, line


@numba.njit
def _lowest_bit(word):
    return trailing_zeros(word)


@given(st.integers(1, 2**64 - 1))
@example(1)
@example(2**63)
def test_trailing_zeros_names_the_lowest_set_bit(word):
    assert _lowest_bit(np.uint64(word)) == (word & -word).bit_length() - 1
