"""One-sided intervals and p-values of the bootstrap, by inverting its intervals.

A bootstrap p-value here is the smallest ``alpha`` at which the interval of the chosen
method excludes the null value, 0 unless a margin shifts it (the test-interval duality;
Efron and Tibshirani 1993, *An Introduction to the Bootstrap*, section 16.4 and chapter
15's achieved significance level of an interval family; Davison and Hinkley 1997, section
4.4.1). Each end of a two-sided interval at level
``1 - alpha`` moves monotonically with ``alpha``; the level at which it reaches 0 is found
in closed form from the replicates (for numpy's linear quantile rule, exactly the level at
which the computed end changes sign):

- percentile: ``q(alpha / 2) > 0`` exactly when ``alpha / 2`` exceeds the largest ``p``
  with ``q(p) <= 0`` (:func:`share_at_or_below`);
- basic: the same with the replicates reflected about ``2 * estimate``;
- BCa: the adjusted level ``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))`` solved for ``z``;
- studentized: the same as basic on the ``t`` replicates, with ``estimate / se``.

At a null value ``d0`` other than 0 (a margin's ends, ``H0: b - a <= -m`` or ``>= m``) the
same inversions read ``d0`` for 0: the share at or below ``d0`` (percentile, BCa), at or
below ``2 * estimate - d0`` (basic), the ``t`` replicates at ``(estimate - d0) / se``
(studentized).

Then ``pvalue < alpha`` exactly when the interval at ``1 - alpha`` excludes 0: two-sided,
the smaller of the two ends' levels (at most 1); ``"greater"`` (b - a > 0), half the
lower end's level, ``"less"`` half the upper end's, since a one-sided interval at level
``c`` is one end of the two-sided interval at ``2c - 1`` (scipy's convention).

Functions of replicates (last axis) and estimates; numpy and scipy.special only.
"""

from __future__ import annotations

import numpy as np
from scipy import special

ALTERNATIVES = ("two-sided", "less", "greater")


def two_sided_level(confidence_level: float, alternative: str) -> float:
    """The level of the two-sided interval whose end is the one-sided interval's finite end.

    Examples
    --------
    >>> two_sided_level(0.95, "two-sided"), round(two_sided_level(0.95, "greater"), 12)
    (0.95, 0.9)
    """
    return confidence_level if alternative == "two-sided" else 2.0 * confidence_level - 1.0


def one_sided(low, high, alternative: str) -> tuple[np.ndarray, np.ndarray]:
    """The interval of ``alternative``: ``(low, inf)`` for "greater", ``(-inf, high)`` for
    "less", ``(low, high)`` for "two-sided"."""
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    if alternative == "greater":
        high = np.where(np.isnan(high), np.nan, np.inf)
    elif alternative == "less":
        low = np.where(np.isnan(low), np.nan, -np.inf)
    return low, high


def snap_ties(replicates, value, tie_error) -> np.ndarray:
    """The replicates, those within rounding of ``value`` set to ``value``.

    A replicate equal to ``value`` in exact arithmetic (a resample whose mean difference is
    0, say, with tied scores) can be computed an ulp off it, and which side it falls on
    would move a p-value by ``2 / B`` and an interval end across 0. A replicate is taken to
    be ``value`` when it lies within ``max(1e-12 * scale, tie_error)`` of it, ``scale`` the
    larger of ``|value|`` and the finite replicates' mean absolute value (the rule of BCa's
    ties, :func:`pairedstats.core.intervals.bias_correction`).

    Parameters
    ----------
    replicates : array_like, shape (..., B)
    value, tie_error : array_like, shape (...)

    Examples
    --------
    >>> snap_ties(np.array([0.1 + 0.2 - 0.3, 0.5]), 0.0, 0.0).tolist()
    [0.0, 0.5]
    """
    reps = np.asarray(replicates, dtype=np.float64)
    return snap_within(reps, *snap_bounds(reps, value, tie_error))


def snap_within(replicates, value, tol) -> np.ndarray:
    """The replicates (..., B), those within ``tol`` of ``value`` (...) set to ``value``."""
    v = np.asarray(value, dtype=np.float64)[..., None]
    return np.where(np.abs(replicates - v) <= np.asarray(tol)[..., None], v, replicates)


def snap_bounds(replicates, value, tie_error) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`snap_ties` snaps to and within what: ``value`` and the tolerance, each of
    shape ``(...)`` (a row's tolerance depends on its own replicates only).

    Examples
    --------
    >>> v, tol = snap_bounds(np.array([[1.0, -3.0], [0.0, 0.0]]), 0.0, [0.0, 0.5])
    >>> v.tolist(), tol.tolist()
    ([0.0, 0.0], [2e-12, 0.5])
    """
    reps = np.asarray(replicates, dtype=np.float64)
    v = np.broadcast_to(np.asarray(value, dtype=np.float64), reps.shape[:-1])[..., None]
    finite = np.isfinite(reps)
    with np.errstate(invalid="ignore", divide="ignore"):
        size = np.where(finite, np.abs(reps), 0.0).sum(axis=-1, keepdims=True)
        scale = np.maximum(np.abs(v), size / np.maximum(finite.sum(axis=-1, keepdims=True), 1))
    tol = np.maximum(1e-12 * scale, np.asarray(tie_error, dtype=np.float64)[..., None])
    return v[..., 0], np.broadcast_to(tol, v.shape)[..., 0]


def _share(count, lo, hi, value, n, nan) -> np.ndarray:
    """``sup{p: quantile(p) <= value}`` from the count of values at or below ``value``, the
    largest of them ``lo`` and the smallest value above ``hi`` (numpy's linear rule)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        # between an infinite and a finite value the quantile is the infinite one
        # (the limit of the linear rule): at or below up to the next value if that is -inf
        step = np.where(lo == -np.inf, 1.0, np.where(hi == np.inf, 0.0, (value - lo) / (hi - lo)))
        p = ((count - 1) + step) / (n - 1) if n > 1 else np.zeros_like(step)
    p = np.where(count == 0, 0.0, np.where(count == n, 1.0, p))
    return np.where(nan | np.isnan(value), np.nan, p)


#: Replicates (rows x resamples) from which :func:`crossing_stats` runs the compiled pass: it
#: is several times faster than numpy's passes, but its first call in a process compiles it
#: (about 0.2 s); below, numpy's passes take at most a few milliseconds.
COMPILED_FROM = 1 << 20


def crossing_stats(rows, v) -> np.ndarray:
    """Per row ``r`` of ``rows`` (rows, B) and value ``v[r]``, the 7 columns of
    :func:`pairedstats.core.kernels.crossing.crossing_stats`: ``(count <= v, count >= v,
    max of x <= v, min of x > v, min of x >= v, max of x < v, 1 if NaN in the row)``, an empty
    max ``-inf``, an empty min ``inf``; NaN is neither at, below nor above ``v``. By numpy's
    passes below :data:`COMPILED_FROM` values, by the compiled kernel from there on (the same
    numbers: counts, and maxima and minima of the values themselves).

    Examples
    --------
    >>> crossing_stats(np.array([[1.0, 2.0, 2.0, np.nan]]), np.array([2.0])).tolist()
    [[3.0, 2.0, 2.0, inf, 2.0, 1.0, 1.0]]
    """
    rows = np.asarray(rows, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if rows.size >= COMPILED_FROM:
        from .kernels.crossing import crossing_stats as kernel

        # contiguous and writable: one compiled signature (numba types read-only arrays apart)
        stats = np.empty((rows.shape[0], 7))
        kernel(np.require(rows, requirements=["C", "W"]), np.require(v, requirements=["C", "W"]),
               stats)  # fmt: skip
        return stats
    at = v[:, None]
    le, ge = rows <= at, rows >= at
    return np.column_stack([
        le.sum(axis=1),
        ge.sum(axis=1),
        np.where(le, rows, -np.inf).max(axis=1, initial=-np.inf),
        np.where(rows > at, rows, np.inf).min(axis=1, initial=np.inf),
        np.where(ge, rows, np.inf).min(axis=1, initial=np.inf),
        np.where(rows < at, rows, -np.inf).max(axis=1, initial=-np.inf),
        np.isnan(rows).any(axis=1),
    ]).astype(np.float64)  # fmt: skip


def shares_at_or_below(x, value) -> tuple[np.ndarray, np.ndarray]:
    """``(share_at_or_below(x, value), share_at_or_below(-x, -value))``, both from one set of
    counts and neighbours (:func:`crossing_stats`): the levels at which each end of an
    interval of ``x`` reaches ``value``."""
    x = np.asarray(x, dtype=np.float64)
    v = np.broadcast_to(np.asarray(value, dtype=np.float64), x.shape[:-1])
    stats = crossing_stats(x.reshape(-1, x.shape[-1]), v.reshape(-1))
    stats = stats.reshape(*x.shape[:-1], 7)
    n_le, n_ge, max_le, min_gt, min_ge, max_lt, nan = np.moveaxis(stats, -1, 0)
    nan, n = nan > 0, x.shape[-1]
    # for -x and -v: count(-x <= -v) = count(x >= v), the largest -x <= -v is -min(x >= v)
    # and the smallest -x > -v is -max(x < v)
    return _share(n_le, max_le, min_gt, v, n, nan), _share(n_ge, -min_ge, -max_lt, -v, n, nan)


def share_at_or_below(x, value) -> np.ndarray:
    """The largest ``p`` in [0, 1] with ``quantile(x, p) <= value``, row by row.

    numpy's linear quantile rule puts ``quantile(x, p)`` at ``h = (B - 1) p`` between the
    sorted values ``x_(floor h)`` and the next one; it is non-decreasing and continuous in
    ``p``, so ``quantile(x, p) <= value`` holds on ``[0, p0]``. Found in one pass (a count, the
    largest value at or below ``value`` and the smallest above it), without sorting. 0 when
    every value exceeds ``value`` (the set is empty), NaN where a row holds NaN.

    Parameters
    ----------
    x : array_like, shape (..., B)
    value : array_like, shape (...)

    Examples
    --------
    >>> x = np.array([-1.0, 0.5, 2.0, 3.0])
    >>> p0 = float(share_at_or_below(x, 0.0))
    >>> p0  # h = 0 + (0 - -1) / (0.5 - -1) = 2/3 of the way to the second value
    0.2222222222222222
    >>> bool(np.quantile(x, p0 - 1e-9) <= 0.0 < np.quantile(x, p0 + 1e-9))
    True
    """
    return shares_at_or_below(x, value)[0]


def _bca_level(p0, z0, a) -> np.ndarray:
    """The ``alpha`` at which BCa's lower end reaches 0, given ``p0`` of the replicates at 0.

    The lower end is ``quantile(Phi(u))``, ``u = z0 + y / (1 - a y)``, ``y = z0 + z``,
    ``z = Phi^-1(alpha / 2)``; it exceeds 0 exactly when ``u > w = Phi^-1(p0)``. On the branch
    ``1 - a y > 0`` where ``u`` increases with ``y``, that is ``y > v / (1 + a v)`` with
    ``v = w - z0``; without a solution on it the end is above 0 at every level (``a > 0``)
    or at none (``a < 0``).
    """
    a = np.where(np.isfinite(a), a, 0.0)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        v = special.ndtri(p0) - z0
        den = 1.0 + a * v
        level = 2.0 * special.ndtr(v / den - z0)
    level = np.where(den > 0, level, np.where(a > 0, 0.0, 2.0))
    return np.where(p0 <= 0, 0.0, np.where(p0 >= 1, 2.0, level))


def crossing_levels(
    method: str,
    replicates,
    estimate,
    *,
    bias_correction=None,
    acceleration=None,
    t_replicates=None,
    estimate_se=None,
    value=0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """For each end of the two-sided interval, the ``alpha`` (in [0, 2]) above which the
    end at level ``1 - alpha`` lies beyond ``value`` (the lower end above, the upper end
    below): the null value 0, or a margin's end.

    Parameters
    ----------
    method : {"percentile", "basic", "bca", "studentized"}
    replicates : array_like, shape (..., B)
    estimate : array_like, shape (...)
    bias_correction, acceleration : array_like, shape (...), for "bca"
        ``z0`` as :func:`pairedstats.core.intervals.bca_interval` returned it (infinite:
        the percentile interval was used) and ``a``.
    t_replicates, estimate_se : for "studentized"
        The replicates' ``t`` values and the estimate's standard error.
    value : array_like, shape (...)
        The null value the ends are compared with (default 0).

    Returns
    -------
    alpha_low, alpha_high : ndarray, shape (...)

    Examples
    --------
    Replicates with 1 of 20 at or below 0 (and the next at 1): the percentile interval's
    lower end passes 0 at ``alpha = 2 * p0``:

    >>> reps = np.arange(0.0, 20.0)
    >>> low, high = crossing_levels("percentile", reps, 9.5)
    >>> float(low), float(high)
    (0.0, 2.0)

    At the null value 2.5 (3 of the 20 replicates at or below it, the next at 3), the
    lower end passes it at ``alpha = 2 * (2 + 0.5) / 19``:

    >>> low, high = crossing_levels("percentile", reps, 9.5, value=2.5)
    >>> round(float(low), 12) == round(5 / 19, 12)
    True
    """
    reps = np.asarray(replicates, dtype=np.float64)
    est = np.broadcast_to(np.asarray(estimate, dtype=np.float64), reps.shape[:-1])
    value = np.broadcast_to(np.asarray(value, dtype=np.float64), reps.shape[:-1])
    if method == "percentile":
        below, above = shares_at_or_below(reps, value)
        return 2.0 * below, 2.0 * above
    if method == "basic":
        below, above = shares_at_or_below(reps, 2.0 * est - value)
        return 2.0 * above, 2.0 * below
    if method == "bca":
        z0 = np.asarray(bias_correction, dtype=np.float64)
        a = np.asarray(acceleration, dtype=np.float64)
        below, above = shares_at_or_below(reps, value)
        finite = np.isfinite(z0)
        low = np.where(finite, _bca_level(below, z0, a), 2.0 * below)
        return low, np.where(finite, _bca_level(above, -z0, -a), 2.0 * above)
    if method == "studentized":
        t = np.asarray(t_replicates, dtype=np.float64)
        se = np.asarray(estimate_se, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = (est - value) / np.where(se == 0, 1.0, se)
        below, above = shares_at_or_below(t, ratio)
        low, high = 2.0 * above, 2.0 * below
        # se == 0: the interval is the point estimate at every level
        point = se == 0
        low = np.where(point, np.where(est > value, 0.0, 2.0), low)
        return low, np.where(point, np.where(est < value, 0.0, 2.0), high)
    raise ValueError(f"no p-value for method {method!r}")


def pvalue(alpha_low, alpha_high, alternative: str) -> np.ndarray:
    """The p-value of ``alternative`` from the ends' levels (:func:`crossing_levels`).

    Examples
    --------
    >>> float(pvalue(0.04, 1.96, "two-sided")), float(pvalue(0.04, 1.96, "greater"))
    (0.04, 0.02)
    """
    alpha_low = np.asarray(alpha_low, dtype=np.float64)
    alpha_high = np.asarray(alpha_high, dtype=np.float64)
    if alternative == "greater":
        return alpha_low / 2.0
    if alternative == "less":
        return alpha_high / 2.0
    return np.minimum(1.0, np.minimum(alpha_low, alpha_high))


def agree_with_interval(pvalues, low, high, confidence_level: float, value=0.0) -> np.ndarray:
    """The p-values, each on the side of ``1 - confidence_level`` its interval is on.

    ``pvalue < 1 - confidence_level`` must hold exactly when the interval ``(low, high)``
    excludes the null value ``value`` (0, or a margin's end). The closed forms of
    :func:`crossing_levels` meet the computed ends up to rounding; where an end lies within
    rounding of ``value`` the two can disagree by an ulp, and the p-value is moved to the
    interval's side (to ``1 - confidence_level``, or the float just below it). A
    disagreement larger than rounding is a defect and raises.
    """
    p = np.array(pvalues, dtype=np.float64)
    alpha = 1.0 - confidence_level
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    value = np.asarray(value, dtype=np.float64)
    excludes = (low > value) | (high < value)
    wrong = ~np.isnan(p) & ((p < alpha) != excludes)
    if not wrong.any():
        return p
    if np.any(np.abs(p[wrong] - alpha) > 1e-9):
        raise RuntimeError(
            "pairedstats: a bootstrap p-value disagrees with its interval beyond rounding "
            f"(p={p[wrong].tolist()}, alpha={alpha}); please report this with the data."
        )
    p[wrong] = np.where(excludes[wrong], np.nextafter(alpha, 0.0), alpha)
    return p
