"""Bots' placements on a regular street: candidate placements, look-ahead, the best by style.

For each deciding player (all tables at once) a bot

1. lists candidate placements of its dealt cards: the 3 rows of a Classic
   card, on the last street every legal pattern (judged exactly), otherwise
   those of ``proposals.py`` (a Pineapple shortlist; a handful for 4 or 5
   cards); a pattern proposed twice is played out once;
2. finishes each candidate board many times with random unseen cards using
   the rollout policy (``rollout.py``), the same random cards for every
   candidate so that differences are the placement's, not luck's;
3. scores the finished boards (``value.py``) with its style's weights
   (``styles.py``) and keeps the candidate with the best average.

A ``random`` bot plays a uniformly random legal pattern; an ``expert`` bot
plays ``ofc decide``'s best placement (``expert.py``).
"""

from __future__ import annotations

import numpy as np

from ofc_core.rulesets import Ruleset
from ofc_core.variants import Variant
from pipeline.simulator.candidates import legal, patterns, place
from pipeline.simulator.deal import HAND_SIZE
from pipeline.simulator.proposals import considered, shortlist
from pipeline.simulator.rollout import finish
from pipeline.simulator.sampling import unseen_cards
from pipeline.simulator.street_view import StreetView, rollout_style, row_counts
from pipeline.simulator.styles import IS_EXPERT, IS_RANDOM, WEIGHTS
from pipeline.simulator.tallies import BoardState
from pipeline.simulator.value import FOUL, N_FEATURES, chase_rank, early_features, features

#: Monte Carlo finishes per candidate, by cards dealt on the street.
SAMPLES = {1: 24, 3: 8, 4: 8, 5: 6}
#: Boards finished at once: small enough for the rollout's arrays to stay in the CPU cache.
BLOCK_BOARDS = 8192


def choose(view: StreetView, ruleset: Ruleset, rng: np.random.Generator) -> np.ndarray:
    """``(n, k)`` row per dealt card (0 top, 1 middle, 2 bottom, 3 discard) for each player."""
    n, k = view.dealt.shape
    counts = row_counts(view.boards)
    allowed = legal(counts, k, view.placed)
    choice = np.empty(n, dtype=np.int64)
    rand = IS_RANDOM[view.style]
    if rand.any():
        keys = rng.random(allowed[rand].shape) + allowed[rand]
        choice[rand] = np.argmax(keys, axis=1)
    expert = IS_EXPERT[view.style]
    if expert.any():
        # on use: pipeline.decisions builds on this package's rollout policy
        from pipeline.simulator.expert import expert_choices

        choice[expert] = expert_choices(view, np.flatnonzero(expert), ruleset, rng)
    smart = ~rand & ~expert
    if smart.any():
        sub = StreetView(
            *(a[smart] for a in (view.boards, view.dealt)),
            view.placed,
            view.known[smart],
            view.style[smart],
        )
        choice[smart] = _look_ahead(sub, counts[smart], allowed[smart], ruleset, rng)
    return patterns(k, view.placed)[choice]


def _look_ahead(
    view: StreetView,
    counts: np.ndarray,
    allowed: np.ndarray,
    ruleset: Ruleset,
    rng: np.random.Generator,
) -> np.ndarray:
    """Pattern index of the best candidate of each player, by Monte Carlo look-ahead."""
    n, k = view.dealt.shape
    empty_after = HAND_SIZE - int(counts[0].sum()) - view.placed
    every = np.broadcast_to(np.arange(allowed.shape[1]), allowed.shape)
    if empty_after == 0:
        candidates, valid, samples = every, allowed, 0
    elif k >= 4:
        candidates = considered(view, counts, ruleset, rng)
        valid, samples = np.ones(candidates.shape, dtype=bool), SAMPLES[k]
    elif k > view.placed:
        candidates = shortlist(view, allowed, ruleset)
        valid, samples = np.take_along_axis(allowed, candidates, axis=1), SAMPLES[k]
    else:
        candidates, valid, samples = every, allowed, SAMPLES[k]
    value = _values(view, counts, candidates, valid, samples, ruleset, rng)
    return candidates[np.arange(n), np.argmax(value, axis=1)]


def _values(
    view: StreetView,
    counts: np.ndarray,
    candidates: np.ndarray,
    valid: np.ndarray,
    samples: int,
    ruleset: Ruleset,
    rng: np.random.Generator,
) -> np.ndarray:
    """``(n, L)`` each candidate's worth to the player's style (-inf where not valid).

    Only valid candidates, each pattern once per player, are played out: they are
    gathered in one flat batch of boards, whoever's they are.
    """
    n, width = candidates.shape
    owner, which = np.nonzero(valid & _first_seen(candidates))
    chosen = candidates[owner, which]
    boards = place(
        view.boards[owner], counts[owner], view.dealt[owner], view.placed, chosen[:, None]
    )[:, 0]
    outcome = expected_features(view, owner, boards, chosen, samples, ruleset, rng)
    weights = WEIGHTS[view.style[owner]]
    worth = (outcome * weights[:, :N_FEATURES]).sum(axis=1)
    # high cards on top now please a chaser as far as the board is likely to stay live
    live = np.minimum(1, 4 * (1 - outcome[:, FOUL, None]))
    early = early_features(boards, chase_rank(ruleset)) * live
    worth += (early * weights[:, N_FEATURES:]).sum(axis=1)
    value = np.full((n, width), -np.inf, dtype=np.float32)
    value[owner, which] = worth
    return value


def _first_seen(candidates: np.ndarray) -> np.ndarray:
    """``(n, L)`` the candidate is not a repeat of an earlier one of the same player."""
    width = candidates.shape[1]
    earlier = np.tril(np.ones((width, width), dtype=bool), k=-1)
    return ~((candidates[:, :, None] == candidates[:, None, :]) & earlier).any(axis=2)


def expected_features(
    view: StreetView,
    owner: np.ndarray,
    boards: np.ndarray,
    chosen: np.ndarray,
    samples: int,
    ruleset: Ruleset,
    rng: np.random.Generator,
) -> np.ndarray:
    """``(M, N_FEATURES)`` mean outcome of candidate boards over ``samples`` finishes.

    ``boards`` ``(M, 13)`` are the boards after this street of the players ``owner``
    with the patterns ``chosen``; with no empty slot left (or no samples asked
    for) they are judged as they are. All boards of a player see the same cards.
    """
    empty = HAND_SIZE - int((view.boards[0] >= 0).sum()) - view.placed
    if empty == 0 or samples == 0:
        return features(boards, ruleset)
    keep = 2 if ruleset.variant in (Variant.PINEAPPLE, Variant.PINEAPPLE_27) else None
    draw = empty // 2 * 3 if keep else empty
    future = unseen_cards(view.known, draw, samples, rng)
    start = BoardState.of(view.boards)
    out = np.empty((len(boards), N_FEATURES), dtype=np.float32)
    step = max(1, BLOCK_BOARDS // samples)
    for at in range(0, len(boards), step):
        part = slice(at, at + step)
        who = owner[part]
        state = _tallies(view, start.take(who), who, chosen[part]).repeat(samples)
        state.boards = np.repeat(boards[part], samples, axis=0)
        style = rollout_style(np.repeat(view.style[who], samples), ruleset)
        finished = finish(state, future[who].reshape(-1, draw), style, keep)
        out[part] = features(finished, ruleset).reshape(-1, samples, N_FEATURES).mean(axis=1)
    return out


def _tallies(view: StreetView, state: BoardState, owner: np.ndarray, chosen: np.ndarray):
    """Rollout tallies of candidate boards: their players' ``state`` plus the dealt cards."""
    rows = patterns(view.dealt.shape[1], view.placed)[chosen]
    dealt = view.dealt[owner]
    for j in range(dealt.shape[1]):
        state.tally(dealt[:, j], rows[:, j])  # a discard (row 3) tallies nowhere
    return state
