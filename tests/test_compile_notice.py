"""The first ``ofc decide`` / ``ofc solve`` on a machine compiles its kernels (a minute or
more): it says so on standard error, one line, and standard output stays clean JSON."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pipeline.cli import warmup
from pipeline.cli.main import main

COMMANDS = {
    "decide": ("the decision kernels", warmup.DECIDE_MODULES),
    "solve": ("the Fantasyland solver", warmup.SOLVE_MODULES),
}
#: One input each command reads, and its options.
GOOD = {
    "decide": ('{"hero": {"cards": "Ah Kd 7c 7d 2s"}, "opponents": [{}]}', ["--rollouts", "8"]),
    "solve": ('{"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h"}', []),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_first_run_says_it_compiles(monkeypatch, capsys, command: str) -> None:
    what, modules = COMMANDS[command]
    text, options = GOOD[command]
    asked: list[tuple[str, ...]] = []
    monkeypatch.setattr(warmup, "needs_compiling", lambda m=(): asked.append(m) or True)
    monkeypatch.setattr("sys.stdin", io.StringIO(text + "\n"))
    assert main([command, "--ruleset", "pineapple-1-6-american", *options]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("{") and "compiling" not in out
    assert err.startswith(f"ofc: compiling {what} (once per installation")
    assert asked == [modules]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_input_that_does_not_read_is_told_before_any_compiling(
    monkeypatch, capsys, command: str
) -> None:
    monkeypatch.setattr(warmup, "needs_compiling", lambda m=(): True)
    monkeypatch.setattr("sys.stdin", io.StringIO("{}\n"))
    assert main([command, "--ruleset", "pineapple-1-6-american"]) == 2
    err = capsys.readouterr().err
    assert "compiling" not in err and err.count("\n") == 1, err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_later_run_says_nothing(monkeypatch, capsys, command: str) -> None:
    monkeypatch.setattr(warmup, "needs_compiling", lambda m=(): False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main([command, "--ruleset", "pineapple-1-6-american"]) == 2
    assert "compiling" not in capsys.readouterr().err


@pytest.mark.parametrize("modules", [warmup.DECIDE_MODULES, warmup.SOLVE_MODULES])
def test_the_modules_hold_cached_kernels(modules: tuple[str, ...]) -> None:
    assert list(warmup._kernels(modules))


def test_install_warm_up_compiles_the_decision_kernels() -> None:
    """``make install`` (``python -m pipeline.cli.warmup``) compiles them: the first
    ``ofc decide`` no longer waits (cheap once they are cached)."""
    stream = io.StringIO()
    warmup.ensure_decisions_compiled(stream)
    assert not warmup.needs_compiling(warmup.DECIDE_MODULES + warmup.SOLVE_MODULES)


def test_warm_up_module_runs_both(monkeypatch) -> None:
    ran: list[str] = []
    monkeypatch.setattr(warmup, "ensure_compiled", lambda stream=None: ran.append("reader"))
    monkeypatch.setattr(warmup, "ensure_decisions_compiled", lambda s=None: ran.append("decide"))
    source = Path(warmup.__file__).read_text(encoding="utf-8")
    main_block = source[source.index('if __name__ == "__main__":') :]
    exec(compile(main_block, warmup.__file__, "exec"), vars(warmup) | {"__name__": "__main__"})
    assert ran == ["reader", "decide"]
