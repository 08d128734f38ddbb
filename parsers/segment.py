"""Cutting a chunk's lines into hands and sections, column-wise.

A hand starts at a header line and runs to the next blank line or header;
its lines are numbered ``h`` by a cumulative sum over header lines. Section
lines (``*** STREET 2 ***``, ``== Улица 2 ==``) get a code (``sec``: 0 the
Fantasyland section, ``s`` street ``s``, ``SHOWDOWN``, ``SUMMARY``, ``UNKNOWN``
for a section the grammar lacks) that is carried forward to the lines below;
lines before the first section have ``HEAD``.

Non-blank lines outside every hand are *strays*: the consecutive strays
between two hands form one run, and each run is reported as one rejected
"hand", so a file of junk is accounted for and never disappears.

A hand over the limits of ``parsers.limits`` (``MAX_HAND_LINES``,
``MAX_HAND_BYTES``), or with a line holding bytes that did not decode
(U+FFFD: a damaged file, or text in another encoding), keeps only its header
line and the line named in its reason (``refused``): its other lines are not read.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from parsers.limits import MAX_HAND_BYTES, MAX_HAND_LINES, hand_too_long
from parsers.lines import UNDECODED

HEAD, SHOWDOWN, SUMMARY, UNKNOWN = -1, 100, 101, -2

#: UTF-8 text read as Windows-1251: the two bytes of a Cyrillic (or ``·``, ``№``) character
#: read as a capital (lead bytes 0xC2-0xDF) and a sign (bytes 0x80-0xBF), twice in a row
#: (``Раздача`` reads as ``Р\xa0Р°Р·РґР°С‡Р°``), which Russian text does not hold.
_LEADS = bytes(range(0xC2, 0xE0)).decode("cp1251")
_SIGNS = bytes(range(0x80, 0xC0)).decode("cp1251", errors="replace")
MISREAD_UTF8 = f"(?:[{_LEADS}][{_SIGNS}]){{2}}"


@dataclass(frozen=True)
class SectionWords:
    """How a text format writes its section lines: ``<prefix><word><suffix>``.

    A street is ``<prefix><street> <s><suffix>``; the readers code these
    lines and the renderers write them.

    >>> en = SectionWords("*** ", " ***", "STREET", "FANTASYLAND", "SHOWDOWN", "SUMMARY")
    >>> en.line(en.showdown), en.street_format()
    ('*** SHOWDOWN ***', '*** STREET {} ***')
    >>> en.code(pl.Series(["*** STREET 3 ***", "*** SHOWDOWN ***", "*** LUNCH ***"])).to_list()
    [3, 100, -2]
    """

    prefix: str
    suffix: str
    street: str
    fantasyland: str
    showdown: str
    summary: str

    def line(self, word: str) -> str:
        """The section line of ``word``."""
        return f"{self.prefix}{word}{self.suffix}"

    def street_format(self) -> str:
        """A street's line with ``{}`` for its number (for ``pl.format``)."""
        return self.line(f"{self.street} {{}}")

    def code(self, lines: pl.Series) -> pl.Series:
        """Codes of section lines: a street's number, 0 (Fantasyland), ``SHOWDOWN``, ``SUMMARY``, else ``UNKNOWN``."""
        number = (
            pl.col("line")
            .str.strip_prefix(f"{self.prefix}{self.street} ")
            .str.strip_suffix(self.suffix)
        )
        street = (
            pl.DataFrame([lines.alias("line")])
            .select(
                pl.when(number.str.contains(r"^[1-9]\d?$")).then(
                    number.cast(pl.Int16, strict=False)
                )
            )
            .to_series()
        )
        named = lines.replace_strict(
            {
                self.line(self.fantasyland): 0,
                self.line(self.showdown): SHOWDOWN,
                self.line(self.summary): SUMMARY,
            },
            default=None,
            return_dtype=pl.Int16,
        )
        return named.fill_null(street).fill_null(UNKNOWN).alias("sec")


@dataclass(frozen=True)
class Segmented:
    """A chunk cut into hands.

    ``lines``: the hands' non-blank lines (``line``, ``n``, ``h``, ``sec``);
    ``hands``: one row per hand (``h``, ``n`` of its header, ``line``, ``last`` line);
    ``strays``: one row per run of lines outside hands (``n``, ``count``, ``line``, and
    ``garbled``: how many of them hold bytes that did not decode, ``misread``: how many
    look like UTF-8 text read as Windows-1251);
    ``refused``: hands over the limits or with bytes that did not decode (``h``, ``n``,
    ``reason``).
    """

    lines: pl.DataFrame
    hands: pl.DataFrame
    strays: pl.DataFrame
    refused: pl.DataFrame


def segment(
    lines: pl.DataFrame,
    header_prefix: str,
    sections: SectionWords,
) -> Segmented:
    """Number the hands and sections of a frame of ``line`` and ``n``.

    Section lines (those inside a hand starting with ``sections.prefix``)
    get their codes from ``sections.code``, which only sees those lines.
    """
    line = lines.get_column("line")
    header = line.str.starts_with(header_prefix)
    blank = line.str.contains(r"^\s*$")
    inside = (
        pl.select(
            pl.when(header).then(True).when(blank).then(False).forward_fill().fill_null(False)
        )
        .to_series()
        .alias("inside")
    )
    hand = header.cast(pl.Int64).cum_sum().alias("h")
    is_section = inside & line.str.starts_with(sections.prefix)
    where = is_section.arg_true()
    codes = pl.Series("sec", [None] * len(line), dtype=pl.Int16)
    if len(where):
        codes = codes.scatter(where, sections.code(line.gather(where)).cast(pl.Int16))
    codes = codes.scatter(header.arg_true(), HEAD).forward_fill()
    frame = pl.DataFrame(
        [
            line,
            lines.get_column("n"),
            hand,
            codes,
            inside,
            blank.alias("blank"),
            header.alias("header"),
        ]
    )
    in_hand = frame.filter(pl.col("inside") & ~pl.col("blank")).drop("inside", "blank", "header")
    refused = pl.concat([_oversized(in_hand), _undecoded(in_hand)]).unique("h", keep="first")
    if refused.height:
        over = pl.col("h").is_in(refused.get_column("h").implode())
        kept = pl.concat([frame.filter(pl.col("header")).get_column("n"), refused.get_column("n")])
        in_hand = in_hand.filter(~over | pl.col("n").is_in(kept.implode()))
    strays = (
        frame.filter(~pl.col("inside") & ~pl.col("blank"))
        .group_by("h", maintain_order=True)
        .agg(
            pl.col("n").first(),
            count=pl.len(),
            line=pl.col("line").first(),
            garbled=pl.col("line").str.contains(UNDECODED, literal=True).sum(),
            misread=pl.col("line").str.contains(MISREAD_UTF8).sum(),
        )
    )
    return Segmented(
        lines=in_hand,
        hands=frame.filter(pl.col("header"))
        .select("h", "n", "line")
        .join(_last_lines(in_hand), on="h", how="left"),
        strays=strays,
        refused=refused,
    )


def _oversized(in_hand: pl.DataFrame) -> pl.DataFrame:
    """The hands over ``MAX_HAND_LINES`` lines or ``MAX_HAND_BYTES`` bytes, with the reason."""
    sizes = in_hand.group_by("h", maintain_order=True).agg(
        pl.col("n").first(),
        lines=pl.len(),
        size=(pl.col("line").str.len_bytes() + 1).sum(),
    )
    over = (pl.col("lines") > MAX_HAND_LINES) | (pl.col("size") > MAX_HAND_BYTES)
    return sizes.filter(over).select(
        "h", "n", reason=hand_too_long(pl.col("lines"), pl.col("size"))
    )


def _undecoded(in_hand: pl.DataFrame) -> pl.DataFrame:
    """The hands with a line holding U+FFFD (``parsers.lines.UNDECODED``), at its first such
    line: bytes that did not decode are never read as part of a name or a figure."""
    return (
        in_hand.filter(pl.col("line").str.contains(UNDECODED, literal=True))
        .group_by("h", maintain_order=True)
        .agg(pl.col("n").first())
        .select(
            "h",
            "n",
            reason=pl.lit(
                f"bytes that are not text in the file's encoding (shown as {UNDECODED}): the "
                "file is damaged, or holds text in another encoding; the hand is not read"
            ),
        )
    )


def _last_lines(in_hand: pl.DataFrame) -> pl.DataFrame:
    """Each hand's last line: the lines are in order, so it is where ``h`` changes next."""
    last = pl.col("h") != pl.col("h").shift(-1).fill_null(-1)
    return in_hand.filter(last).select("h", last="n")
