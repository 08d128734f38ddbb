"""Filing byte spans under codes of their distinct texts, inside a compiled pass.

Line parts that repeat from hand to hand (rule words, table and seat tails,
names, summary figures) are read once per distinct text. A compiled scan
files each such span with ``intern`` while its line is in the cache: equal
texts of the same kind get the same code. ``Filed`` holds the arrays the
scan fills; ``Interned`` what it filed (one span per code).

The table of slots is sized once for every text a scan may file (at most
half full), so filing never allocates: the scans run without numba's
reference counting (``NO_NRT``), which would otherwise count references of
the arrays they hand their helpers on every line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parsers.fast.literals import same

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_MIX = np.uint64(0xBF58476D1CE4E5B9)
#: ``_MASKS[k]`` keeps the low ``k`` bytes of a word.
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)
#: Options of the compiled scans that file texts: no reference counting (they allocate
#: nothing; the caller hands them every array), which halves the time of a body scan.
NO_NRT = {"cache": True, "nogil": True, "_nrt": False}


@dataclass(frozen=True, eq=False)
class Interned:
    """The distinct texts filed: span ``[start, end)`` of each code, and its ``kind``."""

    start: np.ndarray
    end: np.ndarray
    kind: np.ndarray


@dataclass(frozen=True, eq=False)
class Filed:
    """Room for ``capacity`` distinct texts: the table of slots (``slots``, at most half
    full), and each text's span, kind and hash."""

    slots: np.ndarray
    start: np.ndarray
    end: np.ndarray
    kind: np.ndarray
    hash: np.ndarray

    @classmethod
    def empty(cls, capacity: int) -> Filed:
        """Room for ``capacity`` texts; no scan may file more.

        >>> len(Filed.empty(3).slots), len(Filed.empty(1000).slots)
        (8, 2048)
        """
        slots = 1 << max(2 * capacity - 1, 1).bit_length()
        return cls(
            np.full(slots, -1, dtype=np.int32),
            np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.int8),
            np.empty(capacity, dtype=np.uint64),
        )

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays, as a compiled scan takes them (``slots`` then ``reps`` of ``intern``)."""
        return self.slots, self.start, self.end, self.kind, self.hash

    def interned(self, count: int) -> Interned:
        """The first ``count`` texts filed."""
        return Interned(self.start[:count], self.end[:count], self.kind[:count])


@numba.njit(cache=True, inline="always")
def intern(words, s, e, kind, slots, reps, n):
    """The code of the text ``[s, e)`` of ``kind`` among the ``n`` distinct texts filed so far
    (filing it if new) and the new ``n``. ``words[k]``: the 8 bytes at offset ``k`` as one
    integer (``Text.words``: readable up to 7 bytes past ``e``); ``slots`` and ``reps`` from
    ``Filed.arrays``, which has room for every text the caller may file.

    The table is open addressing over hashes of the texts' 8-byte words, at
    most half full; texts with equal hashes are compared word by word, so no
    two texts ever share a code.
    """
    rep_start, rep_end, rep_kind, rep_hash = reps
    h = _hash(words, s, e, kind)
    mask = len(slots) - 1
    slot = np.int64(h & np.uint64(mask))
    while True:
        j = slots[slot]
        if j < 0:
            break
        if (
            rep_hash[j] == h
            and rep_kind[j] == kind
            and rep_end[j] - rep_start[j] == e - s
            and same(words, s, rep_start[j], e - s)
        ):
            return j, n
        slot = (slot + 1) & mask
    slots[slot] = n
    rep_start[n], rep_end[n], rep_kind[n], rep_hash[n] = s, e, kind, h
    return n, n + 1


@numba.njit(cache=True, inline="always")
def _hash(words, s, e, kind):
    """FNV-1a over the text's 8-byte words (the last one cut to the text), with its length
    and kind, then mixed so the low bits (the slot) depend on every byte."""
    h = (_FNV_OFFSET ^ np.uint64(kind)) * _FNV_PRIME ^ np.uint64(e - s)
    for k in range(s, e, 8):
        h = (h ^ (words[k] & _MASKS[min(e - k, 8)])) * _FNV_PRIME
    h ^= h >> np.uint64(32)
    h *= _MIX
    return h ^ (h >> np.uint64(29))
