"""Simulated OFC: real deals, bots of several styles, matches, Fantasyland, timeouts.

``simulate(ruleset, players, hands, seed, bots, ...)`` yields batches of the
hand model (``hands``, ``player_hands``, ``placements`` as Arrow tables);
``ofc simulate`` writes them as ``ofc-jsonl`` or the room text formats.
See ``docs/simulator.md``.
"""

from pipeline.simulator.model import ModelBatch
from pipeline.simulator.run import simulate

__all__ = ["ModelBatch", "simulate"]
