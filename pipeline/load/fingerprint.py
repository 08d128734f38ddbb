"""A hand's content fingerprint: what tells "the same hand again" from "a conflict".

Identity is the hand id (the room's hand number within its source format);
the fingerprint says whether two copies with one id are the same hand. It is
the md5 of every model column of the hand's ``hands`` and ``player_hands``
rows, except where the copy was read (``source_file``, ``source_line``) and
the ``ruleset`` it is scored with (``--ruleset`` may change), plus a
fingerprint of its ``placements`` as a multiset: the sum modulo 2**64 of a
fixed 64-bit mix (splitmix64) of each placement packed in an integer (seat,
street, card code, row, auto). Both are
stable across runs, processes and library versions.
"""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl
import pyarrow as pa

from pipeline.load.placement_enums import ROW_ENUM
from pipeline.load.runs import id_runs
from pipeline.rules.rows import CARD_ENUM

NOT_IN_FINGERPRINT = ("ruleset", "source_file", "source_line")
_UNIT = "\x1f"  # between the columns of a row
_RECORD = "\x1e"  # between rows
_NULL = "\x00"
_U64 = np.uint64


def _as_text(frame: pl.DataFrame, columns: list[str]) -> pl.Expr:
    parts = []
    for name in columns:
        column = pl.col(name)
        if isinstance(frame.schema[name], pl.List):
            column = column.list.join(" ")
        parts.append(column.cast(pl.String).fill_null(_NULL))
    return pl.concat_str(parts, separator=_UNIT)


def splitmix64(values: np.ndarray) -> np.ndarray:
    """A fixed 64-bit mixing function (wrapping arithmetic on uint64).

    >>> splitmix64(np.array([0, 1], dtype=np.uint64)).tolist()
    [16294208416658607535, 10451216379200822465]
    """
    with np.errstate(over="ignore"):
        z = values.astype(_U64) + _U64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
        return z ^ (z >> _U64(31))


def _placements_digest(placements: pl.DataFrame) -> pl.DataFrame:
    """hand_id -> 16 hex digits: the placements as a multiset.

    A hand's rows come in runs (its named cards, later its hidden discards): the mixes
    are summed per run, then the runs' sums per hand, so only the runs' ids are hashed.
    """
    if placements.height == 0:
        return pl.DataFrame(schema={"hand_id": pl.String, "placements_digest": pl.String})
    card = placements["card"].cast(CARD_ENUM, strict=False).to_physical().fill_null(63)
    row = placements["row"].cast(ROW_ENUM, strict=False).to_physical().fill_null(15)
    code = (
        placements["seat"].cast(pl.UInt64).fill_null(255).to_numpy() << _U64(24)
        | placements["street"].cast(pl.UInt64).fill_null(255).to_numpy() << _U64(16)
        | card.cast(pl.UInt64).to_numpy() << _U64(8)
        | row.cast(pl.UInt64).to_numpy() << _U64(1)
        | placements["auto"].fill_null(False).cast(pl.UInt64).to_numpy()
    )
    ids = placements["hand_id"]
    _, run_starts = id_runs(ids)
    run_ids = ids.gather(run_starts)
    hand = run_ids.cast(pl.Categorical).to_physical().to_numpy()
    order = np.argsort(hand, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(hand[order]) != 0])
    with np.errstate(over="ignore"):
        per_run = np.add.reduceat(splitmix64(code), run_starts)
        sums = np.add.reduceat(per_run[order], starts)
    return pl.DataFrame(
        {
            "hand_id": run_ids.gather(order[starts]),
            "placements_digest": [format(int(s), "016x") for s in sums],
        }
    )


def _player_texts(player_hands: pl.DataFrame) -> pl.DataFrame:
    """hand_id -> its player rows as text in seat order, each row followed by ``_RECORD``
    (``players``).

    Sorted by hand and seat, a hand's rows lie side by side in one string buffer, so a
    hand's text is a slice of it: only new offsets are made, no string is joined.
    """
    if player_hands.height == 0:
        return pl.DataFrame(schema={"hand_id": pl.String, "players": pl.String})
    rows = player_hands.select(
        "hand_id",
        "seat",
        text=pl.concat_str(_as_text(player_hands, list(player_hands.columns)), pl.lit(_RECORD)),
    ).sort("hand_id", "seat")
    _, starts = id_runs(rows["hand_id"])
    text = rows["text"].to_arrow()
    offsets = np.frombuffer(text.buffers()[1], np.int64)[text.offset : text.offset + len(text) + 1]
    hands = offsets[np.append(starts, len(text))]
    joined = pa.LargeStringArray.from_buffers(len(starts), pa.py_buffer(hands), text.buffers()[2])
    return pl.DataFrame(
        {"hand_id": rows["hand_id"].gather(starts), "players": pl.from_arrow(joined)}
    )


def fingerprints(
    hands: pl.DataFrame, player_hands: pl.DataFrame, placements: pl.DataFrame
) -> pl.Series:
    """The fingerprint of each row of ``hands``, in its order (md5 hex)."""
    hand_cols = [c for c in hands.columns if c not in NOT_IN_FINGERPRINT]
    texts = (
        hands.select("hand_id", text=_as_text(hands, hand_cols))
        .join(_player_texts(player_hands), on="hand_id", how="left", maintain_order="left")
        .join(_placements_digest(placements), on="hand_id", how="left", maintain_order="left")
        .select(
            pl.concat_str(
                pl.col("text"),
                pl.lit(_RECORD),
                pl.col("players").fill_null(_NULL + _RECORD),
                pl.col("placements_digest").fill_null(_NULL),
            )
        )
        .to_series()
    )
    digests = [hashlib.md5(text.encode()).hexdigest() for text in texts.to_list()]
    return pl.Series("fingerprint", digests, dtype=pl.String)
