"""What ``ofc import`` and ``ofc parse`` say when the paths they are given hold no hand history."""

from __future__ import annotations

from collections.abc import Sequence


def nothing_read(paths: Sequence[str], skipped: Sequence[str], outcome: str) -> str:
    """Why a run made nothing (``outcome``: what became of its output): no hand history in
    ``paths``, naming how many files were skipped and one of them.

    >>> print(nothing_read(["notes/"], ["notes/a.csv"], "h.duckdb not made"))
    no hand history in notes/: 1 file(s), such as notes/a.csv, hold none in a format ofc reads (docs/parsers.md); h.duckdb not made
    >>> print(nothing_read(["a/", "b/"], [], "h.duckdb not made"))
    no hand history in a/ b/; h.duckdb not made
    """
    where = " ".join(paths)
    if not skipped:
        return f"no hand history in {where}; {outcome}"
    return (
        f"no hand history in {where}: {len(skipped)} file(s), such as {skipped[0]}, hold none"
        f" in a format ofc reads (docs/parsers.md); {outcome}"
    )
