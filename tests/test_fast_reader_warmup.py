"""The fast reader is compiled ahead of its first use (``make install`` runs the warm-up), and
a run that must still compile says so, once."""

from __future__ import annotations

import io

from pipeline.cli import warmup


def test_after_the_warm_up_nothing_is_left_to_compile():
    warmup.ensure_compiled(io.StringIO())
    assert not warmup.needs_compiling()
    assert len(list(warmup._kernels())) >= 5


def test_a_run_that_must_compile_says_so_once(monkeypatch):
    cached = {"done": False}

    def compile_all() -> None:
        cached["done"] = True

    monkeypatch.setattr(warmup, "needs_compiling", lambda: not cached["done"])
    monkeypatch.setattr(warmup, "warm_up", compile_all)
    stream = io.StringIO()
    warmup.ensure_compiled(stream)
    warmup.ensure_compiled(stream)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("ofc: compiling the fast reader") and "once" in lines[0]
    assert lines[1].startswith("ofc: compiled in")


def test_quiet_compiles_without_a_word(monkeypatch):
    monkeypatch.setattr(warmup, "needs_compiling", lambda: True)
    monkeypatch.setattr(warmup, "warm_up", lambda: None)
    stream = io.StringIO()
    warmup.ensure_compiled(stream, quiet=True)
    assert stream.getvalue() == ""
