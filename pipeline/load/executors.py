"""Running staging tasks: inline, on local worker processes, or on a Dask cluster.

Every engine runs the same function, ``pipeline.load.tasks.stage_task``,
once per piece or batch of small files, and hands each result (one per file
of a batch) to ``on_result`` as it finishes. Tasks
are submitted while the planner still cuts files into pieces, so workers
start at once. Local workers are fresh interpreters (``spawn``: no inherited
threads or locks) with one polars thread each, since the workers already use
every core.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context

from parsers.workers import start_worker
from pipeline.load.files import Batch, Piece
from pipeline.load.staging import StageOptions, StageResult
from pipeline.load.tasks import stage_task

Task = tuple[int, Piece | Batch]
OnResult = Callable[[StageResult], None]
ENGINES = ("local", "dask")


def run_inline(tasks: Iterable[Task], options: StageOptions, on_result: OnResult) -> None:
    """Run every task in this process, one after another."""
    for part, task in tasks:
        for result in stage_task(part, task, options):
            on_result(result)


def run_local(
    tasks: Iterable[Task], options: StageOptions, workers: int, on_result: OnResult
) -> None:
    """Run tasks on ``workers`` local processes."""
    if workers <= 1:
        run_inline(tasks, options, on_result)
        return
    pool = ProcessPoolExecutor(
        workers,
        mp_context=get_context("spawn"),
        initializer=start_worker,  # one polars thread each; dies with this process
        initargs=(os.getpid(), 1),
    )
    pending: set[Future] = set()
    try:
        for part, task in tasks:
            pending.add(pool.submit(stage_task, part, task, options))
            done = {f for f in pending if f.done()}
            pending -= done
            _report(done, on_result)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            _report(done, on_result)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _report(done: set[Future], on_result: OnResult) -> None:
    """Hand the results of finished tasks to ``on_result``."""
    for future in done:
        for result in future.result():
            on_result(result)


def run_tasks(
    tasks: Iterable[Task],
    options: StageOptions,
    engine: str,
    workers: int,
    scheduler: str | None,
    on_result: OnResult,
) -> None:
    """Run the staging tasks on the chosen engine."""
    if engine == "dask":
        from pipeline.load.distributed import run_dask

        run_dask(tasks, options, scheduler, on_result)
    else:
        run_local(tasks, options, workers, on_result)


def run_functions(
    function: Callable,
    tasks: Iterable[tuple],
    workers: int,
    on_result: Callable,
    scheduler: str | None = None,
) -> None:
    """Run ``function(*task)`` for every task on ``workers`` local processes (inline for
    one), or on the Dask cluster at ``scheduler``, handing each result to ``on_result``
    as it finishes (``ofc review`` uses it)."""
    if scheduler is not None:
        from pipeline.load.distributed import run_dask_functions

        run_dask_functions(function, tasks, scheduler, on_result)
        return
    if workers <= 1:
        for task in tasks:
            on_result(function(*task))
        return
    pool = ProcessPoolExecutor(
        workers,
        mp_context=get_context("spawn"),
        initializer=start_worker,  # one polars thread each; dies with this process
        initargs=(os.getpid(), 1),
    )
    try:
        pending = {pool.submit(function, *task) for task in tasks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                on_result(future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
