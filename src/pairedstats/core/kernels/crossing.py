"""Where a row of replicates crosses a value: counts and neighbours in one pass."""

from __future__ import annotations

import numba
import numpy as np

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)


@_njit
def crossing_stats(x, v, out):  # pragma: no cover
    """Per row ``r`` of ``x`` (rows, B) and value ``v[r]``: ``out[r]`` =
    ``(count x <= v, count x >= v, max of x <= v, min of x > v, min of x >= v,
    max of x < v, 1 if the row holds NaN else 0)``; an empty max is ``-inf``, an empty min
    ``inf``; NaN (in ``x`` or ``v``) is neither at, below nor above. (Comparisons rather than
    ``min``/``max``: each builtin would be one more function to compile on a first call.)
    :func:`pairedstats.core.inference.crossing_stats` calls it on large inputs only."""
    for r in range(x.shape[0]):
        value = v[r]
        n_le = 0
        n_ge = 0
        max_le = -np.inf
        min_gt = np.inf
        min_ge = np.inf
        max_lt = -np.inf
        nan = 0.0
        for j in range(x.shape[1]):
            y = x[r, j]
            if y != y:
                nan = 1.0
                continue
            if y <= value:
                n_le += 1
                max_le = y if y > max_le else max_le
            elif y > value:  # (neither, when value is NaN)
                min_gt = y if y < min_gt else min_gt
            if y >= value:
                n_ge += 1
                min_ge = y if y < min_ge else min_ge
            elif y < value:
                max_lt = y if y > max_lt else max_lt
        out[r, 0] = n_le
        out[r, 1] = n_ge
        out[r, 2] = max_le
        out[r, 3] = min_gt
        out[r, 4] = min_ge
        out[r, 5] = max_lt
        out[r, 6] = nan


@_njit
def tails(x, low, high, nan):  # pragma: no cover
    """Per row ``r`` of ``x`` (rows, B): ``low[r]`` its ``low.shape[1]`` smallest values in
    ascending order, ``high[r]`` its ``high.shape[1]`` largest in descending order (the order
    statistics at the two ends), ``nan[r]`` whether it holds NaN (left out of both). One pass
    over a row, inserting into the two short sorted buffers the few values that enter them.
    :func:`pairedstats.core.intervals.percentile_interval` reads its ends from them."""
    k_low, k_high = low.shape[1], high.shape[1]
    for r in range(x.shape[0]):
        lo, hi = low[r], high[r]
        lo[:] = np.inf
        hi[:] = -np.inf
        nan[r] = False
        for y in x[r]:
            if y != y:
                nan[r] = True
                continue
            if y < lo[k_low - 1]:
                j = k_low - 1
                while j > 0 and lo[j - 1] > y:
                    lo[j] = lo[j - 1]
                    j -= 1
                lo[j] = y
            if y > hi[k_high - 1]:
                j = k_high - 1
                while j > 0 and hi[j - 1] < y:
                    hi[j] = hi[j - 1]
                    j -= 1
                hi[j] = y
