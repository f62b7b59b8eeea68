"""Chi-square tests for bucket uniformity and independence (no SciPy needed)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def _lower_gamma_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_gamma_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable with *dof* degrees of freedom."""
    if dof <= 0:
        return 1.0
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        return 1.0 - _lower_gamma_series(a, x)
    return _upper_gamma_fraction(a, x)


def goodness_of_fit(counts: Sequence[int]) -> tuple[float, float]:
    """Chi-square statistic and p-value of *counts* against the uniform distribution."""
    total = sum(counts)
    expected = total / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return statistic, chi2_sf(statistic, len(counts) - 1)


def independence(table: Sequence[Sequence[int]]) -> tuple[float, float]:
    """Chi-square statistic and p-value for independence of a contingency table's axes."""
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    total = sum(rows)
    statistic = 0.0
    for i, row in enumerate(table):
        for j, observed in enumerate(row):
            expected = rows[i] * cols[j] / total
            if expected > 0:
                statistic += (observed - expected) ** 2 / expected
    dof = (len([r for r in rows if r]) - 1) * (len([c for c in cols if c]) - 1)
    return statistic, chi2_sf(statistic, dof)
