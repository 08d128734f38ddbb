"""95% intervals, as SQL expressions: Wilson for rates, Student's t for per-hand means.

The one place the interval formulas live: the import's metric tables, the
dashboard, ``ofc report`` and ``ofc audit`` all paste these expressions into
their SQL (docs/metrics.md, "Intervals"). Arguments are SQL expressions; a
rate is ``k`` successes in ``n`` trials, a mean comes from the count ``n``, the
sum and the sum of squares of its values. An interval of no data is NULL.

>>> import duckdb
>>> low, high = wilson_low("8.0", "10.0"), wilson_high("8.0", "10.0")
>>> [round(v, 4) for v in duckdb.sql(f"SELECT {low}, {high}").fetchone()]
[0.4902, 0.9433]
>>> [round(duckdb.sql(f"SELECT {t95(str(df))}").fetchone()[0], 3) for df in (1, 5, 30, 1000)]
[12.706, 2.571, 2.042, 1.962]
"""

from __future__ import annotations

#: z of a two-sided 95% interval.
Z95 = 1.959964

#: Student's t quantile (0.975) for 1 to 4 degrees of freedom, where the expansion
#: below is not close enough.
_T_SMALL = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764}
#: Cornish-Fisher expansion of t(0.975, df) in 1/df around z (Abramowitz & Stegun 26.7.5).
_T1 = (Z95**3 + Z95) / 4
_T2 = (5 * Z95**5 + 16 * Z95**3 + 3 * Z95) / 96
_T3 = (3 * Z95**7 + 19 * Z95**5 + 17 * Z95**3 - 15 * Z95) / 384


def wilson_low(k: str, n: str) -> str:
    """SQL: the lower end of the Wilson score interval of ``k`` successes in ``n`` trials."""
    return _wilson(k, n, "-")


def wilson_high(k: str, n: str) -> str:
    """SQL: the upper end of the Wilson score interval."""
    return _wilson(k, n, "+")


def _wilson(k: str, n: str, sign: str) -> str:
    p, z2 = f"(({k}) / ({n}))", Z95 * Z95
    spread = f"{Z95} * sqrt({p} * (1 - {p}) / ({n}) + {z2} / (4 * ({n}) * ({n})))"
    return (
        f"(CASE WHEN ({n}) > 0 THEN ({p} + {z2} / (2 * ({n})) {sign} {spread})"
        f" / (1 + {z2} / ({n})) END)"
    )


def t95(df: str) -> str:
    """SQL: Student's t quantile 0.975 for ``df`` degrees of freedom (within 0.001)."""
    small = " ".join(f"WHEN ({df}) = {d} THEN {t}" for d, t in _T_SMALL.items())
    expansion = f"{Z95} + {_T1} / ({df}) + {_T2} / ({df}) ^ 2 + {_T3} / ({df}) ^ 3"
    return f"(CASE {small} ELSE {expansion} END)"


def mean(total: str, n: str) -> str:
    """SQL: the mean of ``n`` values summing to ``total`` (NULL without values)."""
    return f"(({total}) / nullif({n}, 0))"


def sd(total: str, squares: str, n: str) -> str:
    """SQL: the sample standard deviation from the sum and the sum of squares (n > 1)."""
    return (
        f"(CASE WHEN ({n}) > 1 THEN sqrt(greatest("
        f"(({squares}) - ({total}) * ({total}) / ({n})) / (({n}) - 1), 0)) END)"
    )


def mean_low(total: str, squares: str, n: str) -> str:
    """SQL: the lower end of the t interval of the mean."""
    return _mean_interval(total, squares, n, "-")


def mean_high(total: str, squares: str, n: str) -> str:
    """SQL: the upper end of the t interval of the mean."""
    return _mean_interval(total, squares, n, "+")


def _mean_interval(total: str, squares: str, n: str, sign: str) -> str:
    half = f"{t95(f'({n}) - 1')} * {sd(total, squares, n)} / sqrt({n})"
    return f"({mean(total, n)} {sign} {half})"


def mean_low_sd(value: str, deviation: str, n: str) -> str:
    """SQL: the lower end of the t interval from a mean and a standard deviation."""
    return f"(({value}) - {t95(f'({n}) - 1')} * ({deviation}) / sqrt({n}))"


def mean_high_sd(value: str, deviation: str, n: str) -> str:
    """SQL: the upper end of the t interval from a mean and a standard deviation."""
    return f"(({value}) + {t95(f'({n}) - 1')} * ({deviation}) / sqrt({n}))"
