"""``parsers.lines.read_chunks`` cuts a stream into chunks between hands and loses nothing.

Whatever the text and chunk size, the chunks put back together are the
stream (less a UTF-8 BOM), line numbers follow on from chunk to chunk, and a
chunk cut before the end of the stream ends after a blank line, or at a line
end when no blank line came for four chunk lengths (then the chunk holds none,
and the next one says it ``continues`` a hand).
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.lines import BOM, read_chunks

LINES = st.lists(
    st.sampled_from(["", "\r", "OFC Hand #1: x", "Seat 1: Ann (5 points)", "a b", " "]),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(
    lines=LINES, ending=st.sampled_from(["\n", "\r\n"]), size=st.integers(1, 90), bom=st.booleans()
)
def test_chunks_rebuild_the_stream(lines: list[str], ending: str, size: int, bom: bool) -> None:
    text = ending.join(lines).encode()
    chunks = list(read_chunks(io.BytesIO(BOM * bom + text), chunk_bytes=size))
    assert b"".join(c.data for c in chunks) == text
    line = 1
    for chunk in chunks:
        assert chunk.data and chunk.first_line == line
        assert chunk.newlines == chunk.data.count(b"\n")  # the parser sizes its arrays by it
        line += chunk.data.count(b"\n")
    for chunk in chunks[:-1]:
        blank_end = chunk.data.endswith((b"\n\n", b"\n\r\n"))
        no_blank = b"\n\n" not in chunk.data and b"\n\r\n" not in chunk.data
        assert chunk.data.endswith(b"\n") and (blank_end or no_blank)
    continues = [c.continues for c in chunks]
    cut_inside = [not c.data.endswith((b"\n\n", b"\n\r\n")) for c in chunks[:-1]]
    assert continues == [False, *cut_inside][: len(chunks)]  # the next chunk is told


#: Lines of a Windows-1251 file: an ``en`` header would make it UTF-8 (``en`` files are UTF-8).
CP1251_LINES = LINES.map(lambda lines: [x for x in lines if not x.startswith("OFC Hand #")])


@settings(max_examples=100, deadline=None)
@given(lines=CP1251_LINES, size=st.integers(1, 90))
def test_a_windows_1251_chunk_counts_its_newlines_after_decoding(
    lines: list[str], size: int
) -> None:
    """Decoding Windows-1251 (0x98 does not decode: it becomes U+FFFD) adds or drops no line."""
    word = "Раздача".encode("cp1251") + b"\x98"
    text = b"\n".join(word + line.encode() for line in ["", *lines])
    for chunk in read_chunks(io.BytesIO(text), chunk_bytes=size):
        assert chunk.encoding == "cp1251"
        assert chunk.newlines == chunk.data.count(b"\n")
