"""Numbers as the pages print them.

>>> signed(1234.5), signed(-2.0), signed(None)
('+1,234.5', '-2', '—')
>>> percent(0.12345), count(1234567)
('12.3%', '1,234,567')
"""

from __future__ import annotations

from pipeline.load.metrics.definitions import Metric
from pipeline.report import audit
from pipeline.report.format import MISSING, interval

__all__ = ["MISSING", "count", "interval", "number", "percent", "signed", "verdict"]

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


def verdict(metric: Metric, figures: dict, population: float | None) -> str:
    """Whether ``figures`` (``<name>``, ``_n``, ``_low``, ``_high``) differ from the
    population's figure of ``metric``, in words: only when the 95% interval says so."""
    return VERDICTS[audit.verdict(metric, figures, population)]
