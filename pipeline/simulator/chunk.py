"""One chunk of a simulation: a group of tables played hand by hand, all tables at once.

A chunk is the unit of work of ``run.py``: it depends only on its
``ChunkSpec`` (the run's seed and the chunk's number), so chunks can run in
any process, in any order, and the output is the same. Each step plays the
next hand at every table still short of its quota: set up the hand
(``match.py``), deal and play it (``play.py``), score it (``scoring.py``),
and carry stacks, losses and Fantasyland to the next hand. Tables where a
player sits out (R7) play that hand with fewer players: each step plays the
tables in groups of equal player count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from ofc_core.rulesets import Ruleset, load_ruleset
from ofc_core.variants import STREETS
from pipeline.simulator import misreport, timeouts
from pipeline.simulator.deal import shuffled_decks
from pipeline.simulator.match import HandSetup, MatchState, Outcome
from pipeline.simulator.model import ModelBatch, StepRecord, build_tables
from pipeline.simulator.play import play_hands
from pipeline.simulator.roster import Bot
from pipeline.simulator.scoring import score
from pipeline.simulator.styles import style_index
from pipeline.simulator.tables import Tables, draw_tables

SECONDS_BETWEEN_HANDS = (40, 150)


@dataclass(frozen=True)
class ChunkSpec:
    """Everything a chunk needs; plain values, so it travels to worker processes."""

    ruleset: str
    rules_file: str | None
    players: int
    roster: tuple[Bot, ...]
    hero: int
    quotas: tuple[int, ...]  # hands to play at each table of the chunk
    seed: int
    index: int  # the chunk's number in the run
    first_hand: int  # the run-wide number of the chunk's first hand
    id_base: int  # room hand numbers are id_base + run-wide hand number
    misreport_rate: float = 0.0
    source_format: str = "jsonl"


@cache
def _ruleset(name: str, rules_file: str | None) -> Ruleset:
    return load_ruleset(name, rules_file)


@dataclass(frozen=True, eq=False)
class _Chunk:
    """What every step of a chunk shares: rules, tables, styles, state, random streams."""

    spec: ChunkSpec
    ruleset: Ruleset
    tables: Tables
    styles: np.ndarray  # (T, P) style index per seat
    state: MatchState
    game: np.random.Generator
    timeouts: np.random.Generator
    reports: np.random.Generator


def run_chunk(spec: ChunkSpec) -> ModelBatch:
    """Play the chunk's tables and return its hands as model tables."""
    ruleset = _ruleset(spec.ruleset, spec.rules_file)
    setup_rng, game, timeout_rng, reports = (
        np.random.default_rng(s) for s in np.random.SeedSequence([spec.seed, spec.index]).spawn(4)
    )
    quotas = np.array(spec.quotas)
    tables = draw_tables(setup_rng, len(quotas), spec.players, len(spec.roster), spec.hero,
                         ruleset.variant, ruleset.table_stakes)  # fmt: skip
    chunk = _Chunk(
        spec, ruleset, tables,
        np.array([style_index(b.style) for b in spec.roster])[tables.roster_index],
        MatchState.begin(setup_rng, tables.stack, spec.players), game, timeout_rng, reports,
    )  # fmt: skip
    clock = tables.start.copy()
    hand_offset = spec.first_hand + np.concatenate([[0], np.cumsum(quotas)[:-1]])
    match_first = np.zeros(len(quotas), dtype=np.int64)
    steps = []
    for step in range(int(quotas.max(initial=0))):
        setup = chunk.state.next_hand(ruleset.button_moves_in_fantasyland, ruleset.stack_to_start)
        numbers = hand_offset + step
        match_first = np.where(setup.new_match, numbers, match_first)
        live = np.flatnonzero(quotas > step)
        steps += _play_step(chunk, setup, live, numbers, match_first, clock)
        pause = setup_rng.integers(*SECONDS_BETWEEN_HANDS, size=len(quotas))
        clock = clock + pause.astype("timedelta64[s]")
    return build_tables(spec, ruleset, tables, steps)


def _play_step(
    chunk: _Chunk,
    setup: HandSetup,
    live: np.ndarray,
    numbers: np.ndarray,
    match_first: np.ndarray,
    clock: np.ndarray,
) -> list[StepRecord]:
    """Play one hand at each live table, a group of equal player count at a time; update
    the match state of those tables."""
    shape = chunk.state.stacks.shape
    outcome = Outcome(
        np.zeros(shape), np.zeros(shape, np.int64), np.zeros(shape, bool), np.zeros(shape, bool)
    )
    width = setup.playing[live].sum(axis=1)
    records = []
    for count in np.unique(width)[::-1]:
        tables = live[width == count]
        order = setup.seats_in_order(tables)
        record = _play_group(chunk, setup, tables, order, numbers, match_first, clock)
        for seat_values, position_values in (
            (outcome.points, record.results.points),
            (outcome.next_cards, record.results.next_cards),
            (outcome.stayed, record.results.stay),
            (outcome.timed_out, record.played.timed_out),
        ):
            rows = seat_values[tables]
            np.put_along_axis(rows, order, position_values, axis=1)
            seat_values[tables] = rows
        records.append(record)
    chunk.state.record(outcome, chunk.ruleset.table_stakes, chunk.ruleset.match_loss_cap)
    return records


def _play_group(
    chunk: _Chunk,
    setup: HandSetup,
    live: np.ndarray,
    order: np.ndarray,
    numbers: np.ndarray,
    match_first: np.ndarray,
    clock: np.ndarray,
) -> StepRecord:
    """Play one hand at each of ``live`` tables, players in ``order`` (seat per position)."""
    spec, ruleset = chunk.spec, chunk.ruleset

    def by_position(seat_values: np.ndarray) -> np.ndarray:
        return np.take_along_axis(seat_values[live], order, axis=1)

    in_fl = by_position(setup.in_fantasyland)
    played = play_hands(
        ruleset,
        shuffled_decks(chunk.game, len(live)),
        in_fl,
        by_position(setup.fantasyland_cards),
        by_position(chunk.styles),
        timeouts.plan(chunk.timeouts, in_fl.shape, len(STREETS[ruleset.variant])),
        chunk.game,
        by_position(setup.fantasyland_repeats),
    )
    room_ids = spec.id_base + numbers[live]
    hand_ids = np.array([f"{spec.source_format}:{i}" for i in room_ids], dtype=object)
    results = score(
        hand_ids,
        played.boards,
        in_fl,
        by_position(setup.stacks),
        by_position(setup.match_loss),
        by_position(setup.fantasyland_repeats),
        ruleset,
        np.array([bot.name for bot in spec.roster], dtype=object)[
            by_position(chunk.tables.roster_index)
        ],
        chunk.tables.point_value[live],
    )
    reported = misreport.corrupt_points(chunk.reports, results.points, spec.misreport_rate)
    # a misreported score changes the money the room reports as much, at the table's value
    misreported = (reported - results.points) * chunk.tables.point_value[live][:, None]
    return StepRecord(
        table=live,
        number=numbers[live],
        room_id=room_ids,
        hand_id=hand_ids,
        played_at=clock[live],
        button=setup.button[live],
        continuation=setup.continuation[live],
        match_hand=setup.match_hand[live],
        match_first=match_first[live],
        order=order,
        stacks=by_position(setup.stacks),
        fantasyland_cards=by_position(setup.fantasyland_cards),
        played=played,
        results=results,
        reported_points=reported,
        reported_money=results.money + misreported,
    )
