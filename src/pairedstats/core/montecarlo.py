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

__all__ = ["HDIWidth", "MonteCarloPValue", "StandardError", "beta_hdi", "trials_for"]


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


def _check_probability(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a number strictly between 0 and 1; got {value!r}.")
    value = float(value)
    if not 0 < value < 1:
        raise ValueError(f"`{name}` must be strictly between 0 and 1; got {value}.")
    return value


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
    """:func:`beta_hdi`, memoised."""
    if a <= 1 and b <= 1:
        # U-shaped or flat: the density is highest at the ends; no single shortest interval
        # that is an interval exists (for a = b = 1 every interval of length level ties).
        # Report the central interval, which is what a flat posterior suggests.
        return _ppf((1 - level) / 2, a, b), _ppf((1 + level) / 2, a, b)
    if a <= 1:
        return 0.0, _ppf(level, a, b)
    if b <= 1:
        return _ppf(1 - level, a, b), 1.0
    # Unimodal: the width ppf(q + level) - ppf(q) is smallest where the densities at the two
    # ends are equal; log pdf(upper) - log pdf(lower) decreases from +inf to -inf in q.
    tail = 1 - level

    inv = special.betaincinv
    big = 1e300

    def gap(q: float) -> float:
        # log pdf(upper) - log pdf(lower), with the normalising constant cancelled; plain
        # floats and math (this runs ~10 times per interval, thousands of intervals a call)
        lower, upper = float(inv(a, b, q)), float(inv(a, b, q + level))
        lo_log = (
            (a - 1) * math.log(lower) + (b - 1) * math.log1p(-lower) if 0 < lower < 1 else None
        )
        hi_log = (
            (a - 1) * math.log(upper) + (b - 1) * math.log1p(-upper) if 0 < upper < 1 else None
        )
        if lo_log is None and hi_log is None:
            return 0.0
        if lo_log is None:
            return big if lower <= 0 else -big
        if hi_log is None:
            return -big if upper >= 1 else big
        return min(big, max(-big, hi_log - lo_log))

    from scipy import optimize  # imported on first use: ~0.1 s at import time

    q = optimize.brentq(gap, 0.0, tail, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=200)
    return _ppf(q, a, b), _ppf(q + level, a, b)


def _ppf(q: float, a: float, b: float) -> float:
    return float(special.betaincinv(a, b, q))


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
                raise TypeError(f"`{name}` must be a non-negative integer; got {value!r}.")
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
        a, b = _check_prior(prior)
        return a + self.exceeding, b + self.trials - self.exceeding

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
        level = _check_probability(level, "level")
        a, b = self._posterior(prior)
        return beta_hdi(a, b, level)

    def probability_below(self, alpha: float, prior: tuple[float, float] = (1, 1)) -> float:
        """Posterior probability that the exact p-value is below ``alpha``.

        Examples
        --------
        >>> print(f"{MonteCarloPValue(4_900, 100_000).probability_below(0.05):.2f}")
        0.93
        """
        alpha = _check_probability(alpha, "alpha")
        a, b = self._posterior(prior)
        return float(special.betainc(a, b, alpha))


@dataclass(frozen=True)
class StandardError:
    """Target: the standard error ``sqrt(p (1 - p) / trials)`` of a p-value is at most ``se``."""

    se: float

    def __post_init__(self):
        se = self.se
        if isinstance(se, (bool, np.bool_)) or not isinstance(se, numbers.Real):
            raise TypeError(f"`se` must be a positive number; got {se!r}.")
        if not (0 < float(se) < 0.5):
            raise ValueError(f"`se` must be strictly between 0 and 0.5; got {se}.")
        object.__setattr__(self, "se", float(se))

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
        w = self.width
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real):
            raise TypeError(f"`width` must be a number strictly between 0 and 1; got {w!r}.")
        if not (0 < float(w) < 1):
            raise ValueError(f"`width` must be strictly between 0 and 1; got {w}.")
        object.__setattr__(self, "width", float(w))
        object.__setattr__(self, "level", _check_probability(self.level, "level"))
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
    p = _check_probability(p, "p")
    method = getattr(target, "trials", None)
    if not callable(method):
        raise TypeError(
            "`target` must be StandardError(se), HDIWidth(width, level, prior) or an object "
            f"with a method trials(p); got {target!r}."
        )
    return int(method(p))
