"""How many items to collect: the power of the paired comparison of means.

The items needed to detect a mean difference ``delta`` of paired scores whose per-item
differences have standard deviation ``sigma`` are those of the paired t-test: with ``n``
items its statistic follows a noncentral t distribution with ``n - 1`` degrees of freedom
and noncentrality ``delta * sqrt(n) / sigma``, and the power is the probability that it
falls beyond the critical values (Cohen 1988, *Statistical Power Analysis for the
Behavioral Sciences*, chapter 2; the computation of R's ``power.t.test(type="paired",
strict=TRUE)``). Both tails count for a two-sided test. The paired bootstrap's interval of
the mean difference has, for large ``n``, the same width, so the same number of items
serves it.

numpy and scipy only.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import optimize, stats

from .inference import ALTERNATIVES

__all__ = ["detectable_difference", "items_for", "paired_power"]

#: The largest number of items :func:`items_for` searches.
MAX_ITEMS = 10**9


def _number(value, name: str, low: float, high: float, *, open_low=True) -> float:
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        shown = value.item() if isinstance(value, np.generic) else value  # '0.1', not np.str_
        raise TypeError(f"`{name}` must be a number; got {shown!r}.")
    value = float(value)
    ok = (value > low if open_low else value >= low) and value < high
    if not (np.isfinite(value) and ok):
        bounds = f"({low:g}, {high:g})" if open_low else f"[{low:g}, {high:g})"
        raise ValueError(f"`{name}` must be in {bounds}; got {value}.")
    return value


def _check(standard_deviation, power, alpha, alternative):
    sigma = _number(standard_deviation, "standard_deviation", 0.0, np.inf)
    alpha = _number(alpha, "alpha", 0.0, 1.0)
    if alternative not in ALTERNATIVES:
        listed = ", ".join(map(repr, ALTERNATIVES))
        raise ValueError(f"`alternative` must be one of {listed}; got {alternative!r}.")
    if power is not None:
        power = _number(power, "power", alpha, 1.0)
    return sigma, power, alpha


def paired_power(
    n_items: int, difference: float, *, standard_deviation: float, alpha: float = 0.05,
    alternative: str = "two-sided",
) -> float:  # fmt: skip
    """The power of the paired t-test with ``n_items`` items.

    Examples
    --------
    R's ``power.t.test(n = 20, delta = 0.5, sd = 1, type = "paired", strict = TRUE)``:

    >>> round(paired_power(20, 0.5, standard_deviation=1.0), 6)
    0.564504
    """
    sigma, _, alpha = _check(standard_deviation, None, alpha, alternative)
    n = float(n_items)
    df, ncp = n - 1.0, float(difference) * np.sqrt(n) / sigma
    crit = stats.t.ppf(1.0 - (alpha / 2.0 if alternative == "two-sided" else alpha), df)
    upper, lower = _tail(stats.nct.sf, crit, df, ncp), _tail(stats.nct.cdf, -crit, df, ncp)
    if alternative == "two-sided":
        return upper + lower
    return upper if alternative == "greater" else lower


def _tail(function, x, df, ncp) -> float:
    """A tail of the noncentral t; scipy returns NaN for a far tail (it underflows): 0."""
    value = float(function(x, df, ncp))
    return 0.0 if np.isnan(value) else value


def items_for(
    difference: float, *, standard_deviation: float, power: float = 0.8, alpha: float = 0.05,
    alternative: str = "two-sided",
) -> int:  # fmt: skip
    """The number of items needed to detect a mean difference with a given power.

    The smallest ``n`` (at least 2) whose paired t-test at level ``alpha`` rejects with
    probability at least ``power`` when the true mean of the per-item differences ``b - a``
    is ``difference`` and their standard deviation ``standard_deviation`` (module
    docstring). The item-level counterpart of :func:`pairedstats.trials_for`.

    Parameters
    ----------
    difference : float
        The mean difference b - a to detect (not 0; with a one-sided ``alternative``, of its
        sign: positive for ``"greater"``, negative for ``"less"``).
    standard_deviation : float
        Of the per-item differences (not of the scores): from a pilot, ``np.std(b - a,
        ddof=1)``, or from a bootstrap result ``difference / effect_size`` (its ``d_z`` is
        the mean over this standard deviation).
    power : float, default 0.8
        In ``(alpha, 1)``.
    alpha : float, default 0.05
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    int

    Examples
    --------
    A difference of half a standard deviation needs 34 items at 80% power (R's
    ``power.t.test(delta = 0.5, sd = 1, power = 0.8, type = "paired")`` gives n = 33.37):

    >>> items_for(0.5, standard_deviation=1.0)
    34
    >>> items_for(0.02, standard_deviation=0.1, power=0.9, alternative="greater")
    216
    """
    sigma, power, alpha = _check(standard_deviation, power, alpha, alternative)
    difference = _number(difference, "difference", -np.inf, np.inf)  # a number, finite
    delta = _number(abs(difference), "difference (its size)", 0.0, np.inf)
    sign = {"greater": 1.0, "less": -1.0}.get(alternative)
    if sign is not None and np.sign(difference) != sign:
        raise ValueError(
            f"`difference` must be {'positive' if sign > 0 else 'negative'} for "
            f"alternative={alternative!r}: a one-sided test cannot detect a difference of "
            f"the other sign; got {difference}."
        )
    signed = delta if sign is None else sign * delta

    def reached(n: int) -> bool:
        return paired_power(n, signed, standard_deviation=sigma, alpha=alpha,
                            alternative=alternative) >= power  # fmt: skip

    hi = 2
    while not reached(hi):
        hi *= 2
        if hi > MAX_ITEMS:
            raise ValueError(
                f"more than {MAX_ITEMS:,} items would be needed: the difference is too small "
                "against the standard deviation."
            )
    lo = hi // 2  # not reached (or hi == 2)
    if hi == 2:
        return 2
    while hi - lo > 1:  # power grows with n
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reached(mid) else (mid, hi)
    return hi


def detectable_difference(
    n_items: int, *, standard_deviation: float, power: float = 0.8, alpha: float = 0.05,
    alternative: str = "two-sided",
) -> float:  # fmt: skip
    """The smallest mean difference that ``n_items`` items detect with a given power.

    The minimum detectable difference: the ``difference`` at which the paired t-test of
    ``n_items`` items reaches ``power`` (module docstring); negative for ``"less"``.

    Parameters
    ----------
    n_items : int
        At least 2 (a result's ``n_items``).
    standard_deviation, power, alpha, alternative
        As :func:`items_for`.

    Returns
    -------
    float

    Examples
    --------
    R's ``power.t.test(n = 50, sd = 1, power = 0.8, type = "paired", strict = TRUE)``
    gives ``delta = 0.4042``:

    >>> round(detectable_difference(50, standard_deviation=1.0), 4)
    0.4042
    """
    sigma, power, alpha = _check(standard_deviation, power, alpha, alternative)
    if isinstance(n_items, bool | np.bool_) or not isinstance(n_items, numbers.Integral):
        raise TypeError(f"`n_items` must be a whole number; got {n_items!r}.")
    if n_items < 2:
        raise ValueError(f"`n_items` must be at least 2; got {n_items}.")
    sign = -1.0 if alternative == "less" else 1.0

    def gap(delta: float) -> float:
        return paired_power(int(n_items), sign * delta, standard_deviation=sigma, alpha=alpha,
                            alternative=alternative) - power  # fmt: skip

    hi = sigma
    while gap(hi) < 0:
        hi *= 2
    delta = optimize.brentq(gap, 0.0, hi, xtol=1e-14 * hi, rtol=4 * np.finfo(float).eps)
    return sign * delta
