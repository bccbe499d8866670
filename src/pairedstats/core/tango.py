"""Tango's score interval of the difference of two paired rates (:func:`tango_interval`).

The paired 2 x 2 table of :mod:`pairedstats.core.mcnemar`: ``only_a`` and ``only_b`` items
that only system a, only system b gets right among ``n``; the difference is ``rate_b - rate_a
= (only_b - only_a) / n``.

Tango's score interval (:func:`tango_interval`)
-----------------------------------------------
Tango (1998) inverts the score test of ``H: rate_b - rate_a = delta``. With ``x = only_b``,
``y = only_a`` (Tango's ``b`` and ``c``), the multinomial maximum likelihood estimate of the
probability of ``only_a`` under ``H`` is the root in ``[0, 1]`` of ``2 n q^2 + W q - y
delta (1 - delta) = 0``,

    q(delta) = (sqrt(W^2 + 8 n y delta (1 - delta)) - W) / (4 n),
    W = -x - y + (2 n - x + y) delta,

and the score statistic is

    T(delta) = (x - y - n delta) / sqrt(n (2 q(delta) + delta (1 - delta))).

``T`` decreases from ``+inf`` at ``delta = -1`` to ``-inf`` at ``delta = 1`` (or reaches 0
there when the table sits on that bound), and the interval at level ``1 - alpha`` is
``{delta : |T(delta)| <= z_{1 - alpha / 2}}``, its ends found by root finding (:func:`brentq`
on ``arctan T``, which is finite at the ends). One-sided intervals solve ``T = z_{1 - alpha}``
(or ``-z_{1 - alpha}``) and keep the other end at the bound of the parameter, -1 or 1, as R's
``binom.test`` and ``prop.test`` do. The interval lies in ``[-1, 1]``, holds the estimate,
and stays informative where the Wald interval collapses: with no discordant item it is
``+-z^2 / (n + z^2)``, not the point 0; with all items discordant one way it still extends
inward from the bound.

References
----------
* Tango, T. (1998). Equivalence test and confidence interval for the difference in
  proportions for the paired-sample design. *Statistics in Medicine* 17(8), 891-908.
* Newcombe, R. G. (1998). Improved confidence intervals for the difference between binomial
  proportions based on paired data. *Statistics in Medicine* 17(22), 2635-2650 (why the
  Wald interval fails here: limits outside [-1, 1], and a point at no discordant pair).
* Rao, J. N. K. and Scott, A. J. (1992). A simple method for the analysis of clustered
  binary data. *Biometrics* 48(2), 577-585 (``design_effect``).

This module imports numpy and scipy only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from .inference import ALTERNATIVES

__all__ = ["Interval", "tango_interval", "tango_score"]


def _check(value: str, name: str, choices) -> str:
    if value not in choices:
        raise ValueError(
            f"`{name}` must be one of {', '.join(map(repr, choices))}; got {value!r}."
        )
    return value


def _count(value, name: str) -> int:
    if isinstance(value, bool | np.bool_) or int(value) != value or value < 0:
        raise ValueError(f"`{name}` must be a non-negative integer; got {value!r}.")
    return int(value)


def tango_score(delta, only_a: int, only_b: int, n_items: int) -> np.ndarray:
    """Tango's (1998) score statistic ``T(delta)`` of ``H: rate_b - rate_a = delta``.

    Positive when the table's difference exceeds ``delta``; ``+inf`` (``-inf``) where the
    variance under ``H`` vanishes at a bound the data lie inside of, 0 at the estimate.

    Parameters
    ----------
    delta : float or array_like
        Values in ``[-1, 1]``.
    only_a, only_b, n_items : int
        The discordant counts and the number of items.

    Returns
    -------
    ndarray of float
        ``T`` at each ``delta``.

    Examples
    --------
    >>> float(tango_score(0.0, 3, 9, 32)) ** 2  # McNemar's chi-square at delta = 0
    3.0
    >>> tango_score([-1.0, 1.0], 3, 9, 32).tolist()
    [inf, -inf]
    """
    x, y, n = float(only_b), float(only_a), float(n_items)
    d = np.asarray(delta, dtype=np.float64)
    spread = d * (1.0 - d)
    w = -x - y + (2.0 * n - x + y) * d
    root = np.sqrt(np.maximum(w * w + 8.0 * n * y * spread, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        # the root of 2 n q^2 + W q - y delta (1 - delta) = 0 in [0, 1], the form without
        # cancellation on each side of W = 0
        q = np.where(w > 0, 2.0 * y * spread / (root + w), (root - w) / (4.0 * n))
        q = np.where(np.isfinite(q), q, 0.0)
        variance = np.maximum(n * (2.0 * q + spread), 0.0)
        num = x - y - n * d
        t = np.where(variance > 0, num / np.sqrt(variance), np.sign(num) * np.inf)
    return np.where(num == 0, 0.0, t)


@dataclass(frozen=True, kw_only=True)
class Interval:
    """A confidence interval of ``rate_b - rate_a`` (:func:`tango_interval`).

    Attributes
    ----------
    low, high : float
        Its ends, in ``[-1, 1]``; one of them the bound (-1 or 1) for a one-sided
        ``alternative``.
    """

    low: float
    high: float


def tango_interval(
    only_a: int,
    only_b: int,
    n_items: int,
    *,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    design_effect: float = 1.0,
) -> Interval:
    """Tango's (1998) score interval of the difference of paired rates, ``rate_b - rate_a``.

    Parameters
    ----------
    only_a, only_b : int
        Items only a, only b gets right.
    n_items : int
        Items in all (at least ``only_a + only_b``, at least 1).
    confidence_level : float, default 0.95
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"greater"`` gives ``(low, 1)``, ``"less"`` ``(-1, high)``, each end at the
        one-sided level.
    design_effect : float, default 1.0
        Divides the score statistic's variance into ``design_effect`` times it (the
        Rao-Scott adjustment of clustered items, :func:`cluster_design_effect`): the
        interval of the table with every count divided by it.

    Returns
    -------
    Interval

    Examples
    --------
    Tango's example of one discordant item in 44 (90%):

    >>> ci = tango_interval(1, 0, 44, confidence_level=0.9)
    >>> round(ci.low, 3), round(ci.high, 3)
    (-0.096, 0.037)

    No discordant item: the interval is ``+-z^2 / (n + z^2)``, not a point:

    >>> ci = tango_interval(0, 0, 20)
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.1611, 0.1611)
    """
    alternative = _check(alternative, "alternative", ALTERNATIVES)
    if not 0.0 < confidence_level < 1.0:
        raise ValueError(
            f"`confidence_level` must be strictly between 0 and 1; got {confidence_level!r}."
        )
    if not (np.isfinite(design_effect) and design_effect > 0):
        raise ValueError(f"`design_effect` must be positive; got {design_effect!r}.")
    x, y, n = _count(only_b, "only_b"), _count(only_a, "only_a"), _count(n_items, "n_items")
    if n < 1 or x + y > n:
        raise ValueError(
            f"`n_items` must be at least 1 and at least only_a + only_b = {x + y}; got {n}."
        )
    tail = 1.0 - confidence_level
    z = float(special.ndtri(1.0 - (tail / 2.0 if alternative == "two-sided" else tail)))
    target = math.atan(z * math.sqrt(design_effect))
    estimate = (x - y) / n

    def gap(d: float) -> float:  # arctan keeps the infinite ends finite for brentq
        return math.atan(float(tango_score(d, y, x, n))) - sign * target

    def root(a: float, b: float) -> float:
        """The end between ``a`` and ``b``; where ``gap`` does not change sign there (a
        one-sided level of 0.5: ``z = 0``, the end is the estimate, at which ``T`` is 0 up
        to rounding), the end of the two nearer the target."""
        fa, fb = gap(a), gap(b)
        if fa * fb > 0:
            return a if abs(fa) <= abs(fb) else b
        return optimize.brentq(gap, a, b, xtol=1e-15, rtol=4 * np.finfo(float).eps)

    low, high = -1.0, 1.0
    if alternative != "less" and estimate > -1.0:
        sign = 1.0
        low = root(-1.0, estimate)
    if alternative != "greater" and estimate < 1.0:
        sign = -1.0
        high = root(estimate, 1.0)
    return Interval(low=float(low), high=float(high))
