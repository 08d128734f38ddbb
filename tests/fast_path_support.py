"""Comparing the fast path (``parsers.fast``) with the thorough reader on the same chunk.

``parse_chunk`` reads plain hands from their bytes and hands the others to
the thorough reader; ``read_thoroughly`` reads everything the thorough way.
On any input both must give the same tables (rows, rejects and their
reasons), the same stored ids and the same guessed rulesets.
"""

from __future__ import annotations

import polars as pl
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from parsers import fast
from parsers.lines import Chunk, line_frame
from parsers.run import parse_chunk, read_thoroughly
from parsers.schema import TABLES, plain
from parsers.seen_ids import SeenIds

KEYS = {
    "hands": ["source_line"],
    "player_hands": ["hand_id", "seat"],
    "placements": ["hand_id", "seat", "street", "row", "card"],
    "rejects": ["source_line", "reason"],
}


def both_ways(data: bytes, kind: str, first_line: int = 1, seen=None, ruleset=None):
    chunk = Chunk(data, first_line, "utf-8")
    fast_way = parse_chunk(chunk, "in.txt", kind, ruleset, seen)
    thorough = read_thoroughly(line_frame(chunk), "in.txt", kind, ruleset, seen)
    return fast_way, thorough


def assert_same(
    data: bytes,
    kind: str = "en",
    first_line: int = 1,
    seen: SeenIds | None = None,
    ruleset: str | None = None,
) -> None:
    """The fast path and the thorough reader read ``data`` (UTF-8 text of ``kind``) alike."""
    fast.read(
        data, first_line, "in.txt", ruleset, seen, kind
    )  # never an error (parse_chunk hides one)
    (tables, ids, guessed, error), (want, want_ids, want_guessed) = both_ways(
        data, kind, first_line, seen, ruleset
    )
    assert error is None
    for name, key in KEYS.items():
        got, expected = pl.from_arrow(plain(tables[name], name)), pl.from_arrow(want[name])
        assert want[name].schema.equals(TABLES[name])
        assert_frame_equal(got.sort(key, nulls_last=True), expected.sort(key, nulls_last=True))
    assert sorted(ids.rows()) == sorted(want_ids.rows())
    assert guessed == want_guessed


def taken_fast(data: bytes, kind: str = "en") -> int:
    """How many hands the fast path stores from ``data``."""
    part = fast.read(data, 1, "in.txt", None, None, kind)
    assert part is not None
    return part.tables["hands"].num_rows


def stored_players(data: bytes, kind: str = "en") -> list[tuple[str, int, str]]:
    """The hand, seat and name of every player the thorough reader stores from ``data``."""
    _, (want, _, _) = both_ways(data, kind)
    players = pl.from_arrow(want["player_hands"]).select("hand_id", "seat", "player")
    return sorted(players.rows())


def with_name(text: str, old: str, new: str) -> str:
    """``text`` with the player ``old`` called ``new`` on every line (``old`` no other word)."""
    assert old in text
    return text.replace(old, new)


def assert_renamed_reads_the_same(
    text: str, named_line: tuple[str, str], name: str, kind: str, fast: set[int]
) -> None:
    """``text`` with the player of ``named_line`` (player, a line of theirs) called ``name``:
    the fast path takes one of the counts ``fast`` of its hands, both readers store the
    same rows with ``name`` at the player's seat (Alice's 1, Bob's 2), and with the line
    written with the name short of its last character (which names no seat) both reject
    alike."""
    player, line = named_line
    renamed = with_name(text, player, name)
    named = line.replace(player, name, 1)
    assert named in renamed
    data = renamed.encode()
    assert taken_fast(data, kind) in fast
    assert_same(data, kind)
    seats = {seat for _, seat, who in stored_players(data, kind) if who == name}
    assert seats == {1 if player == "Alice" else 2}
    shorter = line.replace(player, name[:-1], 1)
    assert_same(renamed.replace(named, shorter, 1).encode(), kind)


def mutations(alphabet: str):
    """Up to five edits of lines: drop, duplicate, swap, overwrite with junk from
    ``alphabet``, change a card's rank or a digit (for ``mutate``)."""
    return st.lists(
        st.tuples(
            st.sampled_from(["drop", "duplicate", "swap", "corrupt", "card", "digit"]),
            st.integers(min_value=0, max_value=100_000),
            st.text(alphabet=st.sampled_from(alphabet), max_size=6),
        ),
        min_size=1,
        max_size=5,
    )


def mutate(lines: list[str], edits, ranks: str) -> list[str]:
    """Line edits (drop, duplicate, swap, overwrite) and in-line edits of a rank or a digit."""
    lines = list(lines)
    for kind, at, junk in edits:
        if not lines:
            break
        i = at % len(lines)
        line = lines[i]
        if kind == "drop":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, line)
        elif kind == "swap":
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "corrupt":
            cut = at % (len(line) + 1)
            lines[i] = line[:cut] + junk + line[cut + len(junk) :]
        else:
            wanted = ranks if kind == "card" else "0123456789"
            spots = [k for k, c in enumerate(line) if c in wanted]
            if spots:
                k = spots[at % len(spots)]
                lines[i] = line[:k] + wanted[(at // 7) % len(wanted)] + line[k + 1 :]
    return lines
