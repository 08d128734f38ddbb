"""The room ids a file has stored so far, looked up at a cost that does not grow with the file.

A hand whose room id an earlier hand of the same file has is rejected
(``hand #... appears twice in this file``), so every chunk of a file asks
which of its ids were stored by the chunks before it. Testing them against
all the ids stored so far cost a hash table of every earlier id per chunk:
for one file of a million hands, 5 of its 29 CPU seconds, growing with the
square of the file's length (``docs/benchmarks.md``).

``SeenIds`` keeps the ids in a few runs sorted by a 64-bit hash of the id
(a log-structured merge: a new run is merged into the one before it while
that one is no more than twice its size, so there are about log2 of the
chunks of runs, and each id is merged about as many times). A lookup is a
binary search per run; the rows whose hash matches are then compared by
their text, so two ids sharing a hash never pass for each other.

>>> seen = SeenIds().plus(pl.DataFrame({"room_hand_id": ["7", "9"], "n": [1, 40]}))
>>> seen = seen.plus(pl.DataFrame({"room_hand_id": ["12"], "n": [81]}))
>>> seen.matching(pl.Series(["9", "5", None, "12"])).sort("n").rows()
[('9', 40), ('12', 81)]
>>> len(seen)
3
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

#: The columns of a run's rows (as ``parsers.model.ChunkTables.stored_ids`` has them).
SCHEMA = {"room_hand_id": pl.String, "n": pl.Int64}


@dataclass(frozen=True, eq=False)
class _Run:
    """Stored ids sorted by ``hashes`` (``rows``: ``room_hand_id``, ``n`` in the same order)."""

    hashes: np.ndarray
    rows: pl.DataFrame

    @classmethod
    def of(cls, rows: pl.DataFrame) -> _Run:
        hashes = id_hashes(rows.get_column("room_hand_id"))
        order = np.argsort(hashes, kind="stable")
        return cls(hashes[order], rows[order])

    def merged(self, other: _Run) -> _Run:
        hashes = np.concatenate([self.hashes, other.hashes])
        order = np.argsort(hashes, kind="stable")
        return _Run(hashes[order], pl.concat([self.rows, other.rows])[order])

    def matching(self, hashes: np.ndarray) -> np.ndarray:
        """The positions of the rows whose hash is one of ``hashes``."""
        left = np.searchsorted(self.hashes, hashes, side="left")
        right = np.searchsorted(self.hashes, hashes, side="right")
        sizes = right - left
        ends = np.cumsum(sizes)
        return np.repeat(left - ends + sizes, sizes) + np.arange(ends[-1] if len(ends) else 0)


class SeenIds:
    """The room ids (and first line, ``n``) stored by the chunks of a file read so far.

    A value: ``plus`` returns a new one and leaves this one as it was.
    """

    def __init__(self, runs: tuple[_Run, ...] = ()) -> None:
        self._runs = runs

    def plus(self, stored: pl.DataFrame) -> SeenIds:
        """These ids and ``stored`` (``room_hand_id``, ``n``)."""
        if stored.height == 0:
            return self
        runs = [*self._runs, _Run.of(stored.select(SCHEMA.keys()).cast(SCHEMA))]
        while len(runs) > 1 and len(runs[-2].hashes) <= 2 * len(runs[-1].hashes):
            last = runs.pop()
            runs[-1] = runs[-1].merged(last)
        return SeenIds(tuple(runs))

    def matching(self, ids: pl.Series) -> pl.DataFrame:
        """The stored rows (``room_hand_id``, ``n``) whose id is one of ``ids`` (nulls match
        nothing)."""
        hashes = np.unique(id_hashes(ids))  # sorted: the searches then walk each run in order
        found = [run.rows[at] for run in self._runs if len(at := run.matching(hashes))]
        if not found:  # most chunks: no query to run
            return pl.DataFrame(schema=SCHEMA)
        return pl.concat(found).filter(pl.col("room_hand_id").is_in(ids.drop_nulls().implode()))

    def __len__(self) -> int:
        return sum(len(run.hashes) for run in self._runs)


def id_hashes(ids: pl.Series) -> np.ndarray:
    """A 64-bit hash of each id (the same id, the same hash, within a process)."""
    return ids.cast(pl.String).hash().to_numpy()
