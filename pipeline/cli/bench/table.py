"""Benchmark figures as a plain-text table for the terminal, and as Markdown rows."""

from __future__ import annotations

from pipeline.cli.bench.measurement import Measurement

HEADER = ("benchmark", "figure", "value", "unit", "target", "verdict", "note")


def rows(measurements: list[Measurement]) -> list[tuple[str, ...]]:
    """One row per figure, in the order of ``HEADER``."""
    return [
        (m.name, key, f.value_text, f.unit, f.target_text, f.verdict, f.note)
        for m in measurements
        for key, f in m.figures.items()
    ]


def text_table(measurements: list[Measurement]) -> str:
    """Columns aligned with spaces; the last (note) column is left ragged."""
    body = [HEADER, *rows(measurements)]
    widths = [max(len(row[i]) for row in body) for i in range(len(HEADER))]
    widths[-1] = 0
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in body
    )


def markdown_table(measurement: Measurement) -> str:
    """The figures of one benchmark as a Markdown table."""
    header = HEADER[1:]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows([measurement]):
        cells = [cell.replace("|", "\\|") for cell in row[1:]]
        cells[1] = f"**{cells[1]}**"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
