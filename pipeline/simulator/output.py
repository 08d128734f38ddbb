"""Simulated hands as file contents: ``ofc-jsonl`` or the room text formats ``en`` / ``ru``.

Rendering happens in the worker that played the chunk, so a long run
serialises in parallel too. The text formats are written from the hero's
point of view by ``pipeline.simulator.render.en`` / ``pipeline.simulator.render.ru``; hands are
separated by a blank line.
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc_core.errors import UserError
from parsers.jsonl import jsonl_bytes
from pipeline.simulator.chunk import ChunkSpec, run_chunk
from pipeline.simulator.render import en, ru

#: The room text formats and the function that writes each.
RENDERERS = {"en": en.render_hands, "ru": ru.render_hands}
FORMATS = ("jsonl", *RENDERERS)


def renderer(fmt: str):
    """The ``render_hands`` function of a text format."""
    try:
        return RENDERERS[fmt]
    except KeyError:
        raise UserError(f"unknown format {fmt!r}: choose from {', '.join(FORMATS)}") from None


@dataclass(frozen=True)
class Rendered:
    """A chunk's file contents and how many hands it holds."""

    data: bytes
    hands: int


def render_chunk(spec: ChunkSpec) -> Rendered:
    """Play a chunk and return it in ``spec.source_format``."""
    batch = run_chunk(spec)
    if spec.source_format == "jsonl":
        data = jsonl_bytes(batch.hands, batch.player_hands, batch.placements)
    else:
        hero = spec.roster[spec.hero].name
        render = renderer(spec.source_format)
        texts = render(batch.hands, batch.player_hands, batch.placements, hero)
        data = "".join(text.rstrip("\n") + "\n\n" for text in texts).encode("utf-8")
    return Rendered(data, batch.hands.num_rows)
