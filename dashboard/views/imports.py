"""Import: upload hand histories or name a folder, run the import with visible progress, see the summary.

The only page that writes: through the same import ``ofc import`` runs.
"""

from __future__ import annotations

from pathlib import PurePath

import polars as pl
import streamlit as st

from dashboard import columns, ui
from dashboard.cache import cached
from dashboard.context import Context
from dashboard.format import count
from dashboard.importing import MAX_UPLOAD_BYTES, ImportJob, Upload, checked_folder, save_uploads
from dashboard.queries import imports
from ofc_core.errors import UserError

recent_imports = cached(imports.recent_imports)
rejects = cached(imports.rejects)
totals = cached(imports.totals)

POLL_SECONDS = 0.25
HISTORY = {
    "import_id": st.column_config.NumberColumn("#", width="small"),
    "finished_at": columns.minute("Finished (UTC)"),
    "paths": st.column_config.TextColumn("Paths", width="large"),
    "files_read": "Files",
    "hands_read": "Read",
    "hands_added": "Stored",
    "hands_duplicate": "Duplicates",
    "hands_conflict": "Conflicts",
    "rejects_added": "Rejected",
    "mismatches_added": "Mismatches",
    "seconds": st.column_config.NumberColumn("Seconds", format="%.1f"),
}
TYPES = ["txt", "log", "jsonl", "json", "zip", "gz"]
REJECTS = {
    "source_file": "File",
    "source_line": "Line",
    "room_hand_id": "Room's hand id",
    "reason": st.column_config.TextColumn("Why it was not stored", width="large"),
    "excerpt": "Beginning of the hand",
}


def _job(context: Context, files: list, folder: str) -> ImportJob:
    if files:
        uploads = [Upload(f.name, f.getvalue()) for f in files]
        saved = save_uploads(uploads)
        return ImportJob(context.path, [saved], cleanup=saved, confine_to=(saved,))
    dirs = context.import_dirs
    return ImportJob(context.path, [checked_folder(folder, dirs)], confine_to=dirs)


def _run(job: ImportJob) -> None:
    bar = st.progress(0.0, text="Starting the import…")
    job.start()
    while not job.wait(POLL_SECONDS):
        p = job.progress
        bar.progress(
            p.share, text=f"{p.now}: {count(p.hands)} hands read, {count(p.rejects)} rejects"
        )
    bar.progress(1.0, text="Import finished" if job.error is None else "Import failed")


def _summary(context: Context, job: ImportJob) -> None:
    if job.error:
        st.error(job.error)
        return
    counts = job.summary.counts
    if counts is None:
        _nothing_stored(job.summary.skipped)
        return
    if counts.hands_added == 0 and counts.hands_duplicate + counts.hands_conflict > 0:
        st.info(
            f"Import #{counts.import_id} finished in {job.summary.seconds:.1f} s: every hand"
            f" read was stored before ({count(counts.hands_duplicate)} already stored,"
            f" {count(counts.hands_conflict)} conflicts, {count(counts.rejects_added)}"
            " rejected). Nothing new was added."
        )
    elif counts.hands_added == 0:
        st.warning(
            f"Import #{counts.import_id} finished in {job.summary.seconds:.1f} s but stored no"
            f" hand: {count(counts.hands_read)} hands read, {count(counts.rejects_added)} rejected."
            " Check that the files are hand histories of a supported room (see the rejects"
            " below).",
            icon=":material/warning:",
        )
    else:
        st.success(f"Import #{counts.import_id} finished in {job.summary.seconds:.1f} s.")
    cells = st.columns(6)
    for cell, (label, value) in zip(
        cells,
        (
            ("Hands read", counts.hands_read),
            ("Stored", counts.hands_added),
            ("Duplicates", counts.hands_duplicate),
            ("Conflicts", counts.hands_conflict),
            ("Rejected", counts.rejects_added),
            ("Room mismatches", counts.mismatches_added),
        ),
        strict=True,
    ):
        cell.metric(label, count(value), border=True)
    st.code("\n".join(job.lines), language=None)
    found = rejects(context.db, counts.import_id)
    if not found.is_empty():
        st.markdown("**Hands that could not be stored, and why**")
        names = [_file_name(f) for f in found["source_file"].to_list()]
        shown = found.with_columns(source_file=pl.Series(names, dtype=pl.String))
        ui.dataframe(shown, hide_index=True, width="stretch", column_config=REJECTS)


def _nothing_stored(skipped: tuple) -> None:
    """No hand was read: say why, a warning when files were not hand histories at all."""
    if not skipped:
        st.info("Nothing new: every file was imported before. The database is unchanged.")
        return
    names = ", ".join(_file_name(str(path)) for path in skipped)
    st.warning(
        f"The import stored no hand: {names} skipped, not a hand history. Check that the"
        " files are hand histories of a supported room. The database is unchanged.",
        icon=":material/warning:",
    )


def _file_name(path: str | None) -> str:
    """A reject's file as the user knows it: its name, without the upload's folder and number.

    >>> _file_name("/tmp/ofc-upload-x1/002-my hands.txt"), _file_name("/home/a/b.txt")
    ('my hands.txt', 'b.txt')
    """
    if not path:
        return "—"
    name = PurePath(path).name
    return name.split("-", 1)[1] if "ofc-upload-" in path and "-" in name else name


def _history(context: Context) -> None:
    st.subheader("Earlier imports", anchor=False)
    held = totals(context.db)
    st.caption(
        f"The database holds {count(held['hands'])} hands ({count(held['player_hands'])}"
        f" player-hands) and {count(held['rejects'])} rejected hands."
    )
    ui.dataframe(
        recent_imports(context.db), hide_index=True, width="stretch", column_config=HISTORY
    )


def _folder_input(import_dirs: tuple) -> str:
    """The folder box, offered only when ``ofc dashboard --import-dir`` allowed folders."""
    if not import_dirs:
        st.caption(
            "Importing from folders on the server is off: `ofc dashboard --import-dir FOLDER`"
            " allows a folder."
        )
        return ""
    return st.text_input(
        "…or a folder or file on the server, inside " + ", ".join(f"`{d}`" for d in import_dirs),
        placeholder=str(import_dirs[0]),
    )


def render(context: Context) -> None:
    ui.title("Import", None)
    st.caption(
        "Hands go through the same import as `ofc import`: duplicates are skipped, bad hands are"
        " kept as rejects, and the database is swapped in only when the import is complete."
    )
    with st.form("import", clear_on_submit=True, border=True):
        files = st.file_uploader(
            f"Upload hand histories (up to {MAX_UPLOAD_BYTES >> 20} MB per file and in all)",
            type=TYPES,
            accept_multiple_files=True,
            max_upload_size=MAX_UPLOAD_BYTES >> 20,
        )
        folder = _folder_input(context.import_dirs)
        submitted = st.form_submit_button("Import", type="primary")
    if submitted:
        try:
            job = _job(context, files or [], folder)
        except UserError as error:
            st.error(str(error))
        else:
            _run(job)
            _summary(context, job)
    _history(context)
