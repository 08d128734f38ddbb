"""``ofc review``: every decision of an archive valued once, against the best play.

Archives are simulated (``ofc simulate``) and imported into a real DuckDB file;
the review runs in this process with one worker and few rollouts.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pipeline.cli.main import main
from tests.import_support import simulate

RULESET = "pineapple-1-6-american"
ROLLOUTS = "48"
#: Every decision a player-hand holds: its streets not placed after a timeout, or its
#: Fantasyland set; of the player-hands whose cards the history shows.
DECISIONS_IN_ARCHIVE = """
    SELECT count(*) FROM (
        SELECT x.hand_id, x.seat, x.street
        FROM placements AS x JOIN player_hands AS p USING (hand_id, seat)
        WHERE p.hidden_discards = 0
        GROUP BY ALL
        HAVING NOT bool_or(x.auto)
    )
"""


def ofc(*args: str | Path) -> int:
    return main([str(a) for a in args])


def scalar(db: Path, query: str):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(query).fetchone()[0]
    finally:
        con.close()


def archive(folder: Path, fmt: str, bots: str, hands: int, seed: int, players: int) -> Path:
    history = simulate(folder / f"history.{fmt}", hands, seed, fmt, bots, players=players)
    db = folder / "hands.duckdb"
    assert ofc("import", history, "--db", db, "--workers", "1", "--quiet") == 0
    return db


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-handed ofc-jsonl archive (everyone's cards shown), reviewed once."""
    folder = tmp_path_factory.mktemp("review")
    db = archive(folder, "jsonl", "random,aggressive,tight", 14, 7, 3)
    assert ofc("review", "--db", db, "--all", "--rollouts", ROLLOUTS, "--workers", "1") == 0
    return db


def test_every_decision_of_the_archive_is_reviewed_once(reviewed: Path) -> None:
    expected = scalar(reviewed, DECISIONS_IN_ARCHIVE)
    assert expected > 14 * 3 * 4
    assert scalar(reviewed, "SELECT count(*) FROM decisions") == expected
    keys = "SELECT count(DISTINCT (hand_id, player, street)) FROM decisions"
    assert scalar(reviewed, keys) == expected


def test_losses_are_never_negative_and_best_is_at_least_chosen(reviewed: Path) -> None:
    assert scalar(reviewed, "SELECT min(ev_loss) FROM decisions") >= 0
    assert scalar(reviewed, "SELECT min(se_loss) FROM decisions") >= 0
    broken = "SELECT count(*) FROM decisions WHERE abs(ev_best - ev_chosen - ev_loss) > 1e-9"
    assert scalar(reviewed, broken) == 0
    assert scalar(reviewed, "SELECT count(*) FROM decisions WHERE ev_loss > 0") > 0


def test_kinds_follow_the_street(reviewed: Path) -> None:
    kinds = "SELECT string_agg(DISTINCT kind || ':' || street, ',' ORDER BY kind || ':' || street) FROM decisions WHERE street <= 2"
    assert set(scalar(reviewed, kinds).split(",")) <= {
        "first street:1",
        "street:2",
        "fantasyland:0",
    }
    first = "SELECT count(*) FROM decisions WHERE kind = 'first street'"
    assert scalar(reviewed, first) == scalar(
        reviewed, "SELECT count(*) FROM player_hands WHERE NOT in_fantasyland AND NOT timed_out"
    ) + scalar(
        reviewed,
        "SELECT count(*) FROM player_hands AS p WHERE NOT in_fantasyland AND timed_out AND "
        "NOT EXISTS (SELECT 1 FROM placements x WHERE x.hand_id = p.hand_id AND x.seat = p.seat "
        "AND x.street = 1 AND x.auto)",
    )


def test_the_chosen_placement_is_what_the_player_did(reviewed: Path) -> None:
    """The chosen rows after the last street are the player's final board."""
    query = """
        SELECT count(*) FROM decisions AS d JOIN player_hands AS p USING (hand_id, seat)
        WHERE d.street = 5 AND (list_sort(d.chosen.top) != list_sort(p.top)
            OR list_sort(d.chosen.bottom) != list_sort(p.bottom))
    """
    assert scalar(reviewed, "SELECT count(*) FROM decisions WHERE street = 5") > 0
    assert scalar(reviewed, query) == 0


def test_last_street_with_every_opponent_complete_is_exact(reviewed: Path) -> None:
    """The last to act on the last street knows every card: one rollout, se 0, and the
    value is the engine's own uncapped points for the hand plus V times Fantasyland."""
    query = """
        WITH last AS (
            SELECT d.*, p.position FROM decisions AS d JOIN player_hands AS p USING (hand_id, seat)
            WHERE d.street = 5 AND p.position = (SELECT max(position) FROM player_hands AS q
                WHERE q.hand_id = d.hand_id)
              AND NOT EXISTS (SELECT 1 FROM player_hands AS q WHERE q.hand_id = d.hand_id
                AND q.in_fantasyland)
        ), engine AS (
            SELECT hand_id, position, sum(points) AS points FROM (
                SELECT hand_id, position_a AS position, points_a_uncapped AS points FROM pairwise
                UNION ALL SELECT hand_id, position_b, -points_a_uncapped FROM pairwise
            ) GROUP BY ALL
        )
        SELECT count(*), count(*) FILTER (WHERE l.rollouts = 1 AND l.se_loss = 0
            AND abs(l.ev_chosen - l.fantasyland_value * l.fantasyland_chosen - e.points) < 1e-9)
        FROM last AS l JOIN engine AS e USING (hand_id, position)
    """
    con = duckdb.connect(str(reviewed), read_only=True)
    try:
        total, exact = con.execute(query).fetchone()
    finally:
        con.close()
    assert total >= 5
    assert exact == total


def test_a_second_run_reviews_nothing_again(reviewed: Path, capsys) -> None:
    before = scalar(reviewed, "SELECT count(*) FROM decisions")
    assert ofc("review", "--db", reviewed, "--all", "--rollouts", ROLLOUTS, "--workers", "1") == 0
    out = capsys.readouterr().out
    assert "reviewed 0 decision(s)" in out
    assert scalar(reviewed, "SELECT count(*) FROM decisions") == before
    # what the earlier review found is still told, per player, with its interval and n
    players = scalar(reviewed, "SELECT count(DISTINCT player) FROM decisions")
    assert "EV lost against the best play, every review of the database so far:" in out
    lines = [line for line in out.splitlines() if " points per 100 hands (95% " in line]
    assert len(lines) == players and all("; n 14 hands), " in line for line in lines), out


def test_fantasyland_sets_use_the_solver(tmp_path: Path) -> None:
    db = archive(tmp_path, "jsonl", "aggressive,aggressive", 60, 3, 2)
    assert scalar(db, "SELECT count(*) FROM player_hands WHERE in_fantasyland") > 0
    assert ofc("review", "--db", db, "--all", "--rollouts", "8", "--workers", "2") == 0  # the pool
    fantasyland = "SELECT count(*) FROM decisions WHERE kind = 'fantasyland'"
    assert scalar(db, fantasyland) == scalar(
        db, "SELECT count(*) FROM player_hands WHERE in_fantasyland AND NOT timed_out"
    )
    exact = "SELECT count(*) FROM decisions WHERE kind = 'fantasyland' AND (se_loss != 0 OR ev_loss < 0 OR len(best.top) != 3)"
    assert scalar(db, exact) == 0


#: Classic streets (one card) dealt when only one row has room: one legal placement.
FORCED_IN_ARCHIVE = """
    WITH cards AS (
        SELECT x.hand_id, x.seat, x.street, x.row
        FROM placements AS x JOIN player_hands AS p USING (hand_id, seat)
        WHERE p.hidden_discards = 0 AND NOT x.auto
    ),
    streets AS (SELECT hand_id, seat, street, count(*) AS dealt FROM cards GROUP BY ALL),
    open AS (
        SELECT s.hand_id, s.seat, s.street, any_value(s.dealt) AS dealt,
            (3 > count(*) FILTER (WHERE c.row = 'top' AND c.street < s.street))::INT
            + (5 > count(*) FILTER (WHERE c.row = 'middle' AND c.street < s.street))::INT
            + (5 > count(*) FILTER (WHERE c.row = 'bottom' AND c.street < s.street))::INT
            AS rows_open
        FROM streets AS s JOIN cards AS c USING (hand_id, seat)
        GROUP BY s.hand_id, s.seat, s.street
    )
    SELECT count(*) FROM open WHERE dealt = 1 AND rows_open = 1
"""


def test_a_street_with_one_legal_placement_is_not_a_decision(tmp_path: Path) -> None:
    """A Classic card dealt when one row is left open goes there: nothing to review."""
    history = simulate(
        tmp_path / "classic.jsonl", 8, 71, "jsonl", "random,tight", ruleset="classic-1-6-american",
        players=2,
    )  # fmt: skip
    db = tmp_path / "classic.duckdb"
    assert ofc("import", history, "--db", db, "--workers", "1", "--quiet") == 0
    forced = scalar(db, FORCED_IN_ARCHIVE)
    assert forced > 0
    assert ofc("review", "--db", db, "--all", "--rollouts", "8", "--workers", "1") == 0
    assert scalar(db, "SELECT count(*) FROM decisions") == scalar(db, DECISIONS_IN_ARCHIVE) - forced
    assert scalar(db, "SELECT min(candidates) FROM decisions") > 1


def test_since_and_one_player_in_a_room_format(tmp_path: Path, capsys) -> None:
    """In the room text format only the history's owner shows its cards."""
    db = archive(tmp_path, "en", "random,tight", 6, 11, 2)
    owner = scalar(db, "SELECT any_value(player) FROM player_hands WHERE hidden_discards = 0")
    others = scalar(db, f"SELECT count(*) FROM player_hands WHERE player != '{owner}'")
    assert others > 0
    assert ofc("review", "--db", db, "--all", "--since", "2999-01-01", "--rollouts", "8") == 0
    assert scalar(db, "SELECT count(*) FROM decisions") == 0
    assert ofc("review", "--db", db, "--player", owner, "--rollouts", "8", "--workers", "1") == 0
    assert scalar(db, f"SELECT count(*) FROM decisions WHERE player != '{owner}'") == 0
    assert scalar(db, "SELECT count(*) FROM decisions") == scalar(db, DECISIONS_IN_ARCHIVE)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--player", "Nobody Here"], "no player 'Nobody Here'"),
        (["--player", "Nobody Here"], "the players whose cards the histories show include '"),
        (["--all", "--since", "yesterday"], "--since 'yesterday'"),
        (["--all", "--engine", "dask"], "--engine dask needs --scheduler"),
        (["--all", "--scheduler", "tcp://10.0.0.5:8786"], "add --engine dask to use it"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    reviewed: Path, args: list[str], says: str, capsys
) -> None:
    assert ofc("review", "--db", reviewed, *args) == 2
    err = capsys.readouterr().err
    assert says in err
    assert err.count("\n") == 1 and err.startswith("ofc review: ")


@pytest.mark.parametrize("rollouts", ["1", "100000000000"])
def test_rollouts_out_of_range_are_a_usage_error(reviewed: Path, rollouts: str, capsys) -> None:
    """Below 2 no interval; far above, memory the machine does not have (a traceback once)."""
    with pytest.raises(SystemExit) as exited:
        ofc("review", "--db", reviewed, "--all", "--rollouts", rollouts)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --rollouts: '{rollouts}': give a whole number from 2 to 1,000,000" in err


def test_a_missing_database_is_one_line(tmp_path: Path, capsys) -> None:
    assert ofc("review", "--db", tmp_path / "none.duckdb", "--all") == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_ruleset_of_a_rules_file_is_named_before_any_work(tmp_path: Path, capsys) -> None:
    """Hands imported with --rules-file need it again: the review says so at once."""
    rules = tmp_path / "house.toml"
    rules.write_text(
        '[rulesets.house-rules]\nextends = "pineapple-1-6-american"\nfoul_penalty = 5\n',
        encoding="utf-8",
    )
    history = simulate(tmp_path / "history.jsonl", 3, 5, "jsonl", "random,tight", players=2)
    db = tmp_path / "hands.duckdb"
    imported = ("import", history, "--db", db, "--ruleset", "house-rules", "--rules-file", rules)
    assert ofc(*imported, "--workers", "1", "--quiet") == 0
    capsys.readouterr()
    assert ofc("review", "--db", db, "--all", "--workers", "1", "--quiet") == 2
    err = capsys.readouterr().err
    assert "unknown ruleset 'house-rules'" in err and "same --rules-file" in err
    assert ofc("review", "--db", db, "--all", "--rules-file", rules, "--rollouts", "50") == 0
