"""The Monte Carlo error of a permutation p-value, and trials from a precision target.

A Monte Carlo p-value counts the trials whose statistic reached the observed one. Given the
exact permutation p-value ``p``, that count is binomial(trials, p), so with a Beta(a, b) prior
for ``p`` its posterior is Beta(a + exceeding, b + trials - exceeding). This module turns that
posterior into a highest-density interval (:meth:`MonteCarloPValue.hdi`) and into the
probability that the exact p-value is below a level (:meth:`MonteCarloPValue.probability_below`),
and turns a precision wanted before a run into a number of trials (:func:`trials_for`).

The interval is a Bayesian credible interval for the *exact* permutation p-value of the data
at hand; it covers the Monte Carlo error only, not the assumptions of the test.

This module is part of the numpy core: it imports numpy and scipy only.
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import special

from . import checks
from .checks import plain

__all__ = [
    "HDIWidth",
    "MonteCarloPValue",
    "StandardError",
    "beta_hdi",
    "beta_hdi_many",
    "hdi_of_counts",
    "trials_for",
]


def _check_prior(prior) -> tuple[float, float]:
    try:
        a, b = prior
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        raise TypeError(
            f"`prior` must be a pair (a, b) of positive numbers (a Beta prior); got {prior!r}."
        ) from None
    if not (a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)):
        raise ValueError(
            f"`prior` must be a pair (a, b) of positive finite numbers; got {prior!r}."
        )
    return a, b


def beta_hdi(a: float, b: float, level: float = 0.95) -> tuple[float, float]:
    """The highest-density interval of a Beta(a, b) distribution.

    The shortest interval holding ``level`` of the probability. When the density is
    monotone (``a <= 1`` or ``b <= 1``) the interval touches 0 or 1; otherwise its ends
    have equal density.

    Parameters
    ----------
    a, b : float
        Positive shape parameters.
    level : float
        Probability content, strictly between 0 and 1.

    Returns
    -------
    tuple of float
        ``(lower, upper)``.

    Examples
    --------
    >>> low, high = beta_hdi(1.0, 1001.0)   # no exceedance in 1000 trials, uniform prior
    >>> low, round(high * 1000, 2)
    (0.0, 2.99)
    """
    # a pure function of three floats, asked for the same counts again and again in a sweep
    return _beta_hdi(float(a), float(b), float(level))


@functools.lru_cache(maxsize=1 << 16)
def _beta_hdi(a: float, b: float, level: float) -> tuple[float, float]:
    """:func:`beta_hdi`, memoised (the same counts come back again and again in a sweep)."""
    low, high = beta_hdi_many(np.array([a]), np.array([b]), level)
    return float(low[0]), float(high[0])


def beta_hdi_many(a, b, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """:func:`beta_hdi` of many Beta(a, b) distributions at once (arrays of equal shape).

    Each element is computed by the same sequence of operations whatever the other elements
    are, so an interval does not depend on what it is computed with.

    For a unimodal density (``a, b > 1``) the interval is ``[I^-1(q), I^-1(q + level)]``
    (``I`` the regularised incomplete beta function) at the ``q`` where the log-densities
    ``l(x) = (a - 1) log x + (b - 1) log(1 - x)`` of the two ends are equal. Their
    difference ``g(q)`` decreases from ``+inf`` to ``-inf`` on ``(0, 1 - level)``, with
    ``g'(q) = l'(upper) / pdf(upper) - l'(lower) / pdf(lower)``: Newton steps, kept inside
    a shrinking bracket by bisection, until a step is below 4 ulp of ``q``.

    Examples
    --------
    >>> low, high = beta_hdi_many(np.array([1.0, 50.0]), np.array([1001.0, 952.0]))
    >>> np.round(high * 1000, 2).tolist()
    [2.99, 63.56]
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    shape = a.shape
    a, b = a.ravel(), b.ravel()
    low, high = np.empty(a.size), np.empty(a.size)
    flat = (a <= 1) & (b <= 1)  # U-shaped or flat: the central interval (no shortest one)
    low[flat] = _ppfs((1 - level) / 2, a[flat], b[flat])
    high[flat] = _ppfs((1 + level) / 2, a[flat], b[flat])
    left = (a <= 1) & ~flat  # decreasing density: starts at 0
    low[left], high[left] = 0.0, _ppfs(level, a[left], b[left])
    right = (b <= 1) & ~flat & ~left  # increasing density: ends at 1
    low[right], high[right] = _ppfs(1 - level, a[right], b[right]), 1.0
    uni = np.flatnonzero((a > 1) & (b > 1))
    if uni.size:
        low[uni], high[uni] = _unimodal_hdi(a[uni], b[uni], level)
    return low.reshape(shape), high.reshape(shape)


def _ppfs(q, a, b) -> np.ndarray:
    return special.betaincinv(a, b, np.full(a.shape, q))


def _unimodal_hdi(a, b, level, max_iter: int = 200):
    tail = 1.0 - level
    am1, bm1, lbeta = a - 1.0, b - 1.0, special.betaln(a, b)
    lo, hi = np.zeros(a.size), np.full(a.size, tail)  # bracket of the root in q
    q = np.full(a.size, tail / 2)  # start: the central interval
    out_q = np.full(a.size, np.nan)
    active = np.arange(a.size)
    for _ in range(max_iter):
        qa = q[active]
        aa, ba, la = am1[active], bm1[active], lbeta[active]
        lower = special.betaincinv(a[active], b[active], qa)
        upper = special.betaincinv(a[active], b[active], qa + level)
        l_low = special.xlogy(aa, lower) + special.xlog1py(ba, -lower)
        l_up = special.xlogy(aa, upper) + special.xlog1py(ba, -upper)
        g = l_up - l_low
        # slope: d l / dx over the density, at both ends (the density is e^(l - lbeta))
        slope = (aa / upper - ba / (1 - upper)) * np.exp(la - l_up) - (
            aa / lower - ba / (1 - lower)
        ) * np.exp(la - l_low)
        positive = g > 0
        lo[active] = np.where(positive, qa, lo[active])
        hi[active] = np.where(positive, hi[active], qa)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            step = qa - g / slope
        bad = ~np.isfinite(step) | (step <= lo[active]) | (step >= hi[active])
        step = np.where(bad, (lo[active] + hi[active]) / 2, step)
        done = (g == 0) | (np.abs(step - qa) <= 4 * np.finfo(float).eps * qa)
        done |= hi[active] - lo[active] <= 4 * np.finfo(float).eps * hi[active]
        out_q[active[done]] = np.where(g[done] == 0, qa[done], step[done])
        q[active] = step
        active = active[~done]
        if not active.size:
            break
    out_q[active] = q[active]
    return special.betaincinv(a, b, out_q), special.betaincinv(a, b, out_q + level)


def hdi_of_counts(exceeding, trials, level: float = 0.95, prior=(1, 1)):
    """:meth:`MonteCarloPValue.hdi` of many counts at once (arrays of exceedances, trials).

    Examples
    --------
    >>> low, high = hdi_of_counts(np.array([0, 49]), 1000)
    >>> bool(low[0] == 0.0), (float(low[1]), float(high[1])) == MonteCarloPValue(49, 1000).hdi()
    (True, True)
    """
    return beta_hdi_many(*_posterior(exceeding, trials, prior), checks.probability(level, "level"))


def _posterior(exceeding, trials, prior):
    """Beta posterior ``(a + exceeding, b + trials - exceeding)`` of the exact p-value."""
    a, b = _check_prior(prior)
    return a + exceeding, b + trials - exceeding


@dataclass(frozen=True)
class MonteCarloPValue:
    """A Monte Carlo p-value together with the number of trials it came from.

    Parameters
    ----------
    exceeding : int
        Number of trials whose statistic reached the observed one.
    trials : int
        Number of trials.

    Attributes
    ----------
    pvalue : float
        ``exceeding / trials`` (no +1 correction; NaN for zero trials).

    Examples
    --------
    >>> p = MonteCarloPValue(49, 1000)
    >>> p.pvalue
    0.049
    >>> low, high = p.hdi()
    >>> print(f"{low:.4f} {high:.4f}")
    0.0368 0.0636
    >>> print(f"{p.probability_below(0.05):.2f}")
    0.52
    """

    exceeding: int
    trials: int

    def __post_init__(self):
        for name in ("exceeding", "trials"):
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
                raise TypeError(f"`{name}` must be a non-negative integer; got {plain(value)!r}.")
            if value < 0:
                raise ValueError(f"`{name}` must be a non-negative integer; got {value}.")
            object.__setattr__(self, name, int(value))
        if self.exceeding > self.trials:
            raise ValueError(
                f"`exceeding` must be at most `trials`; got exceeding={self.exceeding}, "
                f"trials={self.trials}."
            )

    @classmethod
    def from_pvalue(cls, pvalue: float, trials: int) -> MonteCarloPValue:
        """Rebuild from a reported p-value and its number of trials.

        Examples
        --------
        >>> MonteCarloPValue.from_pvalue(0.049, 1000)
        MonteCarloPValue(exceeding=49, trials=1000)
        """
        trials = int(trials)
        count = float(pvalue) * trials
        exceeding = round(count)
        if not (0 <= float(pvalue) <= 1) or abs(count - exceeding) > 1e-6 * max(1.0, count):
            raise ValueError(
                f"`pvalue` times `trials` must be a whole count between 0 and trials; got "
                f"pvalue={pvalue!r}, trials={trials}."
            )
        return cls(exceeding, trials)

    @property
    def pvalue(self) -> float:
        """The p-value, ``exceeding / trials``."""
        return self.exceeding / self.trials if self.trials else math.nan

    def _posterior(self, prior) -> tuple[float, float]:
        return _posterior(self.exceeding, self.trials, prior)

    def hdi(self, level: float = 0.95, prior: tuple[float, float] = (1, 1)) -> tuple[float, float]:
        """Highest-density interval of the exact p-value given the trials.

        Parameters
        ----------
        level : float, default 0.95
            Probability content.
        prior : (float, float), default (1, 1)
            Beta prior of the exact p-value: uniform by default, ``(0.5, 0.5)`` for Jeffreys'.

        Returns
        -------
        tuple of float
            ``(lower, upper)``: the shortest interval holding ``level`` of the posterior
            Beta(a + exceeding, b + trials - exceeding). At zero exceedances it starts at 0
            (about ``3.0 / trials`` wide for the uniform prior, ``1.9 / trials`` for
            Jeffreys'); at ``exceeding == trials`` it ends at 1.

        Examples
        --------
        >>> low, high = MonteCarloPValue(0, 100_000).hdi()
        >>> low, round(high * 100_000, 1)
        (0.0, 3.0)
        >>> low, high = MonteCarloPValue(0, 100_000).hdi(prior=(0.5, 0.5))
        >>> round(high * 100_000, 1)
        1.9
        """
        level = checks.probability(level, "level")
        a, b = self._posterior(prior)
        return beta_hdi(a, b, level)

    def probability_below(self, alpha: float, prior: tuple[float, float] = (1, 1)) -> float:
        """Posterior probability that the exact p-value is below ``alpha``.

        Examples
        --------
        >>> print(f"{MonteCarloPValue(4_900, 100_000).probability_below(0.05):.2f}")
        0.93
        """
        alpha = checks.probability(alpha, "alpha")
        a, b = self._posterior(prior)
        return float(special.betainc(a, b, alpha))


def _strictly_between(value, name: str, high: float) -> float:
    """``value`` as a float in ``(0, high)``, else a TypeError or ValueError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"`{name}` must be a number strictly between 0 and {high:g}; got {plain(value)!r}."
        )
    if not (0 < float(value) < high):
        raise ValueError(f"`{name}` must be strictly between 0 and {high:g}; got {value}.")
    return float(value)


@dataclass(frozen=True)
class StandardError:
    """Target: the standard error ``sqrt(p (1 - p) / trials)`` of a p-value is at most ``se``."""

    se: float

    def __post_init__(self):
        object.__setattr__(self, "se", _strictly_between(self.se, "se", 0.5))

    def trials(self, p: float) -> int:
        """Smallest number of trials meeting the target at exact p-value ``p``."""
        need = p * (1 - p) / self.se**2
        # guard against 47500.000000001 from rounding in the division
        return max(1, math.ceil(need * (1 - 1e-12)))


@dataclass(frozen=True)
class HDIWidth:
    """Target: the HDI of a p-value (as :meth:`MonteCarloPValue.hdi`) is at most ``width`` wide.

    The count assumed is the one ``p`` implies, ``p * trials`` (not rounded).
    """

    width: float
    level: float = 0.95
    prior: tuple[float, float] = (1, 1)

    def __post_init__(self):
        object.__setattr__(self, "width", _strictly_between(self.width, "width", 1.0))
        object.__setattr__(self, "level", checks.probability(self.level, "level"))
        object.__setattr__(self, "prior", _check_prior(self.prior))

    def _width_at(self, trials: int, p: float) -> float:
        a, b = self.prior
        low, high = beta_hdi(a + p * trials, b + (1 - p) * trials, self.level)
        return high - low

    def trials(self, p: float) -> int:
        """Smallest number of trials meeting the target at exact p-value ``p``."""
        z = special.ndtri(0.5 + self.level / 2)
        guess = max(1, int((2 * z) ** 2 * p * (1 - p) / self.width**2))
        lo, hi = max(1, guess // 2), max(2, guess * 2)
        while self._width_at(lo, p) <= self.width and lo > 1:
            lo = max(1, lo // 2)
        while self._width_at(hi, p) > self.width:
            lo, hi = hi, hi * 2
        if self._width_at(lo, p) <= self.width:
            return lo
        while hi - lo > 1:  # width(lo) > target >= width(hi)
            mid = (lo + hi) // 2
            if self._width_at(mid, p) <= self.width:
                hi = mid
            else:
                lo = mid
        return hi


def trials_for(target, p: float = 0.5) -> int:
    """The number of trials that meets a precision target, decided before the run.

    Parameters
    ----------
    target : StandardError or HDIWidth
        The precision wanted. Any object with a method ``trials(p) -> int`` works, so a
        new kind of target is a class with that method.
    p : float, default 0.5
        The exact p-value assumed. 0.5 is the worst case and meets the target for every
        pair; a value near the level the pairs will be judged at (e.g. 0.05) needs fewer
        trials and meets the target near it.

    Returns
    -------
    int

    Examples
    --------
    >>> trials_for(StandardError(0.001))
    250000
    >>> trials_for(StandardError(0.001), p=0.05)
    47500
    >>> trials_for(HDIWidth(0.002), p=0.05)
    182473
    """
    p = checks.probability(p, "p")
    method = getattr(target, "trials", None)
    if not callable(method):
        raise TypeError(
            "`target` must be StandardError(se), HDIWidth(width, level, prior) or an object "
            f"with a method trials(p); got {target!r}."
        )
    return int(method(p))
