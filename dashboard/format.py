"""Numbers as the pages print them.

>>> signed(1234.5), signed(-2.0), signed(None)
('+1,234.5', '-2', '—')
>>> percent(0.12345), count(1234567)
('12.3%', '1,234,567')
"""

from __future__ import annotations

from pipeline.load.metrics.definitions import Metric
from pipeline.report import audit
from pipeline.report.format import MISSING, figure, interval
from pipeline.report.population import Pooled

__all__ = [
    "MISSING",
    "count",
    "interval",
    "number",
    "percent",
    "signed",
    "verdict",
    "with_interval",
]

#: A verdict of ``audit.verdict`` as a page says it.
VERDICTS = {
    audit.LEAK: "worse",
    audit.STRENGTH: "better",
    audit.HIGHER: "higher",
    audit.LOWER: "lower",
    audit.IN_LINE: "no clear difference",
    audit.TOO_FEW: "too few hands",
    audit.TOO_FEW_PLAYERS: "too few players",
}


def signed(value: float | None, digits: int = 1) -> str:
    """Points with a sign and thousands separators; whole numbers without decimals.

    >>> signed(0.2, 2), signed(3.0, 2), signed(0.0)
    ('+0.20', '+3', '0')
    """
    if value is None:
        return MISSING
    if float(value).is_integer():
        return f"{value:+,.0f}" if value else "0"
    return f"{value:+,.{digits}f}"


def number(value: float | None, digits: int = 2) -> str:
    if value is None:
        return MISSING
    return f"{value:,.{digits}f}"


def percent(value: float | None, digits: int = 1) -> str:
    return MISSING if value is None else f"{100 * value:.{digits}f}%"


def count(value: int | None) -> str:
    return MISSING if value is None else f"{int(value):,}"


def value_of(pooled: Pooled | None) -> float | None:
    """The population's figure (None: none)."""
    return None if pooled is None else pooled.value


def population_interval(metric: str, pooled: Pooled | None) -> str:
    """The 95% interval of the population's figure of ``metric``."""
    return MISSING if pooled is None else interval(metric, pooled.low, pooled.high)


def population_n(pooled: Pooled | None) -> str:
    """The population's trials behind its figure."""
    return MISSING if pooled is None else count(pooled.n)


def verdict(
    metric: Metric, figures: dict, population: float | None, sample: audit.Audit | None
) -> str:
    """Whether ``figures`` (``<name>``, ``_n``, ``_low``, ``_high``) differ from the
    population's figure of ``metric``, in words: only when the 95% interval says so and the
    sample allows naming a difference at all (``sample``: the hero's audit in the view,
    ``dashboard.queries.profile``; its rule is the Coach audit's and ``ofc report``'s)."""
    short = None if sample is None else sample.shortfall
    return VERDICTS[audit.verdict(metric, figures, population, short)]


def with_interval(key: str, figures: dict) -> str:
    """A figure of ``figures`` (``<key>``, ``_low``, ``_high``, ``_n``) with its 95% interval
    and n, for a table cell.

    >>> with_interval("foul_rate", {"foul_rate": 0.1, "foul_rate_low": 0.08,
    ...     "foul_rate_high": 0.125, "foul_rate_n": 500})
    '10.0% (95%: 8.0% – 12.5%; n 500)'
    >>> with_interval("foul_rate", {"foul_rate": None, "foul_rate_n": 0})
    '—'
    """
    value = figures.get(key)
    if value is None:
        return MISSING
    low, high = figures.get(f"{key}_low"), figures.get(f"{key}_high")
    return f"{figure(key, value)} ({interval(key, low, high)}; n {count(figures[f'{key}_n'])})"
