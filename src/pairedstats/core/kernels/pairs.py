"""Per comparison ``(a, b)``, sums over the items of ``b - a`` without forming the
differences: the mean (the bootstrap's estimate) and the paired effect sizes.

The scores come as they are, ``x`` of shape ``(n_items, n_systems)`` and C-contiguous. The
comparisons are taken :data:`BLOCK` at a time, and each block item by item: every
comparison of the block keeps its own running sums, so that each comparison's numbers come
from its own two columns by the same operations in item order, whatever the other
comparisons (the sum is sequential, as :func:`pairedstats.core.groups.plain_mean` adds).
Within a block, consecutive comparisons with one ``a`` and consecutive ``b`` (a *run*: all
pairs, or a baseline against the others) read a contiguous stretch of the item's row, which
the compiler vectorizes across the comparisons; a sum is still one comparison's, in item
order. One comparison read alone, or a list in any order, gives the same bits.
"""

from __future__ import annotations

import numba
import numpy as np

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)

#: Comparisons whose running sums are kept at a time (their sums, squares and counts stay
#: in a core's cache while the items' rows stream past).
BLOCK = 16384


@_njit
def _runs(a, b, lo, hi):  # pragma: no cover  (compiled; tested via the core)
    """The first comparison of each run of ``lo <= c < hi`` (same ``a``, ``b`` one more
    than the previous one's), then ``hi``."""
    starts = np.empty(hi - lo + 1, dtype=np.int64)
    m = 0
    for c in range(lo, hi):
        if c == lo or a[c] != a[c - 1] or b[c] != b[c - 1] + 1:
            starts[m] = c
            m += 1
    starts[m] = hi
    return starts[: m + 1]


@_njit
def _block_sums(x, a, b, starts, s):  # pragma: no cover
    """``s[c - starts[0]]``: the sum over the items, in order, of ``x[:, b[c]] - x[:, a[c]]``
    for the comparisons of the runs ``starts``."""
    lo = starts[0]
    s[:] = 0.0
    for i in range(x.shape[0]):
        row = x[i]
        for r in range(starts.size - 1):
            c0, ln = starts[r], starts[r + 1] - starts[r]
            xa, rb, acc = row[a[c0]], row[b[c0] : b[c0] + ln], s[c0 - lo : c0 - lo + ln]
            for j in range(ln):  # slices of stride 1: vectorized
                acc[j] += rb[j] - xa


@_njit
def difference_sums(x, a, b, lo, hi, out):  # pragma: no cover
    """``out[c]``: the sum over the items, in order, of ``x[:, b[c]] - x[:, a[c]]``, for
    ``lo <= c < hi``."""
    s = np.empty(BLOCK)
    for c0 in range(lo, hi, BLOCK):
        c1 = min(c0 + BLOCK, hi)
        _block_sums(x, a, b, _runs(a, b, c0, c1), s)
        for j in range(c1 - c0):  # not a slice assignment: its shape check with a formatted
            out[c0 + j] = s[j]  # message takes seconds to compile on the first call


@_njit
def _block_spread(x, a, b, rel, starts, m, q, w, t):  # pragma: no cover
    """For the comparisons of the runs ``starts`` (at ``c - starts[0]``, ``m`` their means):
    ``q`` the sum of ``(d - m)**2``, ``w`` and ``t`` the items where ``d`` is above and
    within ``rel[c] * (|xa| + |xb|)`` of 0."""
    lo = starts[0]
    q[:] = 0.0
    w[:] = 0
    t[:] = 0
    for i in range(x.shape[0]):
        row = x[i]
        for r in range(starts.size - 1):
            c0, ln = starts[r], starts[r + 1] - starts[r]
            o, xa, rb = c0 - lo, row[a[c0]], row[b[c0] : b[c0] + ln]
            mm, qq, rr = m[o : o + ln], q[o : o + ln], rel[c0 : c0 + ln]
            ww, tt = w[o : o + ln], t[o : o + ln]
            for j in range(ln):
                d = rb[j] - xa
                e = d - mm[j]
                qq[j] += e * e
                tol = rr[j] * (abs(xa) + abs(rb[j]))
                above = d > tol
                ww[j] += above
                tt[j] += (d >= -tol) - above  # within: at least -tol and not above


@_njit
def difference_moments(x, a, b, rel, lo, hi, mean, ss, wins, ties, losses):  # pragma: no cover
    """For ``lo <= c < hi``: ``mean[c]`` the mean of ``d = x[:, b[c]] - x[:, a[c]]``
    (sequential sum over ``n``), ``ss[c]`` the sum of ``(d - mean)**2``, and the items where
    ``d`` is above, within and below its error ``rel[c] * (|xa| + |xb|)`` of 0."""
    n = x.shape[0]
    s, q = np.empty(BLOCK), np.empty(BLOCK)
    w, t = np.empty(BLOCK, dtype=np.int64), np.empty(BLOCK, dtype=np.int64)
    for c0 in range(lo, hi, BLOCK):
        c1 = min(c0 + BLOCK, hi)
        starts = _runs(a, b, c0, c1)
        _block_sums(x, a, b, starts, s)
        for j in range(c1 - c0):
            s[j] = s[j] / n
        _block_spread(x, a, b, rel, starts, s, q, w, t)
        for j in range(c1 - c0):
            mean[c0 + j], ss[c0 + j] = s[j], q[j]
            wins[c0 + j], ties[c0 + j], losses[c0 + j] = w[j], t[j], n - w[j] - t[j]


@_njit
def constant_differences(x, a, b, lo, hi, out):  # pragma: no cover
    """``out[c]``: whether ``x[:, b[c]] - x[:, a[c]]`` is one finite number on every item,
    for ``lo <= c < hi`` (read up to the first item that differs)."""
    for c in range(lo, hi):
        ia, ib = a[c], b[c]
        d0 = x[0, ib] - x[0, ia]
        same = abs(d0) < np.inf
        i = 1
        while same and i < x.shape[0]:
            same = x[i, ib] - x[i, ia] == d0
            i += 1
        out[c] = same
