"""Tasks on a Dask distributed cluster (``ofc import`` and ``ofc review``, ``--engine dask
--scheduler ADDRESS``).

Each piece (or batch of small files) becomes one task running
``pipeline.load.tasks.stage_task`` on a worker, exactly as on local
processes; the workers write their Parquet parts into the staging folder next to the database, which the DuckDB load
then reads on this machine. So the workers need the project installed (the
same version) and the input files and the database's folder at the same
paths, e.g. on a shared filesystem (README, "Importing on a Dask cluster").
``dask[distributed]`` is the optional ``dask`` extra and is imported only here.
``ofc review`` sends its batches of decisions the same way (``run_dask_functions``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from pathlib import Path

from ofc_core.errors import UserError
from pipeline.load.staging import StageOptions, StageResult
from pipeline.load.tasks import stage_task

CONNECT_TIMEOUT = "10s"


def _client(address: str | None):
    if not address:
        raise UserError("--engine dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    try:
        from distributed import Client
    except ImportError:
        raise UserError(
            "--engine dask needs Dask distributed: pip install 'ofc-analytics[dask]'"
        ) from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise UserError(
            f"cannot reach the Dask scheduler at {address}: {error}; is it running, and is the "
            "address (tcp://HOST:PORT) right?"
        ) from None


def run_dask(tasks: Iterable, options: StageOptions, address: str | None, on_result) -> None:
    """Run the staging tasks on the cluster at ``address``, reporting results as they finish."""
    run = Path(options.staging).name
    staged = ((part, task, options) for part, task in tasks)

    def each(results: list[StageResult]) -> None:  # a result per file of the task
        for result in results:
            on_result(result)

    run_dask_functions(stage_task, staged, address, each, f"ofc-stage-{run}")


def run_dask_functions(
    function: Callable,
    tasks: Iterable[tuple],
    address: str | None,
    on_result: Callable,
    name: str | None = None,
) -> None:
    """Run ``function(*task)`` for every task on the cluster at ``address``, handing each
    result to ``on_result`` as it finishes; task keys are ``name`` and the task's number."""
    from distributed import as_completed

    client = _client(address)
    name = name or f"ofc-{function.__name__}-{uuid.uuid4().hex}"
    try:
        futures = as_completed()
        for i, task in enumerate(tasks):
            futures.add(client.submit(function, *task, pure=False, key=f"{name}-{i}"))
        for future in futures:
            on_result(future.result())
    finally:
        client.close()
