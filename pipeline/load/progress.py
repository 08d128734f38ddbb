"""What an import tells the user while it runs: a live bar on a terminal, log lines otherwise.

On a terminal one line is redrawn (at most ten times a second): hands read,
hands per second, rejects so far and the share of bytes read. Otherwise (a
log file, a pipe, CI) a plain line is printed every ``log_every`` seconds and
at each phase, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR_WIDTH = 24
REDRAW_SECONDS = 0.1
LOG_SECONDS = 5.0


def format_rate(hands: int, seconds: float, unit: str = "hands") -> str:
    """Hands (or another ``unit``) per second, rounded for reading.

    >>> format_rate(12345, 2.0)
    '6,172 hands/s'
    """
    return f"{hands / seconds:,.0f} {unit}/s" if seconds > 0 else f"- {unit}/s"


class Progress:
    """Counts of a running import, shown as they change."""

    def __init__(
        self,
        stream: TextIO | None = None,
        interactive: bool | None = None,
        log_every: float = LOG_SECONDS,
        quiet: bool = False,
        command: str = "ofc import",
        unit: str = "hands",
        verb: str = "read",
        rejects: bool = True,
    ) -> None:
        self.command = command
        self.unit = unit
        self.verb = verb  # what is done to the units: "read", "reviewed"
        self.show_rejects = rejects  # whether a unit can be rejected (hands can, decisions not)
        self.stream = stream = stream or sys.stderr  # the one in use now, not at import
        self.interactive = stream.isatty() if interactive is None else interactive
        self.log_every = log_every
        self.quiet = quiet
        self.total_bytes = 0
        self.bytes_done = 0
        self.hands = 0
        self.rejects = 0
        self.started = time.monotonic()
        self._last_shown = 0.0
        self._bar_shown = False
        self._unshown = False  # counts added since the last line a log got

    def start(self, total_bytes: int) -> None:
        """Start counting a run of ``total_bytes`` from zero (``--watch`` starts one a round)."""
        self.total_bytes = total_bytes
        self.bytes_done = self.hands = self.rejects = 0
        self.started = time.monotonic()

    def add(self, hands: int, rejects: int, bytes_done: int) -> None:
        """Count ``hands`` read (stored or rejected), of which ``rejects`` rejected."""
        self.hands += hands
        self.rejects += rejects
        self.bytes_done += bytes_done
        self._unshown = True
        now = time.monotonic()
        wait = REDRAW_SECONDS if self.interactive else self.log_every
        if now - self._last_shown >= wait:
            self._last_shown = now
            self._show()

    def _line(self) -> str:
        elapsed = time.monotonic() - self.started
        share = self.bytes_done / self.total_bytes if self.total_bytes else 1.0
        rejected = f"rejected {self.rejects:,}  " if self.show_rejects else ""
        rate = format_rate(self.hands, elapsed, self.unit)
        return f"{self.hands:,} {self.unit}  {rate}  {rejected}{share:.0%}"

    def _show(self) -> None:
        if self.quiet:
            return
        if self.interactive:
            share = self.bytes_done / self.total_bytes if self.total_bytes else 1.0
            filled = round(BAR_WIDTH * min(share, 1.0))
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            self.stream.write(f"\r[{bar}] {self._line()}\x1b[K")
            self._bar_shown = True
        else:
            self.stream.write(f"{self.command}: {self.verb} {self._line()}\n")
            self._unshown = False
        self.stream.flush()

    def phase(self, text: str) -> None:
        """Say what the import does now (loading, swapping in, ...)."""
        if self.quiet:
            return
        self._end_bar()
        self.stream.write(f"{self.command}: {text}\n")
        self.stream.flush()

    def _end_bar(self) -> None:
        """Show the last counts: the bar redrawn and ended, or a log's last line."""
        if self._unshown and not self.interactive:
            self._show()
        if self._bar_shown:
            self._show()
            self.stream.write("\n")
            self._bar_shown = False

    def close(self) -> None:
        self._end_bar()
