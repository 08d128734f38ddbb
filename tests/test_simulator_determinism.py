"""The same seed gives the same hands, however many processes play them."""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.simulator import run, simulate


def tables(**kwargs) -> dict[str, pa.Table]:
    batches = [b.as_dict() for b in simulate(**kwargs)]
    return {k: pa.concat_tables([b[k] for b in batches]) for k in batches[0]}


ARGS = dict(ruleset="turbo-1-6-american", players=2, hands=40, bots="tight,aggressive,random")


@pytest.fixture
def small_chunks(monkeypatch):
    """Several chunks even for a small run, so that order and seeds per chunk are tested."""
    monkeypatch.setattr(run, "HANDS_PER_TABLE", 10)
    monkeypatch.setattr(run, "TABLES_PER_CHUNK", 2)


def test_same_seed_same_hands(small_chunks):
    first, second = tables(seed=3, **ARGS), tables(seed=3, **ARGS)
    for name in first:
        assert first[name].equals(second[name]), name


def test_processes_do_not_change_the_hands(small_chunks):
    alone = tables(seed=4, workers=1, **ARGS)
    parallel = tables(seed=4, workers=2, **ARGS)
    for name in alone:
        assert alone[name].equals(parallel[name]), name


def test_another_seed_other_hands(small_chunks):
    a, b = tables(seed=1, **ARGS), tables(seed=2, **ARGS)
    assert not a["placements"].equals(b["placements"])
    assert set(a["hands"]["hand_id"].to_pylist()).isdisjoint(b["hands"]["hand_id"].to_pylist())


def test_the_run_has_the_hands_asked_for_with_unique_ids(small_chunks):
    hands = tables(seed=5, **ARGS)["hands"]
    assert hands.num_rows == 40
    assert len(set(hands["hand_id"].to_pylist())) == 40
