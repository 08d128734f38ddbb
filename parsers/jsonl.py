"""``ofc-jsonl``: the hand model as JSON Lines, one hand per line (docs/formats/ofc-jsonl.md).

``write_jsonl`` / ``jsonl_bytes`` turn model tables into lines; ``read_jsonl``
turns a file back into the four model tables. A round trip is exact: every
column comes back as it was, except ``source_file`` and ``source_line``,
which say where a hand was read and are set by the reader.

Reading is column-wise: pyarrow parses whole blocks of lines against an
explicit schema, and the checks of ``parsers.jsonl_checks`` run as polars
expressions. Only when a block fails to parse is it split, down to the bad
lines, which are then diagnosed one by one against the shipped JSON Schema
(``ofc_jsonl.schema.json``). A bad line becomes a row of ``rejects`` (file,
line, reason, excerpt) and never an exception.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.json as pj

from ofc_core.errors import UserError
from parsers.jsonl_checks import first_problems
from parsers.limits import MAX_LINE_BYTES, LineLimited, line_too_long
from parsers.schema import HANDS, PLACEMENTS, PLAYER_HANDS, REJECTS

VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("ofc_jsonl.schema.json")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%.fZ"
EXCERPT = 200
BLOCK_BYTES = 32 << 20
_WHERE = ("source_file", "source_line")
_HAND_FIELDS = [f for f in HANDS if f.name not in _WHERE]
_PLAYER_FIELDS = [f for f in PLAYER_HANDS if f.name != "hand_id"]
_PLACEMENT_FIELDS = [f for f in PLACEMENTS if f.name != "hand_id"]

#: What pyarrow parses each line as: model types, the time as text.
LINE_SCHEMA = pa.schema(
    [pa.field("ofc_jsonl", pa.int64())]
    + [pa.field(f.name, pa.string()) if f.name == "played_at" else f for f in _HAND_FIELDS]
    + [
        pa.field("players", pa.list_(pa.struct(_PLAYER_FIELDS))),
        pa.field(
            "placements", pa.struct([pa.field(f.name, pa.list_(f.type)) for f in _PLACEMENT_FIELDS])
        ),
    ]
)


# ---------------------------------------------------------------- writing


def jsonl_bytes(hands: pa.Table, player_hands: pa.Table, placements: pa.Table) -> bytes:
    """The lines of the given model tables (hands in table order), UTF-8."""
    if hands.num_rows == 0:
        return b""
    frame = pl.from_arrow(hands.select([f.name for f in _HAND_FIELDS])).with_columns(
        pl.col("played_at").dt.convert_time_zone("UTC").dt.to_string(TIME_FORMAT)
    )
    players = (
        pl.from_arrow(player_hands)
        .group_by("hand_id", maintain_order=True)
        .agg(pl.struct([f.name for f in _PLAYER_FIELDS]).alias("players"))
    )
    names = [f.name for f in _PLACEMENT_FIELDS]
    moves = (
        pl.from_arrow(placements)
        .group_by("hand_id", maintain_order=True)
        .agg(names)
        .select("hand_id", pl.struct(names).alias("placements"))
    )
    empty = {f.name: [] for f in _PLACEMENT_FIELDS}
    lines = (
        frame.join(players, on="hand_id", how="left", maintain_order="left")
        .join(moves, on="hand_id", how="left", maintain_order="left")
        .with_columns(
            pl.col("players").fill_null(pl.lit([], players.schema["players"])),
            pl.col("placements").fill_null(pl.lit(empty, moves.schema["placements"])),
        )
        .select(pl.lit(VERSION).alias("ofc_jsonl"), pl.all())
    )
    buffer = io.BytesIO()
    lines.write_ndjson(buffer)
    return buffer.getvalue()


def write_jsonl(path: str | Path, batches: Iterable[dict[str, pa.Table]]) -> int:
    """Write batches of model tables (``hands``, ``player_hands``, ``placements``); hands written."""
    written = 0
    with open(path, "wb") as out:
        for batch in batches:
            out.write(jsonl_bytes(batch["hands"], batch["player_hands"], batch["placements"]))
            written += batch["hands"].num_rows
    return written


# ---------------------------------------------------------------- reading


def read_jsonl(path: str | Path) -> dict[str, pa.Table]:
    """The four model tables of an ``ofc-jsonl`` file; bad lines are in ``rejects``."""
    parts = list(iter_jsonl(path))
    return {
        name: pa.concat_tables([p[name] for p in parts]) if parts else schema.empty_table()
        for name, schema in (
            ("hands", HANDS),
            ("player_hands", PLAYER_HANDS),
            ("placements", PLACEMENTS),
            ("rejects", REJECTS),
        )
    }


def iter_jsonl(path: str | Path, block_bytes: int = BLOCK_BYTES) -> Iterator[dict[str, pa.Table]]:
    """The model tables of an ``ofc-jsonl`` file, a block of lines at a time.

    A line over ``parsers.limits.MAX_LINE_BYTES`` is read only up to the limit
    (``LineLimited``), so it costs no more memory than a short one, and rejected.
    """
    source = str(path)
    seen: dict[str, int] = {}
    path = Path(path)
    if not path.is_file():
        raise UserError(f"cannot read {source}: no such file; check the path")
    with path.open("rb") as raw, io.BufferedReader(LineLimited(raw), 1 << 20) as handle:
        for first_line, lines in _blocks(handle, block_bytes):
            yield read_block(source, first_line, lines, seen)


def _blocks(handle, block_bytes: int) -> Iterator[tuple[int, list[bytes]]]:
    """Lists of the file's lines (without line ends), with the number of each list's first."""
    carry, number, first = b"", 1, True
    while True:
        data = handle.read(block_bytes)
        if first and data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        first = False
        if not data:
            if carry:
                yield number, [carry]
            return
        data = carry + data
        cut = data.rfind(b"\n")
        if cut < 0:
            carry = data
            continue
        carry = data[cut + 1 :]
        lines = data[:cut].split(b"\n")
        yield number, lines
        number += len(lines)


def read_block(
    source: str, first_line: int, lines: list[bytes], seen: dict[str, int] | None = None
) -> dict[str, pa.Table]:
    """The model tables of a block of ``ofc-jsonl`` lines numbered from ``first_line``.

    ``seen`` maps hand ids already read (in earlier blocks of the same file) to their
    line, so a repeated id is rejected; a block read alone passes ``None``.
    """
    seen = {} if seen is None else seen
    numbers = np.arange(first_line, first_line + len(lines))
    keep = np.array([bool(line.strip()) for line in lines], dtype=bool)
    lines = [line for line, k in zip(lines, keep, strict=True) if k]
    numbers = numbers[keep]
    rejected = _not_utf8(lines) | _too_long(lines)
    readable = [i for i in range(len(lines)) if i not in rejected]
    parsed, failed = _parse([lines[i] for i in readable])
    rejected |= {readable[i]: reason for i, reason in failed.items()}
    table = pa.concat_tables(parsed) if parsed else LINE_SCHEMA.empty_table()
    good = np.ones(len(lines), dtype=bool)
    good[list(rejected)] = False
    return _tables(source, table, numbers[good], lines, numbers, rejected, seen)


def _too_long(lines: list[bytes]) -> dict[int, str]:
    """Lines over the line limit (``parsers.limits``), which are not parsed."""
    return {
        i: line_too_long(len(line)) for i, line in enumerate(lines) if len(line) > MAX_LINE_BYTES
    }


def _not_utf8(lines: list[bytes]) -> dict[int, str]:
    """Lines that are not UTF-8 (checked per line only when the block as a whole is not)."""
    try:
        b"\n".join(lines).decode("utf-8")
        return {}
    except UnicodeDecodeError:
        pass
    bad = {}
    for i, line in enumerate(lines):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as error:
            bad[i] = f"the line is not UTF-8 text (byte {error.start + 1}); save the file as UTF-8"
    return bad


def _parse(lines: list[bytes]) -> tuple[list[pa.Table], dict[int, str]]:
    """Parse lines in as few pyarrow calls as possible; diagnose the lines that fail.

    Returns the parsed tables in line order and, by line index, why a line failed.
    """
    parsed: list[tuple[int, pa.Table]] = []
    rejected: dict[int, str] = {}
    stack = [(0, len(lines))]
    while stack:
        lo, hi = stack.pop()
        if lo == hi:
            continue
        try:
            parsed.append((lo, _arrow(lines[lo:hi])))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as error:
            if hi - lo == 1:
                rejected[lo] = diagnose(lines[lo], str(error))
            else:
                mid = (lo + hi) // 2
                stack += [(mid, hi), (lo, mid)]
    parsed.sort(key=lambda t: t[0])
    return [t for _, t in parsed], rejected


def _arrow(lines: list[bytes]) -> pa.Table:
    data = b"\n".join(lines)
    longest = max(len(line) for line in lines)
    options = pj.ReadOptions(block_size=max(1 << 20, 2 * longest + 2))
    parse = pj.ParseOptions(explicit_schema=LINE_SCHEMA, unexpected_field_behavior="ignore")
    table = pj.read_json(io.BytesIO(data), read_options=options, parse_options=parse)
    return table.select(LINE_SCHEMA.names).cast(LINE_SCHEMA)


@cache
def _validator():
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def diagnose(line: bytes, arrow_message: str = "") -> str:
    """Why one line is not an ``ofc-jsonl`` hand, in words.

    >>> diagnose(b'{"hand_id": "en:1'), diagnose(b'{"hand_id": 1,')
    ('not valid JSON: Unterminated string starting at column 13', 'not valid JSON: Expecting property name enclosed in double quotes at column 15')
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"the line is not UTF-8 text (byte {error.start + 1}); save the file as UTF-8"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        at = "" if error.msg.endswith(" at") else " at"  # "Unterminated string starting at"
        return f"not valid JSON: {error.msg}{at} column {error.colno}"
    if not isinstance(value, dict):
        return f"expected a JSON object (one hand per line), found {type(value).__name__}"
    errors = sorted(_validator().iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        return f"{where.lstrip('.') or 'hand'}: {error.message}"
    return f"could not be read: {arrow_message.splitlines()[0] if arrow_message else 'unknown'}"


def _room_id(line: bytes) -> str | None:
    if len(line) > MAX_LINE_BYTES:
        return None
    try:
        value = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    room = value.get("room_hand_id") if isinstance(value, dict) else None
    return room if isinstance(room, str) else None


def _excerpt(line: bytes) -> str:
    return line[: 4 * EXCERPT].decode("utf-8", errors="replace")[:EXCERPT]


def _tables(source, table, good_numbers, lines, numbers, rejected, seen) -> dict[str, pa.Table]:
    """Model tables of the parsed lines plus rejects for the lines that failed."""
    problems = first_problems(table)
    frame = pl.from_arrow(table).with_columns(
        pl.Series("source_line", good_numbers, pl.Int64), pl.Series("_problem", problems)
    )
    frame = _mark_duplicates(frame, seen)
    bad = frame.filter(pl.col("_problem").is_not_null())
    index_of = {int(n): i for i, n in enumerate(numbers)}
    reject_rows = [
        (int(numbers[i]), _room_id(lines[i]), reason, _excerpt(lines[i]))
        for i, reason in rejected.items()
    ]
    reject_rows += [
        (n, room, reason, _excerpt(lines[index_of[n]]))
        for n, room, reason in bad.select("source_line", "room_hand_id", "_problem").iter_rows()
    ]
    reject_rows.sort(key=lambda r: r[0])
    good = frame.filter(pl.col("_problem").is_null()).with_columns(
        pl.lit(source).alias("source_file"),
        pl.col("played_at").str.to_datetime(TIME_FORMAT, time_unit="us", time_zone="UTC"),
    )
    return {
        "hands": good.select(HANDS.names).to_arrow().cast(HANDS),
        "player_hands": _player_hands(good),
        "placements": _placements(good),
        "rejects": pa.table(
            {
                "source_file": pa.array([source] * len(reject_rows), pa.string()),
                "source_line": pa.array([r[0] for r in reject_rows], pa.int64()),
                "room_hand_id": pa.array([r[1] for r in reject_rows], pa.string()),
                "reason": pa.array([r[2] for r in reject_rows], pa.string()),
                "excerpt": pa.array([r[3] for r in reject_rows], pa.string()),
            }
        ),
    }


def _mark_duplicates(frame: pl.DataFrame, seen: dict[str, int]) -> pl.DataFrame:
    """Reject a hand whose ``hand_id`` an earlier line of the file already holds."""
    reasons = frame["_problem"].to_list()
    for i, (hand_id, line) in enumerate(zip(frame["hand_id"], frame["source_line"], strict=True)):
        if reasons[i] is not None:
            continue
        if hand_id in seen:
            reasons[i] = f"hand_id {hand_id!r} already appears on line {seen[hand_id]}"
        else:
            seen[hand_id] = line
    return frame.with_columns(pl.Series("_problem", reasons, pl.String))


def _player_hands(good: pl.DataFrame) -> pa.Table:
    players = good.select("hand_id", "players").explode("players").unnest("players")
    return players.select(PLAYER_HANDS.names).to_arrow().cast(PLAYER_HANDS)


def _placements(good: pl.DataFrame) -> pa.Table:
    names = [f.name for f in _PLACEMENT_FIELDS]
    moves = good.select("hand_id", "placements").unnest("placements").explode(names)
    moves = moves.filter(pl.col("seat").is_not_null() | pl.col("row").is_not_null())
    return moves.select(PLACEMENTS.names).to_arrow().cast(PLACEMENTS)
