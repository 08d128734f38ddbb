"""The plausible range of every number and date the parsers accept, per field.

A room's file can say anything: a stack of 400 nines (``inf`` as a float),
a 42-digit stake, a match hand number too long for an integer, the year 0.
Stored, such values poison every sum and every date the tools compute, so a
hand holding one is rejected with a reason naming the field and its bound
(``docs/parsers.md`` lists them). ``parsers.formats.en`` and ``.ru`` reject
the line, the fast path leaves the hand to them (``parsers.fast.fields``),
and ``parsers.jsonl_checks`` says the same of JSON fields.

Numbers are compared as floats read from the text, so a number too long
for an integer is out of range rather than null, and NaN and infinities
are never within a bound.

>>> frame = pl.DataFrame({"g": ["150", "9" * 400, "-3", None]})
>>> frame.select(problem([(STACK, pl.col("g"), pl.col("g").cast(pl.Float64))])).to_series().to_list()
[None, 'stack 99999999999999999999… is outside -1,000,000..1,000,000', None, None]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

#: The longest number text a reason quotes whole.
_QUOTED = 20


@dataclass(frozen=True)
class Bound:
    """The closed range ``low..high`` a field's value must lie in."""

    field: str
    low: float
    high: float

    def broken(self, value: pl.Expr) -> pl.Expr:
        """Whether a value (a float; null: absent) lies outside (NaN and infinities do)."""
        return value.is_not_null() & ~(value.is_between(self.low, self.high) & value.is_finite())

    def reason(self, text: pl.Expr) -> pl.Expr:
        """``<field> <text> is outside <low>..<high>``, a long text cut short."""
        quoted = pl.when(text.str.len_chars() > _QUOTED).then(
            text.str.slice(0, _QUOTED) + pl.lit("…")
        )
        return pl.format(
            f"{self.field} {{}} is outside {_plain(self.low)}..{_plain(self.high)}",
            quoted.otherwise(text),
        )


def _plain(value: float) -> str:
    """``1,000,000``, ``0.5``: how a bound is written in a reason."""
    return f"{int(value):,}" if value == int(value) else f"{value:,}"


#: Negative: a match played without table stakes runs a stack below zero.
STACK = Bound("stack", -1_000_000, 1_000_000)
POINTS = Bound("points", -1_000_000, 1_000_000)
ROYALTIES = Bound("royalties", -10_000, 10_000)
MONEY = Bound("money", -1e10, 1e10)
POINT_VALUE = Bound("stake per point", 0, 10_000)
MAX_PLAYERS = Bound("table size", 2, 10)
BUTTON_SEAT = Bound("button seat", 1, 10)
SEAT = Bound("seat", 1, 10)
MATCH_HAND = Bound("match hand number", 1, 10_000)
MATCH_HANDS = Bound("match length", 1, 10_000)
#: Wide: the ruleset says which counts it deals (R6), with a better reason.
FANTASYLAND_CARDS = Bound("Fantasyland cards", 1, 99)
#: The plausible clock dates (local, as written): OFC was first played in the 2010s; the
#: upper end is fixed, not "today", so a file reads the same on any day.
FIRST_DAY = dt.datetime(2000, 1, 1)
LAST_DAY = dt.datetime(2099, 12, 31, 23, 59, 59)
YEARS = f"{FIRST_DAY.year}..{LAST_DAY.year}"


def problem(checks: list[tuple[Bound, pl.Expr, pl.Expr]]) -> pl.Expr:
    """The reason of the first ``(bound, text, value)`` broken; null when all hold."""
    return pl.coalesce(
        [pl.when(bound.broken(value)).then(bound.reason(text)) for bound, text, value in checks]
    )


def integer(text: pl.Expr) -> pl.Expr:
    """Digits as a float: a number too long for an integer is out of bounds, not null."""
    return text.cast(pl.Float64, strict=False)


def of_groups(*checks: tuple[Bound, str, Callable[[pl.Expr], pl.Expr]]) -> pl.Expr:
    """``problem`` of ``(bound, group, reader)``: a capture group's text, read by ``reader``."""
    return problem([(b, pl.col(g), read(pl.col(g))) for b, g, read in checks])


_DAYS = dict(enumerate([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], start=1))


def clock_problem(
    year: pl.Expr, month: pl.Expr, day: pl.Expr, hour: pl.Expr, minute: pl.Expr, second: pl.Expr
) -> pl.Expr:
    """Why a clock reading (integer parts) is no time to store, or null: no such date, a
    time out of range, or a date outside the plausible years ``YEARS``."""
    leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
    month_days = month.replace_strict(_DAYS, default=0, return_dtype=pl.Int64) - (
        (month == 2) & ~leap
    ).cast(pl.Int64)
    date = pl.format("{}/{}/{}", year.cast(pl.String).str.zfill(4), _two(month), _two(day))
    return (
        pl.when(~month.is_between(1, 12) | ~day.is_between(1, month_days))
        .then(pl.format("no such date {} (year/month/day) in the header", date))
        .when((hour > 23) | (minute > 59) | (second > 59))
        .then(
            pl.format(
                "time {}:{}:{} out of range in the header", _two(hour), _two(minute), _two(second)
            )
        )
        .when(~year.is_between(FIRST_DAY.year, LAST_DAY.year))
        .then(pl.format(f"date {{}} outside the plausible range {YEARS}", date))
    )


def clock_text_problem(clock: pl.Expr, at: dict[str, int]) -> pl.Expr:
    """``clock_problem`` of a clock text whose parts start at fixed offsets ``at`` (keys
    ``year`` (4 digits), ``month``, ``day``, ``hour``, ``minute``, ``second`` (2 digits))."""
    parts = {
        name: clock.str.slice(start, 4 if name == "year" else 2).cast(pl.Int64, strict=False)
        for name, start in at.items()
    }
    return clock_problem(*(parts[k] for k in ("year", "month", "day", "hour", "minute", "second")))


def _two(number: pl.Expr) -> pl.Expr:
    return number.cast(pl.String).str.zfill(2)
