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

from collections.abc import Iterator

from parsers.formats import TEXT_FORMATS

HEADERS = tuple((f.header_prefix, f.name) for f in TEXT_FORMATS.values())
#: Encodings a hand history might be in, readable or not: a file with a hand header in
#: any of them is a hand history (one in a wrong encoding is read, and rejected).
HEADER_WORDS = ("OFC Hand", "Раздача")
ANY_ENCODING = ("utf-8", "cp1251", "utf-16", "utf-16-be", "koi8-r", "cp866", "mac-cyrillic")


def detect(head: str, max_lines: int = 1000) -> str | None:
    """The format of a file whose decoded beginning is ``head``, or None."""
    first = True
    for raw in _lines(head.lstrip("\ufeff"), max_lines):
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


def _lines(text: str, most: int) -> Iterator[str]:
    """The first ``most`` lines of ``text``, one at a time (the first usually decides).

    >>> list(_lines("a\\nb\\nc", 2)), list(_lines("", 5))
    (['a', 'b'], [''])
    """
    start = 0
    for _ in range(most):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def holds_no_hands(head: bytes) -> bool:
    """Whether the beginning of a file shows no hand in any likely encoding: no line that
    starts like a hand header (a sign such as ``№`` may be lost to the encoding) and no
    JSON line.

    >>> holds_no_hands(b"# My hands\\n\\nExported from the room.\\n")
    True
    >>> holds_no_hands("Раздача №5 · Ананас".encode("koi8-r", errors="replace"))
    False
    """
    for encoding in ANY_ENCODING:
        text = head.decode(encoding, errors="replace").lstrip("\ufeff")
        if detect(text) is not None:
            return False
        lines = (line.strip() for line in text.split("\n", 1000)[:1000])
        if any(line.startswith(HEADER_WORDS) for line in lines):
            return False
    return True
