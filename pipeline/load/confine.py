"""Keeping an import inside the folders it may read (the dashboard's ``--import-dir``).

A path is inside a folder when its real location is: ``..`` and symbolic
links are resolved first, so neither leads out.

>>> from pathlib import Path
>>> inside(Path("/srv/hands/a/../b.txt"), (Path("/srv/hands"),)), inside(Path("/etc"), ())
(True, False)
"""

from __future__ import annotations

from pathlib import Path

from ofc_core.errors import UserError


def inside(path: Path, roots: tuple[Path, ...]) -> bool:
    """Whether ``path``'s real location is one of ``roots`` or below one (their real locations)."""
    real = path.resolve()
    return any(real == root.resolve() or root.resolve() in real.parents for root in roots)


def check_inside(path: Path, roots: tuple[Path, ...], shown: str | None = None) -> Path:
    """``path`` resolved, or a UserError if it leads outside ``roots``.

    The message names the path as the user gave it (``shown``), never where a
    link points.
    """
    if not inside(path, roots):
        raise UserError(
            f"{shown or path} leads outside the folders this dashboard may import from"
            f" ({', '.join(map(str, roots))}): move the files there, or upload them"
        )
    return path.resolve()
