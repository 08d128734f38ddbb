"""``parsers.memory.start_up_frozen``: while a parse runs, the objects alive at its start are
left out of Python's cycle collections, and taken back in when it ends."""

from __future__ import annotations

import gc
from pathlib import Path

from parsers.lines import expand
from parsers.memory import start_up_frozen
from parsers.run import Options, parse_sources

SAMPLE = Path(__file__).parents[1] / "data" / "sample" / "en"


def test_the_objects_alive_at_the_start_are_frozen_for_the_block_only() -> None:
    assert gc.get_freeze_count() == 0
    with start_up_frozen():
        frozen = gc.get_freeze_count()
        assert frozen > 1000  # the modules loaded, at least
        with start_up_frozen():  # inside another: nothing changes
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
    assert gc.get_freeze_count() == 0


def test_a_block_left_by_an_error_unfreezes() -> None:
    try:
        with start_up_frozen():
            raise RuntimeError("stop")
    except RuntimeError:
        pass
    assert gc.get_freeze_count() == 0
    with start_up_frozen():
        assert gc.get_freeze_count() > 0


def test_a_parse_runs_frozen_and_leaves_nothing_frozen() -> None:
    frozen_while_storing: list[int] = []

    def sink(name: str, rows: object) -> None:
        frozen_while_storing.append(gc.get_freeze_count())

    summaries = parse_sources(expand([str(SAMPLE)]), sink, Options())
    assert sum(f.stored for f in summaries) > 0
    assert min(frozen_while_storing) > 1000
    assert gc.get_freeze_count() == 0
