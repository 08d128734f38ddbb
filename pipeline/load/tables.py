"""Schemas of the staged Parquet parts an import writes before loading DuckDB.

Each staging task writes one folder ``part-NNNNNN`` holding one file per
table below. Columns match the DuckDB tables of ``ddl.sql`` (docs/schema.md)
plus ``part``, the task's number, which orders copies of a hand (the first
read wins) and ties a hand's rows together. A hand's rows carry its
``hand_no`` within the part (0, 1, ... in the order read); the load adds the
part's offset to make it the database's ``hand_no``.
"""

from __future__ import annotations

import polars as pl

from parsers.schema import HANDS, PLACEMENTS, PLAYER_HANDS, REJECTS
from pipeline.load.placement_enums import PLACEMENT_ENUMS
from pipeline.load.recompute import (
    COPIED_CONTEXT,
    PAIRWISE_SCHEMA,
    RESULT_SCHEMA,
    SETTLEMENT_SCHEMA,
)
from pipeline.load.street_features import SCHEMA as STREET_FEATURES


def _model(schema) -> dict[str, pl.DataType]:
    return dict(pl.from_arrow(schema.empty_table()).schema)


PART = {"part": pl.Int32}
#: A hand's number within its part, on each of its rows.
HAND_NO = {"hand_no": pl.Int64}

HANDS_STAGED = _model(HANDS) | {"fingerprint": pl.String} | HAND_NO | PART
#: Street features of a player-hand, past its key (``hand_id``, ``seat``).
FEATURES = {k: v for k, v in STREET_FEATURES.items() if k not in ("hand_id", "seat")}
PLAYER_HANDS_STAGED = (
    _model(PLAYER_HANDS)
    | {name: _model(HANDS)[name] for name in COPIED_CONTEXT}
    | RESULT_SCHEMA
    | FEATURES
    | SETTLEMENT_SCHEMA
    | HAND_NO
    | PART
)
#: ``card`` and ``row`` stay enums (``placement_enums``): written from their codes.
PLACEMENTS_STAGED = _model(PLACEMENTS) | PLACEMENT_ENUMS | HAND_NO | PART
PAIRWISE_STAGED = PAIRWISE_SCHEMA | HAND_NO | PART
REJECTS_STAGED = _model(REJECTS) | PART
STAGED: dict[str, dict[str, pl.DataType]] = {
    "hands": HANDS_STAGED,
    "player_hands": PLAYER_HANDS_STAGED,
    "placements": PLACEMENTS_STAGED,
    "pairwise": PAIRWISE_STAGED,
    "rejects": REJECTS_STAGED,
}


def conform(frame: pl.DataFrame, schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """``frame`` with exactly ``schema``'s columns, in order and typed (missing: NULL)."""
    if frame.width == 0:
        return pl.DataFrame(schema=schema)
    return frame.select(
        pl.col(name).cast(dtype) if name in frame.columns else pl.lit(None, dtype).alias(name)
        for name, dtype in schema.items()
    )
