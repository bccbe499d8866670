"""Per comparison ``(a, b)``, sums over the items of ``b - a`` without forming the
differences: the mean (the bootstrap's estimate) and the paired effect sizes.

The scores come transposed, ``xt`` of shape ``(n_systems, n_items)``, so that a comparison
reads two contiguous rows. Each comparison's numbers come from its own two rows by the same
operations in item order, whatever the other comparisons: the sum is sequential, as
:func:`pairedstats.core.groups.plain_mean` adds.
"""

from __future__ import annotations

import numba

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)


@_njit
def _sum(ra, rb):  # pragma: no cover  (compiled; tested via the core)
    """The sum over the items, in order, of ``rb - ra``."""
    s = 0.0
    for i in range(ra.size):
        s += rb[i] - ra[i]
    return s


@_njit
def difference_sums(xt, a, b, lo, hi, out):  # pragma: no cover
    """``out[c]``: the sum over the items, in order, of ``xt[b[c]] - xt[a[c]]``, for
    ``lo <= c < hi``."""
    for c in range(lo, hi):
        out[c] = _sum(xt[a[c]], xt[b[c]])


@_njit
def difference_moments(xt, a, b, rel, lo, hi, mean, ss, wins, ties, losses):  # pragma: no cover
    """For ``lo <= c < hi``: ``mean[c]`` the mean of ``d = xt[b[c]] - xt[a[c]]`` (sequential
    sum over ``n``), ``ss[c]`` the sum of ``(d - mean)**2``, and the items where ``d`` is
    above, within and below its error ``rel[c] * (|xa| + |xb|)`` of 0."""
    n = xt.shape[1]
    for c in range(lo, hi):
        ra, rb = xt[a[c]], xt[b[c]]
        m = _sum(ra, rb) / n
        q = 0.0
        w = 0
        t = 0
        for i in range(n):
            d = rb[i] - ra[i]
            e = d - m
            q += e * e
            tol = rel[c] * (abs(ra[i]) + abs(rb[i]))
            if d > tol:
                w += 1
            elif d >= -tol:
                t += 1
        mean[c] = m
        ss[c] = q
        wins[c] = w
        ties[c] = t
        losses[c] = n - w - t
