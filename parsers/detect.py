"""Which format a file is in, read from its first lines.

A file is ``en`` when a line starts with ``OFC Hand #``, ``ru`` when one
starts with ``Раздача №`` and ``jsonl`` when its first non-blank line starts
with ``{``; the first such line decides. A file with none of these holds no
hand: ``None``.

>>> detect("\\ufeff\\nOFC Hand #1: Classic 1-6 American - 2026/01/01 00:00:00 UTC")
'en'
>>> detect("junk\\nРаздача №5 · Ананас"), detect('{"hand_id": 1}'), detect("hello")
('ru', 'jsonl', None)
"""

from __future__ import annotations

EN_HEADER = "OFC Hand #"
RU_HEADER = "Раздача №"


def detect(head: str, max_lines: int = 1000) -> str | None:
    """The format of a file whose decoded beginning is ``head``, or None."""
    first = True
    for raw in head.lstrip("\ufeff").split("\n", max_lines)[:max_lines]:
        line = raw.strip()
        if not line:
            continue
        if first and line.startswith("{"):
            return "jsonl"
        first = False
        if line.startswith(EN_HEADER):
            return "en"
        if line.startswith(RU_HEADER):
            return "ru"
    return None
