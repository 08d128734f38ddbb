"""What a room text format is, described once: its words, patterns, encodings and reader.

Every room text format writes the same hand (header, table, match and seat
lines, then Fantasyland, street, showdown and summary sections) in its own
words. A ``TextFormat`` holds what differs: the header's first words, the
section words, the header's rule words and what they mean in the model, the
card spellings, the clock, the encodings its files come in, the hand number
read loosely (for rejects) and the column-wise reader (``extract``) built on
its line patterns, which use named groups (``(?P<stack>...)``, read by
``parsers.extract.match_groups``). One module per format
(``parsers.formats.en``, ``parsers.formats.ru``) defines its ``FORMAT``; the
parse run, format detection, the fast path and the simulator's writers
(``pipeline.simulator.render``, which invert the same words) all take them
from there.

>>> from parsers.formats.en import FORMAT
>>> FORMAT.words(FORMAT.variants)["pineapple-27"], FORMAT.sections.line(FORMAT.sections.summary)
('Pineapple 2-7', '*** SUMMARY ***')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import polars as pl

from parsers.extract import Extracted
from parsers.segment import SectionWords, Segmented, segment


@dataclass(frozen=True)
class TextFormat:
    """One room text format (see the module docstring).

    ``name`` is the format's name in the model (``source_format``, the
    ``<name>:`` prefix of ``hand_id``); ``encodings`` the encodings its files
    may be in, the first the one its writers use; ``variants``,
    ``fantasyland`` and ``royalties`` map the header's words to the model's
    values; ``spellings`` the card spellings that are not canonical (R1) to
    canonical ones; ``clock`` the header's date and time (``strptime``).
    """

    name: str
    encodings: tuple[str, ...]
    header_prefix: str
    sections: SectionWords
    id_pattern: str
    timeout: str
    clock: str
    variants: Mapping[str, str]
    fantasyland: Mapping[str, str]
    royalties: Mapping[str, str]
    spellings: Mapping[str, str]
    extract: Callable[[Segmented], Extracted]

    def segment_lines(self, lines: pl.DataFrame) -> Segmented:
        """Cut a chunk's ``line``/``n`` frame into hands and sections."""
        return segment(lines, self.header_prefix, self.sections)

    @staticmethod
    def words(meanings: Mapping[str, str]) -> dict[str, str]:
        """The word of each model value in one of the format's maps (for the writers)."""
        return {value: word for word, value in meanings.items()}
