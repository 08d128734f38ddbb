"""Which format a file is in, read from its first lines.

A file is in a room text format when a line starts with that format's
header prefix (``OFC Hand #``: ``en``, ``Раздача №``: ``ru``; see
``parsers.formats.TEXT_FORMATS``) and ``jsonl`` when its first non-blank line
starts with ``{``; the first such line decides. A file with none of these holds no
hand: ``None``.

>>> detect("\\ufeff\\nOFC Hand #1: Classic 1-6 American - 2026/01/01 00:00:00 UTC")
'en'
>>> detect("junk\\nРаздача №5 · Ананас"), detect('{"hand_id": 1}'), detect("hello")
('ru', 'jsonl', None)
"""

from __future__ import annotations

from parsers.formats import TEXT_FORMATS

HEADERS = tuple((f.header_prefix, f.name) for f in TEXT_FORMATS.values())


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
        for prefix, name in HEADERS:
            if line.startswith(prefix):
                return name
    return None
