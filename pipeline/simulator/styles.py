"""Playing styles: what each kind of bot values and how it finishes boards in its head.

A style is a set of weights over the outcome features of ``value.py``
(foul, royalties, Fantasyland, row strength, Fantasyland stay) plus the two
rollout knobs of ``rollout.py``. ``random`` plays any legal placement.

* ``tight``: a foul costs it dearly and Fantasyland is worth little, so it
  builds pairs, trips and straights on the bottom and keeps the top low;
* ``balanced``: the regular's compromise;
* ``aggressive``: Fantasyland and royalties are worth a lot and fouls little,
  so it draws to flushes and full houses on the bottom and puts ``QQ+`` on
  top early;
* ``expert``: plays ``ofc decide``'s best placement on every street and
  ``ofc solve``'s set in Fantasyland (``expert.py``); its weights here are
  not used by its own play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.simulator.value import (
    FANTASYLAND,
    FOUL,
    N_EARLY,
    N_FEATURES,
    ROW_STRENGTH,
    ROYALTIES,
    STAY,
    TOP_HIGH,
    TOP_PAIR_QQ,
)


@dataclass(frozen=True)
class Style:
    """How one kind of bot plays."""

    name: str
    foul_cost: float
    royalty_weight: float
    fantasyland_value: float  # per 13 cards of the Fantasyland earned
    row_weight: float
    stay_value: float  # staying in Fantasyland, when setting a Fantasyland hand
    chase_top: float  # rollout: bonus for pairing QQ+ on top
    flush_draw: float  # rollout: weight of following a suit
    top_pair_bonus: float = 0.0  # a QQ+ pair on top now, before the look-ahead
    top_high_bonus: float = 0.0  # each Q, K or A on top now
    random: bool = False
    expert: bool = False  # streets decided by ofc decide's rollouts (expert.py)

    def weights(self) -> np.ndarray:
        """Weights over ``value.features`` columns."""
        w = np.zeros(N_FEATURES + N_EARLY, dtype=np.float32)
        w[FOUL] = -self.foul_cost
        w[ROYALTIES] = self.royalty_weight
        w[FANTASYLAND] = self.fantasyland_value
        w[ROW_STRENGTH] = self.row_weight
        w[STAY] = self.stay_value
        w[TOP_PAIR_QQ] = self.top_pair_bonus
        w[TOP_HIGH] = self.top_high_bonus
        return w


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style(
            "tight",
            foul_cost=24.0,
            royalty_weight=0.8,
            fantasyland_value=6.0,
            row_weight=2.0,
            stay_value=6.0,
            chase_top=0.0,
            flush_draw=0.6,
        ),
        Style(
            "balanced",
            foul_cost=9.0,
            royalty_weight=1.0,
            fantasyland_value=8.0,
            row_weight=2.0,
            stay_value=10.0,
            chase_top=1.5,
            flush_draw=1.0,
        ),
        Style(
            "aggressive",
            foul_cost=4.0,
            royalty_weight=1.6,
            fantasyland_value=40.0,
            row_weight=1.0,
            stay_value=16.0,
            chase_top=4.0,
            flush_draw=2.0,
            top_pair_bonus=12.0,
            top_high_bonus=2.0,
        ),
        Style(
            "expert",
            foul_cost=30.0,
            royalty_weight=1.0,
            fantasyland_value=8.0,
            row_weight=2.0,
            stay_value=10.0,
            chase_top=1.5,
            flush_draw=1.0,
            expert=True,
        ),
        Style(
            "random",
            foul_cost=0.0,
            royalty_weight=0.0,
            fantasyland_value=0.0,
            row_weight=0.0,
            stay_value=0.0,
            chase_top=0.0,
            flush_draw=0.0,
            random=True,
        ),
    )
}
STYLE_NAMES: tuple[str, ...] = tuple(STYLES)
#: ``(styles, N_FEATURES + N_EARLY)``: row i weighs the features for ``STYLE_NAMES[i]``.
WEIGHTS = np.stack([STYLES[n].weights() for n in STYLE_NAMES])
CHASE_TOP = np.array([STYLES[n].chase_top for n in STYLE_NAMES], dtype=np.float32)
FLUSH_DRAW = np.array([STYLES[n].flush_draw for n in STYLE_NAMES], dtype=np.float32)
IS_RANDOM = np.array([STYLES[n].random for n in STYLE_NAMES])
IS_EXPERT = np.array([STYLES[n].expert for n in STYLE_NAMES])


def style_index(name: str) -> int:
    """The index of a style name in ``STYLE_NAMES``."""
    return STYLE_NAMES.index(name)
