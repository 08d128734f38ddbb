"""Compiling the fast reader before its first use, and saying so when that happens.

The fast reader's kernels (numba, ``cache=True``) are compiled on the first
run on a machine and cached on disk, in a folder per version of their
sources (``ofc_core.kernel_cache``); compiling takes about half a minute of CPU. ``make install``
runs ``python -m pipeline.cli.warmup`` so that a user's first import does
not wait for it; it compiles the kernels of ``ofc decide``, ``ofc review`` and
``ofc solve`` too (about 50 s more), which otherwise compile in their first
run (``ofc decide`` and ``ofc solve`` then say so on standard error). An
import that still has to compile says so once, on standard error, and
compiles in its own process before any worker process starts (each worker
would otherwise compile the same kernels again).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time
from collections.abc import Iterator
from typing import TextIO

from numba.core.registry import CPUDispatcher

import parsers.fast

#: Modules holding compiled kernels of the fast reader.
KERNEL_MODULES = (
    "parsers.lines",
    *(f"parsers.fast.{m.name}" for m in pkgutil.iter_modules(parsers.fast.__path__)),
)


#: Modules holding compiled kernels of ``ofc decide`` (and ``ofc review``).
DECIDE_MODULES = (
    "pipeline.decisions.showdown",
    "pipeline.decisions.policy",
    "pipeline.decisions.rollout_kernel",
)
#: Modules holding compiled kernels of ``ofc solve``.
SOLVE_MODULES = ("pipeline.decisions.fantasyland_kernel",)


def _kernels(modules: tuple[str, ...] = KERNEL_MODULES) -> Iterator[CPUDispatcher]:
    """Cached kernels compiled on their own (inlined ones compile into their callers)."""
    for name in modules:
        for value in vars(importlib.import_module(name)).values():
            if (
                isinstance(value, CPUDispatcher)
                and value.__module__ == name
                and value.targetoptions.get("inline", "never") == "never"
                and getattr(value, "_cache", None) is not None
            ):
                yield value


def needs_compiling(modules: tuple[str, ...] = KERNEL_MODULES) -> bool:
    """Whether some kernel of ``modules`` has no compiled code in numba's cache yet."""
    try:
        return any(not os.path.exists(k._cache._cache_file._index_path) for k in _kernels(modules))
    except AttributeError:  # another numba's layout: we cannot tell, so say nothing
        return False


def warm_up() -> None:
    """Compile every kernel by reading a few simulated hands of each format through the fast
    reader."""
    from parsers.fast import FORMATS, read
    from parsers.lines import count_lines
    from pipeline.simulator import simulate
    from pipeline.simulator.output import RENDERERS

    for ruleset, players in (("pineapple-progressive-american", 3), ("classic-1-6-american", 4)):
        batch = next(iter(simulate(ruleset, players, 6, seed=1, source_format="en")))
        tables = batch.as_dict()
        hero = tables["player_hands"]["player"][0].as_py()
        for fmt in FORMATS:
            hands = RENDERERS[fmt](
                tables["hands"], tables["player_hands"], tables["placements"], hero
            )
            text = ("\n\n".join(hands) + "\n").encode()
            count_lines(text)
            read(text, 1, "warm-up", None, None, fmt)


def ensure_compiled(stream: TextIO | None = None, quiet: bool = False) -> None:
    """Compile the kernels now if they are not cached, saying so unless ``quiet``."""
    if not needs_compiling():
        return
    say = (lambda text: None) if quiet else _printer(stream or sys.stderr)
    say(
        "ofc: compiling the fast reader of hand histories "
        "(once per installation, about half a minute)..."
    )
    started = time.monotonic()
    warm_up()
    say(f"ofc: compiled in {time.monotonic() - started:.0f} s")


def warm_up_decisions() -> None:
    """Compile the kernels of ``ofc decide`` (and ``ofc review``) and ``ofc solve`` by
    valuing one street and setting one Fantasyland hand (about 50 s of CPU, 2026-12)."""
    from ofc_core.rulesets import load_ruleset
    from pipeline.decisions.decide import decide
    from pipeline.decisions.fantasyland_solver import fantasyland_card_counts, solve_fantasyland
    from pipeline.decisions.situation import read_situations
    from pipeline.decisions.solve_input import read_requests

    name = "pineapple-1-6-american"
    ruleset = load_ruleset(name)
    situation = '{"hero": {"cards": "Ah Kd 7c 7d 2s"}, "opponents": [{"top": ""}]}'
    for each in read_situations(situation, ruleset):
        decide(each, ruleset, rollouts=2, seed=0)
    hand = '{"cards": "As Ah Ad Kc Kd 9s 9h 9d 9c 7h 6h 5h 4h 3h"}'
    for request in read_requests(hand, fantasyland_card_counts(ruleset), name):
        solve_fantasyland(request.cards, ruleset, None, request.dead, request.repeats)


def ensure_decisions_compiled(stream: TextIO | None = None) -> None:
    """Compile the decision and solver kernels now if they are not cached, saying so."""
    if not needs_compiling(DECIDE_MODULES + SOLVE_MODULES):
        return
    say = _printer(stream or sys.stderr)
    say("ofc: compiling the decision kernels of ofc decide, review and solve (about a minute)...")
    started = time.monotonic()
    warm_up_decisions()
    say(f"ofc: compiled in {time.monotonic() - started:.0f} s")


def announce_compiling(what: str, modules: tuple[str, ...], stream: TextIO | None = None) -> None:
    """Say on standard error (never standard output, which carries the results) that the
    kernels of ``modules`` compile now, when numba's cache does not hold them yet: the
    first ``ofc decide`` or ``ofc solve`` on a machine compiles them as it runs."""
    if not needs_compiling(modules):
        return
    _printer(stream or sys.stderr)(
        f"ofc: compiling {what} (once per installation, up to about a minute); "
        "later runs start at once..."
    )


def _printer(stream: TextIO):
    def say(text: str) -> None:
        print(text, file=stream, flush=True)

    return say


if __name__ == "__main__":
    ensure_compiled(sys.stdout)
    ensure_decisions_compiled(sys.stdout)
