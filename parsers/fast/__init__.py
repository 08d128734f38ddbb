"""The fast path of the room text readers (``en``, ``ru``): plain hands, read from the bytes.

Most hands a room exports are plain: cards as its spec writes them, names of
at most ``head_scan.NAME_BYTES`` bytes, every line in shape and every check
passing. This path proves that of a hand with compiled passes over its lines
(numba; no Python per line) and numpy operations over the results, reads the
parts that repeat from hand to hand once per distinct text with the
format's own patterns, and builds the rows directly. What it knows of a
format comes from the format's module (``parsers.fast.grammar``). Every
other hand (and the chunk's stray runs' accounting) is handed back as text
to the thorough reader (``parsers.formats``, ``parsers.validate``,
``parsers.model``), which stores it or says why not.

The fast path only ever stores a hand the thorough reader would store, with
the same rows: its grammar and checks are the same or stricter, and
``tests/test_parse_fast_path.py`` (``en``) and
``tests/test_parse_fast_path_ru.py`` (``ru``) compare the two readers on
broken and unusual input. Steps: ``hands.cut`` (hands, strays, sections),
``head`` (header, table, match, seat lines, cut by ``head_scan``), ``body``
(dealt, placement, timeout, showdown, summary lines, read by ``body_scan``
or ``body_scan_ru``),
``checks`` (``parsers.validate``'s checks as integer operations) and
``tables`` (the model's rows; ``placement_rows`` gathers the placements).
"""

from __future__ import annotations

import struct
import threading
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from parsers.fast import checks, tables
from parsers.fast.body import read_body
from parsers.fast.grammar import GRAMMARS, Grammar
from parsers.fast.hands import Hands, cut
from parsers.fast.head import read_head
from parsers.fast.text import PAD, Text
from parsers.lines import UNDECODED
from parsers.model import stray_reason
from parsers.schema import REJECTS
from parsers.seen_ids import SeenIds

#: The text formats this path reads (the others go to their thorough reader alone).
FORMATS = tuple(GRAMMARS)


@dataclass(frozen=True)
class Part:
    """What the fast path made of a chunk.

    ``tables``: the model rows of the hands it stored (repeated strings
    dictionary-encoded: ``parsers.schema.encoded``) and the rejects of the
    chunk's stray runs; ``stored_ids`` (``room_hand_id``, ``n``) and
    ``guessed`` as ``parsers.model.ChunkTables`` has them; ``rest``: the
    other hands' lines (UTF-8, ``\\n`` between them) and ``numbers``, each
    line's number in the file.
    """

    tables: dict[str, pa.Table]
    stored_ids: pl.DataFrame
    guessed: dict[str, int]
    rest: bytes
    numbers: np.ndarray


def read(
    data: bytes,
    first_line: int,
    source_file: str,
    ruleset: str | None,
    seen: SeenIds | None,
    kind: str = "en",
    newlines: int | None = None,
) -> Part | None:
    """Read the plain hands of a chunk of text in format ``kind`` (UTF-8: ``parsers.lines``
    decodes other encodings once per chunk); None when the text is not valid UTF-8. Hands
    holding U+FFFD (bytes that did not decode) go to the thorough reader, which rejects them.

    ``seen`` holds the room ids stored from earlier chunks of the file: a
    hand whose id repeats one of those, or another hand's in the chunk, is
    left to the thorough reader, which rejects the later ones. ``newlines``: how many
    ``\\n`` ``data`` holds, when the reader counted them.
    """
    is_ascii = data.isascii()  # then valid UTF-8, and without U+FFFD
    if not (is_ascii or _utf8(data)):
        return None
    grammar = GRAMMARS[kind]
    text = Text.of(data, first_line, _scratch(len(data) + PAD), newlines, grammar.sections)
    hands = cut(text, grammar)
    head = read_head(text, hands, grammar)
    body = read_body(text, hands, head.seats, grammar)
    bad = (
        head.bad
        | body.bad
        | _repeated_ids(text, hands, head.frame.get_column("room_hand_id"), seen, grammar)
    )
    if not is_ascii:
        bad |= _undecoded(text, hands)
    frame = checks.describe(head.frame, bad, ruleset)
    good = checks.passing(frame, hands, head.seats, body)
    frame = frame.filter(pl.Series(good[frame.get_column("k").to_numpy()]))
    k = frame.get_column("k").to_numpy()
    lines = hands.first[k] + first_line
    hand_id = frame.select(pl.concat_str(pl.lit(f"{kind}:"), "room_hand_id")).to_series()
    at = np.full(hands.count(), -1, dtype=np.int64)
    at[k] = np.arange(len(k))
    ids = tables.HandIds(hand_id.to_arrow(), at)
    buttons = np.zeros(hands.count(), dtype=np.int64)
    buttons[k] = frame.get_column("button_seat").to_numpy()
    rest, numbers = _rest(text, hands, good)
    return Part(
        tables={
            "hands": tables.hands_table(frame, ids, lines, source_file, kind),
            "player_hands": tables.player_hands_table(good, buttons, ids, head.seats, body),
            "placements": tables.placements_table(good, ids, head.seats, body),
            "rejects": _stray_rejects(hands, source_file),
        },
        stored_ids=frame.select("room_hand_id", n=pl.Series(lines, dtype=pl.Int64)),
        guessed=dict(
            frame.filter(~pl.col("exact")).get_column("ruleset").value_counts().iter_rows()
        ),
        rest=rest,
        numbers=numbers,
    )


_SCRATCH = threading.local()


def _scratch(size: int) -> np.ndarray:
    """This thread's buffer for chunk text, grown (with room to spare) to ``size`` bytes if
    smaller. It holds one chunk's text at a time: ``read`` drops its ``Text`` before
    returning."""
    buffer = getattr(_SCRATCH, "buffer", None)
    if buffer is None or len(buffer) < size:
        buffer = _SCRATCH.buffer = np.empty(size + size // 8, dtype=np.uint8)
    return buffer


def _utf8(data: bytes) -> bool:
    """Whether ``data`` (not ASCII: ASCII is UTF-8) is valid UTF-8: cast to text by polars
    (simdutf8: fast on Cyrillic too), given as one binary view over the bytes, which
    ``pl.Series`` takes without a copy (``pl.from_arrow`` copies it: half the time of the
    check on Cyrillic text)."""
    if len(data) <= _INLINE or len(data) >= 1 << 31:
        try:
            data.decode()
        except UnicodeDecodeError:
            return False
        return True
    view = struct.pack("<i4sii", len(data), data[:4], 0, 0)
    value = pa.Array.from_buffers(
        pa.binary_view(), 1, [None, pa.py_buffer(view), pa.py_buffer(data)]
    )
    try:
        pl.Series(value).cast(pl.String)
    except pl.exceptions.ComputeError:
        return False
    return True


def _undecoded(text: Text, hands: Hands) -> np.ndarray:
    """Per hand: whether a line of it holds U+FFFD. Its first byte is rare in text, so a
    search for that byte (memchr, about 1 ms a 24 MB chunk) rules most chunks out."""
    bad = np.zeros(hands.count(), dtype=bool)
    at = text.data.find(UNDECODED_BYTES[:1])
    found = []
    while at >= 0 and (at := text.data.find(UNDECODED_BYTES, at)) >= 0:
        found.append(at)
        at += len(UNDECODED_BYTES)
    if found:
        owner = hands.hand[np.searchsorted(text.starts, found, side="right") - 1]
        bad[owner[owner >= 0]] = True
    return bad


#: U+FFFD in UTF-8.
UNDECODED_BYTES = UNDECODED.encode()
#: A binary view holds values of this many bytes or fewer inline.
_INLINE = 12


def _repeated_ids(
    text: Text, hands: Hands, room_ids: pl.Series, seen: SeenIds | None, grammar: Grammar
) -> np.ndarray:
    """Hands whose room id (read loosely, as ``parsers.model`` names rejects) another hand of the
    chunk or an earlier chunk has. ``room_ids``: the ids of the headers that cut (null
    elsewhere), which are the loose ids; the other headers are read with the format's
    ``id_pattern``."""
    loose = np.flatnonzero(room_ids.is_null().to_numpy())
    if len(loose):
        first = hands.first[loose]
        headers = text.strings(text.starts[first], text.ends[first])
        room_ids = room_ids.clone().scatter(loose, headers.str.extract(grammar.id_pattern, 1))
    ids = pl.DataFrame({"id": room_ids})
    repeated = pl.col("id").is_duplicated()
    if seen is not None and len(seen):
        earlier = seen.matching(room_ids).get_column("room_hand_id")
        repeated |= pl.col("id").is_in(earlier.implode())
    return ids.select(repeated & pl.col("id").is_not_null()).to_series().to_numpy()


def _stray_rejects(hands: Hands, source_file: str) -> pa.Table:
    if hands.strays.is_empty():  # most chunks: no query to run (0.6 ms a chunk)
        return REJECTS.empty_table()
    strays = hands.strays.select(
        source_file=pl.lit(source_file, dtype=pl.String),
        source_line="n",
        room_hand_id=pl.lit(None, dtype=pl.String),
        reason=stray_reason(),
        excerpt="line",
    )
    return strays.to_arrow().cast(REJECTS)


def _rest(text: Text, hands: Hands, good: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The lines of the hands not stored here, and their line numbers in the file."""
    other = np.flatnonzero(~good)
    first, stop = hands.first[other], hands.stop[other]
    begin = text.starts[first]
    end = np.append(text.starts, len(text.data))[stop]
    data = b"".join(text.data[b:e] for b, e in zip(begin.tolist(), end.tolist(), strict=True))
    sizes = stop - first
    numbers = (
        np.repeat(first, sizes)
        + np.arange(sizes.sum())
        - np.repeat(np.cumsum(sizes) - sizes, sizes)
    )
    return data.removesuffix(b"\n"), numbers + text.first_line
