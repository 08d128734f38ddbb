"""95% intervals, as polars expressions: Wilson for rates, Student's t for per-hand means.

The one place the interval formulas live: the import's metric tables, the
dashboard, ``ofc report`` and ``ofc audit`` all compute their intervals here,
from statistics their SQL sums (docs/metrics.md, "Intervals"). A rate is
``k`` successes in ``n`` trials; a mean comes from the count ``n``, the sum and
the sum of squares of its values. Arguments are column names or expressions;
an interval of no data is null. (Computed in polars, not pasted into SQL:
DuckDB takes far longer to plan the long expressions than to run them.)

>>> frame = pl.DataFrame({"k": [8.0, 0.0], "n": [10.0, 0.0]})
>>> frame.select(wilson_low("k", "n").round(4).alias("low"), wilson_high("k", "n").round(4)).rows()
[(0.4902, 0.9433), (None, None)]
>>> pl.select(t95(pl.Series([1, 30, 31, 359])).round(5)).to_series().to_list()
[12.7062, 2.04227, 2.03951, 1.96659]
"""

from __future__ import annotations

import polars as pl

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

Column = str | pl.Expr


def _col(value: Column) -> pl.Expr:
    return pl.col(value) if isinstance(value, str) else value


def rate(k: Column, n: Column) -> pl.Expr:
    """k / n; null without trials."""
    k, n = _col(k), _col(n)
    return pl.when(n > 0).then(k / n)


def wilson_low(k: Column, n: Column) -> pl.Expr:
    """The lower end of the Wilson score interval of ``k`` successes in ``n`` trials."""
    return _wilson(_col(k), _col(n), -1.0)


def wilson_high(k: Column, n: Column) -> pl.Expr:
    """The upper end of the Wilson score interval."""
    return _wilson(_col(k), _col(n), 1.0)


def _wilson(k: pl.Expr, n: pl.Expr, sign: float) -> pl.Expr:
    """One end of the interval, within 0..1; at 0 successes the lower end is exactly 0, at
    ``n`` the upper end exactly 1 (rounding would put them a hair off: ``-0.0%``, or a
    lower end above the figure 0).

    >>> pl.select(_wilson(pl.lit(0.0), pl.lit(112.0), -1.0)).item()
    0.0
    >>> pl.select(_wilson(pl.lit(0.0), pl.lit(5411.0), -1.0)).item()
    0.0
    """
    p, z2 = k / n, Z95 * Z95
    spread = Z95 * (p * (1 - p) / n + z2 / (4 * n * n)).sqrt()
    end = (p + z2 / (2 * n) + sign * spread) / (1 + z2 / n)
    exact = k == 0 if sign < 0 else k == n
    return pl.when(n <= 0).then(None).when(exact).then(p).otherwise(end.clip(0.0, 1.0))


def t95(df: Column) -> pl.Expr:
    """Student's t quantile 0.975 for ``df`` (>= 1) degrees of freedom."""
    df = _col(df).cast(pl.Float64)
    table = {i: t for i, t in enumerate(T_TABLE, 1)}
    small = df.cast(pl.Int64).replace_strict(table, default=None, return_dtype=pl.Float64)
    expansion = pl.lit(Z95)
    for power, coefficient in enumerate(_T, 1):
        expansion = expansion + coefficient / df.pow(power)
    return pl.when(df < 1).then(None).when(df <= len(T_TABLE)).then(small).otherwise(expansion)


def mean(total: Column, n: Column) -> pl.Expr:
    """The mean of ``n`` values summing to ``total``; null without values."""
    return rate(total, n)


#: A variance this small against the mean square is rounding, not spread: the values
#: are all the same (their sum of squares less the square of their sum leaves dust).
_NO_SPREAD = 1e-12


def sd(total: Column, squares: Column, n: Column) -> pl.Expr:
    """The sample standard deviation from the sum and the sum of squares (n > 1); exactly
    0 when the values are all the same.

    >>> pl.select(sd(pl.lit(0.3), pl.lit(0.03), pl.lit(3))).item()
    0.0
    """
    total, squares, n = _col(total), _col(squares), _col(n)
    variance = ((squares - total * total / n) / (n - 1)).clip(lower_bound=0.0)
    dust = variance <= _NO_SPREAD * squares / n
    return pl.when(n <= 1).then(None).when(dust).then(0.0).otherwise(variance.sqrt())


def mean_low(total: Column, squares: Column, n: Column) -> pl.Expr:
    """The lower end of the t interval of the mean."""
    return mean(total, n) - _half(total, squares, n)


def mean_high(total: Column, squares: Column, n: Column) -> pl.Expr:
    """The upper end of the t interval of the mean."""
    return mean(total, n) + _half(total, squares, n)


def _half(total: Column, squares: Column, n: Column) -> pl.Expr:
    return t_half(sd(total, squares, n), n)


def t_half(sd: Column, n: Column) -> pl.Expr:
    """Half the width of the 95% t interval of the mean of ``n`` values whose sample
    standard deviation is ``sd``; null when the values do not differ (``sd`` 0): their
    spread is not known, and an interval of no width would claim a precision the
    sample does not have (179 hands without a royalty do not make the mean exactly 0).
    """
    n, sd = _col(n), _col(sd)
    return pl.when(sd > 0).then(t95(n - 1) * sd / n.cast(pl.Float64).sqrt())


def at_least(low: pl.Expr, lowest: float | None) -> pl.Expr:
    """The lower end ``low`` of an interval of a figure that cannot be below ``lowest``
    (royalties, EV lost), raised to it; unchanged when ``lowest`` is None."""
    return low if lowest is None else low.clip(lower_bound=lowest)


def with_mean(frame: pl.DataFrame, name: str, total: str, squares: str, n: str) -> pl.DataFrame:
    """``frame`` with the mean ``name`` of ``total`` over ``n`` and its interval
    (``<name>_low``, ``<name>_high``)."""
    return frame.with_columns(
        mean(total, n).alias(name),
        mean_low(total, squares, n).alias(f"{name}_low"),
        mean_high(total, squares, n).alias(f"{name}_high"),
    )


def with_rate(frame: pl.DataFrame, name: str, k: str, n: str) -> pl.DataFrame:
    """``frame`` with the rate ``name`` = ``k`` / ``n`` and its Wilson interval."""
    return frame.with_columns(
        rate(k, n).alias(name),
        wilson_low(k, n).alias(f"{name}_low"),
        wilson_high(k, n).alias(f"{name}_high"),
    )
