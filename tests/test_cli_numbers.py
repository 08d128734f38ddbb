"""Number options of the commands: nan, infinities and out-of-range values are refused by
argparse with the option's name, and a negative number such as ``-1e9`` is read as the
option's value (not as another option)."""

from __future__ import annotations

import pytest

from pipeline.cli.main import main


def _refused(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    return capsys.readouterr().err


CALCULATORS = (
    ("decide", "--ruleset", "pineapple-1-6-american"),
    ("solve", "--ruleset", "pineapple-1-6-american"),
    ("review", "--db", "x.duckdb", "--all"),
)


@pytest.mark.parametrize("command", CALCULATORS, ids=lambda c: c[0])
@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity"])
def test_fantasyland_value_must_be_finite(capsys, command, value):
    err = _refused(capsys, *command, "--fantasyland-value", value)
    assert f"argument --fantasyland-value: {value!r} is not a finite number" in err


@pytest.mark.parametrize("command", CALCULATORS, ids=lambda c: c[0])
@pytest.mark.parametrize("value", ["-1e9", "-1", "-.5", "-0.25"])
def test_negative_fantasyland_value_is_read_and_refused(capsys, command, value):
    err = _refused(capsys, *command, "--fantasyland-value", value)
    assert "expected one argument" not in err
    assert f"{value!r}: staying in Fantasyland is worth 0 points or more" in err
    assert "docs/decisions.md" in err


def test_huge_fantasyland_value_is_refused(capsys):
    err = _refused(capsys, "solve", "--ruleset", "pineapple-27", "--fantasyland-value", "1e9")
    assert "'1e9': staying in Fantasyland is worth at most 1000 points" in err


def test_fantasyland_value_in_range_is_taken():
    from pipeline.cli.main import build_parser

    argv = ["solve", "--ruleset", "pineapple-27", "--fantasyland-value", "0"]
    assert build_parser(argv).parse_args(argv).fantasyland_value == 0.0
    argv[-1] = "12.5"
    assert build_parser(argv).parse_args(argv).fantasyland_value == 12.5


@pytest.mark.parametrize("value", ["0", "-1", "-1e3", "0.05", "nan", "inf"])
def test_watch_interval_must_be_a_tenth_of_a_second_or_more(capsys, value):
    """``--interval 0`` made ``--watch`` look at the files without a pause (a whole core)."""
    err = _refused(capsys, "import", "x", "--db", "x.duckdb", "--watch", "--interval", value)
    assert "argument --interval:" in err
    assert "expected one argument" not in err


@pytest.mark.parametrize("value", ["nan", "-inf", "-0.5", "-1e-3", "1.5"])
def test_misreport_rate_is_a_share(capsys, tmp_path, value):
    """A negative share is read as the option's value (it was "expected one argument")."""
    argv = ["simulate", "--ruleset", "pineapple-27", "--hands", "1", "--out"]
    assert main([*argv, str(tmp_path / "h.jsonl"), "--misreport-rate", value]) == 2
    assert "--misreport-rate must be between 0 and 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        ("simulate", "--ruleset", "classic-1-6-american", "--hands", "3", "--out", "x.txt"),
        ("parse", "x.txt", "--out", "out"),
    ],
    ids=lambda c: c[0],
)
@pytest.mark.parametrize("value", ["0", "-3"])
def test_workers_are_one_or_more(capsys, command, value):
    """``ofc simulate`` and ``ofc parse`` once took 0 or -3 workers silently."""
    err = _refused(capsys, *command, "--workers", value)
    assert f"argument --workers: {value!r}: give a whole number of 1 or more" in err
