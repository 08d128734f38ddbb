"""The byte scans every chunk goes through find what a plain line-by-line reading finds.

``Text.of`` finds line bounds eight bytes at a time and ``without_long_lines``
looks for long lines only where ``has_long_paragraph`` says one may be; both
are checked against a reading of ``bytes.split`` on random text built from
the bytes that matter (``\\n``, ``\\r``, bytes one off ``\\n``, non-ASCII), with
lines around the limits.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.fast.text import Text
from parsers.limits import SKIPPED, has_long_paragraph, without_long_lines

_BYTES = st.sampled_from([b"\n", b"\r", b"\r\n", b"\x0b", b"\t", b"a", b"\xd0\xb0", b"\x8a", b" "])
_TEXT = st.lists(_BYTES | st.binary(max_size=12), max_size=200).map(b"".join)


def _lines(data: bytes) -> list[tuple[int, int]]:
    """Each line's start and end (before ``\\n`` and one ``\\r``), line by line."""
    bounds, at = [], 0
    for line in data.split(b"\n"):
        end = at + len(line) - line.endswith(b"\r")
        bounds.append((at, end))
        at += len(line) + 1
    return bounds


def _without_long_lines(data: bytes, limit: int) -> bytes:
    """Every line longer than ``limit`` replaced by its note, line by line."""
    lines = data.split(b"\n")
    return b"\n".join(
        SKIPPED.format(length=len(line), limit=limit).encode() if len(line) > limit else line
        for line in lines
    )


@settings(max_examples=400)
@given(_TEXT, st.integers(0, 7))
def test_text_finds_every_line_as_split_does(data: bytes, shift: int) -> None:
    data = b"x" * shift + data  # every alignment of the eight-byte words
    text = Text.of(data, first_line=1)
    assert list(zip(text.starts.tolist(), text.ends.tolist(), strict=True)) == _lines(data)


def test_text_of_a_long_chunk_finds_lines_across_words() -> None:
    data = b"".join(b"line %d\r\n" % k + b"\n" * (k % 3) for k in range(5000))
    text = Text.of(data, first_line=1)
    assert list(zip(text.starts.tolist(), text.ends.tolist(), strict=True)) == _lines(data)


@settings(max_examples=400)
@given(_TEXT, st.integers(1, 40))
def test_long_lines_are_replaced_as_line_by_line(data: bytes, limit: int) -> None:
    assert without_long_lines(data, limit) == _without_long_lines(data, limit)


@given(st.integers(1, 60), st.integers(0, 3), st.integers(0, 60))
def test_a_line_one_byte_over_the_limit_is_found_between_blank_lines(
    limit: int, blanks: int, before: int
) -> None:
    data = b"a\n" * before + b"\n" * blanks + b"x" * (limit + 1) + b"\n\nb\n"
    assert has_long_paragraph(data, limit)
    assert SKIPPED.split("{")[0].encode() in without_long_lines(data, limit)
