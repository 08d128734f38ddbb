"""The compiled kernels' cache follows every source file they read (``ofc_core.kernel_cache``).

numba alone keeps a kernel's compiled code while the kernel's own file is
unchanged, even when a helper it inlines from another file changed: after an
update, the fast reader would run the old code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numba
import pytest

from ofc_core import kernel_cache

PROJECT = Path(__file__).resolve().parent.parent


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_digest_follows_the_kernels_sources_only(tmp_path: Path) -> None:
    _tree(tmp_path, {"parsers/fast/a.py": "A = 1\n", "pipeline/cli/b.py": "B = 1\n"})
    first = kernel_cache.digest(tmp_path)
    (tmp_path / "pipeline/cli/b.py").write_text("B = 2\n")
    (tmp_path / "parsers/fast/__pycache__").mkdir()
    (tmp_path / "parsers/fast/__pycache__/a.cpython-311.pyc").write_bytes(b"\0")
    assert kernel_cache.digest(tmp_path) == first
    (tmp_path / "parsers/fast/a.py").write_text("A = 2\n")
    second = kernel_cache.digest(tmp_path)
    assert second != first
    _tree(tmp_path, {"ofc_core/rulesets/presets.toml": "x = 1\n"})  # data the code loads
    assert kernel_cache.digest(tmp_path) != second


def test_folder_is_beside_the_packages_or_below_the_users_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, {"parsers/a.py": "A = 1\n"})
    name = f"ofc-{kernel_cache.digest(tmp_path)}"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert kernel_cache.folder(tmp_path) == tmp_path / ".numba-cache" / name
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert kernel_cache.folder(tmp_path) == tmp_path / "mine" / name
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine" / name))  # inherited
    assert kernel_cache.folder(tmp_path) == tmp_path / "mine" / name


def test_a_new_version_removes_the_old_versions_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, {"parsers/a.py": "A = 1\n"})
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    old = kernel_cache.use(tmp_path)
    old.mkdir(parents=True)
    (tmp_path / "parsers/a.py").write_text("A = 2\n")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    new = kernel_cache.use(tmp_path)
    assert new != old and not old.exists()
    assert os.environ["NUMBA_CACHE_DIR"] == numba.config.CACHE_DIR == str(new)


_HELPER = """
    import numba

    @numba.njit(cache=True, inline="always")
    def value():
        return {value}
"""
_KERNEL = """
    import numba
    from stale_helper import value

    @numba.njit(cache=True)
    def kernel():
        return value()
"""
_RUN = """
    import sys
    from pathlib import Path

    root = Path(sys.argv[1])
    from ofc_core import kernel_cache

    kernel_cache.use(root)
    sys.path.insert(0, str(root / "parsers"))
    import stale_kernel

    print(stale_kernel.kernel(), sum(stale_kernel.kernel.stats.cache_hits.values()))
"""


def _kernel_says(root: Path) -> tuple[int, int]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    run = [sys.executable, "-c", textwrap.dedent(_RUN), str(root)]
    done = subprocess.run(run, cwd=PROJECT, env=env, capture_output=True, text=True, check=True)
    value, hits = done.stdout.split()
    return int(value), int(hits)


def test_a_kernel_compiles_again_when_a_helper_it_inlines_changes(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {"parsers/stale_helper.py": _HELPER.format(value=1), "parsers/stale_kernel.py": _KERNEL},
    )
    assert _kernel_says(tmp_path) == (1, 0)  # compiled
    assert _kernel_says(tmp_path) == (1, 1)  # from the cache
    _tree(tmp_path, {"parsers/stale_helper.py": _HELPER.format(value=2)})
    assert _kernel_says(tmp_path)[0] == 2  # numba's own cache would still say 1


def test_folders_that_cannot_be_written_are_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service account whose home cannot be written (and an install it cannot write)
    still runs: the kernels are cached in a folder of its own in the temporary folder."""
    _tree(tmp_path, {"parsers/a.py": "A = 1\n"})
    name = f"ofc-{kernel_cache.digest(tmp_path)}"
    (tmp_path / ".numba-cache").write_text("a file, not a folder")  # even root cannot mkdir
    (tmp_path / "home").write_text("a file, not a folder")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home" / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    private = tmp_path / "tmp" / f"ofc-numba-{os.getuid()}"
    assert kernel_cache.folder(tmp_path) == private / name
    assert private.stat().st_mode & 0o777 == 0o700
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "home" / "mine"))  # the user's, unwritable
    assert kernel_cache.folder(tmp_path) == private / name


def test_a_shared_temporary_folder_not_safely_ours_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Code cached where another user can write would run as this one."""
    _tree(tmp_path, {"parsers/a.py": "A = 1\n"})
    (tmp_path / ".numba-cache").write_text("a file, not a folder")
    (tmp_path / "home").write_text("a file, not a folder")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home" / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(tempfile, "tempdir", None)
    shared = tmp_path / "tmp" / f"ofc-numba-{os.getuid()}"
    shared.mkdir(parents=True)
    shared.chmod(0o777)
    chosen = kernel_cache.folder(tmp_path).parent
    assert chosen != shared and chosen.parent == tmp_path / "tmp"
    assert chosen.stat().st_mode & 0o077 == 0


def test_kernels_compile_where_no_cache_folder_but_the_temporary_one_can_be_written(
    tmp_path: Path,
) -> None:
    """``HOME`` is a file and ``NUMBA_CACHE_DIR`` names a folder below it: a kernel is
    still cached (numba would stop at its definition: "no locator available")."""
    (tmp_path / "home").write_text("a file")
    (tmp_path / "kernel.py").write_text(
        textwrap.dedent(
            """
            from ofc_core import kernel_cache
            print(kernel_cache.use())
            import numba

            @numba.njit(cache=True)
            def answer():
                return 41 + 1

            print(answer())
            """
        )
    )
    env = {
        **os.environ,
        "HOME": str(tmp_path / "home"),
        "NUMBA_CACHE_DIR": str(tmp_path / "home" / "numba"),
        "TMPDIR": str(tmp_path),
        "PYTHONPATH": str(PROJECT),
    }
    done = subprocess.run(
        [sys.executable, "kernel.py"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    cache, answer = done.stdout.split()
    assert Path(cache).parent == tmp_path / f"ofc-numba-{os.getuid()}" and answer == "42"
    assert any(Path(cache).rglob("*.nbi"))  # the kernel was cached there
