"""Bad ``ofc-jsonl`` lines become rejects with file, line, reason and excerpt; never exceptions."""

from __future__ import annotations

import json

import pytest

from ofc_core.errors import UserError
from parsers.jsonl import jsonl_bytes, read_jsonl
from pipeline.simulator import simulate


def good_lines(count: int = 6) -> list[dict]:
    batch = next(iter(simulate("pineapple-1-6-american", 3, count, seed=9)))
    return [json.loads(line) for line in jsonl_bytes(**batch.as_dict()).splitlines()]


def edit(hand: dict, path: str, value) -> dict:
    """A copy of ``hand`` with the value at a dotted path (``players.0.top``) replaced."""
    hand = json.loads(json.dumps(hand))
    *parents, last = path.split(".")
    node = hand
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is DELETE:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return hand


DELETE = object()

BROKEN = [
    (lambda h: edit(h, "players.0.top", ["Ah", "Kd"]), "top has 2 cards, expected 3"),
    (lambda h: edit(h, "players.1.middle.0", "Xx"), "not a card"),
    (lambda h: edit(h, "players.0.seat", "one"), "players[0].seat"),
    (lambda h: edit(h, "variant", "omaha"), 'variant "omaha"'),
    (lambda h: edit(h, "ofc_jsonl", 2), "format version 2"),
    (lambda h: edit(h, "played_at", "29.11.2026 14:03"), "not a UTC time"),
    (lambda h: edit(h, "hand_id", "jsonl:other"), "should be"),
    (lambda h: edit(h, "table_name", DELETE), 'missing "table_name"'),
    (lambda h: edit(h, "players", h["players"][:1]), "2 or 3 players"),
    (lambda h: edit(h, "players.1.seat", h["players"][0]["seat"]), "share a seat"),
    (lambda h: edit(h, "players.1.top.0", h["players"][0]["top"][0]), "appears twice"),
    (lambda h: edit(h, "placements.row.0", "sideways"), 'row "sideways"'),
    (lambda h: edit(h, "placements.auto", []), "same length"),
    (lambda h: edit(h, "placements.seat.0", 9), "seat 9 has no player"),
]


@pytest.mark.parametrize("breaks,reason", BROKEN, ids=[r for _, r in BROKEN])
def test_a_bad_hand_is_rejected_with_its_line_and_reason(tmp_path, breaks, reason):
    hands = good_lines()
    hands[2] = breaks(hands[2])
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands), "utf-8")
    tables = read_jsonl(path)
    rejects = tables["rejects"].to_pylist()
    assert [r["source_line"] for r in rejects] == [3]
    assert reason in rejects[0]["reason"]
    assert rejects[0]["source_file"] == str(path)
    assert rejects[0]["excerpt"] == path.read_text("utf-8").splitlines()[2][:200]
    assert tables["hands"].num_rows == 5
    assert tables["hands"]["source_line"].to_pylist() == [1, 2, 4, 5, 6]
    kept = set(tables["hands"]["hand_id"].to_pylist())
    assert set(tables["player_hands"]["hand_id"].to_pylist()) == kept
    assert set(tables["placements"]["hand_id"].to_pylist()) == kept


def test_lines_that_are_not_hands(tmp_path):
    hands = good_lines(3)
    text = [
        json.dumps(hands[0]),
        "{not json",
        "",
        "[1, 2]",
        json.dumps(hands[1]),
        json.dumps(hands[0]),  # the same hand again
        "   ",
    ]
    path = tmp_path / "junk.jsonl"
    bad_bytes = json.dumps(hands[2]).encode().replace(b'"table_name": "', b'"table_name": "\xff')
    path.write_bytes(("\ufeff" + "\r\n".join(text) + "\r\n").encode("utf-8") + bad_bytes + b"\n")
    tables = read_jsonl(path)
    rejects = {r["source_line"]: r["reason"] for r in tables["rejects"].to_pylist()}
    assert tables["hands"]["source_line"].to_pylist() == [1, 5]
    assert set(rejects) == {2, 4, 6, 8}
    assert rejects[2].startswith("not valid JSON")
    assert "JSON object" in rejects[4]
    assert "already appears on line 1" in rejects[6]
    assert "UTF-8" in rejects[8]


def test_a_missing_file_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="cannot read"):
        read_jsonl(tmp_path / "nope.jsonl")


def test_an_empty_file_has_no_hands(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    tables = read_jsonl(path)
    assert tables["hands"].num_rows == 0 and tables["rejects"].num_rows == 0
