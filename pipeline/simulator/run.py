"""Running a simulation: split into chunks with derived seeds, play them, in order.

A run of K hands is split into tables of ``HANDS_PER_TABLE`` hands (the last
one shorter), and tables into chunks (``tables_per_chunk``: 250 to 1,000
tables, by the run's size). Each chunk
gets its own seed stream from (seed, chunk number), so output depends on the
seed only: not on how many processes play it. Chunks run in worker
processes and come back in order; only a few are in flight at a time, so a
long run streams.
"""

from __future__ import annotations

import math
import os
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing import get_context
from typing import TypeVar

from ofc_core.errors import UserError
from ofc_core.rulesets import load_ruleset
from pipeline.simulator.chunk import ChunkSpec, run_chunk
from pipeline.simulator.model import ModelBatch
from pipeline.simulator.roster import hero_index, parse_bots

HANDS_PER_TABLE = 40
#: A chunk plays up to TABLES_PER_CHUNK tables (more per numpy call is faster), down to
#: MIN_TABLES_PER_CHUNK so that a mid-sized run still makes CHUNKS_WANTED chunks for the
#: worker processes to share.
TABLES_PER_CHUNK = 1000
MIN_TABLES_PER_CHUNK = 250
CHUNKS_WANTED = 8
#: How many runs' hand numbers ``id_base`` tells apart.
RUNS = 10**6
T = TypeVar("T")


def id_base(seed: int, run: str = "") -> int:
    """Room hand numbers of a run start here (a run holds fewer than 10**8 hands).

    Runs whose seeds differ by less than a million get different numbers;
    so do runs of one seed whose hands differ (``run`` names what else
    decides them: ruleset, players, bots...), but for a one-in-a-million
    coincidence, so two files simulated with the default seed for different
    rulesets import side by side instead of as conflicts.

    >>> id_base(0), id_base(1)
    (100000000000000, 100000100000000)
    >>> id_base(0, "classic-1-6-american") != id_base(0, "pineapple-1-6-american")
    True
    """
    key = zlib.crc32(run.encode()) if run else 0
    return (RUNS + (key + seed) % RUNS) * 10**8


def plan_chunks(
    ruleset: str,
    players: int,
    hands: int,
    seed: int,
    bots: str | Sequence[str] | None = None,
    hero: str | None = None,
    misreport_rate: float = 0.0,
    source_format: str = "jsonl",
    rules_file: str | None = None,
) -> list[ChunkSpec]:
    """The chunks of a run, after checking its options."""
    rules = load_ruleset(ruleset, rules_file)
    problem = rules.player_count_problem(players)
    if problem:
        raise UserError(f"--players {players}: {problem}")
    if hands < 0:
        raise UserError(f"--hands must be 0 or more, not {hands}")
    if not 0.0 <= misreport_rate <= 1.0:
        raise UserError(f"--misreport-rate must be between 0 and 1, not {misreport_rate}")
    spec = ",".join(bots) if isinstance(bots, list | tuple) else bots
    roster = parse_bots(spec, players, seed)
    hero_at = hero_index(roster, hero)
    tables = math.ceil(hands / HANDS_PER_TABLE)
    quotas = [HANDS_PER_TABLE] * tables
    if tables:
        quotas[-1] = hands - HANDS_PER_TABLE * (tables - 1)
    chunks = []
    per_chunk = tables_per_chunk(tables)
    first_id = id_base(seed, f"{ruleset}|{players}|{roster}|{hero_at}")
    for index, start in enumerate(range(0, tables, per_chunk)):
        chunk_quotas = tuple(quotas[start : start + per_chunk])
        chunks.append(
            ChunkSpec(
                ruleset=ruleset,
                rules_file=rules_file,
                players=players,
                roster=roster,
                hero=hero_at,
                quotas=chunk_quotas,
                seed=seed,
                index=index,
                first_hand=start * HANDS_PER_TABLE,
                id_base=first_id,
                misreport_rate=misreport_rate,
                source_format=source_format,
            )
        )
    return chunks


def tables_per_chunk(tables: int) -> int:
    """Tables per chunk for a run of ``tables`` tables: it depends on the run's size only,
    never on the number of processes, so the seed alone fixes the output.

    >>> tables_per_chunk(25_000), tables_per_chunk(5_000), tables_per_chunk(100)
    (1000, 625, 250)
    """
    wanted = -(-tables // CHUNKS_WANTED)
    return min(TABLES_PER_CHUNK, max(MIN_TABLES_PER_CHUNK, wanted))


def in_order(
    work: Callable[[ChunkSpec], T], chunks: list[ChunkSpec], workers: int = 1
) -> Iterator[T]:
    """``work(chunk)`` for each chunk, in order, ``workers`` processes at a time."""
    if workers <= 1 or len(chunks) <= 1:
        yield from map(work, chunks)
        return
    # spawn, not fork: forking a process whose polars threads hold locks can deadlock
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        yield from _bounded(pool, work, chunks, ahead=2 * workers)


def _bounded(pool: Executor, work, chunks, ahead: int) -> Iterator:
    pending: deque = deque()
    for chunk in chunks:
        pending.append(pool.submit(work, chunk))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def simulate(
    ruleset: str,
    players: int,
    hands: int,
    seed: int,
    bots: str | Sequence[str] | None = None,
    hero: str | None = None,
    misreport_rate: float = 0.0,
    workers: int = 1,
    source_format: str = "jsonl",
    rules_file: str | None = None,
) -> Iterator[ModelBatch]:
    """Simulate ``hands`` hands; yield model-table batches (one per chunk), in order.

    ``bots`` lists the roster's styles (``"tight,aggressive"`` or a list; an
    entry may be ``"Name=style"``). The same arguments give the same tables,
    whatever ``workers``.
    """
    chunks = plan_chunks(
        ruleset, players, hands, seed, bots, hero, misreport_rate, source_format, rules_file
    )
    yield from in_order(run_chunk, chunks, workers)
