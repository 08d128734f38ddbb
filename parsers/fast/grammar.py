"""What the compiled passes need to know of a room text format, taken from its module.

The passes (``parsers.fast.hands``, ``head_scan``, ``body_scan``,
``body_scan_ru``) are shared by the formats: a format's literals (header
prefix, section lines, the words that cut its head lines, its clock's
shape) reach them as byte arrays from its ``TextFormat`` and module
(``parsers.formats.en``, ``ru``), and the repeated parts they file are read
with the format's own patterns and field expressions (``Reading``). What
differs in shape is the body's grammar (``en``: bracketed card lists after
``sets``; ``ru``: ``|`` between bare lists, multibyte ranks and suits): one
compiled body pass per format, ``body`` names it.

>>> GRAMMARS["ru"].sections.sizes.tolist(), GRAMMARS["en"].clock_at.tolist()
([3, 22, 22, 14, 14, 3], [0, 5, 8, 11, 14, 17])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import numpy as np
import polars as pl

from parsers.fast import sections
from parsers.fast.fields import Reading
from parsers.fast.literals import Packed
from parsers.formats import en, ru

#: Width of each part of a clock (``strptime`` directives), in the order ``clock_at`` lists them.
_CLOCK_PARTS = {"%Y": 4, "%m": 2, "%d": 2, "%H": 2, "%M": 2, "%S": 2}


def literal(text: str) -> np.ndarray:
    """``text`` as UTF-8 bytes in an array the compiled passes take."""
    return np.array(list(text.encode()), dtype=np.uint8)


@dataclass(frozen=True, eq=False)
class Grammar:
    """A text format as the compiled passes read it.

    ``sections``: the section prefix, the Fantasyland, showdown and summary
    lines, and a street line's text before and after its number
    (``parsers.fast.sections.words``: byte sizes in the doctest above). ``head``:
    the literals that cut the head lines (``parsers.fast.head_scan.HEAD_LITERALS``
    names them; the clock among them with 0 where a digit goes), and
    ``clock_at`` where the clock's year, month, day, hour, minute and second start;
    ``plain_label``: whether the clock label may hold no white space (else
    the zone's reading decides). ``body``: which body pass reads it.
    """

    name: str
    id_pattern: str
    header: bytes
    sections: Packed
    head: tuple[np.ndarray, ...]
    clock_at: np.ndarray
    plain_label: bool
    rules: Reading
    table: Reading
    match: Reading
    seat: Reading
    summary: Reading
    zone: Callable[[pl.Series], pl.Series]
    body: str

    @classmethod
    def of(cls, module: ModuleType, head: tuple[str, ...], plain_label: bool) -> Grammar:
        """The grammar of a format module (``FORMAT``, its patterns and field expressions);
        ``head``: its id separator, the separator before the clock, the label's brackets
        and the table name's closing quote."""
        fmt = module.FORMAT
        words = fmt.sections
        template, clock_at = clock_shape(fmt.clock)
        id_sep, words_sep, label_open, label_close, table_close = head
        return cls(
            name=fmt.name,
            id_pattern=fmt.id_pattern,
            header=fmt.header_prefix.encode(),
            sections=sections.words(
                words.prefix,
                words.line(words.fantasyland),
                words.line(words.showdown),
                words.line(words.summary),
                words.street_format(),
            ),
            head=(
                *map(literal, (fmt.header_prefix, id_sep, words_sep, label_open, label_close)),
                template,
                *map(literal, (module.TABLE_PREFIX, table_close)),
                *map(literal, (module.MATCH_PREFIX, module.SEAT_PREFIX)),
            ),
            clock_at=clock_at,
            plain_label=plain_label,
            rules=Reading(f"^{module.HEADER_WORDS}$", module.rule_words()),
            table=Reading(module.TABLE_FIELDS, module.table_fields(), module.table_problem()),
            match=Reading(
                f"^(?P<tail>{module.MATCH_TAIL})", module.match_fields(), module.match_problem()
            ),
            seat=Reading(module.SEAT_FIELDS, module.seat_fields(), module.seat_problem()),
            summary=Reading(module.SUMMARY_LINE, module.summary_fields(), module.summary_problem()),
            zone=module.zone,
            body=fmt.name,
        )


def clock_shape(clock: str) -> tuple[np.ndarray, np.ndarray]:
    """A ``strptime`` clock as the bytes it is written in (0 where a digit goes) and where
    its year, month, day, hour, minute and second start.

    >>> template, at = clock_shape("%d.%m.%Y %H:%M:%S")
    >>> bytes(template).replace(b"\\0", b"0"), at.tolist()
    (b'00.00.0000 00:00:00', [6, 3, 0, 11, 14, 17])
    """
    written, starts = b"", {}
    for piece in re.split(r"(%[YmdHMS])", clock):
        if piece in _CLOCK_PARTS:
            starts[piece] = len(written)
            written += b"\0" * _CLOCK_PARTS[piece]
        else:
            written += piece.encode()
    at = np.array([starts[p] for p in _CLOCK_PARTS], dtype=np.int64)
    return np.frombuffer(written, dtype=np.uint8).copy(), at


GRAMMARS = {
    "en": Grammar.of(en, (": ", " - ", " ", "", "'"), plain_label=True),
    "ru": Grammar.of(ru, (" · ", " · ", " (", ")", "»"), plain_label=False),
}
