"""``ofc parse``: read room hand histories (en, ru, ofc-jsonl) into the hand model dataset."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ofc_core.errors import UserError
from ofc_core.rulesets import PRESET_NAMES
from parsers.run import FORMAT_CHOICES, NOT_HANDS, FileSummary, Summary, parse_files
from pipeline.cli.no_histories import nothing_read
from pipeline.cli.options import int_range


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="files, folders (searched recursively), globs, .zip or .gz archives",
    )
    parser.add_argument(
        "--out",
        required=True,
        help="dataset folder to write (hands/, player_hands/, placements/, rejects/)",
    )
    parser.add_argument(
        "--format",
        choices=FORMAT_CHOICES,
        default="auto",
        dest="fmt",
        help="input format (default: detected per file)",
    )
    parser.add_argument(
        "--workers",
        type=int_range(1),
        default=1,
        help="processes to spread the files over (default 1)",
    )
    parser.add_argument(
        "--ruleset",
        help=f"score every hand with this ruleset instead of the one its header names ({', '.join(PRESET_NAMES)})",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace a dataset already in --out"
    )


def run(args: argparse.Namespace) -> int:
    from pipeline.cli.warmup import ensure_compiled

    ensure_compiled()
    made = not Path(args.out).exists()
    summary = parse_files(
        args.paths,
        args.out,
        fmt=args.fmt,
        workers=max(1, args.workers),
        ruleset=args.ruleset,
        overwrite=args.overwrite,
    )
    skipped = [f.name for f in summary.files if f.note == NOT_HANDS]
    if summary.files and len(skipped) == len(summary.files):
        if made:
            shutil.rmtree(args.out, ignore_errors=True)
        outcome = f"{args.out} not made" if made else f"nothing added to {args.out}"
        raise UserError(nothing_read(list(map(str, args.paths)), skipped, outcome))
    print(report(summary))
    return 0


def report(summary: Summary) -> str:
    """The per-file and overall summary ``ofc parse`` prints."""
    lines = [_line(f) for f in summary.files]
    skipped = sum(f.note == NOT_HANDS for f in summary.files)
    files = f"{len(summary.files)} file(s)" + (f" ({skipped} skipped)" if skipped else "")
    lines.append(
        f"total: {files}, {summary.read} hands read, {summary.stored} stored,"
        f" {summary.rejected} rejected in {summary.seconds:.2f} s"
        f" ({summary.hands_per_second:,.0f} hands/s) -> {summary.out_dir}"
    )
    if summary.fast_path_fallbacks:
        lines.append(
            f"fast path errors: {summary.fast_path_fallbacks} chunk(s) read by the thorough"
            " reader instead (every hand is counted, more slowly); see the file notes above"
        )
    if summary.rejected:
        lines.append(f"reasons for rejects: {summary.out_dir}/rejects/")
    return "\n".join(lines)


def _line(f: FileSummary) -> str:
    rate = f.read / f.seconds if f.seconds > 0 else 0.0
    note = f"  ({f.note})" if f.note else ""
    return (
        f"{f.name} [{f.format or '?'}]: {f.read} read, {f.stored} stored, {f.rejected} rejected,"
        f" {f.seconds:.2f} s, {rate:,.0f} hands/s{note}"
    )
