"""The max-t adjustment's passes over a block of replicates, one pass each.

A block is ``reps`` (G, m, B): ``m`` comparisons of each of ``G`` families. A comparison's
studentized deviation in resample ``r`` is ``z = (x - est) / se`` signed for the
alternative (``sign`` 0: ``|z|``, 1: ``z``, 2: ``-z``), or ``-inf`` when it is not
``spread`` (outside the family, or a point); ``x`` is the replicate, first set to ``value``
when it lies within ``tol`` of it (the ties of
:func:`pairedstats.core.inference.snap_ties`; ``tol = -inf`` snaps nothing). Maxima
propagate NaN as ``numpy.maximum`` does, so that the numbers are those of numpy's passes
over the deviations formed (:func:`pairedstats.core.max_t.max_t_blocks`).
"""

from __future__ import annotations

import numba
import numpy as np

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)


@_njit
def _deviation(x, value, tol, est, se, sign):  # pragma: no cover  (compiled; tested via core)
    if abs(x - value) <= tol:
        x = value
    z = (x - est) / se
    if sign == 0:
        return abs(z)
    return z if sign == 1 else -z


@_njit
def block_top(reps, value, tol, est, se, spread, sign, top):  # pragma: no cover
    """``top[g, r]``: the max of itself and the deviations of the block's comparisons in
    resample ``r``."""
    for g in range(reps.shape[0]):
        for i in range(reps.shape[1]):
            if not spread[g, i]:
                continue
            v, d, e, s = value[g, i], tol[g, i], est[g, i], se[g, i]
            row, acc = reps[g, i], top[g]
            for r in range(reps.shape[2]):
                z = _deviation(row[r], v, d, e, s, sign)
                a = acc[r]
                acc[r] = a if (a >= z or a != a) else z


@_njit
def step_down(reps, value, tol, est, se, spread, t, sign, after, raw):  # pragma: no cover
    """The block's comparisons in decreasing order of ``t``, read from the last: ``after[g,
    r]`` becomes the max of itself and each one's deviation, and ``raw[g, i]`` the share of
    resamples where it reaches ``t[g, i]`` then (the max over the ``i``-th comparison and all
    after it)."""
    n = reps.shape[2]
    for g in range(reps.shape[0]):
        acc = after[g]
        for i in range(reps.shape[1] - 1, -1, -1):
            v, d, e, s, bar = value[g, i], tol[g, i], est[g, i], se[g, i], t[g, i]
            row = reps[g, i]
            count = 0
            for r in range(n):
                z = _deviation(row[r], v, d, e, s, sign) if spread[g, i] else -np.inf
                a = acc[r]
                a = a if (a >= z or a != a) else z
                acc[r] = a
                count += a >= bar
            raw[g, i] = count / n
