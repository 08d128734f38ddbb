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

import re

from parsers.formats import TEXT_FORMATS

HEADERS = tuple((f.header_prefix, f.name) for f in TEXT_FORMATS.values())
#: Encodings a hand history might be in, readable or not: a file with a hand header in
#: any of them is a hand history (one in a wrong encoding is read, and rejected).
HEADER_WORDS = ("OFC Hand", "Раздача")
ANY_ENCODING = ("utf-8", "cp1251", "utf-16", "utf-16-be", "koi8-r", "cp866", "mac-cyrillic")


def detect(head: str) -> str | None:
    """The format of a file whose decoded beginning is ``head`` (every line of it is looked
    at: callers bound it), or None."""
    text = head.lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        return "jsonl"
    found = _HEADER.search(text)
    return None if found is None else _KIND[found.group(1)]


#: A line that starts (after blanks, never a line end: a run of blank lines is scanned
#: once) with a format's header prefix.
_HEADER = re.compile(r"^[^\S\n]*(" + "|".join(re.escape(p) for p, _ in HEADERS) + ")", re.M)
_KIND = dict(HEADERS)
#: A line that starts with a hand header's words, in whatever encoding was guessed.
_HEADER_WORDS = re.compile(r"^[^\S\n]*(?:" + "|".join(map(re.escape, HEADER_WORDS)) + ")", re.M)


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
        if detect(text) is not None or _HEADER_WORDS.search(text):
            return False
    return True
