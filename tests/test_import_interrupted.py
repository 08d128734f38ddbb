"""Ctrl-C during ``ofc import`` always stops it, even when compiled code swallows it.

Python raises ``KeyboardInterrupt`` wherever the interpreter is; inside a
callback of numba's compiler or of polars the exception is "ignored" and the
work goes on, or ends in an error of its own. Seen by hand (4 runs in 80): an
import that went on and committed (exit 0), and one that ended in a
``TypeError`` traceback (exit 1). Here the load swallows a real SIGINT as such
a callback does (``ofc_core.interrupts``).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.load import store
from tests.import_support import sha256, simulate


@pytest.fixture(autouse=True)
def default_sigint() -> Iterator[None]:
    yield
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _swallowing_sigint(then: Callable[..., object]) -> Callable[..., object]:
    def load(*args: object, **kwargs: object) -> object:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler runs here
        except KeyboardInterrupt:
            pass  # as a callback from compiled code does
        return then(*args, **kwargs)

    return load


def _fails(*args: object, **kwargs: object) -> None:
    raise TypeError("'<unprintable str object>' is not a Polars data type")


@pytest.mark.parametrize("then", ["goes_on", "fails"])
def test_a_swallowed_ctrl_c_stops_the_import_and_leaves_the_database(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    then: str,
) -> None:
    first = simulate(tmp_path / "a.txt", 10, seed=71)
    db = tmp_path / "ofc.duckdb"
    assert main(["import", str(first), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    before = sha256(db)
    capsys.readouterr()
    after = store.load if then == "goes_on" else _fails
    monkeypatch.setattr(store, "load", _swallowing_sigint(after))
    second = simulate(tmp_path / "b.txt", 10, seed=72)
    assert main(["import", str(second), "--db", str(db), "--workers", "1", "--quiet"]) == 130
    assert capsys.readouterr().err.strip().endswith("ofc import: interrupted")
    assert sha256(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "ofc.duckdb"]
