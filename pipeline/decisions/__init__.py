"""Decisions: the best play of a hand and what it is worth (issue 10).

``ofc decide`` values every legal placement of a street by rollouts; ``ofc solve``
sets a Fantasyland hand exactly. See ``docs/decisions.md``.
"""

from ofc_core import kernel_cache

kernel_cache.use()  # before any module of the package defines a compiled kernel
