"""95% intervals, as SQL expressions: Wilson for rates, Student's t for per-hand means.

The one place the interval formulas live: the import's metric tables, the
dashboard, ``ofc report`` and ``ofc audit`` all paste these expressions into
their SQL (docs/metrics.md, "Intervals"). Arguments are SQL expressions; a
rate is ``k`` successes in ``n`` trials, a mean comes from the count ``n``, the
sum and the sum of squares of its values. An interval of no data is NULL.

>>> import duckdb
>>> low, high = wilson_low("8.0", "10.0"), wilson_high("8.0", "10.0")
>>> [round(v, 4) for v in duckdb.sql(f"SELECT {low}, {high}").fetchall()[0]]
[0.4902, 0.9433]
>>> [round(duckdb.sql(f"SELECT {t95(str(df))}").fetchall()[0][0], 5) for df in (1, 30, 31, 359)]
[12.70621, 2.04227, 2.03951, 1.96659]
"""

from __future__ import annotations

#: z of a two-sided 95% interval.
Z95 = 1.959964

#: Student's t quantile (0.975) for 1 to 30 degrees of freedom (from the density;
#: tests/t_quantile.py checks them), where the expansion below is not close enough.
T_TABLE = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
    2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.13145, 2.119905,
    2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
    2.059539, 2.055529, 2.051831, 2.048407, 2.04523, 2.042272,
)  # fmt: skip
#: Cornish-Fisher expansion of t(0.975, df) in 1/df around z (Abramowitz & Stegun
#: 26.7.5): within 2e-8 from 31 degrees of freedom on.
_T = (
    (Z95**3 + Z95) / 4,
    (5 * Z95**5 + 16 * Z95**3 + 3 * Z95) / 96,
    (3 * Z95**7 + 19 * Z95**5 + 17 * Z95**3 - 15 * Z95) / 384,
    (79 * Z95**9 + 776 * Z95**7 + 1482 * Z95**5 - 1920 * Z95**3 - 945 * Z95) / 92160,
)


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
    """SQL: Student's t quantile 0.975 for ``df`` (>= 1) degrees of freedom."""
    table = ", ".join(map(str, T_TABLE))
    expansion = " + ".join([str(Z95), *(f"{c} / ({df}) ^ {i}" for i, c in enumerate(_T, 1))])
    return (
        f"(CASE WHEN ({df}) <= {len(T_TABLE)} THEN [{table}][({df})::INTEGER] ELSE {expansion} END)"
    )


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
