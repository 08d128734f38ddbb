"""``ofc import --engine dask`` gives the same database as ``--engine local``.

A local Dask cluster of two worker processes on 127.0.0.1 runs the staging
tasks; every table, metric tables included, must hold exactly the rows the
local engine produces (run bookkeeping aside: import numbers and times).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_support import ofc_import, query, simulate

pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")

COMPARED = {
    "hands": "* EXCLUDE (import_id)",
    "player_hands": "*",
    "placements": "*",
    "pairwise": "*",
    "rejects": "* EXCLUDE (import_id)",
    "player_summary": "*",
    "style_metrics": "*",
    "audit_mismatches": "*",
}


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("sim")
    junk = folder / "junk.txt"
    junk.write_text("not a hand\n\nOFC Hand #1: Pineapple 1-6 American - nonsense\n")
    return [
        simulate(folder / "a.txt", 120, seed=71),
        simulate(folder / "b.txt", 90, seed=72, misreport=0.1),
        simulate(folder / "c.jsonl", 60, seed=73, fmt="jsonl"),
        junk,
    ]


def _rows(db: Path, table: str) -> list[tuple]:
    return query(db, f"SELECT {COMPARED[table]} FROM {table} ORDER BY ALL")


def test_dask_engine_equals_local_engine(tmp_path: Path, cluster, inputs: list[Path]) -> None:
    local = tmp_path / "local.duckdb"
    dask = tmp_path / "dask.duckdb"
    assert ofc_import(*inputs, "--db", local) == 0
    assert (
        ofc_import(
            *inputs, "--db", dask, "--engine", "dask", "--scheduler", cluster.scheduler_address
        )
        == 0
    )
    assert query(dask, "SELECT engine, hands_added FROM imports") == [("dask", 270)]
    assert query(local, "SELECT count(*) FROM rejects") != [(0,)]
    for table in COMPARED:
        assert _rows(dask, table) == _rows(local, table), table


def test_unreachable_scheduler_is_a_user_error(
    tmp_path: Path, inputs: list[Path], capsys: pytest.CaptureFixture, monkeypatch
) -> None:
    db = tmp_path / "x.duckdb"
    monkeypatch.setattr("pipeline.load.distributed.CONNECT_TIMEOUT", "1s")
    code = ofc_import(inputs[0], "--db", db, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
    assert not db.exists()
