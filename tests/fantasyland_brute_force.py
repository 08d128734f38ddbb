"""Brute force for Fantasyland sets, with the engine's own rules (the independent path).

Every board of the dealt cards (every 13-card choice, every split into
top 3, middle 5, bottom 5) is scored by ``pipeline.rules.fouls``,
``pipeline.rules.royalties`` and ``pipeline.rules.fantasyland``; the best is the largest
``(value, bottom, middle, top)``, rows compared as the tie-break rule says.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from ofc_core.rulesets import Ruleset
from pipeline.rules.fantasyland import stays
from pipeline.rules.fouls import fouled
from pipeline.rules.rows import Rows
from pipeline.rules.royalties import row_royalties


@cache
def splits13() -> np.ndarray:
    """Every (top 3, middle 5, bottom 5) split of 13 positions: ``(72072, 13)``."""
    out = []
    for top in combinations(range(13), 3):
        rest = [p for p in range(13) if p not in top]
        for middle in combinations(rest, 5):
            bottom = [p for p in rest if p not in middle]
            out.append([*top, *middle, *bottom])
    return np.array(out, dtype=np.int64)


def best_boards(cards: list[int], ruleset: Ruleset, stay_value: float) -> dict[str, object]:
    """The best legal board's value and row keys, and how many boards were scored."""
    best = None
    for kept in combinations(range(len(cards)), 13):
        boards = np.asarray(cards)[list(kept)][splits13()]
        rows = Rows.from_codes(boards[:, :3], boards[:, 3:8], boards[:, 8:])
        lowball = ruleset.lowball_middle
        foul = fouled(rows, lowball)
        royalties = row_royalties(rows, ruleset.royalties, lowball).zero_where(foul)
        stay = ~foul & stays(rows, royalties, ruleset.fantasyland)
        value = royalties.total + np.where(stay, stay_value, 0.0)
        middle = rows.middle_lowball() if lowball else rows.middle_strength
        keys = np.stack([value, rows.bottom_strength, middle, rows.top_strength], axis=1).astype(
            np.float64
        )[~foul]
        if not len(keys):
            continue
        top = keys[np.lexsort(keys.T[::-1])[-1]]
        if best is None or tuple(top) > tuple(best):
            best = top
    return (
        None if best is None else dict(zip(("value", "bottom", "middle", "top"), best, strict=True))
    )
