"""What the docs show agrees with what the commands print: the ``ofc decide`` example of
the README and docs/decisions.md, the interval the docs give for points per hand, the size
of ``ofc report --all`` pages, and the rules the decisions doc cites."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.import_support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DECISIONS = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
METRICS = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")


def _shown_first(text: str) -> dict:
    """The first candidate of the ``ofc decide`` example (the line after ``"discard"``)."""
    found = re.search(r'\{"candidates": \[(\{"top": "Kd".*?\}), \.\.\.\]\}', text, re.S)
    assert found, "no ofc decide example"
    return json.loads(re.sub(r"\s+", " ", found.group(1)))


def test_the_decide_example_is_what_decide_prints() -> None:
    situation = re.search(r"situation='(.*)'", README).group(1)
    command = re.search(r'echo "\$situation" \| ofc decide (.*)', README).group(1).split()
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.cli.main", "decide", *command],
        input=situation + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    first = json.loads(done.stdout)["candidates"][0]
    assert _shown_first(README) == first
    assert _shown_first(DECISIONS) == first


def test_points_per_hand_interval_is_documented_as_t() -> None:
    row = next(line for line in METRICS.splitlines() if "`points_per_hand_ci_low`" in line)
    assert "t(0.975, n − 1)" in row and "z ·" not in row


def test_report_page_size_is_not_understated() -> None:
    assert "about 20 KB each" not in README


def test_decisions_cites_the_rules_users_have() -> None:
    assert "RULES.md" not in DECISIONS and "RULES R" not in DECISIONS
    assert not re.search(r"\bissue \d+", DECISIONS)
