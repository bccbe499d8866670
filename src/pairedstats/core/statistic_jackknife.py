"""Jackknife standard errors of a general ``statistic`` and of its bootstrap replicates.

The studentized interval (:mod:`pairedstats.core.studentized`) divides each replicate's
deviation by a standard error computed from the same resample. For ``statistic=`` that is
the jackknife of the resample: leave out one of its ``n`` draws at a time. Draws of the same
unit leave out the same thing, so the leave-one-draw-out jackknife is a weighted jackknife
over the distinct units drawn, unit ``u`` (drawn ``c_u`` times) left out once with weight
``c_u``::

    se*^2 = (n - 1) / n * sum_u c_u (theta_(-u) - mean)^2,   mean = sum_u c_u theta_(-u) / n

within each stratum, added over the strata (a stratum of one unit adds 0): the jackknife
estimate of variance (Efron & Tibshirani 1993, chapter 11), within strata as in Davison &
Hinkley (1997, section 3.7). Units are items, or clusters with ``cluster``; the statistic is
computed on the items of the whole resample. The estimate's own standard error is the
ordinary (stratified) jackknife: the same computation on the resample that draws every unit
once.

Cost: a resample of ``n`` units holds ``n (1 - (1 - 1/n)**n)``, about ``0.632 n``, distinct
units, so the statistic is evaluated about ``0.632 n`` times per resample and system, on
``n - 1`` units each (batched into few calls when the statistic is vectorized): the time
grows as ``n**2 B``. Measured on a 2-core machine for pooled F1 of two systems, 200 items
and 2,000 resamples (about 507,000 evaluations): 1.4 s vectorized, 5.4 s called once per
resample (the replicates themselves: 5 ms and 23 ms). The draws are those of
:func:`pairedstats.core.bootstrap_statistic.statistic_replicates`, drawn again (cheap next to
the evaluations).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .bootstrap_statistic import stratum_prefixes, system_statistic
from .draws import BLOCK, UnitDraws, block_slices

__all__ = ["resample_jackknife_variance", "statistic_estimate_se", "statistic_replicate_se"]

#: Target size in bytes of one batch of leave-out index rows (and their score columns).
_BATCH_BYTES = 8 << 20
#: Units drawn per chunk of resamples (bounds the bookkeeping of the distinct units).
_CHUNK_UNITS = 1 << 19

_WHAT = "jackknife samples of the resamples"


def _leave_out_items(group, kept_units: np.ndarray, length: int) -> np.ndarray:
    """Items (rows, length) of the draws ``kept_units`` (rows, n - 1), in draw order."""
    if not group.clustered:
        return group.item_order[kept_units]  # unit u is item item_order[u]
    lens = group.unit_sizes.astype(np.int64)[kept_units]
    offs = np.cumsum(lens, axis=1) - lens  # where each draw's items start in its row
    firsts = (group.unit_starts[kept_units] - offs).ravel()
    flat = np.repeat(firsts, lens.ravel()) + np.tile(np.arange(length), kept_units.shape[0])
    return group.item_order[flat].reshape(kept_units.shape[0], length)


def _grouped_variance(diff, gid, count, n_of_group) -> np.ndarray:
    """Jackknife variance (k, G) of the values ``diff`` (k, M) grouped by ``gid``, weighted.

    ``gid`` is non-decreasing (rows ordered by resample, then unit, units by stratum). Each
    group is centred at its first value first (equal values give exactly 0), then at its
    weighted mean ``sum c x / n``.
    """
    k, n_groups = diff.shape[0], n_of_group.size
    if gid.size == 0:  # every stratum of one unit
        return np.zeros((k, n_groups))
    starts = np.flatnonzero(np.concatenate([[True], gid[1:] != gid[:-1]]))
    first = np.zeros((k, n_groups))
    first[:, gid[starts]] = diff[:, starts]
    dev = diff - first[:, gid]
    out = np.zeros((k, n_groups))
    for c in range(k):
        mean = np.bincount(gid, weights=count * dev[c], minlength=n_groups) / n_of_group
        centred = dev[c] - mean[gid]
        ss = np.bincount(gid, weights=count * centred * centred, minlength=n_groups)
        out[c] = (n_of_group - 1) / n_of_group * ss
    return out


def resample_jackknife_variance(
    group, statistic: Callable, units: np.ndarray, batch_rows: int | None = None
) -> np.ndarray:
    """Jackknife variance (k, m) of ``statistic(b) - statistic(a)`` on given resamples.

    Parameters
    ----------
    group : GroupData
    statistic : callable
        Vectorized, ``statistic(*columns, axis=-1)``
        (:func:`pairedstats.core.bootstrap_statistic.per_resample`).
    units : ndarray of int, shape (m, n_units)
        The units drawn by each resample, stratum after stratum (stratum ``h``'s ``n_h``
        draws in the columns ``strata_bounds[h]:strata_bounds[h + 1]``; the group's unit
        numbers). ``np.arange(n_units)[None]`` is the sample itself.
    batch_rows : int, optional
        Leave-out samples per call of ``statistic`` (by default about 8 MB of work arrays);
        it changes no number.

    Returns
    -------
    ndarray, shape (k, m)
        ``sum_h (n_h - 1) / n_h * sum over the draws j of stratum h of
        (theta_(-j) - mean_h)**2``, ``theta_(-j)`` the statistic of the resample without draw
        ``j``.
    """
    m, n = units.shape
    n_strata = len(group.stratum_keys)
    key = (np.arange(m, dtype=np.int64)[:, None] * n + units).ravel()
    uniq, first, count = np.unique(key, return_index=True, return_counts=True)
    row, unit, pos = uniq // n, uniq % n, first % n
    stratum = group.unit_stratum[unit]
    keep = group.strata_sizes[stratum] > 1  # a stratum of one unit adds 0
    row, unit, pos, count, stratum = (x[keep] for x in (row, unit, pos, count, stratum))
    sizes = group.unit_sizes.astype(np.int64)
    length = sizes[units].sum(axis=1)[row] - sizes[unit]
    systems = sorted({s for p in group.pairs for s in p})
    theta = {s: np.empty(row.size) for s in systems}
    base = np.arange(n - 1)
    for size in np.unique(length).tolist():
        sel = np.flatnonzero(length == size)
        width = 16 * size * max(1, group.scores.shape[2])
        step = batch_rows or max(1, _BATCH_BYTES // width)
        for lo in range(0, sel.size, step):
            part = sel[lo : lo + step]
            cols = base[None, :] + (base[None, :] >= pos[part, None])
            kept = np.take_along_axis(units[row[part]], cols, axis=1)
            idx = _leave_out_items(group, kept, size)
            for s in systems:
                theta[s][part] = system_statistic(statistic, group, s, idx, _WHAT)
    diff = np.stack([theta[b] - theta[a] for a, b in group.pairs])
    n_of_group = np.tile(group.strata_sizes.astype(np.float64), m)
    var = _grouped_variance(diff, row * n_strata + stratum, count.astype(np.float64), n_of_group)
    return var.reshape(len(group.pairs), m, n_strata).sum(axis=-1)


def statistic_replicate_se(
    group, statistic: Callable, group_key, root: int, n_resamples: int, batch_rows=None
) -> np.ndarray:
    """Jackknife standard errors (k, B) of the replicates of ``statistic(b) - statistic(a)``.

    Resample ``r`` is the one of :func:`~pairedstats.core.bootstrap_statistic.\
statistic_replicates` (the same streams, drawn again); its standard error is
    ``sqrt`` of :func:`resample_jackknife_variance`. Resamples are processed in chunks of
    at most about half a million drawn units, leave-out samples in batches of about 8 MB.

    Examples
    --------
    For the mean of items the jackknife is ``sd(ddof=1) / sqrt(n)`` of the resample:

    >>> from pairedstats.core.groups import GroupData
    >>> from pairedstats.core.draws import resample_indices
    >>> scores = np.random.default_rng(0).normal(size=(12, 2, 1))
    >>> group = GroupData(scores, [(0, 1)])
    >>> se = statistic_replicate_se(group, np.mean, "g", 1, 5)
    >>> d = scores[:, 1, 0] - scores[:, 0, 0]
    >>> idx = resample_indices(1, ["bootstrap", "g"], 12, 5)
    >>> bool(np.allclose(se[0], d[idx].std(axis=1, ddof=1) / np.sqrt(12), rtol=1e-12))
    True
    """
    prefixes = stratum_prefixes(group, group_key, root)
    bounds, n_units = group.strata_bounds, group.n_units
    out = np.empty((len(group.pairs), n_resamples))
    chunk = max(1, min(BLOCK, _CHUNK_UNITS // max(1, n_units)))
    for block, lo, hi in block_slices(n_resamples):
        streams = [UnitDraws(prefixes[h], block, int(group.strata_sizes[h]))
                   for h in range(len(prefixes))]  # fmt: skip
        for start in range(lo, hi, chunk):
            stop = min(start + chunk, hi)
            units = np.empty((stop - start, n_units), dtype=np.int64)
            for h, stream in enumerate(streams):
                part = np.empty((stop - start, stream.n), dtype=np.int64)
                units[:, bounds[h] : bounds[h + 1]] = stream.fill(part) + bounds[h]
            var = resample_jackknife_variance(group, statistic, units, batch_rows)
            out[:, start:stop] = np.sqrt(var)
    return out


def statistic_estimate_se(group, statistic: Callable) -> np.ndarray:
    """The (stratified) jackknife standard error (k,) of ``statistic(b) - statistic(a)``.

    Examples
    --------
    >>> from pairedstats.core.groups import GroupData
    >>> scores = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 4.0], [0.0, 7.0]])[:, :, None]
    >>> se = statistic_estimate_se(GroupData(scores, [(0, 1)]), np.mean)
    >>> bool(np.isclose(se[0], np.std([1.0, 2.0, 4.0, 7.0], ddof=1) / 2, rtol=1e-14))
    True
    """
    units = np.arange(group.n_units, dtype=np.int64)[None, :]
    return np.sqrt(resample_jackknife_variance(group, statistic, units))[:, 0]
