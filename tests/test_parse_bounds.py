"""Numbers and dates out of their plausible range are rejected, naming the field and bound.

Each case is read three ways: by ``ofc parse`` (the fast path first), by the
thorough reader alone, and, rendered in ``ru``, by the ``ru`` reader; all
must reject the hand with the same reason, and read = stored + rejected.
"""

from __future__ import annotations

import polars as pl
import pytest

from parsers.lines import Chunk, line_frame
from parsers.run import read_thoroughly
from pipeline.simulator.render import ru as render_ru
from tests.hand_builder import build, example_hand
from tests.parse_helpers import FIXTURES, parse_bytes

EXAMPLE = (FIXTURES / "en" / "spec_example.txt").read_text(encoding="utf-8")
RU = "\n\n".join(render_ru.render_hands(*build([example_hand()]), "Alice")) + "\n"

CASES = [
    ("2026/11/29", "0000/11/29", "date 0000/11/29 outside the plausible range 2000..2099"),
    ("2026/11/29", "1900/11/29", "date 1900/11/29 outside the plausible range 2000..2099"),
    ("2026/11/29", "9999/11/29", "date 9999/11/29 outside the plausible range 2000..2099"),
    ("2026/11/29", "2026/02/30", "no such date 2026/02/30 (year/month/day) in the header"),
    ("2026/11/29", "2026/13/01", "no such date 2026/13/01 (year/month/day) in the header"),
    ("14:03:11", "25:61:61", "time 25:61:61 out of range in the header"),
    (
        "Alice (150 points)",
        "Alice (" + "9" * 400 + " points)",
        "stack 99999999999999999999… is outside -1,000,000..1,000,000",
    ),
    (
        "0.50 USD",
        "1" + "2" * 41 + " USD",
        "stake per point 12222222222222222222… is outside 0..10,000",
    ),
    (
        "hand 2 of 3",
        "hand 12345678901234567890 of 3",
        "match hand number 12345678901234567890 is outside 1..10,000",
    ),
    ("3-max", "300-max", "table size 300 is outside 2..10"),
    ("-9 points =", "-9000000 points =", "points -9000000 is outside -1,000,000..1,000,000"),
    (
        "-4.50 USD",
        "-" + "4" * 30 + " USD",
        "money -4444444444444444444… is outside -10,000,000,000..10,000,000,000",
    ),
]


def _accounted(summary) -> None:
    assert summary.read == summary.stored + summary.rejected
    for f in summary.files:
        assert f.read == f.stored + f.rejected


@pytest.mark.parametrize(("old", "new", "reason"), CASES)
def test_out_of_range_is_rejected_by_ofc_parse(tmp_path, old, new, reason):
    assert old in EXAMPLE
    text = EXAMPLE.replace(old, new, 1) + "\n\n" + EXAMPLE.replace("7402331950", "2") + "\n"
    summary, tables = parse_bytes(text.encode(), tmp_path)
    _accounted(summary)
    assert (summary.read, summary.stored, summary.rejected) == (2, 1, 1)
    assert tables["rejects"].get_column("reason").to_list() == [reason]
    assert tables["hands"].get_column("room_hand_id").to_list() == ["2"]


@pytest.mark.parametrize(("old", "new", "reason"), CASES)
def test_out_of_range_is_rejected_by_the_thorough_reader(old, new, reason):
    data = EXAMPLE.replace(old, new, 1).encode()
    tables, _, _ = read_thoroughly(line_frame(Chunk(data, 1, "utf-8")), "in.txt", "en", None, None)
    assert tables["hands"].num_rows == 0
    assert pl.from_arrow(tables["rejects"]).get_column("reason").to_list() == [reason]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("29.11.2026", "29.11.0000", "date 0000/11/29 outside the plausible range 2000..2099"),
        ("29.11.2026", "30.02.2026", "no such date 2026/02/30 (year/month/day) in the header"),
        (
            "(150)",
            "(" + "9" * 400 + ")",
            "stack 99999999999999999999… is outside -1,000,000..1,000,000",
        ),
    ],
)
def test_out_of_range_is_rejected_in_ru(tmp_path, old, new, reason):
    assert old in RU, RU[:400]
    summary, tables = parse_bytes(RU.replace(old, new, 1).encode(), tmp_path)
    _accounted(summary)
    assert summary.rejected == 1
    assert tables["rejects"].get_column("reason").to_list() == [reason]


def test_a_daylight_saving_gap_keeps_its_own_reason(tmp_path):
    text = EXAMPLE.replace("2026/11/29 14:03:11 UTC", "2026/03/08 02:30:00 ET")
    summary, tables = parse_bytes(text.encode(), tmp_path)
    _accounted(summary)
    assert tables["rejects"].get_column("reason").to_list() == [
        "the clock time does not exist in its time zone (a daylight-saving gap)"
    ]
