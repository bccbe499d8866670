"""How many items to collect for McNemar's test of 0/1 scores: its power and plans.

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

import numpy as np
from scipy import optimize, stats

from . import checks
from .power import MAX_ITEMS, check_items, check_number, check_plan, check_settings

__all__ = [
    "MCNEMAR_METHODS",
    "mcnemar_detectable_difference",
    "mcnemar_exact_power",
    "mcnemar_items_for",
    "mcnemar_power",
]

#: The McNemar tests a plan of 0/1 scores can be made for (``mcnemar``'s ``method``).
MCNEMAR_METHODS = ("exact", "mid-p", "asymptotic")


# ------------------------------------------------------------------ 0/1 scores: McNemar
def _discordant(discordant_rate, difference=None) -> float:
    psi = check_number(discordant_rate, "discordant_rate", 0.0, 1.0 + 1e-12)
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
    return checks.choice(method, "method", MCNEMAR_METHODS)


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
    _, _, alpha, alternative = check_settings(1.0, None, alpha, alternative)
    method = _mcnemar_method(method)
    if method == "asymptotic":
        raise ValueError("`method` must be 'exact' or 'mid-p' for the exact power; got "
                         "'asymptotic' (its power is Connor's: mcnemar_power).")  # fmt: skip
    psi = _discordant(discordant_rate, difference)
    check_items(n_items, 1)
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
    method = _mcnemar_method(method)
    if method != "asymptotic":
        return mcnemar_exact_power(n_items, difference, discordant_rate=discordant_rate,
                                   alpha=alpha, alternative=alternative,
                                   method=method)  # fmt: skip
    _, _, alpha, alternative = check_settings(1.0, None, alpha, alternative)
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
    difference, power, alpha, alternative = check_plan(difference, power=power, alpha=alpha,
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
    _, power, alpha, alternative = check_settings(1.0, power, alpha, alternative)
    method = _mcnemar_method(method)
    check_items(n_items, 1)
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
