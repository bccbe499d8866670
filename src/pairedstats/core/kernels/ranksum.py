"""Rank-sum kernels: pooled midranks, order statistics of ``b_j - a_i``, the tied null.

* :func:`merge_ranks`: one merge of the two sorted samples gives the doubled midranks and
  the sizes of the tie groups (pooled, within ``a``, within ``b``);
* :func:`select_differences`: order statistics of the ``n_a n_b`` differences
  ``fl(b_j - a_i) = fl(b_j + c_i)`` (``c = -a`` ascending), without forming them. Row ``j``
  increases with ``i``, and the first ``i`` whose sum exceeds a threshold does not grow with
  ``j`` (floating point addition is monotone in each argument), so two pointers count the
  differences below a threshold in ``O(n_a + n_b)`` comparisons of the actual sums. Pivots
  drawn from a sample of the remaining candidates (Floyd-Rivest; Monahan 1984, ACM TOMS 10(3))
  shrink the candidates until a few thousand remain, which are selected directly;
* :func:`subset_sum_band`: the subset-sum recursion of the conditional null with ties, with
  the very operations of the array version on each cell, each row kept to the sums it can
  hold (zeros elsewhere contribute nothing, so the numbers are the same), several steps at
  a time on tiles of sums that stay in cache.
"""

from __future__ import annotations

import numba
import numpy as np

from .walsh import gather_sums

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True)
# numpy scalars, not Python constants: a helper called with a constant argument is compiled
# once more for that constant (a numba literal type); these are typed bool like variables
_FALSE, _TRUE = np.bool_(False), np.bool_(True)


@_njit
def merge_ranks(a, b, doubled, groups):  # pragma: no cover  (compiled; tested via the core)
    """Doubled midranks of sorted ``a`` then sorted ``b`` into ``doubled``; tie group sizes.

    ``groups[0, g]``: size of the ``g``-th pooled group of equal values (ascending),
    ``groups[1, g]`` and ``groups[2, g]``: how many of them come from ``a`` and ``b``.
    Returns the number of groups.
    """
    n_a, n_b = a.size, b.size
    i = j = g = 0
    while i < n_a or j < n_b:
        if j >= n_b or (i < n_a and a[i] <= b[j]):
            v = a[i]
        else:
            v = b[j]
        ca = 0
        while i + ca < n_a and a[i + ca] == v:
            ca += 1
        cb = 0
        while j + cb < n_b and b[j + cb] == v:
            cb += 1
        if ca + cb == 0:  # NaN equals nothing: no group could ever be closed
            raise ValueError("`a` and `b` must not hold NaN; remove them first.")
        rank2 = 2 * (i + j) + ca + cb + 1
        for r in range(i, i + ca):
            doubled[r] = rank2
        for r in range(j, j + cb):
            doubled[n_a + r] = rank2
        groups[0, g] = ca + cb
        groups[1, g] = ca
        groups[2, g] = cb
        i += ca
        j += cb
        g += 1
    return g


@_njit
def _ends(b, c, t, strict, out):  # pragma: no cover
    """``out[j]``: the first ``i`` with ``fl(b_j + c_i) > t`` (``>= t`` if strict); returns
    ``sum(out)``, the number of sums ``<= t`` (``< t``)."""
    n_c = c.size
    i = n_c
    total = 0
    for j in range(b.size):
        while i > 0:
            v = b[j] + c[i - 1]
            if (v < t) if strict else (v <= t):
                break
            i -= 1
        out[j] = i
        total += i
    return total


@_njit
def _nth(x, k):  # pragma: no cover
    """The ``k``-th smallest (0-based) of ``x``, reordering ``x`` (Hoare's selection)."""
    lo, hi = 0, x.size - 1
    while lo < hi:
        u, v, w = x[lo], x[(lo + hi) >> 1], x[hi]
        pivot = max(min(u, v), min(max(u, v), w))  # median of three
        i, j = lo, hi
        while i <= j:
            while x[i] < pivot:
                i += 1
            while x[j] > pivot:
                j -= 1
            if i <= j:
                x[i], x[j] = x[j], x[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return x[k]


@_njit
def _sample(b, c, lo, hi, cum, active, out, seed):  # pragma: no cover
    """Values at ``out.size`` random positions of the active candidates (rows in order)."""
    state = np.uint64(seed)
    for s in range(out.size):
        state += np.uint64(0x9E3779B97F4A7C15)  # splitmix64: positions only, never results
        x = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        pos = np.int64((x ^ (x >> np.uint64(31))) % np.uint64(active))
        left, right = 0, cum.size - 1  # first row j with cum[j] > pos
        while left < right:
            middle = (left + right) >> 1
            if cum[middle] > pos:
                right = middle
            else:
                left = middle + 1
        out[s] = b[left] + c[hi[left] - (cum[left] - pos)]


@_njit
def _gather(b, c, lo, hi, active):  # pragma: no cover
    out = np.empty(active)
    gather_sums(b, c, lo, hi, out)
    return out


@_njit
def _select_one(b, c, k, lo, hi, buf, limit, size):  # pragma: no cover
    """The ``k``-th smallest sum, candidates ``lo[j] <= i < hi[j]`` (all smaller ones below
    ``lo``); narrows ``lo``, ``hi`` in place. ``buf`` receives row ends."""
    n_b = b.size
    cum = np.empty(n_b, dtype=np.int64)
    sample = np.empty(size)
    seed = 0x5EED
    while True:
        active = below = np.int64(0)  # typed int64: no literal-0 specialization
        for j in range(n_b):
            active += hi[j] - lo[j]
            below += lo[j]
            cum[j] = active  # running widths: where each row's candidates start
        kk = k - below
        if kk == 1 or kk == active:  # the smallest (largest): the first (last) of a row
            best = np.inf if kk == 1 else -np.inf
            for j in range(n_b):
                if lo[j] < hi[j]:
                    if kk == 1:
                        best = min(best, b[j] + c[lo[j]])
                    else:
                        best = max(best, b[j] + c[hi[j] - 1])
            return best
        if active <= limit:
            return _nth(_gather(b, c, lo, hi, active), kk - 1)
        seed += 1
        _sample(b, c, lo, hi, cum, active, sample, seed)
        frac = kk / active
        spread = 3.0 * np.sqrt(max(frac * (1.0 - frac), 1.0 / size) * size)
        p_lo = int(min(max(np.floor(frac * size - spread), 0.0), size - 1.0))
        p_hi = int(min(max(np.ceil(frac * size + spread), 0.0), size - 1.0))
        t = _nth(sample, p_lo)
        t_hi = _nth(sample, p_hi)
        # hi = min(hi, first i >= t) when the answer is below t; lo = max(lo, first i > t)
        # when everything <= t is below
        if _ends(b, c, t, _FALSE, buf) >= k:
            if _ends(b, c, t, _TRUE, buf) < k:
                return t
            for j in range(n_b):
                hi[j] = min(hi[j], buf[j])
            continue
        for j in range(n_b):
            lo[j] = max(lo[j], buf[j])
        if _ends(b, c, t_hi, _TRUE, buf) >= k:
            for j in range(n_b):
                hi[j] = min(hi[j], buf[j])
            continue
        if _ends(b, c, t_hi, _FALSE, buf) >= k:
            return t_hi
        for j in range(n_b):
            lo[j] = max(lo[j], buf[j])


@_njit
def select_differences(b, c, ranks, out, limit, size):  # pragma: no cover
    """``out[r]``: the ``ranks[r]``-th smallest (1-based) ``fl(b_j + c_i)``; ``b``, ``c``
    sorted ascending and ``ranks`` ascending. Each rank starts from what the previous one
    left below it (ties of consecutive ranks, the Hodges-Lehmann pair, cost one count)."""
    n_b, n_c = b.size, c.size
    buf = np.empty(n_b, dtype=np.int64)
    start = np.zeros(n_b, dtype=np.int64)
    lo = np.empty(n_b, dtype=np.int64)
    hi = np.empty(n_b, dtype=np.int64)
    n_le = 0
    prev = np.nan
    for r in range(ranks.size):
        k = ranks[r]
        if r > 0 and k <= n_le:
            out[r] = prev
            continue
        for j in range(n_b):
            lo[j] = start[j]
            hi[j] = n_c
        value = _select_one(b, c, k, lo, hi, buf, limit, size)
        out[r] = value
        prev = value
        n_le = _ends(b, c, value, _FALSE, start)  # start of the next rank: all <= value
    return out


@_njit
def _row_step(p, s, cs, off, j, c, lo, hi):  # pragma: no cover
    """Row ``c`` from step ``j - 1`` to step ``j`` (value ``s[j - 1]``) on the sums
    ``lo <= x < hi``, reading row ``c - 1`` at step ``j - 1``:
    ``p_c(x) = p_c(x) (j - c) / j + p_{c-1}(x - v) c / j``."""
    v = s[j - 1]
    take = c / j
    leave = (j - c) / j
    row = off[c] - cs[c]  # p[row + x] is row c at sum x
    left = off[c - 1] - cs[c - 1] - v  # p[left + x] is row c - 1 at sum x - v
    # row c - 1 (step j - 1) spans [L_{c-1}, H_{c-1}(j - 1)], moved by v: from
    # cs[c - 1] + v up to H_c(j); row c (step j - 1) spans [L_c, H_c(j - 1)]
    first = cs[c - 1] + v
    if c < j:
        start = max(cs[c], lo)
        x = p[row + start : row + max(start, min(first, cs[j - 1] - cs[j - 1 - c] + 1, hi))]
        for i in range(x.size):  # views indexed from 0: loops the compiler vectorizes
            x[i] *= leave
    start = max(first, lo)
    stop = max(start, min(cs[j] - cs[j - c] + 1, hi))
    x, y = p[row + start : row + stop], p[left + start : left + stop]
    for i in range(x.size):
        x[i] = x[i] * leave + y[i] * take


@_njit
def subset_sum_band(s, k, top, cache_cells):  # pragma: no cover
    """Row ``k`` of the subset-sum recursion over the scaled values ``s`` (ascending), as a
    ``top + 1`` array: the array version's cells, each computed by the same operations.

    Row ``c`` after ``j`` values is nonzero only on ``[L_c, H_c(j)]`` with ``L_c`` the sum of
    the ``c`` smallest values and ``H_c(j)`` the sum of the ``c`` largest of the first ``j``;
    it is stored from ``L_c`` to ``H_c(n)``. Step ``j`` updates rows ``c`` descending (row
    ``c`` reads row ``c - 1`` before it moves on). ``T`` steps run as a wavefront (row
    ``d + t`` at step ``j0 + t``, ``t = 0..T-1``, ``d`` descending), on one tile of sums at
    a time, highest first: at step ``j0 + t`` the tile ``[B, B + W)`` is moved up by
    ``sigma_t``, the sum of the values of steps ``j0 + 1 .. j0 + t``. A cell reads its own
    row and row ``c - 1`` at ``x - v`` (lower sums only), so each tile reads every cell at
    the same step as the step-by-step order does, while ``T + 1`` rows of ``W + sigma``
    cells, at most ``cache_cells`` float64, stay in cache.
    """
    n = s.size
    cs = np.zeros(n + 1, dtype=np.int64)
    for j in range(n):
        cs[j + 1] = cs[j] + s[j]
    off = np.zeros(k + 2, dtype=np.int64)
    for c in range(k + 1):
        off[c + 1] = off[c] + (cs[n] - cs[n - c]) - cs[c] + 1
    p = np.zeros(off[k + 1])
    p[0] = 1.0  # row 0: the empty subset, sum 0
    v_max = s[n - 1]
    steps = 1  # the most steps (up to 16) whose tiles, at least as wide as their skew, fit
    while steps < 16 and (steps + 2) * 2 * max(steps * v_max, 1) <= cache_cells:
        steps += 1
    width = max(1, cache_cells // (steps + 1) - (steps - 1) * v_max)
    tiles = top // width + 1
    sigma = np.zeros(steps, dtype=np.int64)
    beyond = cs[n] + 1  # above every sum
    for j0 in range(1, n + 1, steps):
        span = min(steps, n + 1 - j0)
        for t in range(1, span):
            sigma[t] = sigma[t - 1] + s[j0 + t - 1]
        for b in range(tiles - 1, -1, -1):
            for d in range(k, -span, -1):
                for t in range(span):
                    j, c = j0 + t, d + t
                    if max(1, k - (n - j)) <= c <= min(j, k):
                        lo = b * width + sigma[t] if b > 0 else 0
                        hi = (b + 1) * width + sigma[t] if b < tiles - 1 else beyond
                        _row_step(p, s, cs, off, j, c, lo, hi)
    out = np.zeros(top + 1)
    for x in range(cs[k], top + 1):
        out[x] = p[off[k] - cs[k] + x]
    return out


@_njit
def _no_ties_step(f, off, i, j):  # pragma: no cover
    """Row ``j`` from ``i - 1`` to ``i``, reading row ``j - 1`` at ``i``:
    ``f_j(u) = w f_j(u - j) + (1 - w) f_{j-1}(u)``, ``w = i / (i + j)``, ``u`` descending."""
    w = i / (i + j)
    rest = 1 - w
    row, left = off[j], off[j - 1]  # row j at i - 1 spans u = 0..(i - 1) j
    left_top = i * (j - 1)  # row j - 1 at i spans u = 0..left_top
    top = i * j
    # views indexed from 0, u descending: f[row + u - j] still holds step i - 1
    x, y = f[row + left_top + 1 : row + top + 1], f[row + left_top + 1 - j : row + top + 1 - j]
    for u in range(x.size - 1, -1, -1):  # beyond row j - 1
        x[u] = w * y[u]
    x, y = f[row + j : row + left_top + 1], f[row : row + left_top + 1 - j]
    z = f[left + j : left + left_top + 1]
    for u in range(x.size - 1, -1, -1):
        x[u] = w * y[u] + rest * z[u]
    low = min(j - 1, left_top) + 1
    x, z = f[row : row + low], f[left : left + low]
    for u in range(low):
        x[u] = rest * z[u]


@_njit
def no_ties_pmf(big, m, cache_cells):  # pragma: no cover
    """The array version's no-ties recursion on ``u``, the same operations on each cell:
    ``f[i, j](u) = w f[i - 1, j](u - j) + (1 - w) f[i, j - 1](u)``, ``w = i / (i + j)``,
    ``i`` up to ``big``, ``j`` up to ``m``. Row ``j`` is kept in place; ``T`` values of ``i``
    run as a wavefront (row ``d - t`` at ``i0 + t``, ``d`` ascending), which reads every row
    at the same ``i`` as the step-by-step order while ``T + 1`` rows stay in cache."""
    off = np.zeros(m + 2, dtype=np.int64)
    for j in range(m + 1):
        off[j + 1] = off[j] + big * j + 1
    f = np.zeros(off[m + 1])
    for j in range(m + 1):
        f[off[j]] = 1.0  # i = 0: all mass at u = 0
    steps = max(1, cache_cells // (big * m + 1) - 1)
    for i0 in range(1, big + 1, steps):
        span = min(steps, big + 1 - i0)
        for d in range(1, m + span):
            for t in range(span):
                j = d - t
                if 1 <= j <= m:
                    _no_ties_step(f, off, i0 + t, j)
    return f[off[m] : off[m] + big * m + 1].copy()
