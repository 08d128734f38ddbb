"""The stake filter reads ``player_hands``' own ``point_value`` and ``currency``.

On a database made by ``ofc simulate`` + ``ofc import`` (play money and the
same point value in two currencies among its stakes), every stake keeps
exactly the player-hands whose hand, in ``hands``, has that stake; and the
scoop rate of a narrowed view (with or without an opponent) equals the one
computed from ``pairwise`` and the hands of the view.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from dashboard.queries import breakdowns, options, summary
from dashboard.queries.db import Database
from dashboard.queries.filters import Filters, hand_scope, scope, stakes_key
from tests.import_support import ofc_import, query, simulate

_STAKES = (
    "SELECT p.hand_id, p.seat, p.player, h.point_value, h.currency"
    " FROM player_hands p JOIN hands h USING (hand_id)"
)


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stakes")
    history = simulate(folder / "hands.jsonl", 300, seed=5, fmt="jsonl")
    db = folder / "ofc.duckdb"
    assert ofc_import(history, "--db", db) == 0
    return db


@pytest.fixture(scope="module")
def by_stake(db_path: Path) -> dict[str, set[tuple[str, int, str]]]:
    """Every player-hand (hand, seat, player), grouped by its hand's stake in ``hands``."""
    groups: dict[str, set[tuple[str, int, str]]] = defaultdict(set)
    for hand_id, seat, player, value, currency in query(db_path, _STAKES):
        groups[stakes_key(value, currency)].add((hand_id, seat, player))
    return groups


def _rows(db_path: Path, filters: Filters) -> set[tuple[str, int, str]]:
    where = scope(filters)
    sql = f"SELECT p.hand_id, p.seat, p.player FROM player_hands p WHERE {where.sql}"
    return set(query(db_path, sql, list(where.params)))


def test_the_database_has_the_stakes_that_can_go_wrong(by_stake: dict) -> None:
    currencies = {label.split()[1] for label in by_stake if label != "play"}
    assert "play" in by_stake and "0.5 EUR" in by_stake and "0.5 USD" in by_stake
    assert len(currencies) >= 3


def test_every_stake_keeps_the_player_hands_of_its_hands(db_path: Path, by_stake: dict) -> None:
    labels = options.choices(Database(db_path)).stakes
    assert set(labels) == set(by_stake)
    for label in labels:
        assert _rows(db_path, Filters(stakes=label)) == by_stake[label], label


def test_a_heros_stake_keeps_only_the_heros_rows(db_path: Path, by_stake: dict) -> None:
    hero = options.players(Database(db_path))[0]
    for label, rows in by_stake.items():
        mine = {row for row in rows if row[2] == hero}
        assert _rows(db_path, Filters(hero=hero, stakes=label)) == mine, label


def test_play_money_is_the_rows_without_money(db_path: Path, by_stake: dict) -> None:
    without_money = set(
        query(db_path, "SELECT hand_id, seat, player FROM player_hands WHERE money IS NULL")
    )
    assert without_money == by_stake["play"]


def test_unreadable_or_unknown_stakes_keep_nothing(db_path: Path) -> None:
    for label in ("lots", "0.5", "0.5 GBP"):
        assert _rows(db_path, Filters(stakes=label)) == set(), label


def test_hand_and_player_hand_scopes_pick_the_same_hands(db_path: Path, by_stake: dict) -> None:
    for label in by_stake:
        where = hand_scope(Filters(stakes=label))
        hands = query(db_path, f"SELECT h.hand_id FROM hands h WHERE {where.sql}", where.params)
        assert {h for (h,) in hands} == {row[0] for row in by_stake[label]}, label


def _scoop_rate(
    db_path: Path, hero: str | None, hands: set[str], left_out: str | None = None
) -> float:
    """Scoops / settlements of ``hero`` (everybody but ``left_out``: both sides) in
    ``hands``, from ``pairwise``."""
    sides = []
    for hand_id, player_a, player_b, rows_a, rows_b in query(
        db_path, "SELECT hand_id, player_a, player_b, rows_a, rows_b FROM pairwise"
    ):
        if hand_id in hands:
            for player, rows in ((player_a, rows_a), (player_b, rows_b)):
                if player == hero or (hero is None and player != left_out):
                    sides.append(rows)
    return sum(rows == 3 for rows in sides) / len(sides)


def scoop_rate(db_path: Path, view: Filters) -> float:
    """The view's scoop rate as the Overview shows it."""
    return summary.summaries(Database(db_path), view)[summary.ALL]["scoop_rate"]


@pytest.mark.parametrize("with_hero", [True, False], ids=["hero", "everybody"])
def test_the_scoop_rate_of_a_stake_is_the_pairwise_one(
    db_path: Path, by_stake: dict, with_hero: bool
) -> None:
    hero = options.players(Database(db_path))[0] if with_hero else None
    label = max((s for s in by_stake if s != "play"), key=lambda s: len(by_stake[s]))
    view = Filters(hero=hero, stakes=label)
    hands = {row[0] for row in by_stake[label] if hero is None or row[2] == hero}
    found = scoop_rate(db_path, view)
    assert found == pytest.approx(_scoop_rate(db_path, hero, hands), rel=1e-12)
    assert 0 < found < 1


@pytest.mark.parametrize("with_hero", [True, False], ids=["hero", "everybody"])
def test_the_scoop_rate_with_an_opponent_is_the_pairwise_one_of_their_hands(
    db_path: Path, by_stake: dict, with_hero: bool
) -> None:
    players = options.players(Database(db_path))
    hero, opponent = (players[0] if with_hero else None), players[1]
    label = max((s for s in by_stake if s != "play"), key=lambda s: len(by_stake[s]))
    theirs = {row[0] for row in by_stake[label] if row[2] == opponent}
    found = scoop_rate(db_path, Filters(hero, stakes=label, opponent=opponent))
    # without a hero: everybody at the opponent's tables, the opponent left out
    expected = _scoop_rate(db_path, hero, theirs, left_out=opponent)
    assert found == pytest.approx(expected, rel=1e-12)
    assert 0 < found < 1


def test_the_stakes_breakdown_names_each_stake_as_the_filter_does(tmp_path: Path) -> None:
    """Point values that round alike (0.125 and 0.13) stay two groups, named as the
    stakes filter names them, so a row of the breakdown is one stake to filter on."""
    history = simulate(tmp_path / "hands.jsonl", 40, seed=6, fmt="jsonl")
    lines = history.read_text(encoding="utf-8").splitlines()
    hands = [json.loads(line) for line in lines]
    for i, hand in enumerate(hands):
        hand |= {"point_value": 0.125 if i % 2 else 0.13, "currency": "USD"}
        for player in hand["players"]:
            player["reported_money"] = None
    history.write_text("".join(json.dumps(h) + "\n" for h in hands), encoding="utf-8")
    db = tmp_path / "ofc.duckdb"
    assert ofc_import(history, "--db", db) == 0
    rows = breakdowns.by(Database(db), Filters(), "Stakes")
    assert sorted(rows.get_column("group")) == ["0.125 USD", "0.13 USD"]
    assert set(rows.get_column("group")) == set(options.choices(Database(db)).stakes)
