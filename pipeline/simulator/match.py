"""Matches, the button and Fantasyland continuations at each table (docs/rules.md R6, R7, R8).

A match is one regular hand per player on the button (2 hands heads-up, 3
three-handed). After a hand in which someone enters or stays in
Fantasyland, the next hand is a Fantasyland continuation: an extra hand of
the same match, with the button where it was, or moved on when the ruleset
moves it every hand (``button_moves_in_fantasyland``). The match ends when
its regular hands are played and nobody is left in Fantasyland.

Stakes (R7): stacks carry from hand to hand, and so does what each player
has lost in the match (for a loss cap per match). A player who has lost the
whole stack, or the whole cap, sits out the rest of the match; the others
play on, the button moving round as usual (a seat that sits out keeps its
turn on the button). The match ends early when every player but one sits
out, and after any hand in which a player timed out (R8); a match that ends
early plays neither its remaining hands nor pending Fantasyland hands. A
player whose stack is gone rebuys at the start of the next match; where a
stack below the loss cap may not start a match (``stack_must_cover_cap``),
so does a player below the cap, to at least the cap.

State is kept in seat order for all tables of a chunk at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: A stack or cap at or below this is gone (sums of float points).
GONE = 1e-9


@dataclass(frozen=True, eq=False)
class HandSetup:
    """How the next hand at each table starts (seat order)."""

    new_match: np.ndarray  # (T,) this hand starts a match
    continuation: np.ndarray  # (T,) a Fantasyland continuation
    match_hand: np.ndarray  # (T,) 1.. for a regular hand, 0 for a continuation
    button: np.ndarray  # (T,) seat index of the button
    order: np.ndarray  # (T, P) seat index of position 1, 2, ..., P (the button last)
    playing: np.ndarray  # (T, P) the seat plays this hand (not sitting out)
    in_fantasyland: np.ndarray  # (T, P)
    fantasyland_cards: np.ndarray  # (T, P)
    fantasyland_repeats: np.ndarray  # (T, P)
    stacks: np.ndarray  # (T, P) stacks at the start of the hand
    match_loss: np.ndarray  # (T, P) net points lost so far in the match

    def seats_in_order(self, tables: np.ndarray) -> np.ndarray:
        """``(len(tables), k)``: the seats that play, in order of action, for tables that
        all have ``k`` players in this hand."""
        rotation = self.order[tables]
        plays = np.take_along_axis(self.playing[tables], rotation, axis=1)
        return rotation[plays].reshape(len(tables), -1)


@dataclass(frozen=True)
class Outcome:
    """A hand's results at every table, in seat order (zeros where a seat did not play)."""

    points: np.ndarray
    next_cards: np.ndarray  # Fantasyland cards earned for the next hand
    stayed: np.ndarray
    timed_out: np.ndarray


@dataclass(eq=False)
class MatchState:
    """Where every table's match stands."""

    button: np.ndarray
    regular_played: np.ndarray
    started: np.ndarray
    ending: np.ndarray
    stacks: np.ndarray
    rebuy: np.ndarray
    match_loss: np.ndarray
    out: np.ndarray
    fantasyland_cards: np.ndarray
    fantasyland_repeats: np.ndarray

    @classmethod
    def begin(cls, rng: np.random.Generator, stacks: np.ndarray, players: int) -> MatchState:
        """Tables before their first hand: a random button, everyone at ``stacks`` ``(T,)``."""
        tables = len(stacks)
        return cls(
            button=rng.integers(players, size=tables),
            regular_played=np.zeros(tables, dtype=np.int64),
            started=np.zeros(tables, dtype=bool),
            ending=np.zeros(tables, dtype=bool),
            stacks=np.repeat(stacks[:, None], players, axis=1).astype(np.float64),
            rebuy=stacks.astype(np.float64),
            match_loss=np.zeros((tables, players), dtype=np.float64),
            out=np.zeros((tables, players), dtype=bool),
            fantasyland_cards=np.zeros((tables, players), dtype=np.int64),
            fantasyland_repeats=np.zeros((tables, players), dtype=np.int64),
        )

    def next_hand(self, button_moves_in_fantasyland: bool, cover: float = 0.0) -> HandSetup:
        """Advance every table to its next hand and describe it. ``cover``: the stack a
        player needs to start a match (below it, they rebuy to at least ``cover``)."""
        players = self.stacks.shape[1]
        continuation = (self.fantasyland_cards > 0).any(axis=1)
        done = (self.regular_played >= players) | self.ending
        new_match = ~self.started | (~continuation & done)
        moves = self.started & (~continuation | button_moves_in_fantasyland)
        self.button = np.where(moves, (self.button + 1) % players, self.button)
        self.regular_played = np.where(new_match, 0, self.regular_played)
        self.ending &= ~new_match
        self.out &= ~new_match[:, None]
        self.match_loss = np.where(new_match[:, None], 0.0, self.match_loss)
        short = self.stacks < cover - GONE if cover > 0 else self.stacks <= GONE
        rebuys = new_match[:, None] & short
        self.stacks = np.where(rebuys, np.maximum(self.rebuy, cover)[:, None], self.stacks)
        self.started[:] = True
        self.regular_played += ~continuation
        order = (self.button[:, None] + np.arange(1, players + 1)) % players
        return HandSetup(
            new_match=new_match,
            continuation=continuation,
            match_hand=np.where(continuation, 0, self.regular_played),
            button=self.button.copy(),
            order=order,
            playing=~self.out,
            in_fantasyland=self.fantasyland_cards > 0,
            fantasyland_cards=self.fantasyland_cards.copy(),
            fantasyland_repeats=self.fantasyland_repeats.copy(),
            stacks=self.stacks.copy(),
            match_loss=self.match_loss.copy(),
        )

    def record(self, outcome: Outcome, table_stakes: bool, match_loss_cap: float | None) -> None:
        """Take in a hand's results (seat order): stacks, losses, Fantasyland, who sits out."""
        self.stacks = self.stacks + outcome.points
        self.match_loss = self.match_loss - outcome.points
        if table_stakes:
            self.out |= self.stacks <= GONE
        if match_loss_cap is not None:
            self.out |= self.match_loss >= match_loss_cap - GONE
        self.ending |= (~self.out).sum(axis=1) <= 1
        self.ending |= outcome.timed_out.any(axis=1)
        self.fantasyland_repeats = np.where(outcome.stayed, self.fantasyland_repeats + 1, 0)
        over = self.out | self.ending[:, None]
        self.fantasyland_cards = np.where(over, 0, outcome.next_cards).astype(np.int64)
