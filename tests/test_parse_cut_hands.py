"""A hand whose summary line is cut short is never stored as complete.

At a table played for money every summary line ends with what the room paid
(``= <+M|-M> <currency>``, ``ofc-text-en.md``); a line without it is the start
of a line whose end is missing. Such a hand is rejected with that reason,
by the fast path, the thorough reader and the ``ru`` reader alike, whether it
ends the file or stands in the middle of it; read = stored + rejected.
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
CUT = EXAMPLE.rsplit(" = ", 1)[0]  # 'Carol [RU]: -9 points' with ' = -4.50 USD' missing
REASON = "summary line cut short: Carol [RU]'s line ends before ' = <money> <currency>'"


def _accounted(summary) -> None:
    assert summary.read == summary.stored + summary.rejected
    for f in summary.files:
        assert f.read == f.stored + f.rejected


@pytest.mark.parametrize("ending", ["", "\n"])
def test_a_cut_hand_at_the_end_of_a_file_is_rejected(tmp_path, ending):
    other = EXAMPLE.replace("7402331950", "2")
    summary, tables = parse_bytes(f"{other}\n\n{CUT}{ending}".encode(), tmp_path)
    _accounted(summary)
    assert (summary.read, summary.stored, summary.rejected) == (2, 1, 1)
    reject = tables["rejects"].row(0, named=True)
    assert reject["reason"].startswith(REASON)
    assert reject["source_line"] == f"{other}\n\n{CUT}".count("\n") + 1  # the cut line
    assert reject["room_hand_id"] == "7402331950"


def test_a_cut_hand_in_the_middle_of_a_file_is_rejected(tmp_path):
    other = EXAMPLE.replace("7402331950", "2")
    summary, tables = parse_bytes(f"{CUT}\n\n{other}\n".encode(), tmp_path)
    _accounted(summary)
    assert tables["rejects"].get_column("reason").str.starts_with(REASON).to_list() == [True]
    assert tables["hands"].get_column("room_hand_id").to_list() == ["2"]
    assert tables["player_hands"].get_column("reported_money").null_count() == 0


def test_the_thorough_reader_rejects_it_too():
    frame = line_frame(Chunk(CUT.encode(), 1, "utf-8"))
    tables, _, _ = read_thoroughly(frame, "in.txt", "en", None, None)
    assert tables["hands"].num_rows == 0
    assert pl.from_arrow(tables["rejects"]).get_column("reason").str.starts_with(REASON).all()


def test_play_money_lines_need_no_money(tmp_path):
    text = EXAMPLE.replace("0.50 USD per point", "play money")
    for money in (" = +15.00 USD", " = -10.50 USD", " = -4.50 USD"):
        text = text.replace(money, "")
    summary, tables = parse_bytes(text.encode(), tmp_path)
    _accounted(summary)
    assert summary.stored == 1
    assert tables["player_hands"].get_column("reported_money").null_count() == 3


def test_a_cut_ru_summary_line_is_rejected(tmp_path):
    ru = "\n\n".join(render_ru.render_hands(*build([example_hand()]), "Alice"))
    cut = ru.rsplit(" = ", 1)[0]
    summary, tables = parse_bytes(cut.encode(), tmp_path)
    _accounted(summary)
    assert summary.rejected == 1
    assert tables["rejects"].get_column("reason").str.contains("summary line cut short").all()


@pytest.mark.parametrize("currency", ["U", "US", "EUR", "XYZ", "usd"])
@pytest.mark.parametrize("ending", ["", "\n"])
def test_a_line_cut_inside_its_currency_is_rejected(tmp_path, currency, ending):
    """'= -4.50 U' is 'USD' cut short; money in another currency than the table's (USD)
    is a damaged line: both rejected, by the fast path and the thorough reader."""
    text = EXAMPLE.rsplit(" USD", 1)[0] + f" {currency}{ending}"
    summary, tables = parse_bytes(text.encode(), tmp_path)
    _accounted(summary)
    assert (summary.stored, summary.rejected) == (0, 1)
    reason = tables["rejects"].row(0, named=True)["reason"]
    assert reason.startswith("summary line cut short or damaged: Carol [RU]'s money")
    frame = line_frame(Chunk(text.encode(), 1, "utf-8"))
    thorough, _, _ = read_thoroughly(frame, "in.txt", "en", None, None)
    assert thorough["hands"].num_rows == 0


@pytest.mark.parametrize(("paid", "stored"), [("USD", 1), ("$", 1), ("US", 0), ("₽", 0)])
def test_ru_money_is_in_the_tables_currency_by_any_of_its_words(tmp_path, paid, stored):
    """The table plays for '0,50 $': Carol's '−4,50 USD' is the same currency, 'US' is
    'USD' cut short and '₽' another currency."""
    ru = "\n\n".join(render_ru.render_hands(*build([example_hand()]), "Alice"))
    assert "очко = 0,50 $ " in ru and ru.endswith(" = −4,50 $")
    text = ru.removesuffix(" $") + f" {paid}\n"
    summary, tables = parse_bytes(text.encode(), tmp_path)
    _accounted(summary)
    assert summary.stored == stored, tables["rejects"].get_column("reason").to_list()


@pytest.mark.parametrize("chunk_bytes", [None, 1 << 12])
def test_a_whole_copy_after_a_cut_one_of_the_same_hand_is_stored(tmp_path, chunk_bytes):
    """A room client that crashed mid-hand and wrote the hand again: the cut copy is
    rejected for what it lacks and the whole copy is stored, not refused as a repeat (in
    one chunk, or in chunks of their own)."""
    mid_street = EXAMPLE[: EXAMPLE.index("*** STREET 3 ***")]
    other = EXAMPLE.replace("7402331950", "2")
    text = f"{mid_street}\n{EXAMPLE}\n\n{other}\n"
    options = {} if chunk_bytes is None else {"chunk_bytes": chunk_bytes}
    summary, tables = parse_bytes(text.encode(), tmp_path, **options)
    _accounted(summary)
    assert (summary.stored, summary.rejected) == (2, 1)
    assert tables["hands"].get_column("room_hand_id").to_list() == ["7402331950", "2"]
    reason = tables["rejects"].row(0, named=True)["reason"]
    assert "appears twice" not in reason


def test_a_cut_copy_after_a_whole_one_is_rejected_for_what_it_lacks(tmp_path):
    text = f"{EXAMPLE}\n\n{CUT}\n"
    summary, tables = parse_bytes(text.encode(), tmp_path)
    _accounted(summary)
    assert (summary.stored, summary.rejected) == (1, 1)
    assert tables["rejects"].row(0, named=True)["reason"].startswith(REASON)
