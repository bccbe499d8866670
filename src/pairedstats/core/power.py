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

For 0/1 scores (pass/fail), the plans of McNemar's test are in
:mod:`pairedstats.core.power_mcnemar`.

numpy and scipy only.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import optimize, special, stats

from . import checks
from .inference import ALTERNATIVES

__all__ = [
    "check_items",
    "check_level",
    "check_number",
    "check_plan",
    "check_settings",
    "detectable_difference",
    "discordant_rate_limit",
    "items_for",
    "paired_power",
    "standard_deviation_limit",
]

#: The largest number of items :func:`items_for` searches.
MAX_ITEMS = 10**9


def check_number(value, name: str, low: float, high: float, *, open_low=True) -> float:
    """``value`` as a float in ``(low, high)`` (``[low, high)`` without ``open_low``), or an
    error naming ``name``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        shown = value.item() if isinstance(value, np.generic) else value  # '0.1', not np.str_
        raise TypeError(f"`{name}` must be a number; got {shown!r}.")
    value = float(value)
    ok = (value > low if open_low else value >= low) and value < high
    if not (np.isfinite(value) and ok):
        bounds = f"({low:g}, {high:g})" if open_low else f"[{low:g}, {high:g})"
        raise ValueError(f"`{name}` must be in {bounds}; got {value}.")
    return value


def check_items(n_items, minimum: int) -> None:
    """Refuse ``n_items`` unless it is a whole number of at least ``minimum``."""
    if isinstance(n_items, bool | np.bool_) or not isinstance(n_items, numbers.Integral):
        raise TypeError(f"`n_items` must be a whole number; got {n_items!r}.")
    if n_items < minimum:
        raise ValueError(f"`n_items` must be at least {minimum}; got {n_items}.")


def check_settings(standard_deviation, power, alpha, alternative):
    """``(standard_deviation, power, alpha, alternative)`` checked (``alpha`` a probability
    and ``alternative`` a choice by the one rule of :mod:`pairedstats.core.checks`, returned
    in its own spelling); ``power`` None is left out."""
    sigma = check_number(standard_deviation, "standard_deviation", 0.0, np.inf)
    alpha = checks.probability(alpha, "alpha")
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    if power is not None:
        power = check_number(power, "power", alpha, 1.0)
    return sigma, power, alpha, alternative


def check_plan(difference, *, power, alpha, alternative) -> tuple[float, float, float, str]:
    """``difference``, ``power``, ``alpha`` and ``alternative`` of a plan, checked (messages
    name each one):
    a finite, non-zero difference, of the sign of a one-sided ``alternative``; ``alpha`` in
    ``(0, 1)``, ``power`` in ``(alpha, 1)``.

    Examples
    --------
    >>> check_plan(-0.1, power=0.9, alpha=0.05, alternative="Less")
    (-0.1, 0.9, 0.05, 'less')
    >>> check_plan(0.1, power=0.9, alpha=0.05, alternative="less")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: `difference` must be negative for alternative='less': ...
    """
    _, power, alpha, alternative = check_settings(1.0, power, alpha, alternative)
    difference = check_number(difference, "difference", -np.inf, np.inf)  # a number, finite
    check_number(abs(difference), "difference (its size)", 0.0, np.inf)
    sign = {"greater": 1.0, "less": -1.0}.get(alternative)
    if sign is not None and np.sign(difference) != sign:
        raise ValueError(
            f"`difference` must be {'positive' if sign > 0 else 'negative'} for "
            f"alternative={alternative!r}: a one-sided test cannot detect a difference of "
            f"the other sign; got {difference}."
        )
    return difference, power, alpha, alternative


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
    sigma, _, alpha, alternative = check_settings(standard_deviation, None, alpha, alternative)
    n = float(n_items)
    with np.errstate(over="ignore"):  # a spread far below the difference: ncp = +-inf
        df, ncp = n - 1.0, float(difference * np.sqrt(n) / sigma)
    crit = stats.t.ppf(1.0 - (alpha / 2.0 if alternative == "two-sided" else alpha), df)
    upper, lower = _tail(True, crit, df, ncp), _tail(False, -crit, df, ncp)
    if alternative == "two-sided":
        return upper + lower
    return upper if alternative == "greater" else lower


def _tail(upper: bool, x, df, ncp) -> float:
    """The upper (``sf``) or lower (``cdf``) tail of the noncentral t beyond ``x``.

    scipy returns NaN where it cannot compute a tail: far from the centre (the far tail
    underflows) or at a noncentrality beyond its reach (a spread far below the difference,
    ``ncp`` of 1e19 or infinite). The tail is then 1 on the side of ``x`` where the
    distribution lies (``ncp`` beyond ``x``), else 0.
    """
    value = float((stats.nct.sf if upper else stats.nct.cdf)(x, df, ncp))
    if np.isnan(value):
        return float(ncp > x if upper else ncp < x)
    return value


def standard_deviation_limit(standard_deviation: float, pilot_items: int, level: float) -> float:
    """The one-sided upper confidence limit of a standard deviation estimated on a pilot.

    With ``s`` the pilot's standard deviation (``ddof=1``) of ``n = pilot_items`` normal
    differences, ``(n - 1) s^2 / sigma^2`` follows the chi-square distribution with ``n - 1``
    degrees of freedom, so ``s sqrt((n - 1) / chi2_{1 - level}(n - 1))`` lies above the true
    ``sigma`` with probability ``level`` (Browne 1995, planning with an upper confidence
    limit of the pilot's standard deviation).

    Examples
    --------
    >>> round(standard_deviation_limit(1.0, 30, 0.8), 4)
    1.1359
    """
    sigma = check_number(standard_deviation, "standard_deviation", 0.0, np.inf)
    level = check_number(level, "standard_deviation_level", 0.0, 1.0)
    if isinstance(pilot_items, bool) or not isinstance(pilot_items, numbers.Integral):
        raise TypeError(f"`pilot_items` must be an integer of at least 2; got {pilot_items!r}.")
    if pilot_items < 2:
        raise ValueError(f"`pilot_items` must be at least 2; got {pilot_items}.")
    df = int(pilot_items) - 1
    return sigma * float(np.sqrt(df / stats.chi2.ppf(1.0 - level, df)))


def check_level(level, name: str = "standard_deviation_level") -> float | None:
    """A level of an upper confidence limit of the spread: None, or a number in (0, 1).

    Examples
    --------
    >>> check_level(0.8), check_level(None)
    (0.8, None)
    """
    return None if level is None else check_number(level, name, 0.0, 1.0)


def discordant_rate_limit(discordant_items: int, pilot_items: int, level: float) -> float:
    """The one-sided upper confidence limit of a discordant rate estimated on a pilot.

    Of ``x = discordant_items`` items on which two systems differ among ``n = pilot_items``,
    Clopper and Pearson's (1934) exact upper limit at ``level``: the rate ``p`` at which
    ``P(X <= x) = 1 - level`` for ``X ~ Binomial(n, p)``, the ``level`` quantile of
    ``Beta(x + 1, n - x)`` (1 when ``x = n``). It lies above the true rate with probability
    at least ``level``; McNemar's plan
    (:func:`pairedstats.core.power_mcnemar.mcnemar_items_for`) needs more items the larger
    the discordant rate, so planning with it is the counterpart for 0/1 scores of
    :func:`standard_deviation_limit`.

    Examples
    --------
    >>> round(discordant_rate_limit(9, 80, 0.8), 4)  # 9 / 80 = 0.1125 estimated
    0.153
    >>> round(discordant_rate_limit(0, 40, 0.8), 4)  # 1 - 0.2 ** (1 / 40)
    0.0394
    """
    level = check_number(level, "standard_deviation_level", 0.0, 1.0)
    for value, name in ((discordant_items, "discordant_items"), (pilot_items, "pilot_items")):
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
            raise TypeError(f"`{name}` must be a whole number; got {value!r}.")
    x, n = int(discordant_items), int(pilot_items)
    if not 0 <= x <= n or n < 1:
        raise ValueError(
            f"`discordant_items` must be in [0, pilot_items] and `pilot_items` at least 1; "
            f"got {x} of {n}."
        )
    if x == n:
        return 1.0
    return float(special.betaincinv(x + 1, n - x, level))


def items_for(
    difference: float, *, standard_deviation: float, power: float = 0.8, alpha: float = 0.05,
    alternative: str = "two-sided", standard_deviation_level: float | None = None,
    pilot_items: int | None = None,
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
    standard_deviation_level : float, optional
        Plan with the one-sided upper confidence limit, at this level, of the standard
        deviation that a pilot of ``pilot_items`` items estimated
        (:func:`standard_deviation_limit`; 0.8 is Browne's 1995 choice): the plan then
        reaches ``power`` with probability about ``standard_deviation_level`` over pilots,
        where the plain one does so about half the time. Needs ``pilot_items``.
    pilot_items : int, optional
        The number of items the ``standard_deviation`` was estimated on (with
        ``standard_deviation_level`` only).

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

    A spread far below the difference needs the t-test's minimum, 2 items:

    >>> items_for(0.1, standard_deviation=1e-20)
    2

    The standard deviation 1.0 measured on a pilot of 30 items, planned with its 80% upper
    confidence limit (1.136):

    >>> items_for(0.5, standard_deviation=1.0, standard_deviation_level=0.8, pilot_items=30)
    43
    """
    sigma, power, alpha, alternative = check_settings(
        standard_deviation, power, alpha, alternative
    )
    if (standard_deviation_level is None) != (pilot_items is None):
        raise ValueError(
            "`standard_deviation_level` and `pilot_items` go together: the upper confidence "
            "limit of the standard deviation needs the size of the pilot that estimated it."
        )
    if standard_deviation_level is not None:
        sigma = standard_deviation_limit(sigma, pilot_items, standard_deviation_level)
    difference, power, alpha, alternative = check_plan(difference, power=power, alpha=alpha,
                                          alternative=alternative)  # fmt: skip
    signed = abs(difference) if alternative == "two-sided" else difference

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
    sigma, power, alpha, alternative = check_settings(
        standard_deviation, power, alpha, alternative
    )
    check_items(n_items, 2)
    sign = -1.0 if alternative == "less" else 1.0

    def gap(delta: float) -> float:
        return paired_power(int(n_items), sign * delta, standard_deviation=sigma, alpha=alpha,
                            alternative=alternative) - power  # fmt: skip

    hi = sigma
    while gap(hi) < 0:
        hi *= 2
    delta = optimize.brentq(gap, 0.0, hi, xtol=1e-14 * hi, rtol=4 * np.finfo(float).eps)
    return sign * delta
