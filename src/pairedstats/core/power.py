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

For 0/1 scores (pass/fail), the paired comparison is McNemar's test, and what sets the items
needed is the discordant rate ``psi = p10 + p01``, the share of items on which the two
systems differ, with the difference of the two pass rates ``delta = p01 - p10``. Connor
(1987), *Sample size for testing differences in proportions for the paired-sample design*,
Biometrics 43(1), 207-211 (p. 209): the statistic ``(n01 - n10) / sqrt(n01 + n10)`` has mean
about ``delta sqrt(n) / sqrt(psi)`` and, under the alternative, standard deviation about
``sqrt((psi - delta**2) / psi)``, so that

    n = (z_alpha sqrt(psi) + z_beta sqrt(psi - delta**2))**2 / delta**2,

``z_alpha`` the normal quantile of ``1 - alpha/2`` (two-sided) or ``1 - alpha`` (one-sided),
``z_beta`` that of ``power``. That is the plan of the asymptotic test (``method="asymptotic"``
of :func:`mcnemar_items_for`, :func:`mcnemar_power`, :func:`mcnemar_detectable_difference`).
McNemar's default test, the exact (conditional binomial) one, and its mid-p version need more
items, and their power has no closed form: ``method="exact"`` (the default) and ``"mid-p"``
compute it exactly, a sum over the number ``N ~ Binomial(n, psi)`` of discordant items of the
probability that ``only_b ~ Binomial(N, p01 / psi)`` falls in the test's rejection region at
``N`` (:func:`mcnemar_exact_power`).

numpy and scipy only.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import optimize, special, stats

from .inference import ALTERNATIVES

__all__ = [
    "check_level",
    "check_plan",
    "detectable_difference",
    "discordant_rate_limit",
    "items_for",
    "mcnemar_detectable_difference",
    "mcnemar_exact_power",
    "mcnemar_items_for",
    "mcnemar_power",
    "paired_power",
    "standard_deviation_limit",
]

#: The largest number of items :func:`items_for` searches.
MAX_ITEMS = 10**9

#: The McNemar tests a plan of 0/1 scores can be made for (``mcnemar``'s ``method``).
MCNEMAR_METHODS = ("exact", "mid-p", "asymptotic")


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


def _whole(n_items, minimum: int) -> None:
    if isinstance(n_items, bool | np.bool_) or not isinstance(n_items, numbers.Integral):
        raise TypeError(f"`n_items` must be a whole number; got {n_items!r}.")
    if n_items < minimum:
        raise ValueError(f"`n_items` must be at least {minimum}; got {n_items}.")


def _check(standard_deviation, power, alpha, alternative):
    sigma = _number(standard_deviation, "standard_deviation", 0.0, np.inf)
    alpha = _number(alpha, "alpha", 0.0, 1.0)
    if alternative not in ALTERNATIVES:
        listed = ", ".join(map(repr, ALTERNATIVES))
        raise ValueError(f"`alternative` must be one of {listed}; got {alternative!r}.")
    if power is not None:
        power = _number(power, "power", alpha, 1.0)
    return sigma, power, alpha


def check_plan(difference, *, power, alpha, alternative) -> tuple[float, float, float]:
    """``difference``, ``power`` and ``alpha`` of a plan, checked (messages name each one):
    a finite, non-zero difference, of the sign of a one-sided ``alternative``; ``alpha`` in
    ``(0, 1)``, ``power`` in ``(alpha, 1)``.

    Examples
    --------
    >>> check_plan(-0.1, power=0.9, alpha=0.05, alternative="less")
    (-0.1, 0.9, 0.05)
    >>> check_plan(0.1, power=0.9, alpha=0.05, alternative="less")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: `difference` must be negative for alternative='less': ...
    """
    _, power, alpha = _check(1.0, power, alpha, alternative)
    difference = _number(difference, "difference", -np.inf, np.inf)  # a number, finite
    _number(abs(difference), "difference (its size)", 0.0, np.inf)
    sign = {"greater": 1.0, "less": -1.0}.get(alternative)
    if sign is not None and np.sign(difference) != sign:
        raise ValueError(
            f"`difference` must be {'positive' if sign > 0 else 'negative'} for "
            f"alternative={alternative!r}: a one-sided test cannot detect a difference of "
            f"the other sign; got {difference}."
        )
    return difference, power, alpha


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
    sigma = _number(standard_deviation, "standard_deviation", 0.0, np.inf)
    level = _number(level, "standard_deviation_level", 0.0, 1.0)
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
    return None if level is None else _number(level, name, 0.0, 1.0)


def discordant_rate_limit(discordant_items: int, pilot_items: int, level: float) -> float:
    """The one-sided upper confidence limit of a discordant rate estimated on a pilot.

    Of ``x = discordant_items`` items on which two systems differ among ``n = pilot_items``,
    Clopper and Pearson's (1934) exact upper limit at ``level``: the rate ``p`` at which
    ``P(X <= x) = 1 - level`` for ``X ~ Binomial(n, p)``, the ``level`` quantile of
    ``Beta(x + 1, n - x)`` (1 when ``x = n``). It lies above the true rate with probability
    at least ``level``; McNemar's plan (:func:`mcnemar_items_for`) needs more items the larger
    the discordant rate, so planning with it is the counterpart for 0/1 scores of
    :func:`standard_deviation_limit`.

    Examples
    --------
    >>> round(discordant_rate_limit(9, 80, 0.8), 4)  # 9 / 80 = 0.1125 estimated
    0.153
    >>> round(discordant_rate_limit(0, 40, 0.8), 4)  # 1 - 0.2 ** (1 / 40)
    0.0394
    """
    level = _number(level, "standard_deviation_level", 0.0, 1.0)
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
    sigma, power, alpha = _check(standard_deviation, power, alpha, alternative)
    if (standard_deviation_level is None) != (pilot_items is None):
        raise ValueError(
            "`standard_deviation_level` and `pilot_items` go together: the upper confidence "
            "limit of the standard deviation needs the size of the pilot that estimated it."
        )
    if standard_deviation_level is not None:
        sigma = standard_deviation_limit(sigma, pilot_items, standard_deviation_level)
    difference, power, alpha = check_plan(difference, power=power, alpha=alpha,
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
    sigma, power, alpha = _check(standard_deviation, power, alpha, alternative)
    _whole(n_items, 2)
    sign = -1.0 if alternative == "less" else 1.0

    def gap(delta: float) -> float:
        return paired_power(int(n_items), sign * delta, standard_deviation=sigma, alpha=alpha,
                            alternative=alternative) - power  # fmt: skip

    hi = sigma
    while gap(hi) < 0:
        hi *= 2
    delta = optimize.brentq(gap, 0.0, hi, xtol=1e-14 * hi, rtol=4 * np.finfo(float).eps)
    return sign * delta


# ------------------------------------------------------------------ 0/1 scores: McNemar
def _discordant(discordant_rate, difference=None) -> float:
    psi = _number(discordant_rate, "discordant_rate", 0.0, 1.0 + 1e-12)
    if difference is not None and abs(difference) > psi:
        raise ValueError(
            f"`difference` cannot exceed the discordant rate in size: two pass rates differ by "
            f"at most the share of items on which the systems differ; got difference="
            f"{difference} with discordant_rate={psi}."
        )
    return min(psi, 1.0)


def _z_alpha(alpha: float, alternative: str) -> float:
    return float(stats.norm.isf(alpha / 2.0 if alternative == "two-sided" else alpha))


def _mcnemar_method(method) -> str:
    if method not in MCNEMAR_METHODS:
        listed = ", ".join(map(repr, MCNEMAR_METHODS))
        raise ValueError(f"`method` must be one of {listed}; got {method!r}.")
    return method


def _critical(big: np.ndarray, level: float, method: str) -> np.ndarray:
    """For ``N = big`` discordant items, the largest count ``c`` whose one-sided p-value
    ``P(X <= c)`` (exact) or ``P(X < c) + P(X = c) / 2`` (mid-p), ``X ~ Binomial(N, 1/2)``,
    is below ``level`` (-1 when none is): the test rejects ``only_b <= c`` on that side.
    The two-sided p-values are twice these (capped at 1), so their region at ``alpha`` is
    both sides' at ``alpha / 2``."""
    c = stats.binom.ppf(level, big, 0.5) - 1.0  # the largest c with P(X <= c) < level
    c = np.where(stats.binom.cdf(c + 1.0, big, 0.5) < level, c + 1.0, c)  # rounding, either
    c = np.where((c >= 0) & (stats.binom.cdf(c, big, 0.5) >= level), c - 1.0, c)  # way
    if method == "mid-p":  # P(X < m) + P(X = m) / 2 lies between P(X <= m - 1) and P(X <= m)
        up = c + 1.0
        mid = 0.5 * (stats.binom.cdf(up - 1.0, big, 0.5) + stats.binom.cdf(up, big, 0.5))
        c = np.where((up <= big) & (mid < level), up, c)
    return c


def mcnemar_exact_power(
    n_items: int, difference: float, *, discordant_rate: float, alpha: float = 0.05,
    alternative: str = "two-sided", method: str = "exact",
) -> float:  # fmt: skip
    """The exact power of McNemar's exact (or mid-p) test with ``n_items`` items.

    Items fall only-b, only-a or concordant with probabilities ``p01 = (psi + delta) / 2``,
    ``p10 = (psi - delta) / 2`` and ``1 - psi`` (``psi`` the discordant rate, ``delta`` the
    difference of the pass rates, b - a). The number of discordant items is ``N ~
    Binomial(n, psi)`` and, given ``N``, ``only_b ~ Binomial(N, p01 / psi)``; the power is
    the sum over ``N`` of ``P(N)`` times the probability that ``only_b`` falls where the
    test's p-value is below ``alpha`` (``mcnemar``'s rule). Outcomes of ``N`` beyond 1e-14
    in either tail of its distribution are left out (their probability, below 2e-14, would
    not change the sum).

    Parameters
    ----------
    n_items : int
    difference : float
        b - a, at most ``discordant_rate`` in size.
    discordant_rate : float
    alpha, alternative
        As :func:`items_for`.
    method : {"exact", "mid-p"}
        The test: ``mcnemar``'s ``method``.

    Returns
    -------
    float

    Examples
    --------
    Connor's 234 items (discordant rate 0.3, difference 0.1) give the exact test 77.6%
    power, where the asymptotic test has the 80% they were planned for (and the mid-p
    test 80.7%):

    >>> round(mcnemar_exact_power(234, 0.1, discordant_rate=0.3), 4)
    0.7756
    >>> round(mcnemar_exact_power(234, 0.1, discordant_rate=0.3, method="mid-p"), 4)
    0.8066
    """
    _, _, alpha = _check(1.0, None, alpha, alternative)
    if _mcnemar_method(method) == "asymptotic":
        raise ValueError("`method` must be 'exact' or 'mid-p' for the exact power; got "
                         "'asymptotic' (its power is Connor's: mcnemar_power).")  # fmt: skip
    psi = _discordant(discordant_rate, difference)
    _whole(n_items, 1)
    n = int(n_items)
    low = int(max(stats.binom.ppf(1e-14, n, psi) - 1, 0))
    high = int(min(stats.binom.isf(1e-14, n, psi) + 1, n))
    big = np.arange(low, high + 1, dtype=float)
    reject = _rejection(big, float(difference), psi, alpha, alternative, method)
    return float(np.sum(stats.binom.pmf(big, n, psi) * reject))


def _rejection(big, difference, psi, alpha, alternative, method) -> np.ndarray:
    """The probability that the test rejects given ``N = big`` discordant items."""
    p01 = min(max((psi + difference) / 2.0, 0.0), psi)
    q = p01 / psi  # P(only b | discordant)
    two = alternative == "two-sided"
    c = _critical(big, alpha / 2.0 if two else alpha, method)
    upper = np.where(c >= 0, stats.binom.sf(big - c - 1.0, big, q), 0.0)  # only_b >= N - c
    lower = np.where(c >= 0, stats.binom.cdf(c, big, q), 0.0)  # only_b <= c
    return upper + lower if two else upper if alternative == "greater" else lower


def _powers_up_to(top, difference, psi, alpha, alternative, method) -> np.ndarray:
    """The exact power at every number of items 1, ..., ``top`` at once."""
    big = np.arange(top + 1, dtype=float)
    reject = _rejection(big, difference, psi, alpha, alternative, method)
    items = np.arange(1, top + 1, dtype=float)[:, None]
    return stats.binom.pmf(big[None, :], items, psi) @ reject


def mcnemar_power(
    n_items: int, difference: float, *, discordant_rate: float, alpha: float = 0.05,
    alternative: str = "two-sided", method: str = "exact",
) -> float:  # fmt: skip
    """The power of McNemar's test with ``n_items`` items.

    ``method="exact"`` (the default, ``mcnemar``'s default test) and ``"mid-p"``: the exact
    power, :func:`mcnemar_exact_power`. ``method="asymptotic"``: Connor's (1987) normal
    approximation of the power of the uncorrected statistic ``(n01 - n10) / sqrt(n01 +
    n10)``, ``Phi((delta sqrt(n) - z_alpha sqrt(psi)) / sqrt(psi - delta**2))`` with ``psi``
    the discordant rate and ``delta`` the difference of the pass rates (b - a), plus the same
    with ``-delta`` for a two-sided test (the far tail). Module docstring.

    Examples
    --------
    >>> round(mcnemar_power(234, 0.1, discordant_rate=0.3, method="asymptotic"), 4)
    0.8015
    >>> round(mcnemar_power(234, 0.1, discordant_rate=0.3), 4)
    0.7756
    """
    if _mcnemar_method(method) != "asymptotic":
        return mcnemar_exact_power(n_items, difference, discordant_rate=discordant_rate,
                                   alpha=alpha, alternative=alternative,
                                   method=method)  # fmt: skip
    _, _, alpha = _check(1.0, None, alpha, alternative)
    psi = _discordant(discordant_rate, difference)
    delta = float(difference) * (-1.0 if alternative == "less" else 1.0)
    if alternative == "two-sided":
        delta = abs(delta)
    spread = np.sqrt(psi - delta**2)
    z = _z_alpha(alpha, alternative)
    root_n = np.sqrt(float(n_items))
    if spread == 0.0:  # every item discordant, one way: the statistic is sqrt(n)
        return float(delta * root_n > z) if delta > 0 else 0.0
    near = stats.norm.cdf((delta * root_n - z * np.sqrt(psi)) / spread)
    far = stats.norm.cdf((-delta * root_n - z * np.sqrt(psi)) / spread)
    return float(near + far) if alternative == "two-sided" else float(near)


def _connor_items(delta: float, psi: float, power: float, alpha: float, alternative: str):
    z_alpha, z_beta = _z_alpha(alpha, alternative), float(stats.norm.ppf(power))
    root = z_alpha * np.sqrt(psi) + z_beta * np.sqrt(max(psi - delta**2, 0.0))
    return 0.0 if root <= 0 else (root / delta) ** 2  # root <= 0: the level alone gives it


def _too_many():
    return ValueError(
        f"more than {MAX_ITEMS:,} items would be needed: the difference is too small "
        "against the discordant rate."
    )


#: Plans of the exact and mid-p tests up to this many items are found by computing the power
#: at every smaller number of items; larger ones by bisection.
SCAN_ITEMS = 400


def mcnemar_items_for(
    difference: float, *, discordant_rate: float, power: float = 0.8, alpha: float = 0.05,
    alternative: str = "two-sided", method: str = "exact",
) -> int:  # fmt: skip
    """The number of items needed to detect a difference of two pass rates (0/1 scores).

    ``method="asymptotic"``: Connor (1987, Biometrics 43:207-211, p. 209), ``n = (z_alpha
    sqrt(psi) + z_beta sqrt(psi - delta**2))**2 / delta**2`` rounded up, ``psi`` the
    discordant rate (the share of items on which the systems differ, ``p10 + p01``) and
    ``delta`` the difference of the pass rates, b - a (module docstring); its power counts
    the near tail only, as Connor's formula does. ``method="exact"`` (the default:
    ``mcnemar``'s default test) and ``"mid-p"``: the smallest ``n`` whose exact power
    (:func:`mcnemar_exact_power`) reaches ``power``. The power of a discrete test is not
    monotone in ``n`` (a saw-tooth): where nearly every item is discordant one more item
    can lose power (discordant rate 1, difference 0.5: 30 items have 80.3%, 31 and 32 have
    77.1% and 73.7%, 33 have 81.9%), so up to :data:`SCAN_ITEMS` items every ``n`` is tried;
    beyond, the crossing is found by bisection, the saw-tooth being damped by the spread of
    the number of discordant items.

    Parameters
    ----------
    difference : float
        The difference of the pass rates to detect, b - a (not 0, at most
        ``discordant_rate`` in size; of the sign of a one-sided ``alternative``).
    discordant_rate : float
        In ``(0, 1]``: from a pilot, the share of items where exactly one system passes.
    power, alpha, alternative
        As :func:`items_for`.
    method : {"exact", "mid-p", "asymptotic"}, default "exact"
        The McNemar test planned for (``mcnemar``'s ``method``).

    Returns
    -------
    int

    Examples
    --------
    Discordant cells 0.45 and 0.05 (``psi = 0.5``, ``delta = 0.4``), 80% power at 5%:
    Connor's 23 pairs for the asymptotic test, 25 for the exact test:

    >>> mcnemar_items_for(0.4, discordant_rate=0.5, method="asymptotic")
    23
    >>> mcnemar_items_for(0.4, discordant_rate=0.5)
    25
    >>> mcnemar_items_for(0.1, discordant_rate=0.3, method="asymptotic")
    234
    >>> mcnemar_items_for(0.1, discordant_rate=0.3)
    249
    """
    difference, power, alpha = check_plan(difference, power=power, alpha=alpha,
                                          alternative=alternative)  # fmt: skip
    method = _mcnemar_method(method)
    psi = _discordant(discordant_rate, difference)
    delta = abs(difference)
    n = _connor_items(delta, psi, power, alpha, alternative)
    if n > MAX_ITEMS * (1.0 if method == "asymptotic" else 2.0):  # mid-p needs a little less
        raise _too_many()
    if method == "asymptotic":
        return max(1, int(np.ceil(n * (1.0 - 1e-12))))
    signed = difference if alternative != "two-sided" else delta
    if np.ceil(n) <= SCAN_ITEMS:  # every n up to SCAN_ITEMS at once: the first that reaches
        hit = np.flatnonzero(_powers_up_to(SCAN_ITEMS, signed, psi, alpha, alternative,
                                           method) >= power)  # fmt: skip
        if hit.size:
            return int(hit[0]) + 1
        n = SCAN_ITEMS + 1

    def reached(m: int) -> bool:
        return mcnemar_exact_power(m, signed, discordant_rate=psi, alpha=alpha,
                                   alternative=alternative, method=method) >= power  # fmt: skip

    hi = max(1, int(np.ceil(n)))
    while not reached(hi):
        if hi >= MAX_ITEMS:
            raise _too_many()
        hi = min(MAX_ITEMS, hi + max(1, hi // 8))
    lo = hi // 2
    while lo > SCAN_ITEMS and reached(lo):
        lo //= 2
    if lo <= SCAN_ITEMS:
        hit = np.flatnonzero(_powers_up_to(SCAN_ITEMS, signed, psi, alpha, alternative,
                                           method) >= power)  # fmt: skip
        if hit.size:
            return int(hit[0]) + 1
        lo = SCAN_ITEMS
    while hi - lo > 1:  # the power grows with n, to within the damped saw-tooth
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reached(mid) else (mid, hi)
    return hi


def mcnemar_detectable_difference(
    n_items: int, *, discordant_rate: float, power: float = 0.8, alpha: float = 0.05,
    alternative: str = "two-sided", method: str = "exact",
) -> float:  # fmt: skip
    """The smallest difference of pass rates that ``n_items`` items detect (0/1 scores).

    ``method="asymptotic"``: Connor's equation (:func:`mcnemar_items_for`) solved for
    ``delta`` at the discordant rate ``psi``: with ``a = z_alpha sqrt(psi)`` and ``b =
    z_beta``, ``delta = (a sqrt(n) + b sqrt((n + b**2) psi - a**2)) / (n + b**2)``.
    ``method="exact"`` (the default) and ``"mid-p"``: the ``delta`` at which the exact power
    (:func:`mcnemar_exact_power`) reaches ``power``. Negative for ``"less"``. NaN when no
    difference a discordant rate of ``psi`` allows (``|delta| <= psi``) reaches the power
    with so few items.

    Examples
    --------
    >>> round(mcnemar_detectable_difference(234, discordant_rate=0.3, method="asymptotic"), 4)
    0.0998
    >>> round(mcnemar_detectable_difference(249, discordant_rate=0.3), 4)
    0.0998
    >>> mcnemar_detectable_difference(5, discordant_rate=0.3)
    nan
    """
    _, power, alpha = _check(1.0, power, alpha, alternative)
    method = _mcnemar_method(method)
    _whole(n_items, 1)
    psi = _discordant(discordant_rate)
    sign = -1.0 if alternative == "less" else 1.0
    if method != "asymptotic":

        def gap(delta: float) -> float:
            return mcnemar_exact_power(int(n_items), sign * delta, discordant_rate=psi,
                                       alpha=alpha, alternative=alternative,
                                       method=method) - power  # fmt: skip

        if gap(psi) < 0:
            return float("nan")
        delta = optimize.brentq(gap, 0.0, psi, xtol=1e-12, rtol=4 * np.finfo(float).eps)
        return float(sign * delta)
    n, a, b = float(n_items), _z_alpha(alpha, alternative) * np.sqrt(psi), stats.norm.ppf(power)
    inside = (n + b**2) * psi - a**2
    if inside < 0:
        return float("nan")
    delta = (a * np.sqrt(n) + b * np.sqrt(inside)) / (n + b**2)
    if not 0 < delta <= psi:
        return float("nan")
    return float(sign * delta)
