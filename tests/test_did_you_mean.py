"""Names a user mistypes or cannot use: a player in the wrong case or hidden from the
histories (``ofc review``), a ruleset misspelt: one line saying what is wrong and the
close names."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ofc_core.errors import UserError
from ofc_core.rulesets import load_ruleset
from pipeline.cli.main import main
from tests.import_support import simulate


def _one_line(capsys, *argv: object) -> str:
    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.fixture(scope="module")
def room_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A Pineapple archive in a room's text format: only the owner's cards are shown."""
    folder = tmp_path_factory.mktemp("room")
    history = simulate(folder / "history.en", 6, 11, "en", "random,tight", players=2)
    db = folder / "hands.duckdb"
    assert main(["import", str(history), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        owner = con.execute(
            "SELECT any_value(player) FROM player_hands WHERE hidden_discards = 0"
        ).fetchone()[0]
        hidden = con.execute(
            "SELECT any_value(player) FROM player_hands WHERE player != ?", [owner]
        ).fetchone()[0]
    finally:
        con.close()
    return db, owner, hidden


def test_review_of_a_player_whose_cards_are_hidden_says_why(capsys, room_db) -> None:
    """It printed "reviewed 0 decision(s)" with no reason."""
    db, owner, hidden = room_db
    err = _one_line(capsys, "review", "--db", db, "--player", hidden, "--rollouts", "8")
    assert f"{hidden!r} cannot be reviewed" in err
    assert "only a player whose cards the files show can be reviewed" in err
    assert repr(owner) in err


def test_review_of_a_player_in_the_wrong_case_suggests_the_name(capsys, room_db) -> None:
    db, owner, _ = room_db
    err = _one_line(capsys, "review", "--db", db, "--player", owner.swapcase())
    assert f"no player {owner.swapcase()!r} in the database; did you mean {owner!r}?" in err


@pytest.mark.parametrize("typo", ["pineaple-1-6-american", "Pineapple-1-6-American"])
def test_a_misspelt_ruleset_suggests_the_close_one(typo: str) -> None:
    with pytest.raises(UserError) as raised:
        load_ruleset(typo)
    text = str(raised.value)
    assert f"unknown ruleset {typo!r}; did you mean 'pineapple-1-6-american'" in text
    assert "? (known: classic-1-6-american, " in text


def test_the_start_of_a_ruleset_name_suggests_the_names_it_starts() -> None:
    with pytest.raises(UserError) as raised:
        load_ruleset("pineapple")
    assert str(raised.value).startswith(
        "unknown ruleset 'pineapple'; did you mean 'pineapple-1-6-american', "
        "'pineapple-2-4-pokerbet', 'pineapple-2-4-pokerdom'? (known: "
    )


def test_a_ruleset_far_from_every_name_gets_no_guess() -> None:
    with pytest.raises(UserError) as raised:
        load_ruleset("no-such-room")
    assert "did you mean" not in str(raised.value)
    assert "known: classic-1-6-american" in str(raised.value)


def test_a_misspelt_option_before_any_command_is_named(capsys) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--verison"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized option --verison (did you mean --version?)" in err, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["import", "a.txt", "--bd", "x.duckdb"],
            "unrecognized arguments: --bd (did you mean --db?)",
        ),
        (["import", "a.txt", "--db", "x.duckdb", "--worker", "2"], "--worker (did you mean"),
        (["report", "--db=x.duckdb", "--playr", "Ann", "--out", "r.html"], "--playr"),
    ],
)
def test_a_misspelt_option_is_named_before_what_is_missing(capsys, argv, said) -> None:
    """``--bd`` leaves ``--db`` missing: the typo is what the user needs to see, and an
    option is never taken for a longer one it begins (``--worker`` for ``--workers``)."""
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "required" not in err, err
