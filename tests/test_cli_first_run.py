"""What a new user meets on a first run: the list of commands, the version, usage for a mistyped option, a quiet end when the
reader of the output goes away, no lock files left behind, files that are not hand histories
skipped, reject reasons on screen, and the demo saying where its database is."""

from __future__ import annotations

import gzip
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pipeline.cli.main import COMMANDS, main
from tests.import_support import ROOT, ofc_import, query, scalar, simulate

HAND = (
    '{"players": [{"name": "A", "top": "Ah Ad 4c", "middle": "Kd Kh Qh 6s 6d", '
    '"bottom": "7c 7s 7d 2h 9d"}, {"name": "B", "top": "Qs Qd 3h", '
    '"middle": "5d 5c 8c 8d Ts", "bottom": "9s 9h Jh Kc 4s"}]}\n'
)


def ofc(*args: str, **run) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, **run
    )


def test_help_lists_every_command_with_its_summary():
    """``ofc --help`` and each command's ``--help`` print, even a summary with a ``%``."""
    done = ofc("--help")
    assert done.returncode == 0, done.stderr
    assert "95% intervals" in done.stdout  # ofc audit's summary
    commands = re.findall(r"^    (\w+)", done.stdout, flags=re.MULTILINE)
    assert {"parse", "import", "audit", "bench", "dashboard"} <= set(commands)
    for command in commands:
        assert ofc(command, "--help").returncode == 0, command


def test_version_names_the_installed_package():
    done = ofc("--version")
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"ofc \d+\.\d+\.\d+\n", done.stdout)


def _heavy_modules_after(statement: str) -> str:
    """The command modules, decision kernels, simulator and numba loaded once a new
    interpreter has run ``statement`` (what it prints comes first)."""
    probe = (
        f"import sys; {statement}; print(sorted(m for m in sys.modules if m.startswith(("
        "'pipeline.decisions', 'pipeline.simulator', 'pipeline.cli.commands.', 'numba'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip()


def test_a_command_loads_only_its_own_module():
    """``ofc import`` does not pay for the decision kernels and the simulator at start;
    a mistyped command still lists every command."""
    loaded = _heavy_modules_after(
        "from pipeline.cli.main import _parse; _parse(['audit', '--db', 'x', '--player', 'A'])"
    )
    assert loaded == "['pipeline.cli.commands.audit']"
    typo = ofc("imprt")
    assert typo.returncode == 2 and "'import'" in typo.stderr and "'decide'" in typo.stderr


def test_the_list_of_commands_loads_no_command():
    """``ofc --help`` lists every command with its help, from names alone (0.2 s, not the
    1.3-1.6 s of loading every command's module)."""
    loaded = _heavy_modules_after(
        "from pipeline.cli.main import build_parser; build_parser(['--help']).print_help()"
    )
    assert loaded.endswith("\n[]")
    listed = ofc("--help")
    assert listed.returncode == 0
    for command in COMMANDS:
        assert re.search(rf"^    {command}\b", listed.stdout, re.MULTILINE), command
    assert "Set Fantasyland hands exactly" in listed.stdout


def test_a_mistyped_option_prints_the_commands_usage_and_a_close_match(tmp_path):
    done = ofc("import", "--rulset", "x", "--db", str(tmp_path / "x.duckdb"))
    assert done.returncode == 2
    assert done.stderr.startswith("usage: ofc import ")
    assert "unrecognized arguments: --rulset" in done.stderr
    assert "did you mean --ruleset?" in done.stderr
    assert not (tmp_path / "x.duckdb").exists()


def test_a_reader_that_stops_early_ends_the_command_quietly():
    score = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "score", "--ruleset", "classic-1-6-american"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = subprocess.Popen(["head", "-1"], stdin=score.stdout, stdout=subprocess.PIPE)
    score.stdout.close()  # head alone reads it now
    score.stdin.write((HAND * 20000).encode())
    score.stdin.close()
    assert first.communicate()[0].startswith(b'{"players"')
    err = score.stderr.read().decode()
    assert score.wait() == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_no_lock_file_is_left_after_a_failed_or_a_good_import(tmp_path):
    db = tmp_path / "hands.duckdb"
    assert ofc_import(tmp_path / "nothing-here", "--db", db) == 2
    history = simulate(tmp_path / "h.txt", 20, seed=3)
    assert ofc_import(history, "--db", db) == 0
    assert sorted(p.name for p in tmp_path.glob("hands.duckdb*")) == ["hands.duckdb"]


def test_a_file_with_no_hand_history_is_skipped_not_rejected(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "README.md").write_text("# My hands\n\nExported from the room.\n")
    simulate(folder / "h.txt", 30, seed=4)
    db = tmp_path / "hands.duckdb"
    assert main(["import", str(folder), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert scalar(db, "SELECT count(*) FROM rejects") == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 30
    assert "skipped: not a hand history" in out and "README.md" in out
    assert re.search(r"hands read\s+30\b", out)


@pytest.mark.parametrize("fmt", ["en", "ru"])
def test_hands_after_a_long_preamble_are_read_not_skipped(tmp_path, capsys, fmt):
    """A client's log of 1,000 lines (38 KB) before the first hand: the file holds a hand
    history, its hands are stored and the preamble is rejected."""
    history = simulate(tmp_path / "h.txt", 20, seed=6, fmt=fmt)
    preamble = "".join(f"log line {i}: exported by client v1.2\n" for i in range(1000))
    path = tmp_path / "in" / "export.txt"
    path.parent.mkdir()
    path.write_bytes(preamble.encode() + history.read_bytes())
    db = tmp_path / "hands.duckdb"
    assert main(["import", str(path), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    assert "skipped" not in capsys.readouterr().out
    assert scalar(db, "SELECT count(*) FROM hands") == 20
    assert scalar(db, "SELECT count(*) FROM rejects WHERE room_hand_id IS NULL") == 1


@pytest.mark.parametrize("fmt", ["en", "ru"])
def test_parse_and_import_look_as_far_for_the_first_hand(tmp_path, capsys, fmt):
    """A log of 200 KB with no hand is skipped by both commands; the same log before 20
    hands is a history in the format of its hands for both (parse once looked at 64 KB only:
    it rejected the first file's lines and read the second as ``en``)."""
    log = "".join(f"log line {i}: exported by client v1.2 and more\n" for i in range(4000))
    assert 150_000 < len(log) < 1 << 20
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "client.log").write_text(log)
    history = simulate(tmp_path / "h.txt", 20, seed=6, fmt=fmt)
    (folder / "export.txt").write_bytes(log.encode() + history.read_bytes())
    assert main(["parse", str(folder), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "client.log [?]: 0 read" in out and "(skipped: not a hand history)" in out
    assert f"export.txt [{fmt}]: 21 read, 20 stored, 1 rejected" in out
    db = tmp_path / "hands.duckdb"
    assert main(["import", str(folder), "--db", str(db), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "skipped: not a hand history" in out and "client.log" in out
    assert scalar(db, "SELECT count(*) FROM hands") == 20
    assert scalar(db, "SELECT count(*) FROM rejects") == 1


def test_a_member_of_an_archive_with_no_hand_history_is_skipped_too(tmp_path, capsys):
    history = simulate(tmp_path / "h.txt", 12, seed=5)
    archive = tmp_path / "in" / "export.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("README.md", "# My hands\n\nExported from the room.\n")
        zipped.write(history, "h.txt")
    assert main(["parse", str(archive.parent), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "export.zip!/README.md [?]: 0 read" in out and "(skipped: not a hand history)" in out
    assert "total: 2 file(s) (1 skipped), 12 hands read, 12 stored, 0 rejected" in out
    db = tmp_path / "hands.duckdb"
    assert ofc_import(archive.parent, "--db", db) == 0
    assert scalar(db, "SELECT count(*) FROM rejects") == 0
    assert scalar(db, "SELECT count(*) FROM hands") == 12


def test_an_archive_inside_an_archive_is_a_reject_not_skipped(tmp_path, capsys):
    """A zip inside a zip, a .gz packed twice, a .gz named .txt: ofc opens one level of
    archive, so each is one reject that says so; their hands were "skipped: not a hand
    history" and in no table."""
    text = simulate(tmp_path / "h.txt", 5, seed=5).read_bytes()
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zipped:
        zipped.writestr("h.txt", text)
    folder = tmp_path / "in"
    folder.mkdir()
    with zipfile.ZipFile(folder / "nested.zip", "w") as zipped:
        zipped.writestr("inner.zip", inner.getvalue())
    (folder / "double.txt.gz.gz").write_bytes(gzip.compress(gzip.compress(text)))
    (folder / "hands.txt").write_bytes(gzip.compress(text))
    says = "ofc opens one level of archive"
    assert main(["parse", str(folder), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "skipped" not in out and out.count(says) == 3
    assert "total: 3 file(s), 3 hands read, 0 stored, 3 rejected" in out
    db = tmp_path / "hands.duckdb"
    assert ofc_import(folder, "--db", db) == 0
    rejects = query(db, "SELECT source_file, source_line, reason FROM rejects ORDER BY 1")
    assert [(f.removeprefix(f"{folder}/"), line) for f, line, _ in rejects] == [
        ("double.txt.gz.gz", 1),
        ("hands.txt", 1),
        ("nested.zip!/inner.zip", 1),
    ]
    assert all(says in reason for _, _, reason in rejects)


def test_the_import_summary_names_the_top_reject_reasons_and_where_the_rest_are(tmp_path, capsys):
    history = simulate(tmp_path / "h.txt", 40, seed=5)
    text = history.read_text(encoding="utf-8").replace("Pineapple 1-6", "Omaha 1-6")
    history.write_text(text, encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    assert main(["import", str(history), "--db", str(db), "--workers", "1"]) == 0
    captured = capsys.readouterr()
    rejected = scalar(db, "SELECT count(*) FROM rejects")
    assert rejected == 40
    lines = captured.out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == ["rejected"])
    top = lines[at + 1].split(maxsplit=1)
    assert top[0] == "40" and scalar(db, "SELECT any_value(reason) FROM rejects") in top[1]
    assert "table rejects, import_id = 1" in lines[at + 2]
    assert "read 40 hands" in captured.err  # the progress counts rejected hands as read


def _small_sample(tmp_path: Path) -> Path:
    sample = tmp_path / "sample"
    (sample / "en").mkdir(parents=True)
    simulate(sample / "en" / "h.txt", 20, seed=6)
    return sample


def test_the_demo_says_where_its_database_is_and_removes_a_temporary_one(tmp_path, capsys):
    assert main(["demo", "--no-serve", "--sample", str(_small_sample(tmp_path))]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]  # no path to a file gone when the user reads it
    assert last.startswith("The demo's database was temporary and is removed now"), out
    db = Path(re.search(r"import #1 into (\S+):", out).group(1))
    assert db.name == "demo.duckdb" and not db.exists() and not db.parent.exists()


def test_the_demo_keeps_a_database_named_with_db(tmp_path, capsys):
    db = tmp_path / "kept.duckdb"
    sample = _small_sample(tmp_path)
    assert main(["demo", "--no-serve", "--sample", str(sample), "--db", str(db)]) == 0
    assert f"The database is {db}" in capsys.readouterr().out
    assert db.exists()


def test_pyproject_states_its_license_in_the_current_form():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "LicenseRef-Proprietary"  # SPDX string (PEP 639)
    assert "setuptools>=77" in project["build-system"]["requires"]


def test_make_test_checks_the_format_and_make_demo_says_how_to_run_ofc():
    makefile = (ROOT / "Makefile").read_text()
    test = makefile.split("\ntest:")[1].split("\n\n")[0]
    lint = makefile.split("\nlint:")[1].split("\n\n")[0]
    assert test.split("\n")[0].split() == ["lint"] and "ruff format --check" in lint
    demo = makefile.split("\ndemo:")[1].split("\n\n")[0]
    assert "source $(VENV)/bin/activate" in demo and "$(VENV)/bin/ofc" in demo
    install = makefile.split("\n$(STAMP):")[1].split("\n\n")[0]
    assert "pipeline.cli.warmup" in install


@pytest.mark.parametrize(
    "command", [["audit", "--player", "Ann"], ["report", "--all", "--out", "r"]]
)
def test_an_empty_database_file_is_called_empty_not_damaged(tmp_path, capsys, command):
    empty = tmp_path / "new.duckdb"
    empty.touch()
    args = [a if a != "r" else str(tmp_path / "r") for a in command]
    assert main([args[0], "--db", str(empty), *args[1:]]) == 2
    assert f"{empty} is empty (0 bytes), not a database yet" in capsys.readouterr().err
