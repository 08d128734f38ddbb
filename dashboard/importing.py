"""The Import page's work, without Streamlit: uploads saved safely, the import run in the background.

Folders on the server are imported only from inside the folders ``ofc
dashboard --import-dir`` names (none by default: uploads only); links and
``..`` are resolved first, and the import itself refuses a file that leads
out of them (``pipeline.load.confine``).

Uploads are written only inside a fresh temporary folder, under names made
safe (no folders, no dots in front, only letters, digits, ``.``, ``-``,
``_``), and refused above a size cap. The import is the one ``ofc import``
runs (``pipeline.load.importer.run_import``): it swaps the database file in
atomically, so other sessions keep reading the old snapshot until they
reconnect (docs/schema.md).

>>> safe_name("../../etc/passwd"), safe_name("Hands 2024 (1).txt"), safe_name("...")
('passwd', 'Hands_2024__1_.txt', 'upload')
"""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path, PurePath

from dashboard.settings import MAX_UPLOAD_MB
from ofc_core.errors import UserError
from pipeline.load.confine import check_inside
from pipeline.load.importer import ImportOptions, ImportSummary, run_import, summary_lines
from pipeline.load.progress import Progress

MAX_UPLOAD_BYTES = MAX_UPLOAD_MB << 20
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_name(name: str) -> str:
    """A file name that stays inside its folder: the last path part, unsafe characters replaced."""
    base = PurePath(name.replace("\\", "/")).name
    cleaned = _UNSAFE.sub("_", base).lstrip(".")
    return cleaned or "upload"


@dataclass(frozen=True)
class Upload:
    """A file the browser sent: its name (untrusted) and bytes."""

    name: str
    data: bytes


def save_uploads(uploads: list[Upload], limit: int = MAX_UPLOAD_BYTES) -> Path:
    """Write the uploads into a new temporary folder and return it (the caller removes it)."""
    total = sum(len(u.data) for u in uploads)
    if total > limit:
        raise UserError(
            f"the uploads hold {total / 2**20:.1f} MB, more than the {limit / 2**20:.0f} MB"
            " limit: import them from a folder on this machine instead"
        )
    folder = Path(tempfile.mkdtemp(prefix="ofc-upload-")).resolve()
    for number, upload in enumerate(uploads, start=1):
        target = (folder / f"{number:03d}-{safe_name(upload.name)}").resolve()
        if target.parent != folder:  # cannot happen with safe names; never write outside
            raise UserError(f"refused upload name {upload.name!r}")
        target.write_bytes(upload.data)
    return folder


def checked_folder(text: str, import_dirs: tuple[Path, ...]) -> Path:
    """A file or folder the user named on this machine, inside one of ``import_dirs``
    (``ofc dashboard --import-dir``; none: uploads only), or a UserError saying what is wrong."""
    if not import_dirs:
        raise UserError(
            "this dashboard imports uploads only: to import from folders on the server,"
            " start it with `ofc dashboard --import-dir FOLDER`"
        )
    if not text.strip():
        raise UserError("name a folder or file to import")
    path = Path(text.strip()).expanduser()
    path = check_inside(path, import_dirs, text.strip())
    if not path.exists():
        raise UserError(f"{text.strip()} does not exist on this machine: check the path")
    return path


class RecordingProgress(Progress):
    """The import's progress, recorded for the page to show instead of printed."""

    def __init__(self) -> None:
        super().__init__(stream=io.StringIO(), interactive=False, quiet=True)
        self.now = "reading files"

    def phase(self, text: str) -> None:
        self.now = text

    @property
    def share(self) -> float:
        return min(self.bytes_done / self.total_bytes, 1.0) if self.total_bytes else 0.0


class ImportJob:
    """``run_import`` in a background thread; the page polls ``done`` and ``progress``."""

    def __init__(
        self,
        db: Path,
        paths: list[Path],
        cleanup: Path | None = None,
        confine_to: tuple[Path, ...] | None = None,
    ) -> None:
        self.options = ImportOptions(
            paths=tuple(str(p) for p in paths),
            db=db,
            workers=os.cpu_count() or 1,
            confine_to=confine_to,
            finished=cleanup is not None,  # uploads are whole files
        )
        self.progress = RecordingProgress()
        self.summary: ImportSummary | None = None
        self.error: str | None = None
        self._cleanup = cleanup
        self._thread = threading.Thread(target=self._run, name="ofc-import", daemon=True)

    def start(self) -> ImportJob:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self.summary = run_import(self.options, self.progress)
        except UserError as error:
            self.error = str(error)
        except Exception as error:  # shown on the page: an import must never fail silently
            self.error = f"the import failed: {type(error).__name__}: {error}"
        finally:
            if self._cleanup is not None:
                shutil.rmtree(self._cleanup, ignore_errors=True)

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds``; whether the import has finished."""
        self._thread.join(seconds)
        return not self._thread.is_alive()

    @property
    def lines(self) -> list[str]:
        return summary_lines(self.summary) if self.summary else []
