"""Metric figures as people read them: rates as percentages, points with their sign,
an em dash for a missing figure. Shared by ``ofc report``, ``ofc audit`` and the dashboard.

>>> figure("foul_rate", 0.1943), figure("points_per_hand", 1.5), figure("royalties_per_hand", 2)
('19.4%', '+1.50', '2.00')
>>> interval("foul_rate", 0.12, 0.2), interval("foul_rate", None, None)
('95%: 12.0% – 20.0%', '—')
>>> points(9789.0), points(-12.5), money(-3.456, "USD")
('+9,789', '-12.5', '-3.46 USD')
"""

from __future__ import annotations

from pipeline.load.metrics.definitions import BY_NAME

MISSING = "—"


def _is_rate(metric: str) -> bool:
    found = BY_NAME.get(metric)
    return found.is_rate if found else metric.endswith(("rate", "share"))


def figure(metric: str, value: float | None) -> str:
    """The value of ``metric`` as shown."""
    if value is None:
        return MISSING
    if _is_rate(metric):
        return f"{100 * value:.1f}%"
    if metric.startswith("points"):
        return f"{value:+,.2f}"
    return f"{value:,.2f}"


def count(value: float | None) -> str:
    """A count (of hands, trials) with thousands separators."""
    return MISSING if value is None else f"{value:,.0f}"


def interval(metric: str, low: float | None, high: float | None) -> str:
    """A 95% interval of ``metric`` as shown."""
    if low is None or high is None:
        return MISSING
    return f"95%: {figure(metric, low)} – {figure(metric, high)}"


def points(value: float | None) -> str:
    """Points with a sign; whole numbers without decimals."""
    if value is None:
        return MISSING
    if float(value).is_integer():
        return f"{value:+,.0f}" if value else "0"
    return f"{value:+,.1f}"


def money_interval(low: float | None, high: float | None, currency: str | None) -> str:
    """A 95% interval of money per hand, with its currency.

    >>> money_interval(-1.5, 2.25, "EUR"), money_interval(None, None, "EUR")
    ('-1.50 – +2.25 EUR', '—')
    """
    if low is None or high is None:
        return MISSING
    return f"{money(low, None)} – {money(high, currency)}"


def money(value: float | None, currency: str | None) -> str:
    """An amount with its sign, two decimals and its currency."""
    if value is None:
        return MISSING
    return f"{value:+,.2f} {currency or ''}".strip()
