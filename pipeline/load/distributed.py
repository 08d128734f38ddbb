"""Staging on a Dask distributed cluster (``ofc import --engine dask --scheduler ADDRESS``).

Each piece (or batch of small files) becomes one task running
``pipeline.load.tasks.stage_task`` on a worker, exactly as on local
processes; the workers write their Parquet
parts into the staging folder next to the database, which the DuckDB load
then reads on this machine. So the workers need the project installed (the
same version) and the input files and the database's folder at the same
paths, e.g. on a shared filesystem (README, "Importing on a Dask cluster").
``dask[distributed]`` is the optional ``dask`` extra and is imported only here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ofc_core.errors import UserError
from pipeline.load.staging import StageOptions
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
    from distributed import as_completed

    client = _client(address)
    run = Path(options.staging).name
    try:
        futures = as_completed()
        for part, task in tasks:
            futures.add(
                client.submit(
                    stage_task, part, task, options, pure=False, key=f"ofc-stage-{run}-{part}"
                )
            )
        for future in futures:
            for result in future.result():
                on_result(result)
    finally:
        client.close()
