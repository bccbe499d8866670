"""Walsh sums counted row by row with two pointers (the signed-rank interval).

For ``d`` sorted ascending, the Walsh sums ``fl(d_i + d_j)`` (``i <= j``) of row ``i``
increase with ``j``, and the first ``j`` whose sum exceeds a threshold moves left as ``i``
grows (floating point addition is monotone in each argument): one pass over the rows finds,
for every row, where its sums cross the threshold, in ``O(n)`` comparisons of the actual
floating point sums, without forming them.
"""

from __future__ import annotations

import numba
import numpy as np

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)


@_njit
def row_ends(d, s, strict, out):  # pragma: no cover  (compiled; tested through the core)
    """``out[i]``: the first ``j >= i`` with ``fl(d_i + d_j) > s`` (``>= s`` if strict),
    ``n`` when there is none; returns ``sum(out[i] - i)``, the number of sums ``<= s``
    (``< s``)."""
    n = d.size
    j = n  # first j (over all j) whose sum with d_i fails, non-increasing in i
    total = 0
    for i in range(n):
        while j > 0:
            v = d[i] + d[j - 1]
            if (v < s) if strict else (v <= s):
                break
            j -= 1
        end = j if j > i else i
        out[i] = end
        total += end - i
    return total


@_njit
def gather_sums(x, y, lo, hi, out):  # pragma: no cover
    """The sums ``fl(x_i + y_j)``, ``lo[i] <= j < hi[i]``, row after row, into ``out``;
    returns how many (the rank-sum kernel gathers its differences ``b_j - a_i`` too)."""
    k = 0
    for i in range(x.size):
        for j in range(lo[i], hi[i]):
            out[k] = x[i] + y[j]
            k += 1
    return k


@_njit
def gather(d, lo, hi, out):  # pragma: no cover
    """The sums ``fl(d_i + d_j)``, ``lo[i] <= j < hi[i]``, row after row, into ``out``."""
    return gather_sums(d, d, lo, hi, out)


@_njit
def pick(d, lo, hi, positions, out):  # pragma: no cover
    """The sums at the sorted ``positions`` of the active list (rows in order)."""
    k = 0
    start = 0
    for i in range(d.size):
        width = hi[i] - lo[i]
        while k < positions.size and positions[k] < start + width:
            out[k] = d[i] + d[lo[i] + positions[k] - start]
            k += 1
        start += width
    return k


def ends(d: np.ndarray, s: float, strict: bool) -> tuple[np.ndarray, int]:
    """``(out, count)`` of :func:`row_ends` with a fresh ``out``."""
    out = np.empty(d.size, dtype=np.int64)
    total = row_ends(d, float(s), bool(strict), out)
    return out, int(total)
