"""JSON on standard input saved by Windows Notepad starts with a UTF-8 byte order mark:
``ofc score``, ``ofc solve`` and ``ofc decide`` read it as the same JSON without one."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

BOM = b"\xef\xbb\xbf"
SCORE = {
    "players": [
        {"name": "A", "top": "Ah Ad 4c", "middle": "Kd Kh Qh 6s 6d", "bottom": "7c 7s 7d 2h 9d"},
        {"name": "B", "top": "Qs Qd 3h", "middle": "5d 5c 8c 8d Ts", "bottom": "9s 9h Jh Kc 4s"},
    ]
}
SOLVE = {"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h"}
DECIDE = {
    "hero": {"top": "Ah Ad", "middle": "Kd Kh Qh 6s 6d", "bottom": "7c 7s 7d 2h", "cards": "9d"},
    "opponents": [
        {"name": "B", "top": "Qs Qd", "middle": "5d 5c 8c 8d Ts", "bottom": "9s 9h Jh Kc"}
    ],
}


@pytest.mark.parametrize(
    ("command", "given"),
    [
        (["score", "--ruleset", "pineapple-1-6-american"], SCORE),
        (["solve", "--ruleset", "pineapple-1-6-american"], SOLVE),
        (["decide", "--ruleset", "classic-1-6-american", "--seed", "1"], DECIDE),
    ],
)
def test_a_byte_order_mark_is_read_as_nothing(command: list[str], given: dict) -> None:
    text = json.dumps(given).encode() + b"\n"
    runs = [
        subprocess.run(
            [sys.executable, "-m", "pipeline.cli", *command],
            input=prefix + text,
            capture_output=True,
            timeout=300,
        )
        for prefix in (b"", BOM)
    ]
    assert [run.returncode for run in runs] == [0, 0], runs[1].stderr.decode()
    assert runs[1].stdout == runs[0].stdout
