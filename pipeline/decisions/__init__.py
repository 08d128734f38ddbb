"""Decision review: the expected value of every legal placement of a street (``ofc decide``).

See ``docs/decisions.md``.
"""
