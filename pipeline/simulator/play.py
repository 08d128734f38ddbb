"""Playing one hand at each of many tables at once: deal, Fantasyland sets, streets (R2, R6, R8).

Arrays are ``(hands, players)`` with players in order of action. Every street
is played for all tables together: the regular players' bots decide
column-wise (``bots.py``), timed-out players are placed automatically
(``timeouts.py``), Fantasyland players set their whole hand first
(``fantasyland_set.py``). Every card placed or discarded is recorded, in the
order it happened, for the ``placements`` table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ofc_core.rulesets import Ruleset
from ofc_core.variants import STREETS
from pipeline.simulator import bots, fantasyland_set, timeouts
from pipeline.simulator.candidates import put
from pipeline.simulator.deal import DISCARD, deal_plan, take

MAX_DISCARDS = 4  # Pineapple's four streets, or a 17-card Fantasyland hand
MAX_FANTASYLAND_CARDS = 17
_ROWS_IN_ORDER = np.array([2, 1, 0])  # auto Fantasyland: bottom, middle, top (R8)


@dataclass(frozen=True, eq=False)
class Placements:
    """Every card placed or discarded, ``(hands, slots)`` in the order it happened."""

    card: np.ndarray
    row: np.ndarray  # 0 top, 1 middle, 2 bottom, 3 discard
    street: np.ndarray  # 0 for a Fantasyland hand
    position: np.ndarray  # 1-based order of action
    auto: np.ndarray
    valid: np.ndarray  # the slot holds a card


@dataclass(frozen=True, eq=False)
class PlayedHands:
    """Final boards, discards and history of ``(hands, players)``."""

    boards: np.ndarray  # (hands, players, 13): top 0-2, middle 3-7, bottom 8-12
    discards: np.ndarray  # (hands, players, MAX_DISCARDS), -1 padded
    timed_out: np.ndarray  # (hands, players)
    placements: Placements


@dataclass
class _Block:
    """Placements of one section (Fantasyland or a street) for all players."""

    card: np.ndarray  # (hands, players, width)
    row: np.ndarray
    valid: np.ndarray
    auto: np.ndarray  # (hands, players)
    street: int


def play_hands(
    ruleset: Ruleset,
    decks: np.ndarray,
    in_fantasyland: np.ndarray,
    fantasyland_cards: np.ndarray,
    style: np.ndarray,
    timed_out: np.ndarray,
    rng: np.random.Generator,
    fantasyland_repeats: np.ndarray,
) -> PlayedHands:
    """Play one hand per row of ``decks`` with the given seats and timeouts (``timeouts.plan``);
    ``fantasyland_repeats``: the stays each seat has made in a row (R6)."""
    hands, players = in_fantasyland.shape
    plan = deal_plan(ruleset.variant, in_fantasyland, fantasyland_cards)
    boards = np.full((hands * players, 13), -1, dtype=np.int8)
    discards = np.full((hands * players, MAX_DISCARDS), -1, dtype=np.int8)
    player_deck = np.repeat(decks, players, axis=0)
    fl = in_fantasyland.ravel()
    blocks = [
        _fantasyland(
            ruleset,
            player_deck,
            plan.fantasyland.ravel(),
            fl,
            fantasyland_cards.ravel(),
            style.ravel(),
            timed_out[:, :, 0].ravel(),
            boards,
            discards,
            rng,
            fantasyland_repeats.ravel(),
        )
    ]
    for s, street in enumerate(STREETS[ruleset.variant]):
        dealt = take(player_deck, plan.streets[s].ravel(), street.dealt)
        auto = timed_out[:, :, s + 1].ravel() & ~fl
        rows = np.full(dealt.shape, DISCARD, dtype=np.int8)
        counts = bots.row_counts(boards)
        rows[auto] = timeouts.auto_rows(counts[auto], street.dealt, street.placed)
        smart = ~fl & ~auto
        if smart.any():
            known = _known(boards, discards, dealt, fl, players)
            others, others_fl = _opponents(boards, fl, players)
            view = bots.StreetView(
                boards[smart],
                dealt[smart],
                street.placed,
                known[smart],
                style.ravel()[smart],
                others[smart],
                others_fl[smart],
            )
            rows[smart] = bots.choose(view, ruleset, rng)
        regular = ~fl
        boards[regular] = put(boards[regular], dealt[regular], rows[regular])
        _add_discards(discards, dealt, rows, regular)
        blocks.append(
            _Block(dealt, rows, np.broadcast_to(regular[:, None], dealt.shape), auto, street.number)
        )
    return PlayedHands(
        boards=boards.reshape(hands, players, 13),
        discards=discards.reshape(hands, players, MAX_DISCARDS),
        timed_out=np.where(in_fantasyland, timed_out[:, :, 0], timed_out[:, :, 1:].any(axis=2)),
        placements=_placements(blocks, hands, players),
    )


def _fantasyland(
    ruleset, player_deck, start, fl, cards, style, auto, boards, discards, rng, repeats
):
    """Deal and set the Fantasyland hands; the section's placements."""
    n = len(fl)
    dealt = np.full((n, MAX_FANTASYLAND_CARDS), -1, dtype=np.int8)
    rows = np.full((n, MAX_FANTASYLAND_CARDS), DISCARD, dtype=np.int8)
    valid = np.zeros((n, MAX_FANTASYLAND_CARDS), dtype=bool)
    for count in np.unique(cards[fl]):
        group = fl & (cards == count)
        hand = take(player_deck[group], start[group], int(count))
        set_rows = fantasyland_set.set_hands(hand, style[group], ruleset, rng, repeats[group])
        in_order = np.concatenate([np.repeat(_ROWS_IN_ORDER, [5, 5, 3]), [DISCARD] * (count - 13)])
        set_rows[auto[group]] = in_order
        dealt[group, :count] = hand
        rows[group, :count] = set_rows
        valid[group, :count] = True
        boards[group] = put(boards[group], hand, set_rows)
        _add_discards(discards, dealt, rows, group)
    return _Block(dealt, rows, valid, auto & fl, 0)


def _add_discards(discards, dealt, rows, mask) -> None:
    """Append each masked player's discarded cards to their discard list."""
    thrown = np.where((rows == DISCARD) & (dealt >= 0), dealt, -1)
    if not (thrown[mask] >= 0).any():
        return
    merged = np.concatenate([discards[mask], thrown[mask]], axis=1)
    order = np.argsort(merged < 0, axis=1, kind="stable")
    discards[mask] = np.take_along_axis(merged, order, axis=1)[:, :MAX_DISCARDS]


def _known(boards, discards, dealt, fl, players) -> np.ndarray:
    """``(n, 52)`` cards each player has seen: regular players' boards, own cards and discards."""
    n = len(boards)
    hands = n // players
    seen = np.zeros((hands, 53), dtype=bool)
    shown = np.where(fl[:, None], -1, boards).reshape(hands, -1)
    np.put_along_axis(seen, np.where(shown >= 0, shown, 52).astype(np.int64), True, axis=1)
    known = np.repeat(seen, players, axis=0)
    own = np.concatenate([dealt, discards], axis=1)
    np.put_along_axis(known, np.where(own >= 0, own, 52).astype(np.int64), True, axis=1)
    return known[:, :52]


def _opponents(boards, fl, players) -> tuple[np.ndarray, np.ndarray]:
    """``(n, players - 1, 13)`` the other players' boards as each player sees them (a
    Fantasyland board is hidden: -1), and ``(n, players - 1)`` whether they are in Fantasyland."""
    others = np.array([[q for q in range(players) if q != p] for p in range(players)])
    hands = len(boards) // players
    seen = np.where(fl[:, None], -1, boards).reshape(hands, players, 13)
    flags = fl.reshape(hands, players)
    return (
        seen[:, others].reshape(-1, players - 1, 13),
        flags[:, others].reshape(-1, players - 1),
    )


def _placements(blocks: list[_Block], hands: int, players: int) -> Placements:
    """Flatten the sections into per-hand slots: section by section, players in order."""
    parts: dict[str, list[np.ndarray]] = {
        k: [] for k in ("card", "row", "street", "position", "auto", "valid")
    }
    position = np.arange(1, players + 1, dtype=np.int8)
    for block in blocks:
        width = block.card.shape[1]
        shape = (hands, players, width)
        parts["card"].append(block.card.reshape(shape))
        parts["row"].append(block.row.reshape(shape))
        parts["valid"].append(block.valid.reshape(shape))
        parts["auto"].append(np.broadcast_to(block.auto.reshape(hands, players, 1), shape))
        parts["street"].append(np.full(shape, block.street, dtype=np.int8))
        parts["position"].append(np.broadcast_to(position[None, :, None], shape))
    flat = {k: np.concatenate([p.reshape(hands, -1) for p in v], axis=1) for k, v in parts.items()}
    return Placements(**flat)
