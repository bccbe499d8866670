"""The studentized (bootstrap-t) interval and the standard errors it divides by.

Each replicate ``theta*_r`` comes with a standard error ``se*_r`` computed from the same
resample; the sample's estimate ``theta`` with its own ``se``. The interval takes the
quantiles of ``t*_r = (theta*_r - theta) / se*_r`` in place of those of the unknown
distribution of ``(theta - true value) / se`` (Efron & Tibshirani 1993, chapter 12; Davison &
Hinkley 1997, section 5.2; Hall 1988):

``[theta - se * t*(1 - alpha / 2), theta - se * t*(alpha / 2)]``.

Standard errors provided here (numpy only):

* :func:`ratio_variance`: the linearization variance of a ratio of sums (the item mean of
  clusters, and with clusters of size one the variance of a mean of items), from the sums of
  a few per-unit moment columns (:func:`moment_columns`), which the bootstrap kernel sums over
  the same drawn units as the replicates;
* the jackknife of each resample, the standard error of a general ``statistic``, is in
  :mod:`pairedstats.core.statistic_jackknife`.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "moment_columns",
    "moment_variance",
    "ratio_variance",
    "studentized_interval",
    "studentized_replicates",
    "t_interval",
]

_EPS = np.finfo(np.float64).eps


def moment_columns(centred: np.ndarray, sizes: np.ndarray | None = None) -> np.ndarray:
    """Per-unit moment columns whose sums over a resample give its :func:`ratio_variance`.

    Parameters
    ----------
    centred : ndarray, shape (n_units, k)
        Each unit's sum of the values minus the sample's estimate (the ratio of the stratum)
        times its size: ``T_u = S_u - theta_h N_u``, computed item by item as ``sum over the
        unit's items of (x_i - theta_h)`` (centring first keeps the squares well conditioned
        when the values are far from zero).
    sizes : ndarray, shape (n_units,), optional
        The units' sizes ``N_u`` (clusters); None for items (size one).

    Returns
    -------
    ndarray
        ``[T, T**2]`` (n_units, 2k) for items; ``[T, T**2, T * N, N**2]`` (n_units, 3k + 1)
        for clusters (the sizes themselves are summed by the replicates already).

    Examples
    --------
    >>> moment_columns(np.array([[1.0], [-1.0]])).tolist()
    [[1.0, 1.0], [-1.0, 1.0]]
    """
    t = np.asarray(centred, dtype=np.float64)
    if sizes is None:
        return np.column_stack([t, t * t])
    n = np.asarray(sizes, dtype=np.float64)[:, None]
    return np.column_stack([t, t * t, t * n, n * n])


def ratio_variance(sum_t, sum_t2, n_units, sum_tn=None, sum_n=None, sum_n2=None) -> np.ndarray:
    """Linearization variance of a ratio of sums from the sums of its moment columns.

    For ``n`` units with sums ``S_u`` and sizes ``N_u`` (drawn with repetition: sums over the
    draws), the ratio ``r = sum S / sum N`` has the linearization (delta-method, sandwich)
    variance ``v = n / (n - 1) * sum_u (S_u - r N_u)**2 / (sum N)**2``. With centred sums
    ``T_u = S_u - c N_u`` (any constant ``c``; the sample's ratio) and
    ``delta = sum T / sum N = r - c``, ``sum (S_u - r N_u)**2 = sum T**2 - 2 delta sum T N +
    delta**2 sum N**2``. Items are units of size one: ``v = s**2 / n`` with ``s`` the
    standard deviation (``ddof=1``) of the items, exactly the variance of their mean.

    All arguments broadcast; the sums are over the units (or the draws of a resample).

    Parameters
    ----------
    sum_t, sum_t2 : array_like
        ``sum T`` and ``sum T**2``.
    n_units : int or array_like
        Units (draws) summed. Fewer than two give 0: a resample of one unit does not vary.
    sum_tn, sum_n, sum_n2 : array_like, optional
        ``sum T N``, ``sum N`` and ``sum N**2`` (clusters); None for items.

    Returns
    -------
    ndarray
        ``v``, never negative. A residual sum of squares within the rounding error of its
        terms (``4 n eps`` times their magnitude) is taken as 0: a resample whose units are
        all equal has ``v == 0`` exactly, not a rounding residue.

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 4.0, 7.0])
    >>> t = x - x.mean()
    >>> v = ratio_variance(t.sum(), (t * t).sum(), 4)
    >>> bool(np.isclose(v, x.var(ddof=1) / 4, rtol=1e-14, atol=0))
    True
    >>> float(ratio_variance(3 * 0.1, 3 * 0.1 * 0.1, 3))  # three equal draws
    0.0
    """
    st, st2 = np.asarray(sum_t, dtype=np.float64), np.asarray(sum_t2, dtype=np.float64)
    n = np.asarray(n_units, dtype=np.float64)
    if sum_n is None:
        sum_tn, sum_n, sum_n2 = st, n, n
    sn = np.asarray(sum_n, dtype=np.float64)
    delta = st / sn
    cross = 2.0 * delta * np.asarray(sum_tn, dtype=np.float64)
    square = delta * delta * np.asarray(sum_n2, dtype=np.float64)
    residual = st2 - cross + square
    noise = 4.0 * n * _EPS * (st2 + np.abs(cross) + square)
    residual = np.where(residual > noise, residual, 0.0)
    factor = np.where(n > 1, n / np.maximum(n - 1.0, 1.0), 0.0)
    return factor * residual / (sn * sn)


def moment_variance(sums, n_units, k: int, sum_n=None) -> np.ndarray:
    """:func:`ratio_variance` from the sums of :func:`moment_columns` (last axis).

    Parameters
    ----------
    sums : array_like, shape (..., 2k) or (..., 3k + 1)
        Sums over the units (or a resample's draws) of the moment columns.
    n_units : int or array_like
        Units (draws) summed, broadcasting against ``sums[..., :k]``.
    k : int
        Columns (comparisons).
    sum_n : array_like, shape (...), optional
        ``sum N`` of the units (clusters); None for items.

    Returns
    -------
    ndarray, shape (..., k)

    Examples
    --------
    >>> x = np.array([[1.0], [2.0], [4.0], [7.0]])
    >>> v = moment_variance(moment_columns(x - x.mean()).sum(axis=0), 4, 1)
    >>> bool(np.isclose(v[0], x.var(ddof=1) / 4, rtol=1e-14))
    True
    """
    acc = np.asarray(sums, dtype=np.float64)
    st, st2 = acc[..., :k], acc[..., k : 2 * k]
    if sum_n is None:
        return ratio_variance(st, st2, n_units)
    sn = np.asarray(sum_n, dtype=np.float64)[..., None]
    return ratio_variance(st, st2, n_units, acc[..., 2 * k : 3 * k], sn, acc[..., 3 * k :])


def studentized_replicates(replicates, estimate, replicate_se) -> np.ndarray:
    """The bootstrap-t replicates ``t*_r = (theta*_r - theta) / se*_r`` (last axis).

    Rules where a division by zero would occur:

    * ``theta*_r == theta`` gives ``t*_r = 0``, whatever ``se*_r`` (a resample whose
      estimate is the sample's deviates by nothing, even when it does not vary);
    * ``se*_r == 0`` otherwise gives ``t*_r = +inf`` or ``-inf`` (the sign of
      ``theta*_r - theta``): a resample whose units are all equal (or whose jackknife values
      are) is an extreme of the bootstrap-t distribution;
    * a NaN replicate or standard error gives NaN.

    Negated replicates and estimate give exactly ``-t*``.

    Parameters
    ----------
    replicates, replicate_se : array_like, shape (..., B)
    estimate : array_like, shape (...)

    Examples
    --------
    >>> studentized_replicates([1.0, 3.0, 2.0, 0.0], 2.0, [0.5, 2.0, 0.0, 0.0]).tolist()
    [-2.0, 0.5, 0.0, -inf]
    """
    reps = np.asarray(replicates, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)[..., None]
    se = np.asarray(replicate_se, dtype=np.float64)
    dev = reps - est
    with np.errstate(divide="ignore", invalid="ignore"):
        t = dev / se
    t = np.where(se == 0, np.copysign(np.inf, dev), t)
    return np.where(dev == 0, 0.0, t)


def _lower_quantile(t: np.ndarray, p: float) -> np.ndarray:
    """numpy's linear quantile of ``t`` (last axis) at ``p``, infinities allowed.

    Between two finite neighbours, numpy's own value. With an infinite neighbour (numpy
    would give NaN) the limit of the linear rule: the common value of equal neighbours, else
    ``-inf`` when the lower neighbour is ``-inf``, else ``+inf`` (the upper one is ``+inf``).
    NaN where the values hold a NaN.
    """
    low = np.quantile(t, p, axis=-1, method="lower")
    high = np.quantile(t, p, axis=-1, method="higher")
    out = np.where(low == high, low, np.where(low == -np.inf, -np.inf, np.inf))
    out = np.where(np.isnan(low) | np.isnan(high), np.nan, out)
    # between two distinct finite neighbours only: at a whole position (equal neighbours)
    # numpy's rule still reads the next value with weight 0, and inf * 0 is NaN
    finite = np.isfinite(low) & np.isfinite(high) & (low != high)
    if finite.any():
        rows = t.reshape(-1, t.shape[-1])[finite.reshape(-1)]
        out = np.array(out, dtype=np.float64)
        out[finite] = np.quantile(rows, p, axis=-1)
    return out


def studentized_interval(
    replicates, estimate, estimate_se, replicate_se, confidence_level: float
) -> tuple[np.ndarray, np.ndarray]:
    """Studentized (bootstrap-t) interval along the last axis.

    ``[theta - se * q(1 - alpha / 2), theta - se * q(alpha / 2)]`` with ``q`` numpy's linear
    quantile (h = 1 + (B - 1) p) of the bootstrap-t replicates
    (:func:`studentized_replicates`), ``alpha = 1 - confidence_level``. The upper quantile is
    minus the ``alpha / 2`` quantile of ``-t*``, so that negated replicates and estimate give
    exactly the mirrored interval ``(-high, -low)``.

    Parameters
    ----------
    replicates, replicate_se : array_like, shape (..., B)
        The replicates and the standard error of each, from the same resample.
    estimate, estimate_se : array_like, shape (...)
        The sample's estimate and its standard error.
    confidence_level : float

    Returns
    -------
    low, high : ndarray, shape (...)
        Where ``estimate_se`` is 0 the interval is the point ``estimate`` (nothing to
        studentize by). An infinite ``t*`` quantile (a share of at least about ``alpha / 2``
        of resamples with ``se* == 0``) gives an infinite end. NaN replicates or standard
        errors give NaN ends.

    Examples
    --------
    >>> reps = np.array([1.0, 2.0, 2.5, 3.0, 4.0, 6.0])
    >>> ses = np.array([1.0, 0.5, 0.8, 1.0, 1.2, 2.0])
    >>> low, high = studentized_interval(reps, 2.5, 1.0, ses, 0.8)
    >>> t = np.sort((reps - 2.5) / ses)
    >>> bool(np.isclose(low, 2.5 - np.quantile(t, 0.9)))
    True
    >>> bool(np.isclose(high, 2.5 - np.quantile(t, 0.1)))
    True
    >>> mlow, mhigh = studentized_interval(-reps, -2.5, 1.0, ses, 0.8)
    >>> bool(mlow == -high and mhigh == -low)
    True
    """
    t = studentized_replicates(replicates, estimate, replicate_se)
    return t_interval(t, estimate, estimate_se, confidence_level)


def t_interval(t, estimate, estimate_se, confidence_level: float):
    """:func:`studentized_interval` from the bootstrap-t replicates ``t`` themselves."""
    p = (1.0 - confidence_level) / 2.0  # as the other intervals compute it
    q_low = _lower_quantile(t, p)
    q_high = -_lower_quantile(-t, p)
    est = np.asarray(estimate, dtype=np.float64)
    se = np.asarray(estimate_se, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        low = est - se * q_high
        high = est - se * q_low
    point = se == 0
    return np.where(point, est, low), np.where(point, est, high)
