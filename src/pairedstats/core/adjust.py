"""Multiple-comparison adjustments over a family of comparisons: Holm, Bonferroni,
Benjamini-Hochberg, Benjamini-Yekutieli and the bootstrap max-t (single-step intervals,
step-down p-values).

A *family* is the comparisons of one group: every function works along the last axis of its
p-values or estimates (the comparisons), with any leading axes for groups. A NaN p-value, or
a NaN estimate or standard error, marks a comparison that is not part of its family: it does
not count in the family's size, its adjusted values are NaN, and the other comparisons are
adjusted as if it were absent.

What each method controls:

* ``"bonferroni"`` and ``"holm"`` (Holm 1979, step-down) control the family-wise error rate
  (the probability of at least one false rejection) under any dependence; Holm rejects
  everything Bonferroni rejects, and possibly more.
* ``"fdr_bh"`` (Benjamini & Hochberg 1995, step-up) controls the false discovery rate (the
  expected share of false rejections among the rejections) for independent or positively
  dependent p-values. Pairwise comparisons that share systems are not obviously positively
  dependent, and the percentile bootstrap's p-values are liberal on few items, so the
  false discovery rate it reaches can exceed its target there.
* ``"fdr_by"`` (Benjamini & Yekutieli 2001, step-up) is BH with the p-values multiplied by
  ``c(m) = sum_{i<=m} 1/i``: it controls the false discovery rate under any dependence.
* max-t (Westfall & Young 1993; Romano & Wolf 2005 for the step-down) controls the
  family-wise error rate asymptotically, using the joint bootstrap distribution of the
  comparisons: its critical value is about Bonferroni's for independent comparisons (the
  union bound that Bonferroni pays is nearly tight then) and smaller the more they are
  correlated.

Monte Carlo p-values enter Holm, Bonferroni, BH and BY as *add-one* p-values
(:func:`add_one_pvalues`; Phipson & Smyth 2010): a p-value read off ``B`` resamples is 0
when no resample crossed, which means "below about ``1 / B``", not 0, and a 0 passes every
threshold ``alpha / m``. :func:`resamples_to_resolve` gives the resamples a family needs for
its smallest threshold to be reachable at all.

References (the formulas of each function cite them by author and year):

* Holm, S. (1979). A simple sequentially rejective multiple test procedure.
  *Scandinavian Journal of Statistics* 6(2), 65-70.
* Benjamini, Y. and Hochberg, Y. (1995). Controlling the false discovery rate: a practical
  and powerful approach to multiple testing. *Journal of the Royal Statistical Society B*
  57(1), 289-300.
* Benjamini, Y. and Yekutieli, D. (2001). The control of the false discovery rate in multiple
  testing under dependency. *The Annals of Statistics* 29(4), 1165-1188.
* Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be zero:
  calculating exact p-values when permutations are randomly drawn. *Statistical
  Applications in Genetics and Molecular Biology* 9(1), article 39.
* Westfall, P. H. and Young, S. S. (1993). *Resampling-Based Multiple Testing: Examples and
  Methods for p-Value Adjustment*. Wiley.
* Romano, J. P. and Wolf, M. (2005). Exact and approximate stepdown methods for multiple
  hypothesis testing. *Journal of the American Statistical Association* 100(469), 94-108.

This module is part of the numpy core: it imports numpy only.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from . import checks
from .inference import ALTERNATIVES

__all__ = [
    "ALTERNATIVES",
    "PVALUE_METHODS",
    "MaxT",
    "add_one_pvalues",
    "adjust_pvalues",
    "bonferroni_level",
    "by_factor",
    "comparison_blocks",
    "max_t",
    "resamples_to_resolve",
    "take_columns",
    "take_rows",
]

PVALUE_METHODS = ("holm", "bonferroni", "fdr_bh", "fdr_by")


def adjust_pvalues(pvalues, method: str | None) -> np.ndarray:
    """Adjusted p-values of each family (the last axis) by Holm, Bonferroni, BH or BY.

    Parameters
    ----------
    pvalues : array_like, shape (..., k)
        Per-comparison p-values in [0, 1]; the last axis is the family, leading axes are
        groups (each adjusted on its own). NaN marks a comparison outside the family: the
        family's size ``m`` counts the non-NaN values only and the NaN stays NaN.
    method : {"holm", "bonferroni", "fdr_bh", "fdr_by"} or None
        ``"bonferroni"``: ``min(1, m p)``. ``"holm"`` (Holm 1979): with the p-values sorted
        ascending, ``(m - i + 1) p_(i)`` made non-decreasing by a running maximum, capped
        at 1 (family-wise error rate, step-down). ``"fdr_bh"`` (Benjamini & Hochberg 1995):
        ``(m / i) p_(i)`` made non-decreasing by a running minimum from the largest,
        capped at 1 (false discovery rate, step-up; R's ``p.adjust(p, "BH")`` and
        ``scipy.stats.false_discovery_control(p, method="bh")``). ``"fdr_by"`` (Benjamini &
        Yekutieli 2001): as ``"fdr_bh"`` with each ``(m / i) p_(i)`` multiplied by
        ``c(m) = sum_{j=1}^{m} 1/j`` (false discovery rate under any dependence; R's
        ``p.adjust(p, "BY")``, statsmodels' ``multipletests(p, method="fdr_by")``). None
        returns a copy.

    Returns
    -------
    ndarray of float, shape (..., k)
        Each adjusted p-value is at least its p-value, at most 1, and the adjusted values
        of a family are in the order of its p-values (tied p-values get equal ones).

    Raises
    ------
    ValueError
        For an unknown ``method``, or a p-value outside [0, 1].

    Examples
    --------
    >>> p = np.array([0.01, 0.04, 0.03, 0.005])
    >>> adjust_pvalues(p, "bonferroni")
    array([0.04, 0.16, 0.12, 0.02])
    >>> adjust_pvalues(p, "holm")
    array([0.03, 0.06, 0.06, 0.02])
    >>> adjust_pvalues(p, "fdr_bh")
    array([0.02, 0.04, 0.04, 0.02])
    >>> adjust_pvalues(p, "fdr_by").round(4)
    array([0.0417, 0.0833, 0.0833, 0.0417])

    A NaN is outside the family (here the family has three members), row by row:

    >>> adjust_pvalues([[0.01, np.nan, 0.02, 0.5], [0.2, 0.2, 0.2, 0.2]], "holm")
    array([[0.03, nan, 0.04, 0.5 ],
           [0.8 , 0.8 , 0.8 , 0.8 ]])
    """
    if method is not None and method not in PVALUE_METHODS:
        hint = " (max-t needs the bootstrap replicates: use `max_t`)" if method == "max-t" else ""
        raise ValueError(
            f"`method` must be one of {', '.join(map(repr, PVALUE_METHODS))} or None; "
            f"got {method!r}{hint}."
        )
    p = np.array(pvalues, dtype=np.float64)  # a copy
    if p.ndim == 0:
        raise ValueError("`pvalues` must have at least one axis (the family); got a scalar.")
    bad = ~np.isnan(p) & ((p < 0.0) | (p > 1.0))
    if bad.any():
        raise ValueError(
            f"`pvalues` must lie in [0, 1] (NaN for a comparison outside the family); "
            f"got {float(p[bad][0])} among {int(bad.sum())} such value(s)."
        )
    if method is None:
        return p
    m = np.sum(~np.isnan(p), axis=-1, keepdims=True).astype(np.float64)
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    order = np.argsort(p, axis=-1, kind="stable")  # NaN last
    s = np.take_along_axis(p, order, axis=-1)
    i = np.arange(1, p.shape[-1] + 1, dtype=np.float64)
    if method == "holm":
        step = np.fmax.accumulate((m - i + 1.0) * s, axis=-1)  # fmax: NaN tail ignored
    else:
        factor = m / i
        if method == "fdr_by":  # m counts the family's non-NaN p-values
            factor = factor * by_factor(m)
        step = np.flip(np.fmin.accumulate(np.flip(factor * s, -1), axis=-1), -1)
    step = np.where(np.isnan(s), np.nan, np.minimum(1.0, step))
    out = np.empty_like(p)
    np.put_along_axis(out, order, step, axis=-1)
    return out


def by_factor(m):
    """Benjamini and Yekutieli's ``c(m) = sum_{j<=m} 1/j`` of each family size ``m`` (0 for
    an empty family), elementwise.

    Examples
    --------
    >>> by_factor(3), by_factor([0, 1, 4]).tolist()
    (np.float64(1.8333333333333333), [0.0, 1.0, 2.083333333333333])
    """
    m = np.asarray(m).astype(np.intp)
    harmonic = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, int(m.max(initial=0)) + 1))])
    return harmonic[m]


def add_one_pvalues(pvalues, n_resamples: int, alternative: str = "two-sided") -> np.ndarray:
    """Monte Carlo p-values that are never 0: the add-one p-values of Phipson & Smyth (2010).

    A one-sided Monte Carlo p-value ``p`` read off ``B`` resamples counts ``B p`` resamples
    in its tail; counting the observed data as one more, it is at least ``1 / (B + 1)``:
    ``(B p + 1) / (B + 1)``. A two-sided one (twice the smaller tail) adds one to each
    tail: ``min(1, (B p + 2) / (B + 1))``, at least ``2 / (B + 1)``. A 0 then reads "below
    about 1/B" where it enters a threshold: Holm, Bonferroni, BH and BY compare the smallest
    p-value of a family with ``alpha / m``, and a raw 0 passes it whatever ``B``. The
    add-one p-value is at least the raw one, equal at 1, and a valid p-value (``P(p <= u)
    <= u``) when the resamples are exchangeable with the data (permutations); for the
    bootstrap it is the same rule applied to the tail counts, so that a threshold below the
    resolution of ``B`` resamples is never passed by a zero.

    Parameters
    ----------
    pvalues : array_like
        Monte Carlo p-values in [0, 1] (NaN stays NaN); for the bootstrap, the interval
        inverted (:mod:`pairedstats.core.inference`), so that ``B p`` is the count of its
        tail (interpolated by the linear quantile rule).
    n_resamples : int
        ``B``, the resamples (or Monte Carlo trials) the p-values were read off.
    alternative : {"two-sided", "less", "greater"}
        Two-sided p-values are twice a tail (two added), one-sided ones a tail (one added).

    Returns
    -------
    ndarray of float
        The add-one p-values, the shape of ``pvalues``.

    Raises
    ------
    ValueError
        For a p-value outside [0, 1], ``n_resamples < 1`` or an unknown ``alternative``.

    Examples
    --------
    With 99 resamples, a two-sided 0 becomes ``2 / 100`` and a one-sided 0 ``1 / 100``:

    >>> add_one_pvalues([0.0, 0.02, 1.0], 99)
    array([0.02  , 0.0398, 1.    ])
    >>> add_one_pvalues([0.0, 0.5, np.nan], 99, "greater")
    array([0.01 , 0.505,   nan])
    """
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    b = float(checks.count(n_resamples, "n_resamples"))
    p = np.array(pvalues, dtype=np.float64)
    bad = ~np.isnan(p) & ((p < 0.0) | (p > 1.0))
    if bad.any():
        raise ValueError(f"`pvalues` must lie in [0, 1] (or NaN); got {float(p[bad][0])}.")
    added = 2.0 if alternative == "two-sided" else 1.0
    return np.minimum(1.0, (b * p + added) / (b + 1.0))


def resamples_to_resolve(
    m: int, confidence_level: float, method: str, alternative: str = "two-sided"
) -> int:
    """The fewest resamples ``B`` with which ``method`` can reject in a family of ``m``.

    The rule: the smallest add-one p-value of ``B`` resamples (:func:`add_one_pvalues`:
    ``2 / (B + 1)`` two-sided, ``1 / (B + 1)`` one-sided), adjusted by ``method`` in a
    family of ``m`` whose other p-values are 1, is below ``alpha = 1 - confidence_level``.
    That is the smallest threshold of every method, the one a family with a single true
    difference must pass: ``alpha / m`` for Holm, Bonferroni and BH, ``alpha / (m c(m))``
    for BY. So ``B + 1 > 2 m / alpha`` two-sided (``m / alpha`` one-sided; times ``c(m)``
    for BY): 12,000 resamples for 300 comparisons at 0.05. With fewer, no comparison of
    such a family can be declared different. The bound is a minimum, not a precision: at it a
    rejection needs no resample in the tail at all, and decisions near the threshold rest
    on about ``B alpha / (2 m)`` resamples of each tail; about ten times as many resamples
    put some ten resamples there.

    Parameters
    ----------
    m : int
        The family's size, at least 1.
    confidence_level : float
        ``1 - alpha``, strictly between 0 and 1.
    method : {"holm", "bonferroni", "fdr_bh", "fdr_by"}
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    int

    Examples
    --------
    >>> resamples_to_resolve(300, 0.95, "holm")
    12000
    >>> resamples_to_resolve(10, 0.95, "fdr_by"), resamples_to_resolve(10, 0.95, "holm", "less")
    (1171, 200)
    """
    method = checks.choice(method, "method", PVALUE_METHODS)
    if isinstance(m, bool | np.bool_) or not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f"`m` must be a whole number of comparisons, at least 1; got {m!r}.")
    m = int(m)
    alpha = 1.0 - checks.probability(confidence_level, "confidence_level")
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    c = float(by_factor(m)) if method == "fdr_by" else 1.0
    added = 2.0 if alternative == "two-sided" else 1.0
    # B + 1 > added m c / alpha; rounded first, so that 1 - 0.95 (0.05000000000000004)
    # reads as the 0.05 it stands for and the bound is the one of exact arithmetic
    return max(1, int(np.floor(round(added * m * c / alpha, 6))))


def bonferroni_level(confidence_level: float, k, alternative: str = "two-sided"):
    """The per-comparison confidence level of Bonferroni's simultaneous intervals.

    Intervals at level ``1 - (1 - confidence_level) / k`` each miss with probability at
    most ``(1 - confidence_level) / k``, so all ``k`` hold together with probability at least
    ``confidence_level`` (the union bound), whatever the dependence. The level is the same
    for the three alternatives: it is passed to the interval functions as the level of the
    interval asked for, and a one-sided interval at level ``L`` misses on its one side with
    probability ``1 - L``.

    Parameters
    ----------
    confidence_level : float
        The simultaneous level, strictly between 0 and 1.
    k : int or array_like of int
        The family's size (its comparisons with a finite estimate), at least 1; an array
        gives one level per group.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    float or ndarray of float

    Examples
    --------
    >>> bonferroni_level(0.95, 4)
    0.9875
    >>> bonferroni_level(0.9, [1, 2, 5], "greater")
    array([0.9 , 0.95, 0.98])
    """
    level = checks.probability(confidence_level, "confidence_level")
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    size = np.asarray(k)
    if size.dtype.kind not in "iu" or (size < 1).any():
        raise ValueError(f"`k` must be a whole number of comparisons, at least 1; got {k!r}.")
    out = 1.0 - (1.0 - level) / size.astype(np.float64)
    return float(out) if out.ndim == 0 else out


class MaxT(NamedTuple):
    """The max-t adjustment of a family (:func:`max_t`); shapes for replicates (..., k, B).

    Attributes
    ----------
    critical_value : ndarray, shape (...)
        ``c``, the ``confidence_level`` quantile of the bootstrap max statistic.
    low, high : ndarray, shape (..., k)
        The simultaneous interval ``estimate -/+ c * standard_error``.
    pvalue_adjusted : ndarray, shape (..., k)
        Step-down adjusted p-values.
    """

    critical_value: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pvalue_adjusted: np.ndarray


def _max_t_iv(replicates, estimates, standard_errors, confidence_level, alternative):
    reps = np.asarray(replicates, dtype=np.float64)
    if reps.ndim < 2 or reps.shape[-1] < 1:
        raise ValueError(
            "`replicates` must have shape (..., k, B): the comparisons of a family on the "
            f"second-to-last axis, at least one resample on the last; got shape {reps.shape}."
        )
    est = np.asarray(estimates, dtype=np.float64)
    se = np.asarray(standard_errors, dtype=np.float64)
    for name, value in (("estimates", est), ("standard_errors", se)):
        if value.shape != reps.shape[:-1]:
            raise ValueError(
                f"`{name}` must have the shape of `replicates` without its last axis, "
                f"{reps.shape[:-1]}; got {value.shape}."
            )
    if (se < 0).any():
        raise ValueError("`standard_errors` must be non-negative (NaN for a non-member).")
    level = checks.probability(confidence_level, "confidence_level")
    return reps, est, se, level, checks.choice(alternative, "alternative", ALTERNATIVES)


def signed(x, alternative):
    """The deviation in the direction of ``alternative``: |x|, x or -x."""
    if alternative == "two-sided":
        return np.abs(x)
    return x if alternative == "greater" else -x


def max_t(
    replicates, estimates, standard_errors, confidence_level: float, alternative="two-sided"
) -> MaxT:
    """Max-t simultaneous intervals and step-down adjusted p-values of each family.

    The centred studentized deviations of resample ``r`` are
    ``z_jr = (theta*_jr - theta_j) / se_j``; the max statistic is
    ``T_r = max_j |z_jr|`` (``"greater"``: ``max_j z_jr``; ``"less"``: ``max_j -z_jr``),
    its ``confidence_level`` quantile (numpy's linear rule) the critical value ``c``
    (Westfall & Young 1993, single step). The simultaneous interval of comparison ``j`` is
    ``theta_j -/+ c se_j`` (one-sided: the end on the side of the alternative is infinite:
    ``"greater"`` gives ``[theta_j - c se_j, inf)``).

    The adjusted p-values are step-down (Romano & Wolf 2005): with observed
    ``t_j = |theta_j| / se_j`` (``"greater"``: ``theta_j / se_j``; ``"less"``:
    ``-theta_j / se_j``) in decreasing order, the ``i``-th comparison's p-value is the share
    of resamples whose max over the comparisons not yet rejected (the ``i``-th and those
    after it) reaches ``t_(i)`` (``>=``: ties count), made non-decreasing by a running
    maximum. They are never larger than the single-step ones, so a comparison may be
    rejected at ``1 - confidence_level`` while its simultaneous interval holds 0.

    Parameters
    ----------
    replicates : array_like, shape (..., k, B)
        Joint bootstrap replicates: all ``k`` comparisons of a family from the same ``B``
        resamples (resample ``r`` is column ``r`` of every comparison).
    estimates : array_like, shape (..., k)
    standard_errors : array_like, shape (..., k)
        The bootstrap standard deviation of each comparison's replicates.
    confidence_level : float
        Simultaneous level of the intervals, strictly between 0 and 1.
    alternative : {"two-sided", "less", "greater"}
        About the estimate (the comparison's difference).

    Returns
    -------
    MaxT
        ``critical_value`` (...), ``low``, ``high``, ``pvalue_adjusted`` (..., k).

    Notes
    -----
    A comparison whose estimate or standard error is NaN is not in the family: it is left
    out of the max and its interval and p-value are NaN. A comparison with standard error 0
    (its replicates are one point) is left out of the max too; its interval is the point
    ``theta_j`` (one-sided: ``theta_j`` and an infinite end) and its p-value is 0 when its
    estimate lies on the side of the alternative (``theta_j != 0`` two-sided,
    ``theta_j > 0`` for ``"greater"``, ``theta_j < 0`` for ``"less"``), else 1. A family
    with no comparison of positive standard error has ``critical_value`` NaN.

    Examples
    --------
    Two comparisons from the same four resamples. Their studentized deviations
    ``|z|`` are ``[0.5, 0.5, 0, 2]`` and ``[0.75, 0.25, 0.25, 0.75]``, so ``T`` is
    ``[0.75, 0.5, 0.25, 2]`` and its median (linear rule) is 0.625:

    >>> reps = np.array([[0.5, 1.5, 1.0, 3.0], [-1.0, 1.0, 0.0, 2.0]])
    >>> res = max_t(reps, [1.0, 0.5], [1.0, 2.0], 0.5)
    >>> float(res.critical_value)
    0.625
    >>> res.low, res.high
    (array([ 0.375, -0.75 ]), array([1.625, 1.75 ]))

    The first comparison (``t = 1``) is reached by one ``T`` of four; the second
    (``t = 0.25``), alone once the first is rejected, by all four of its ``|z|``:

    >>> res.pvalue_adjusted
    array([0.25, 1.  ])
    """
    from .joint import max_t_blocks  # it builds on this module

    reps, est, se, level, alternative = _max_t_iv(
        replicates, estimates, standard_errors, confidence_level, alternative
    )
    return max_t_blocks(lambda idx: take_rows(reps, idx), est, se, level, alternative)


def take_rows(values: np.ndarray, idx) -> np.ndarray:
    """The rows ``idx`` of ``values`` (..., k, B) along the comparisons: a slice, or
    indices (..., m), one row of indices per leading position. ``values`` may make its rows
    when read (``values.rows(idx)``: :class:`pairedstats.core.derived.DerivedReplicates`)."""
    if hasattr(values, "rows"):
        return values.rows(idx)
    if isinstance(idx, slice):
        return values[..., idx, :]
    return np.take_along_axis(values, idx[..., None], axis=-2)


def take_columns(values: np.ndarray, idx) -> np.ndarray:
    """The comparisons ``idx`` of ``values`` (..., k): a slice, or indices (..., m), as
    :func:`take_rows` reads them."""
    if isinstance(idx, slice):
        return values[..., idx]
    return np.take_along_axis(values, idx, axis=-1)


#: Replicates held at a time by :func:`pairedstats.core.joint.max_t_blocks` and the
#: summaries that stream (64 MB).
BLOCK_CELLS = 2**23


def comparison_blocks(k: int, n_resamples: int, lead: int = 1) -> list[slice]:
    """Consecutive slices of ``range(k)`` comparisons whose replicates (``lead`` groups x
    ``n_resamples`` each) hold at most :data:`BLOCK_CELLS` numbers (one comparison at
    least)."""
    size = max(1, BLOCK_CELLS // max(1, n_resamples * lead))
    return [slice(lo, min(lo + size, k)) for lo in range(0, k, size)]
