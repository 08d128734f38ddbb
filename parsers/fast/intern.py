"""Filing byte spans under codes of their distinct texts, inside a compiled pass.

Line parts that repeat from hand to hand (rule words, table and seat tails,
names, summary figures) are read once per distinct text. A compiled scan
files each such span with ``intern`` while its line is in the cache: equal
texts of the same kind get the same code. ``Filed`` holds the arrays the
scan fills; ``Interned`` what it filed (one span per code).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_MIX = np.uint64(0xBF58476D1CE4E5B9)
#: ``_MASKS[k]`` keeps the low ``k`` bytes of a word.
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)
#: Slots of a new table: it doubles whenever it is half full.
FIRST_SLOTS = 1024


@dataclass(frozen=True, eq=False)
class Interned:
    """The distinct texts filed: span ``[start, end)`` of each code, and its ``kind``."""

    start: np.ndarray
    end: np.ndarray
    kind: np.ndarray


@dataclass(frozen=True, eq=False)
class Filed:
    """Room for ``capacity`` distinct texts: each one's span, kind and hash."""

    start: np.ndarray
    end: np.ndarray
    kind: np.ndarray
    hash: np.ndarray

    @classmethod
    def empty(cls, capacity: int) -> Filed:
        return cls(
            np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.int8),
            np.empty(capacity, dtype=np.uint64),
        )

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays, as a compiled scan takes them (``reps`` of ``intern``)."""
        return self.start, self.end, self.kind, self.hash

    def interned(self, count: int) -> Interned:
        """The first ``count`` texts filed."""
        return Interned(self.start[:count], self.end[:count], self.kind[:count])


@numba.njit(cache=True, inline="always")
def new_table():
    """An empty table of slots for ``intern``."""
    return np.full(FIRST_SLOTS, -1, dtype=np.int64)


@numba.njit(cache=True, inline="always")
def intern(words, s, e, kind, slots, reps, n):
    """The code of the text ``[s, e)`` of ``kind`` among the ``n`` distinct texts filed so far
    (filing it if new), the new ``n`` and the table of slots. ``words[k]``: the 8 bytes at
    offset ``k`` as one integer (``Text.words``: readable up to 7 bytes past ``e``).

    The table is open addressing over hashes of the texts' 8-byte words, kept at
    most half full (doubled when it fills) and small, so it stays in the cache;
    texts with equal hashes are compared word by word, so no two texts ever
    share a code.
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
            and _same(words, s, e, rep_start[j], rep_end[j])
        ):
            return j, n, slots
        slot = (slot + 1) & mask
    slots[slot] = n
    rep_start[n], rep_end[n], rep_kind[n], rep_hash[n] = s, e, kind, h
    if 2 * (n + 1) > len(slots):
        slots = _grown(slots, rep_hash, n + 1)
    return n, n + 1, slots


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


@numba.njit(cache=True)
def _grown(slots, rep_hash, n):
    """A table twice the size holding the ``n`` texts filed."""
    grown = np.full(2 * len(slots), -1, dtype=np.int64)
    mask = len(grown) - 1
    for j in range(n):
        slot = np.int64(rep_hash[j] & np.uint64(mask))
        while grown[slot] >= 0:
            slot = (slot + 1) & mask
        grown[slot] = j
    return grown


@numba.njit(cache=True, inline="always")
def _same(words, s, e, other_s, other_e) -> bool:
    if e - s != other_e - other_s:
        return False
    for k in range(0, e - s, 8):
        keep = _MASKS[min(e - s - k, 8)]
        if (words[s + k] ^ words[other_s + k]) & keep:
            return False
    return True
