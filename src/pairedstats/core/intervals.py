"""Bootstrap intervals and what they need: percentile, basic and BCa (bias correction,
acceleration, jackknife influence values, tie tolerance by the rule of
:mod:`pairedstats.core.ties`).

Functions of replicates (last axis) and estimates; numpy and scipy.special only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import special

from . import ties as _ties

__all__ = [
    "acceleration",
    "basic_interval",
    "bca_interval",
    "bias_correction",
    "comparison_tie_errors",
    "jackknife_influence",
    "magnitude_tie_errors",
    "percentile_interval",
    "standard_error",
    "system_magnitudes",
    "tie_error",
]


def _levels(confidence_level: float) -> tuple[float, float]:
    alpha = 1.0 - confidence_level
    return alpha / 2.0, 1.0 - alpha / 2.0


def _quantiles(replicates: np.ndarray, q) -> np.ndarray:
    """numpy's linear quantile along the last axis at ``q``: one level, or one per row."""
    q = np.asarray(q, dtype=np.float64)
    if q.ndim == 0:
        return np.quantile(replicates, q, axis=-1)
    rows = replicates.reshape(-1, replicates.shape[-1])
    levels = np.broadcast_to(q, replicates.shape[:-1]).reshape(-1)
    out = np.array([np.quantile(r, p) for r, p in zip(rows, levels, strict=True)])
    return out.reshape(replicates.shape[:-1])


#: The deepest order statistic at an end of the replicates read by the compiled pass over
#: each row (:func:`pairedstats.core.kernels.crossing.tails`; a 95% interval of up to about
#: 2,500 replicates); deeper ones, by a partition of each row.
TAIL_DEPTH = 64
#: Replicates (rows x resamples) from which the ends are read by the compiled pass: its first
#: call in a process compiles it (about 0.2 s).
COMPILED_FROM = 1 << 20


def _ends(replicates, lower, upper_tail) -> tuple[np.ndarray, np.ndarray]:
    """The quantile at ``lower`` and the one with ``upper_tail`` of the replicates above it.

    The upper end is minus the ``upper_tail`` quantile of the negated replicates (the same
    value as the ``1 - upper_tail`` quantile up to rounding), so that negating the
    replicates (swapping a and b) mirrors the interval exactly: ``(-high, -low)``. With one
    level for every row, both ends come from one partition of each row
    (:func:`_linear_rule`: numpy's linear quantile, the same numbers).
    """
    reps = np.asarray(replicates, dtype=np.float64)
    if np.ndim(lower) or np.ndim(upper_tail) or reps.shape[-1] == 0:
        return _quantiles(reps, lower), -_quantiles(-reps, upper_tail)
    n = reps.shape[-1]
    lo, hi = _linear_rule(n, lower), _linear_rule(n, upper_tail)
    if max(lo[1], hi[1]) < TAIL_DEPTH and reps.size >= COMPILED_FROM:
        from .kernels.crossing import tails

        # the i-th smallest of the replicates, and the i-th largest (minus the negated
        # replicates' i-th smallest)
        rows = np.require(reps.reshape(-1, n), requirements=["C", "W"])
        small, large = np.empty((rows.shape[0], lo[1] + 1)), np.empty((rows.shape[0], hi[1] + 1))
        nan = np.empty(rows.shape[0], dtype=np.bool_)
        tails(rows, small, large, nan)
        small[nan], large[nan] = 0.0, 0.0  # NaN rows: NaN below, and nothing to warn of
        small, large = (v.reshape(*reps.shape[:-1], -1) for v in (small, large))
        nan = nan.reshape(reps.shape[:-1])
        low = _lerp(small[..., lo[0]], small[..., lo[1]], lo[2])
        high = -_lerp(-large[..., hi[0]], -large[..., hi[1]], hi[2])
    else:  # the negated replicates' i-th smallest is minus the replicates' (n - 1 - i)-th
        up = (n - 1 - hi[0], n - 1 - hi[1])
        part = np.partition(reps, sorted({lo[0], lo[1], *up, n - 1}), axis=-1)
        nan = np.isnan(part[..., -1])  # NaN sorts last: the quantile of a row with one is NaN
        low = _lerp(part[..., lo[0]], part[..., lo[1]], lo[2])
        high = -_lerp(-part[..., up[0]], -part[..., up[1]], hi[2])
    return np.where(nan, np.nan, low), np.where(nan, np.nan, high)


def _linear_rule(n: int, q: float) -> tuple[int, int, float]:
    """Where numpy's linear quantile at ``q`` of ``n`` values reads the sorted values: the
    positions of the two it interpolates and the weight of the second
    (``numpy.lib._function_base_impl._get_indexes`` and ``_get_gamma``)."""
    v = (n - 1) * np.float64(q)
    if not v < n - 1:  # at or above the last value (or NaN): the last one
        return n - 1, n - 1, float(v + 1.0)
    if v < 0:
        return 0, 0, float(v)
    first = int(np.floor(v))
    return first, first + 1, float(v - first)


def _lerp(a, b, t: float) -> np.ndarray:
    """numpy's linear interpolation of its quantiles (``_lerp``), ``t`` one weight."""
    diff = b - a
    return b - diff * (1.0 - t) if t >= 0.5 else a + diff * t


def percentile_interval(replicates, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along the last axis (numpy's linear rule, h = 1 + (B-1)p).

    The upper end is computed as minus the lower end of the negated replicates, so that
    negated replicates give exactly the mirrored interval.

    Examples
    --------
    The tutorial's 20 replicates at 90%:

    >>> reps = [-3, -2, -1, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 10]
    >>> [round(float(x), 10) for x in percentile_interval(reps, 0.90)]
    [-2.05, 8.1]
    """
    lo, _ = _levels(confidence_level)
    return _ends(replicates, lo, lo)


def basic_interval(replicates, estimate, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Basic (reverse percentile) interval: ``2 * estimate - q(1 - p), 2 * estimate - q(p)``.

    Examples
    --------
    >>> reps = [-3, -2, -1, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 10]
    >>> [round(float(x), 10) for x in basic_interval(reps, 3.0, 0.90)]
    [-2.1, 8.05]
    """
    low, high = percentile_interval(replicates, confidence_level)
    estimate = np.asarray(estimate, dtype=np.float64)
    return 2.0 * estimate - high, 2.0 * estimate - low


def bias_correction(replicates, estimate, tie_error=0.0) -> np.ndarray:
    """BCa bias correction ``z0 = Phi^-1(F)``, F the share of replicates below the estimate.

    Ties count one half (scipy's rule: the mean of the shares ``< estimate`` and
    ``<= estimate``). A replicate is a tie when it lies within ``max(1e-12 * scale,
    tie_error)`` of the estimate: ``scale`` is the larger of ``|estimate|`` and the
    replicates' mean absolute value, and ``1e-12 * scale`` covers the float64 arithmetic
    (a resample equal to the sample in exact arithmetic, e.g. every unit drawn once, must not
    be split by rounding); ``tie_error`` bounds how far the rounding of the differences can
    move a replicate from the estimate (:func:`tie_error`, the tie rule of
    :mod:`pairedstats.core.ties`), so that scores given in float32 count the same ties as the
    decimals they stand for. Both terms are sizes of differences, not of scores: an offset
    of the scores that float64 holds exactly changes no tie.
    ``Phi^-1`` is taken of the smaller tail and given its sign, so that negated replicates
    and estimate give exactly ``-z0``.

    Parameters
    ----------
    replicates : array_like, shape (..., B)
    estimate : array_like, shape (...)
    tie_error : float or array_like, shape (...), default 0

    Examples
    --------
    >>> reps = np.array([1.0, 2.0, 3.0, 4.0])
    >>> bool(bias_correction(reps, 1.5) == -bias_correction(-reps, -1.5))
    True

    ``0.3`` (a resample's mean of 0.1 and 0.5 given in float32) is a tie with ``0.3`` (the
    sample's mean of 0.2 and 0.4) once the scores' precision is taken into account:

    >>> f = np.float32
    >>> rep, est = (float(f(0.1)) + float(f(0.5))) / 2, (float(f(0.2)) + float(f(0.4))) / 2
    >>> rep == est
    False
    >>> error = tie_error(np.array([[f(0.1), f(0.2)], [f(0.5), f(0.4)]], dtype=float), 2.0**-24)
    >>> float(bias_correction([rep, 0.0, 1.0], est, error))
    0.0
    """
    reps = np.asarray(replicates, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)[..., None]
    scale = np.maximum(np.abs(est), np.abs(reps).mean(axis=-1, keepdims=True))
    tol = np.maximum(1e-12 * scale, np.asarray(tie_error, dtype=np.float64)[..., None])
    below = (reps < est - tol).sum(axis=-1)
    at_or_below = (reps <= est + tol).sum(axis=-1)
    twice = below + at_or_below  # 2 B F
    total = 2 * reps.shape[-1]
    z = special.ndtri(np.minimum(twice, total - twice) / total)
    return np.where(2 * twice <= total, z, -z)


def tie_error(scores, precision: float = 2.0**-53) -> float:
    """Bound on how far the rounding of the differences moves a replicate from the estimate.

    The tie rule of :mod:`pairedstats.core.ties` on the per-item differences ``b - a`` of
    the two systems' scores: each difference is known to ``E = 2 * ERROR_ULPS * precision *
    max|x|`` (:func:`pairedstats.core.ties.difference_error`: each score carries a rounding
    relative to its own size), or exactly (``E = 0``) when the scores are integers
    (:func:`pairedstats.core.ties.is_exact`). A replicate and the estimate are
    both weighted means of those differences, with weights that sum to one (items, the ratio
    of cluster sums to cluster sizes, strata combined with their weights), so rounding moves
    them apart by at most ``2 E``: a replicate closer to the estimate than this cannot be
    told from a tie. Integers offset by ``2**50`` stay exact.

    Parameters
    ----------
    scores : ndarray of float, shape (n_items, 2)
        The scores of a and b (finite).
    precision : float
        Unit roundoff of the scores as given (``2**-53`` for float64 and integers,
        ``2**-24`` for float32; :attr:`pairedstats.core.design.PairedDesign.precision`).

    Examples
    --------
    >>> tie_error(np.array([[0.2, -0.5], [0.0, 0.1]]), 2.0**-24) == 2 * 4 * 2.0**-24 * 0.5
    True
    >>> tie_error(np.array([[2.0, -5.0], [0.0, 1.0]]), 2.0**-24)  # integers: exact
    0.0
    >>> tie_error(np.array([[1.0, 3.0]]) + 2.0**50) == tie_error(np.array([[1.0, 3.0]]))
    True
    """
    return _ties.tie_error(scores, precision)


def comparison_tie_errors(scores, pairs, precision: float = 2.0**-53, sides=None) -> np.ndarray:
    """:func:`tie_error` of each comparison ``(a, b)``: of its two systems' scores
    ``scores[:, [a, b]]`` (n_items, n_systems), or, given ``sides`` (the two statistics of
    each comparison, a pair of arrays), :func:`pairedstats.core.ties.magnitude_tie_error` of
    those two values.

    A statistic is not a mean of per-item differences: each side is computed from one
    system's scores, with a rounding that follows its own size, and the replicate subtracts
    the two.

    Examples
    --------
    >>> x = np.array([[0.5, -4.0, 0.2], [0.0, 1.0, 0.1]])
    >>> (comparison_tie_errors(x, [(0, 2), (0, 1)]) / (8 * 2.0**-53)).tolist()
    [0.5, 4.0]
    >>> comparison_tie_errors(np.array([[2.0, -4.0], [0.0, 1.0]]), [(0, 1)]).tolist()
    [0.0]
    >>> sides = (np.array([0.5]), np.array([-2.0]))
    >>> (comparison_tie_errors(x, [(0, 1)], sides=sides) / (8 * 2.0**-53)).tolist()
    [2.0]
    """
    if sides is None:  # each system's largest magnitude and whether it is integers, per pair
        x = np.asarray(scores, dtype=np.float64)
        if x.shape[0] == 0:
            return np.zeros(len(pairs))
        return magnitude_tie_errors(*system_magnitudes(x), pairs, precision)
    return np.array([_ties.magnitude_tie_error(np.array([sa, sb]), precision)
                     for sa, sb in zip(*sides, strict=True)])  # fmt: skip


def system_magnitudes(scores) -> tuple[np.ndarray, np.ndarray]:
    """Each system's largest magnitude ``max |x|`` and whether its scores are all integers:
    what :func:`comparison_tie_errors` reads of the scores (n_items, n_systems), two arrays
    (n_systems,). Of the rows of two tables: the larger magnitude, integers in both.

    Examples
    --------
    >>> largest, whole = system_magnitudes(np.array([[0.5, -4.0], [0.0, 1.0]]))
    >>> largest.tolist(), whole.tolist()
    ([0.5, 4.0], [False, True])
    """
    xt = np.ascontiguousarray(np.asarray(scores, dtype=np.float64).T)  # a row per system
    if xt.shape[1] == 0:
        return np.zeros(xt.shape[0]), np.ones(xt.shape[0], dtype=bool)
    return np.maximum(xt.max(axis=1), -xt.min(axis=1)), _ties.whole_rows(xt)


def magnitude_tie_errors(largest, whole, pairs, precision: float = 2.0**-53) -> np.ndarray:
    """:func:`comparison_tie_errors` of each comparison ``(a, b)`` from the systems'
    :func:`system_magnitudes`.

    Examples
    --------
    >>> x = np.array([[0.5, -4.0, 0.2], [0.0, 1.0, 0.1]])
    >>> bool((magnitude_tie_errors(*system_magnitudes(x), [(0, 1)])
    ...       == comparison_tie_errors(x, [(0, 1)])).all())
    True
    """
    a = np.array([p[0] for p in pairs], dtype=np.intp)
    b = np.array([p[1] for p in pairs], dtype=np.intp)
    size = np.maximum(largest[a], largest[b])
    exact = _ties.exact_scores(size, whole[a] & whole[b], precision)
    return np.where(exact, 0.0, 4.0 * _ties.ERROR_ULPS * precision * size)


def acceleration(influence, strata_sizes: Sequence[int] | None = None) -> np.ndarray:
    """BCa acceleration of influence values ``L`` (last axis), stratified.

    ``a = sum_h n_h**-3 sum_j L_hj**3 / (6 * (sum_h n_h**-2 sum_j L_hj**2) ** 1.5)``: the
    third cumulant over the variance to the power 1.5, over 6, of the linear approximation of
    a statistic whose bootstrap draws ``n_h`` units within each stratum ``h`` (Davison and
    Hinkley 1997, *Bootstrap Methods and their Application*, section 5.3, stratified case).
    With one stratum it is Efron's ``sum(L**3) / (6 * sum(L**2) ** 1.5)``; with strata of
    unequal sizes that unweighted form is wrong.

    Parameters
    ----------
    influence : array_like, shape (..., n_units)
        Jackknife influence values (:func:`jackknife_influence`), the units of a stratum
        contiguous.
    strata_sizes : sequence of int, optional
        Units of each stratum, in order (one stratum of all units if None).

    Returns
    -------
    ndarray, shape (...)
        NaN where all ``L`` are zero (or not finite).

    Examples
    --------
    For a linear statistic ``a`` is the skewness of its exact bootstrap distribution over 6.
    The mean of ``[0, 0, 3]``: the mean of 3 draws has third cumulant ``mu3 / 9`` and
    variance ``var / 3``, so ``a = (2 / 9) / (6 * (2 / 3) ** 1.5)``:

    >>> float(np.round(acceleration([-1.0, -1.0, 2.0]), 12))
    0.068041381744
    >>> float(np.round((2 / 9) / (6 * (2 / 3) ** 1.5), 12))
    0.068041381744
    """
    L = np.asarray(influence, dtype=np.float64)
    sizes = [L.shape[-1]] if strata_sizes is None else list(strata_sizes)
    scaled = L / np.repeat(np.asarray(sizes, dtype=np.float64), sizes)
    square = scaled * scaled  # products, not np.power: exactly odd in L
    num = (square * scaled).sum(axis=-1)
    den = 6.0 * square.sum(axis=-1) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def jackknife_influence(values, strata_sizes=None) -> np.ndarray:
    """Influence values from leave-one-out estimates (Efron & Tibshirani 1993, eq. 14.15).

    ``L_i = (n_h - 1) * (mean of the leave-outs of i's stratum - leave-out i)``; the leave-outs
    of one stratum are contiguous, ``strata_sizes`` gives their counts (one stratum if None).
    A stratum of one unit contributes ``L = 0``.
    """
    values = np.asarray(values, dtype=np.float64)
    sizes = [values.shape[-1]] if strata_sizes is None else list(strata_sizes)
    out = np.zeros_like(values)
    lo = 0
    for size in sizes:
        hi = lo + size
        if size > 1:
            part = values[..., lo:hi]
            out[..., lo:hi] = (size - 1) * (part.mean(axis=-1, keepdims=True) - part)
        lo = hi
    return out


def bca_interval(
    replicates, estimate, acceleration, confidence_level: float, tie_error=0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bias-corrected and accelerated interval along the last axis (Efron 1987).

    Parameters
    ----------
    replicates : array_like, shape (..., B)
    estimate : array_like, shape (...)
    acceleration : array_like, shape (...)
        BCa's ``a`` (:func:`acceleration`); NaN (undefined) is taken as 0.
    confidence_level : float
    tie_error : float or array_like, shape (...), default 0
        Replicates this close to the estimate are ties (:func:`bias_correction`,
        :func:`tie_error`).

    Returns
    -------
    low, high, z0 : ndarray, shape (...)
        Where ``z0`` is infinite (the estimate lies outside the replicates) the percentile
        interval is returned. Where the replicates are a point, the interval is that point.
        Where ``1 - a (z0 + z)`` is not positive (a strong acceleration at a high level), an
        end's adjusted level stays at the value it reaches there (0 or 1), so that the
        interval widens with the level and never turns inside out.
        Negated replicates, estimate and acceleration give exactly ``(-high, -low, -z0)``.

    Examples
    --------
    >>> reps = np.array([1.0, 2.0, 2.5, 3.0, 4.0, 6.0])
    >>> low, high, z0 = bca_interval(reps, 2.5, 0.1, 0.8)
    >>> mlow, mhigh, mz0 = bca_interval(-reps, -2.5, -0.1, 0.8)
    >>> bool(low == -mhigh and high == -mlow and z0 == -mz0)
    True
    """
    reps = np.asarray(replicates, dtype=np.float64)
    est = np.broadcast_to(np.asarray(estimate, dtype=np.float64), reps.shape[:-1])
    z0 = np.asarray(bias_correction(reps, est, tie_error), dtype=np.float64)
    finite = np.isfinite(z0)
    zz = np.where(finite, z0, 0.0)
    a = np.asarray(acceleration, dtype=np.float64)
    aa = np.where(finite & np.isfinite(a), a, 0.0)
    lo, _ = _levels(confidence_level)
    z_lo = special.ndtri(lo)
    # The adjusted level Phi(z0 + y / (1 - a y)), y = z0 + z, rises with y only while
    # 1 - a y > 0. Past that pole (a strong acceleration at a high level) the formula turns
    # back; the level keeps the value it reaches at the pole instead: 0 for the lower end
    # when a < 0, 1 when a > 0 (mirrored for the upper end). This is the branch that
    # pairedstats.core.inference inverts, so p-values and intervals agree at every level.
    den_lo = 1.0 - aa * (zz + z_lo)
    den_hi = 1.0 - aa * (zz - z_lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = special.ndtr(zz + (zz + z_lo) / den_lo)
        upper_tail = special.ndtr(-(zz + (zz - z_lo) / den_hi))
    lower = np.where(den_lo > 0, lower, np.where(aa > 0, 1.0, 0.0))
    upper_tail = np.where(den_hi > 0, upper_tail, np.where(aa < 0, 1.0, 0.0))
    # percentile fallback where z0 is infinite: the percentile levels themselves
    lower = np.where(finite, lower, lo)
    upper_tail = np.where(finite, upper_tail, lo)
    low, high = _ends(reps, lower, upper_tail)
    return low, high, z0


def standard_error(replicates) -> np.ndarray:
    """The standard deviation (``ddof=1``) of the replicates along the last axis.

    Each row is reduced as one contiguous row, whatever the memory layout of ``replicates``
    (numpy's sums, and so its ``std``, depend on the layout), so a comparison's value is the
    same bits however the replicates of a call are stacked.

    Examples
    --------
    >>> reps = np.array([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]])
    >>> bool((standard_error(reps) == standard_error(np.asfortranarray(reps))).all())
    True
    >>> float(standard_error([1.0, 2.0, 3.0]))
    1.0
    """
    reps = np.ascontiguousarray(replicates, dtype=np.float64)
    return reps.std(axis=-1, ddof=1)
