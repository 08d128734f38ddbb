"""How hard ``ofc bench`` measures: repeats, sample sizes, random seed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BenchOptions:
    """Settings every benchmark receives.

    ``quick`` shrinks samples and repeats to a smoke run (seconds, figures
    not meaningful); ``repeat`` is how many timed runs a figure is the best of.
    """

    quick: bool = False
    repeat: int = 5
    seed: int = 0

    def sample(self, full: int, quick: int) -> int:
        """A sample size: ``full`` normally, ``quick`` in a quick run."""
        return quick if self.quick else full

    @property
    def repeats(self) -> int:
        return 1 if self.quick else self.repeat
