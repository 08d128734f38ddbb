"""Matches, the button and Fantasyland continuations at each table (RULES.md R6, R7).

A match is one regular hand per player on the button (2 hands heads-up, 3
three-handed). After a hand in which someone enters or stays in
Fantasyland, the next hand is a Fantasyland continuation: an extra hand of
the same match, with the button where it was, or moved on when the ruleset
moves it every hand (``button_moves_in_fantasyland``). The match ends when
its regular hands are played and nobody is left in Fantasyland. With table
stakes a player who busts ends the match once pending Fantasyland hands are
played; a player whose stack is gone rebuys at the start of the next match.

State is kept in seat order for all tables of a chunk at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class HandSetup:
    """How the next hand at each table starts (seat order)."""

    new_match: np.ndarray  # (T,) this hand starts a match
    continuation: np.ndarray  # (T,) a Fantasyland continuation
    match_hand: np.ndarray  # (T,) 1.. for a regular hand, 0 for a continuation
    button: np.ndarray  # (T,) seat index of the button
    order: np.ndarray  # (T, P) seat index of position 1, 2, ..., P (the button last)
    in_fantasyland: np.ndarray  # (T, P)
    fantasyland_cards: np.ndarray  # (T, P)
    fantasyland_repeats: np.ndarray  # (T, P)
    stacks: np.ndarray  # (T, P) stacks at the start of the hand


@dataclass(eq=False)
class MatchState:
    """Where every table's match stands."""

    button: np.ndarray
    regular_played: np.ndarray
    started: np.ndarray
    ending: np.ndarray
    stacks: np.ndarray
    rebuy: np.ndarray
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
            fantasyland_cards=np.zeros((tables, players), dtype=np.int64),
            fantasyland_repeats=np.zeros((tables, players), dtype=np.int64),
        )

    def next_hand(self, button_moves_in_fantasyland: bool) -> HandSetup:
        """Advance every table to its next hand and describe it."""
        players = self.stacks.shape[1]
        continuation = (self.fantasyland_cards > 0).any(axis=1)
        done = (self.regular_played >= players) | self.ending
        new_match = ~self.started | (~continuation & done)
        moves = self.started & (~continuation | button_moves_in_fantasyland)
        self.button = np.where(moves, (self.button + 1) % players, self.button)
        self.regular_played = np.where(new_match, 0, self.regular_played)
        self.ending &= ~new_match
        broke = new_match[:, None] & (self.stacks <= 0)
        self.stacks = np.where(broke, self.rebuy[:, None], self.stacks)
        self.started[:] = True
        self.regular_played += ~continuation
        order = (self.button[:, None] + np.arange(1, players + 1)) % players
        return HandSetup(
            new_match=new_match,
            continuation=continuation,
            match_hand=np.where(continuation, 0, self.regular_played),
            button=self.button.copy(),
            order=order,
            in_fantasyland=self.fantasyland_cards > 0,
            fantasyland_cards=self.fantasyland_cards.copy(),
            fantasyland_repeats=self.fantasyland_repeats.copy(),
            stacks=self.stacks.copy(),
        )

    def record(
        self,
        points: np.ndarray,
        next_cards: np.ndarray,
        stayed: np.ndarray,
        table_stakes: bool,
    ) -> None:
        """Take in a hand's results (seat order): stacks, Fantasyland, busts."""
        self.stacks = self.stacks + points
        self.fantasyland_repeats = np.where(stayed, self.fantasyland_repeats + 1, 0)
        self.fantasyland_cards = next_cards.astype(np.int64)
        if table_stakes:
            self.ending |= (self.stacks <= 0).any(axis=1)
