"""``ofc-jsonl`` numbers and times out of their plausible range are rejected, naming the field.

The bounds are those of the text formats (``parsers.bounds``,
docs/formats/ofc-jsonl.md); a truncated JSON line is a reject too.
"""

from __future__ import annotations

import json

import pytest

from parsers.jsonl import jsonl_bytes
from tests.hand_builder import build, example_hand
from tests.parse_helpers import parse_bytes

LINE = json.loads(jsonl_bytes(*build([example_hand()])).decode().splitlines()[0])


def _parse(tmp_path, text: str):
    summary, tables = parse_bytes(text.encode(), tmp_path, name="in.jsonl")
    assert summary.read == summary.stored + summary.rejected
    return summary, tables


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("point_value", 1e308, "point_value 1e+308 is outside 0..10,000"),
        ("played_at", "0001-01-01T00:00:00Z", "played_at 0001-01-01T00:00:00Z outside"),
        ("played_at", "9999-12-31T00:00:00Z", "played_at 9999-12-31T00:00:00Z outside"),
        ("match_hand", 0, "match_hand 0.0 is outside 1..10,000"),
    ],
)
def test_hand_fields_out_of_range(tmp_path, field, value, reason):
    hand = dict(LINE, **{field: value})
    summary, tables = _parse(tmp_path, json.dumps(hand) + "\n")
    assert summary.rejected == 1
    assert tables["rejects"].get_column("reason").str.contains(reason, literal=True).all()


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("starting_stack", -1e7, "starting_stack -10000000.0 is outside -1,000,000..1,000,000"),
        ("starting_stack", 1e300, "starting_stack 1e+300 is outside"),
        ("reported_money", -1e308, "reported_money -1e+308 is outside"),
    ],
)
def test_player_fields_out_of_range(tmp_path, field, value, reason):
    hand = json.loads(json.dumps(LINE))
    hand["players"][0][field] = value
    summary, tables = _parse(tmp_path, json.dumps(hand) + "\n")
    assert summary.rejected == 1
    reasons = tables["rejects"].get_column("reason")
    assert reasons.str.contains(reason, literal=True).all(), reasons.to_list()


def test_a_truncated_line_is_a_reject(tmp_path):
    whole = json.dumps(LINE)
    other = json.dumps(dict(LINE, hand_id="en:2", room_hand_id="2"))
    summary, _ = _parse(tmp_path, f"{other}\n{whole[: len(whole) // 2]}")
    assert (summary.read, summary.stored, summary.rejected) == (2, 1, 1)


@pytest.mark.parametrize(
    ("point_value", "currency", "reason"),
    [
        (1.0, None, "point_value 1.0 and currency null go together"),
        (None, "USD", "point_value null and currency USD go together"),
    ],
)
def test_a_stake_needs_both_its_value_and_its_currency(tmp_path, point_value, currency, reason):
    """Money of a stake with no currency would be summed into another currency's total."""
    hand = dict(LINE, point_value=point_value, currency=currency)
    summary, tables = _parse(tmp_path, json.dumps(hand) + "\n")
    assert (summary.stored, summary.rejected) == (0, 1)
    assert tables["rejects"].get_column("reason").str.contains(reason, literal=True).all()


@pytest.mark.parametrize("currency", ["usd", "US$", "dollars", ""])
def test_a_currency_is_an_iso_code(tmp_path, currency):
    """The text formats read a currency as an ISO code (three capital letters); ``usd``
    stored beside ``USD`` would split one currency's money in two."""
    hand = dict(LINE, point_value=1.0, currency=currency)
    summary, tables = _parse(tmp_path, json.dumps(hand) + "\n")
    assert (summary.stored, summary.rejected) == (0, 1)
    reason = f'currency "{currency}" is not an ISO code (three capital letters, as USD)'
    assert tables["rejects"].get_column("reason").str.contains(reason, literal=True).all()


def test_play_money_has_neither_value_nor_currency(tmp_path):
    hand = dict(LINE, point_value=None, currency=None)
    summary, _ = _parse(tmp_path, json.dumps(hand) + "\n")
    assert (summary.stored, summary.rejected) == (1, 0)
