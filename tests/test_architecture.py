"""The import layers of docs/architecture.md: the contract in pyproject.toml holds, and fails
on any import against the order (checked with import-linter on a fake tree)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = (
    "ofc_core",
    "parsers",
    "pipeline",
    "pipeline.rules",
    "pipeline.load",
    "pipeline.simulator",
    "pipeline.decisions",
    "pipeline.report",
    "pipeline.benchkit",
    "dashboard",
    "pipeline.cli",
)


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contract over the packages under ``root``."""
    config = ROOT / "pyproject.toml"
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [str(LINT_IMPORTS), "--config", str(config), "--no-cache"]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)


def fake_tree(root: Path, importer: str, source: str) -> None:
    """Empty packages of every layer, and module ``importer.fake`` holding ``source``."""
    for package in PACKAGES:
        folder = root.joinpath(*package.split("."))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text("")
    root.joinpath(*importer.split("."), "fake.py").write_text(source)


def test_the_project_keeps_its_layers() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


@pytest.mark.parametrize(
    ("importer", "source"),
    [
        ("ofc_core", "import parsers\n"),
        ("parsers", "from pipeline.rules import evaluate\n"),
        ("pipeline.rules", "import pipeline.load\n"),
        ("pipeline.load", "import pipeline.simulator\n"),  # load stays independent of
        ("pipeline.simulator", "import pipeline.load\n"),  # ... the simulator
        ("pipeline.decisions", "from pipeline.load import database\n"),  # ... and decisions
        ("pipeline.decisions", "import pipeline.report\n"),
        ("pipeline.report", "import dashboard\n"),
        ("dashboard", "def later():\n    import pipeline.cli\n"),  # imports in functions count
    ],
)
def test_an_import_against_the_order_breaks_the_contract(
    tmp_path: Path, importer: str, source: str
) -> None:
    fake_tree(tmp_path, importer, source)
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 broken" in done.stdout
    assert f"{importer}.fake" in done.stdout


def test_the_fake_tree_alone_keeps_the_contract(tmp_path: Path) -> None:
    """The fake tree is sound: only the violating import above breaks it."""
    fake_tree(tmp_path, "dashboard", "import pipeline.report\nimport ofc_core\n")
    done = lint_imports(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
