"""``ofc simulate``: write simulated hand histories (ofc-jsonl, en or ru) for tests and demos."""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import BinaryIO

from ofc_core.errors import UserError
from ofc_core.rulesets import PRESET_NAMES
from pipeline.cli.options import add_seed, int_range, read_negative_numbers
from pipeline.simulator.output import FORMATS, render_chunk
from pipeline.simulator.run import default_workers, in_order, plan_chunks
from pipeline.simulator.styles import STYLE_NAMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    read_negative_numbers(parser)
    parser.add_argument(
        "--ruleset",
        required=True,
        help=f"a preset ({', '.join(PRESET_NAMES)}) or one in --rules-file",
    )
    parser.add_argument("--rules-file", help="a TOML file defining more rulesets")
    parser.add_argument("--players", type=int, default=3, help="players per table (default 3)")
    parser.add_argument("--hands", type=int, required=True, help="how many hands to write")
    add_seed(parser, "the same seed gives the same file (default 0)")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="jsonl",
        dest="fmt",
        help="ofc-jsonl (default), or the room text format en or ru",
    )
    parser.add_argument(
        "--out", required=True, help="file to write (gzip-compressed when it ends in .gz)"
    )
    parser.add_argument(
        "--bots",
        help="comma-separated roster: a style or NAME=STYLE per "
        f"player; styles: {', '.join(STYLE_NAMES)}",
    )
    parser.add_argument(
        "--hero",
        help="the player whose history the text formats show (default: the first of the roster)",
    )
    parser.add_argument(
        "--misreport-rate",
        type=float,  # 0 to 1, nan too, checked by pipeline.simulator.run
        default=0.0,
        help="share of hands whose reported points are wrong (to test the audit)",
    )
    parser.add_argument(
        "--workers",
        type=int_range(1),
        default=default_workers(),
        help="processes to use (default: one per core)",
    )


def _compressed(raw: BinaryIO, out: Path) -> AbstractContextManager[BinaryIO]:
    """Gzip for a ``.gz`` name (no time stamp, so a seed gives the same bytes), else as is."""
    if out.suffix.lower() == ".gz":
        return gzip.GzipFile(fileobj=raw, mode="wb", mtime=0)
    return nullcontext(raw)


def run(args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise UserError(f"--seed must be 0 or more, not {args.seed}")
    if args.fmt != "jsonl" and args.ruleset not in PRESET_NAMES:
        raise UserError(
            f"--format {args.fmt}: a room's text names its rules by header words, which only "
            f"the presets have (docs/rules.md R10), and {args.ruleset!r} is not a preset; "
            "write it with --format jsonl, which names any ruleset, and import that file "
            "with --rules-file"
        )
    chunks = plan_chunks(
        args.ruleset,
        args.players,
        args.hands,
        args.seed,
        args.bots,
        args.hero,
        args.misreport_rate,
        args.fmt,
        args.rules_file,
    )
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        raise UserError(f"--out: folder {out.parent} does not exist; create it first")
    started = time.perf_counter()
    written = 0
    try:
        with open(out, "wb") as raw, _compressed(raw, out) as handle:
            for rendered in in_order(render_chunk, chunks, max(1, args.workers)):
                handle.write(rendered.data)
                written += rendered.hands
    except OSError as error:
        raise UserError(f"cannot write {out}: {error.strerror}") from None
    seconds = time.perf_counter() - started
    print(
        f"ofc simulate: wrote {written} hands ({args.ruleset}, {args.players} players, "
        f"{args.fmt}) to {out} in {seconds:.1f} s",
        file=sys.stderr,
    )
    return 0
