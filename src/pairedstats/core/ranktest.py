"""What the two rank tests share (:mod:`pairedstats.core.ranksum`, the rank-sum test, and
:mod:`pairedstats.core.signrank`, the signed-rank test): the fields of one test's numbers
(:class:`RankTest`), R's normal score with its continuity correction, the normal p-value and
the order statistic of the exact interval.

The normal p-value stays positive down to the smallest positive double: below the smallest
normal one (about 2.2e-308, where ``ndtr`` returns 0) it is computed from the logarithm of
the normal tail. Only where even that underflows is it 0, which stands for a p-value below
:data:`UNDERFLOW` (what the displays show, through the result's ``pvalue_bounds``).

This module imports numpy and scipy only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

__all__ = [
    "UNDERFLOW",
    "RankTest",
    "asymptotic_pvalue",
    "asymptotic_pvalues",
    "ci_tail",
    "continuity",
    "exact_ci_rank",
    "underflow_bounds",
    "z_score",
]

#: The smallest positive double: a normal p-value of 0 is below it (it underflowed).
UNDERFLOW = math.ulp(0.0)
_TINY = float(np.finfo(np.float64).tiny)


@dataclass(frozen=True, kw_only=True)
class RankTest:
    """The numbers of one rank test (one group, one comparison) that both tests report.

    Attributes
    ----------
    null_mean, null_variance : float
        Null mean and tie-corrected null variance of the rank statistic.
    z : float
        R's normal score, positive when b tends to exceed a, continuity-corrected when asked
        (0 when the null has no spread).
    pvalue : float
        p-value for the alternative (about b - a), by the method in :attr:`method`.
    shift : float
        The Hodges-Lehmann estimate of the shift of b - a (NaN when there is nothing to
        estimate it from).
    ci_low, ci_high : float
        Distribution-free interval for the shift (one end infinite for a one-sided
        alternative; NaN when there is none).
    ci_coverage : float
        Coverage the interval guarantees for continuous data: ``1 - P(miss)`` from the exact
        null on the exact path, the nominal level on the asymptotic one (NaN there when the
        level is out of reach).
    method : str
        What the test used: ``"exact"``, ``"exact-conditional"`` (exact given the tied
        midranks) or ``"asymptotic"``.
    level_reached : bool
        False when the confidence level cannot be reached with so few values: the interval
        is then the widest one the order statistics allow.
    """

    null_mean: float
    null_variance: float
    z: float
    pvalue: float
    shift: float
    ci_low: float
    ci_high: float
    ci_coverage: float
    method: str
    level_reached: bool


def continuity(dz: float, alternative: str, correction: bool) -> float:
    """R's continuity correction of ``dz``, a statistic's distance from its null mean
    (positive when b tends to exceed a): 0.5 toward the null for ``alternative``, 0 without
    ``correction``."""
    if not correction:
        return 0.0
    if alternative == "two-sided":
        return 0.5 * np.sign(dz)
    return 0.5 if alternative == "greater" else -0.5


def z_score(dz: float, sigma: float, alternative: str, correction: bool) -> float:
    """R's normal score of ``dz`` (see :func:`continuity`) for the null standard deviation
    ``sigma``: 0 when ``sigma`` is 0 (all values tied, or no non-zero difference: every
    arrangement gives the observed statistic, and the p-value is 1)."""
    return float((dz - continuity(dz, alternative, correction)) / sigma) if sigma > 0 else 0.0


def asymptotic_pvalue(z: float, sigma: float, alternative: str) -> float:
    """The normal p-value of ``z`` for ``alternative`` (1 when the null has no spread); 0
    only where it is below :data:`UNDERFLOW`."""
    if sigma <= 0:
        return 1.0
    if alternative == "greater":
        return _normal_tail(-z)
    if alternative == "less":
        return _normal_tail(z)
    return float(min(1.0, 2 * _normal_tail(-abs(z))))


def asymptotic_pvalues(z: np.ndarray, sigma: np.ndarray, alternative: str) -> np.ndarray:
    """:func:`asymptotic_pvalue` of many scores at once, the same numbers bit for bit.

    Examples
    --------
    >>> asymptotic_pvalues(np.array([1.96, -38.0, 3.0]), np.array([1.0, 1.0, 0.0]),
    ...                    "two-sided").tolist()  # the second below the smallest normal double
    [0.04999579029644087, 5.7708567e-316, 1.0]
    """
    z = np.asarray(z, dtype=np.float64)
    x = {"greater": -z, "less": z}.get(alternative, -np.abs(z))
    p = special.ndtr(x)
    small = np.flatnonzero(p < _TINY)  # below the smallest normal double: from log_ndtr
    if small.size:
        p[small] = [math.exp(special.log_ndtr(v)) for v in x[small].tolist()]
    if alternative == "two-sided":
        p = np.minimum(1.0, 2 * p)
    return np.where(np.asarray(sigma) > 0, p, 1.0)


def _normal_tail(x: float) -> float:
    """``P(Z <= x)``: scipy's ``ndtr``, and below the smallest normal double (where ``ndtr``
    returns 0) the exponential of ``log_ndtr``, which reaches the subnormal doubles."""
    p = float(special.ndtr(x))
    return p if p >= _TINY else math.exp(special.log_ndtr(x))


def underflow_bounds(pvalue: np.ndarray, method: np.ndarray) -> np.ndarray:
    """Per p-value, the bound its 0 stands for: :data:`UNDERFLOW` on the asymptotic path
    (the normal tail underflowed), 0 elsewhere (an exact p-value is never 0)."""
    asymptotic = np.asarray(method) == "asymptotic"
    return np.where(asymptotic & (np.asarray(pvalue) == 0), UNDERFLOW, 0.0)


def ci_tail(alternative: str, confidence_level: float) -> float:
    """The miss probability of each finite end of an interval at ``confidence_level``."""
    alpha = 1 - confidence_level
    return alpha / 2 if alternative == "two-sided" else alpha


def _qwilcox(p: float, cdf: np.ndarray) -> int:
    """R's ``qwilcox(p, m, n)`` from the no-ties null cdf: smallest q with cdf >= p (fuzzed)."""
    eps = 10 * np.finfo(float).eps
    if p <= 0.5:
        return int(np.searchsorted(cdf, p - eps, side="left"))
    # R sums from the top: q = mn - (smallest q' with cdf(q') > 1 - p + eps)
    x = 1 - p + eps
    q = int(np.searchsorted(cdf, x, side="right"))
    return cdf.size - 1 - q


def exact_ci_rank(alpha_tail: float, pmf: np.ndarray) -> tuple[int, float]:
    """The order statistic of the exact interval and the tail probability it leaves out.

    ``q = qwilcox(alpha_tail)`` (R sets ``q = 1`` when it is 0) from the null ``pmf`` of a
    statistic on ``0, 1, 2, ...``; the interval end is the ``q``-th smallest (or largest)
    difference or Walsh average, and ``P(U <= q - 1)`` is the probability the interval
    misses on that side.
    """
    cdf = np.cumsum(pmf)
    q = max(_qwilcox(alpha_tail, cdf), 1)
    missed = float(cdf[q - 1])  # P(U <= q - 1)
    return q, missed
