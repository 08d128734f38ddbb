"""``ofc review --engine dask`` stores the same decisions as the local engine.

A local Dask cluster of two worker processes on 127.0.0.1, started and
stopped by the test, values the batches; every row of ``decisions`` must
equal the local run's (the time of the review aside): each decision's seed
is fixed by its key, wherever it runs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_review import archive, ofc
from tests.test_review_resume import _rows

pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")


def test_dask_engine_equals_local_engine(tmp_path: Path) -> None:
    local = archive(tmp_path, "jsonl", "random,aggressive,tight", 8, 13, 3)
    dask = tmp_path / "dask.duckdb"
    shutil.copyfile(local, dask)
    review = ("review", "--all", "--rollouts", "32")
    assert ofc(*review, "--db", local, "--workers", "1") == 0
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        assert (
            ofc(*review, "--db", dask, "--engine", "dask", "--scheduler", cluster.scheduler_address)
            == 0
        )
    assert len(_rows(local)) > 8 * 3 * 4
    assert _rows(dask) == _rows(local)


def test_unreachable_scheduler_is_a_user_error(tmp_path: Path, capsys, monkeypatch) -> None:
    db = archive(tmp_path, "jsonl", "random,tight", 2, 3, 2)
    monkeypatch.setattr("pipeline.load.distributed.CONNECT_TIMEOUT", "1s")
    code = ofc(
        "review", "--db", db, "--all", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"
    )
    assert code == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
