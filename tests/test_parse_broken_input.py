"""Bad input never crashes a parse and never disappears: every hand is stored or rejected.

Broken hands go to ``rejects`` with the file, the line, the room's hand id
when readable, a reason a person understands and an excerpt; the rest of the
file goes on.
"""

from __future__ import annotations

import gzip
import zipfile

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.simulator.render import en as render_en
from pipeline.simulator.render import ru as render_ru
from tests.hand_builder import build, example_hand
from tests.import_support import simulate
from tests.parse_helpers import FIXTURES, parse, parse_bytes

EXAMPLE = (FIXTURES / "en" / "spec_example.txt").read_text(encoding="utf-8")


def three_hands(fmt: str = "en") -> str:
    """Three valid hands (the spec example with ids 1, 2, 3) as one file's text."""
    hands = [example_hand(room_hand_id=str(i), source_format=fmt) for i in (1, 2, 3)]
    module = {"en": render_en, "ru": render_ru}[fmt]
    return "\n\n".join(module.render_hands(*build(hands), "Alice")) + "\n"


def only_reject(tables) -> dict:
    assert tables["rejects"].height == 1, tables["rejects"].to_dicts()
    return tables["rejects"].row(0, named=True)


def accounted(summary, tables) -> None:
    assert summary.read == summary.stored + summary.rejected
    assert summary.stored == tables["hands"].height
    assert summary.rejected == tables["rejects"].height
    for f in summary.files:
        assert f.read == f.stored + f.rejected


def test_truncated_hand_is_rejected_and_the_next_one_stored(tmp_path):
    text = three_hands()
    first, second, third = text.split("\n\n")
    cut = "\n".join(second.splitlines()[:20])
    summary, tables = parse_bytes(f"{first}\n\n{cut}\n\n{third}".encode(), tmp_path)
    accounted(summary, tables)
    assert summary.stored == 2
    reject = only_reject(tables)
    assert reject["room_hand_id"] == "2" and "without its" in reject["reason"]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("[Ah Kd 7c 7s 2h]", "[Ah Kd 7c 7s Xx]", "unknown card 'Xx'"),
        ("Bob: sets top [Qs]", "Bob: sets top [Ah]", "Ah"),  # Alice holds Ah too
        ("top [Ah], middle [Kd]", "top [Ah Kd], middle [Kd]", "Alice"),
        ("top [Qs Qd 3h]", "top [Qs Qd 3h 2s]", "top row shows 4 cards"),
        (
            "Seat 3: Carol [RU] (150 points) [Fantasyland, 14 cards]",
            "Seat 3: Carol [RU] (150 points) [Fantasyland, 20 cards]",
            "20 cards",
        ),
        ("*** STREET 3 ***", "*** STREET 7 ***", "street 3 section is missing"),
        (
            "Dealt to Bob (3 cards)\nBob: sets middle [8c], bottom [Jh]; discards 1 card",
            "Dealt to Bob (3 cards)\nBob: sets middle [8c], bottom [Jh Ks]; discards 1 card",
            "Bob",
        ),
        ("Alice: +30 points", "Alice: +thirty points", "summary line"),
        ("Carol [RU]: shows", "Dave: shows", "Dave"),
        ("- 2026/11/29 14:03:11 UTC", "- 2026/11/29 14:03:11 PST", "time zone"),
        ("Seat #3 is the button", "Seat #3 is a button", "table line"),
        (
            "Alice: sets middle [Qh], bottom [9d]; discards [3c]",
            "Alice: sets middle [Qh], bottom [9d]\u0007; discards [3c]",
            "Alice",
        ),
    ],
)
def test_broken_hand_is_rejected_with_a_reason(tmp_path, old, new, reason):
    assert old in EXAMPLE
    summary, tables = parse_bytes(EXAMPLE.replace(old, new, 1).encode(), tmp_path)
    accounted(summary, tables)
    reject = only_reject(tables)
    assert reason in reject["reason"], reject
    assert reject["source_file"].endswith("input.txt") and reject["source_line"] >= 1
    assert reject["room_hand_id"] == "7402331950" and reject["excerpt"]


def test_duplicated_card_names_both_lines(tmp_path):
    text = EXAMPLE.replace("Carol [RU]: shows top [2c 3d 4h]", "Carol [RU]: shows top [2c 3d Ah]")
    _, tables = parse_bytes(text.encode(), tmp_path)
    reason = only_reject(tables)["reason"]
    assert "card Ah appears twice" in reason or "Ah" in reason


def test_junk_between_hands_is_one_reject_and_hands_survive(tmp_path):
    first, second, third = three_hands().split("\n\n")
    junk = "this is not a hand\n\x00\x01\x02 binary-ish\n\nmore junk"
    summary, tables = parse_bytes(f"{first}\n\n{junk}\n\n{second}\n\n{third}".encode(), tmp_path)
    accounted(summary, tables)
    assert summary.stored == 3
    assert "outside any hand" in only_reject(tables)["reason"]


def test_binary_junk_file_is_skipped_as_not_a_hand_history(tmp_path):
    data = bytes(range(256)) * 200
    summary, tables = parse_bytes(data, tmp_path, name="junk.bin")
    accounted(summary, tables)
    assert summary.read == 0
    assert summary.files[0].note == "skipped: not a hand history"


def test_junk_longer_than_what_is_looked_at_is_read_and_rejected(tmp_path):
    data = bytes(range(256)) * 4200  # more than the MiB looked at: it might hold hands further on
    summary, tables = parse_bytes(data, tmp_path, name="junk.bin")
    accounted(summary, tables)
    assert summary.stored == 0 and summary.rejected >= 1


def test_empty_file(tmp_path):
    summary, tables = parse_bytes(b"", tmp_path)
    accounted(summary, tables)
    assert summary.read == 0


def test_ten_megabyte_line(tmp_path):
    first, second, third = three_hands().split("\n\n")
    lines = second.splitlines()
    lines.insert(8, "Bob: " + "x" * (10 << 20))
    summary, tables = parse_bytes("\n\n".join([first, "\n".join(lines), third]).encode(), tmp_path)
    accounted(summary, tables)
    assert summary.stored == 2
    assert len(only_reject(tables)["excerpt"]) <= 200


@pytest.mark.parametrize("encoding", ["utf-16", "koi8-r"])
def test_wrong_encoding_is_rejected_not_misread(tmp_path, encoding):
    text = (FIXTURES / "ru" / "spec_example.txt").read_text(encoding="utf-8").replace("₽", "RUB")
    summary, tables = parse_bytes(text.encode(encoding, errors="replace"), tmp_path)
    accounted(summary, tables)
    assert summary.stored == 0 and summary.rejected >= 1


UNDECODED_REASON = "bytes that are not text in the file's encoding"


@pytest.mark.parametrize("fmt", ["en", "ru"])
@pytest.mark.parametrize(
    ("where", "damaged"),
    [
        ("name", b"\xa3lice"),
        ("table", b"Helsinki I\xffI"),
        ("literal U+FFFD", "Al\ufffdce".encode()),
    ],
)
def test_bytes_that_do_not_decode_reject_their_hand_not_misread_into_a_name(
    tmp_path, fmt, where, damaged
):
    """One bad byte in a player's or table's name (or text that already lost its bytes,
    U+FFFD): that hand is rejected at the line, the others keep their names."""
    text = three_hands(fmt).encode()
    first, rest = text.split(b"\n\n", 1)
    target = {"name": b"Alice", "table": b"Helsinki II", "literal U+FFFD": b"Alice"}[where]
    summary, tables = parse_bytes(first.replace(target, damaged) + b"\n\n" + rest, tmp_path)
    accounted(summary, tables)
    assert (summary.stored, summary.rejected) == (2, 1)
    reject = only_reject(tables)
    assert reject["reason"].startswith(UNDECODED_REASON)
    assert reject["room_hand_id"] == "1" and "\ufffd" in reject["excerpt"]
    players = set(tables["player_hands"].get_column("player"))
    assert all("\ufffd" not in p for p in players) and "Alice" in players


def test_an_en_file_with_latin_1_bytes_is_not_read_as_windows_1251(tmp_path):
    """Enough non-UTF-8 bytes for the cp1251 guess of ru exports: an en file is UTF-8 only,
    so its valid names stay as written and the damaged hand is rejected."""
    text = three_hands("en").replace("Alice", "Zoë Ł.").encode()
    first, rest = text.split(b"\n\n", 1)
    damaged = first.replace(b"Bob", b"Ren\xe9 \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9")
    summary, tables = parse_bytes(damaged + b"\n\n" + rest, tmp_path)
    accounted(summary, tables)
    assert (summary.stored, summary.rejected) == (2, 1)
    assert only_reject(tables)["reason"].startswith(UNDECODED_REASON)
    assert set(tables["player_hands"].get_column("player")) == {"Zoë Ł.", "Bob", "Carol [RU]"}


def test_crlf_and_byte_order_mark(tmp_path):
    data = "\ufeff".encode() + three_hands().replace("\n", "\r\n").encode()
    summary, tables = parse_bytes(data, tmp_path)
    accounted(summary, tables)
    assert summary.stored == 3
    assert tables["hands"].get_column("source_line").to_list() == [1, 43, 85]


def test_repeated_hand_id_is_rejected(tmp_path):
    text = EXAMPLE + "\n\n" + EXAMPLE
    summary, tables = parse_bytes(text.encode(), tmp_path)
    accounted(summary, tables)
    assert summary.stored == 1 and "appears twice in this file" in only_reject(tables)["reason"]


def test_archives_folders_and_globs(tmp_path):
    text = three_hands().encode()
    folder = tmp_path / "in" / "deep"
    folder.mkdir(parents=True)
    (folder / "a.txt").write_bytes(text)
    with zipfile.ZipFile(tmp_path / "in" / "b.zip", "w") as archive:
        archive.writestr("inner/b.txt", text)
        archive.writestr("inner/c.txt.gz", gzip.compress(text))
    (tmp_path / "d.txt.gz").write_bytes(gzip.compress(text))
    summary, tables = parse([tmp_path / "in", str(tmp_path / "*.gz")], tmp_path / "out")
    accounted(summary, tables)
    names = sorted(f.name.split("/in/")[-1].split(str(tmp_path))[-1] for f in summary.files)
    assert len(summary.files) == 4 and summary.stored == 12, names
    assert any("b.zip!/inner/c.txt.gz" in f.name for f in summary.files)


def test_damaged_archives_are_rejected(tmp_path):
    good = gzip.compress(three_hands().encode())
    (tmp_path / "cut.txt.gz").write_bytes(good[: len(good) // 2])
    (tmp_path / "fake.zip").write_bytes(b"PK\x03\x04 not really a zip")
    summary, tables = parse([tmp_path / "cut.txt.gz", tmp_path / "fake.zip"], tmp_path / "out")
    accounted(summary, tables)
    assert summary.rejected >= 2
    reasons = tables["rejects"].get_column("reason").to_list()
    assert any(r.startswith("archive truncated") for r in reasons), reasons
    assert any(r.startswith("zip archive damaged or truncated") for r in reasons), reasons


def test_small_chunks_split_between_hands(tmp_path):
    from parsers.run import parse_files

    path = tmp_path / "many.txt"
    path.write_text(three_hands() * 1, encoding="utf-8")
    summary = parse_files([path], tmp_path / "out", chunk_bytes=600)
    assert summary.stored == 3 and summary.rejected == 0


MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(["drop", "duplicate", "swap", "corrupt"]),
        st.integers(min_value=0, max_value=10_000),
        st.text(min_size=0, max_size=12),
    ),
    min_size=1,
    max_size=6,
)


def mutate(lines: list[str], mutations) -> list[str]:
    lines = list(lines)
    for kind, at, junk in mutations:
        if not lines:
            break
        i = at % len(lines)
        if kind == "drop":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        else:
            cut = at % (len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + junk + lines[i][cut + len(junk) :]
    return lines


@pytest.mark.parametrize("fmt", ["en", "ru"])
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mutations=MUTATIONS)
def test_mutated_hands_are_always_accounted_for(tmp_path_factory, fmt, mutations):
    first, second, third = three_hands(fmt).split("\n\n")
    middle = "\n".join(mutate(second.splitlines(), mutations))
    tmp = tmp_path_factory.mktemp("mutated")
    summary, tables = parse_bytes(f"{first}\n\n{middle}\n\n{third}".encode(), tmp)
    accounted(summary, tables)
    stored = set(tables["hands"].get_column("room_hand_id"))
    assert {"1", "3"} <= stored <= {"1", "2", "3"}
    assert summary.read >= 3
    rejects = tables["rejects"]
    assert rejects.filter(pl.col("reason").str.len_chars() == 0).height == 0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("yuki_scoop получает: 9♣ 5♥ 5♣ 3♣ Т♦", "yuki_scoop получает: 9♣ 5♥ 5♣ 3♣ Х♦"),
        ("yuki_scoop: верх 9♣ | середина 5♥ 5♣", "yuki_scoop: верх Х♦ | середина 5♥ 5♣"),
        ("Judy: верх 3♦ 2♥ К♥ · середина", "Judy: верх 3♦ 2♥ Х♦ · середина"),
    ],
)
def test_an_unknown_card_is_named_as_the_file_writes_it(tmp_path, old, new):
    """``Х♦`` (a Cyrillic Х), not the ``Хd`` the reader makes of it: the user searches the
    file for what the reason says."""
    text = simulate(tmp_path / "ru.txt", 1, seed=3, fmt="ru").read_text(encoding="utf-8")
    assert old in text
    summary, tables = parse_bytes(text.replace(old, new, 1).encode(), tmp_path)
    accounted(summary, tables)
    assert "unknown card 'Х♦'" in only_reject(tables)["reason"]
