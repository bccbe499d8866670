"""The array formulas of the rank-sum core as they stood before the compiled kernels:
the references of tests/core/test_ranksum.py (the kernels must give the same floats)."""

import numpy as np


def doubled_midranks(x: np.ndarray) -> np.ndarray:
    """Twice the ascending midranks of ``x``, as exact integers.

    A value with ``c`` ties after ``before`` smaller values has midrank
    ``before + (c + 1) / 2``; twice that is an integer.

    """
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    before = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return (2 * before + counts + 1)[inverse.reshape(-1)].astype(np.int64)


def rank_statistics(a: np.ndarray, b: np.ndarray) -> dict:
    """Rank sum of ``a``, ``u_a``, and the tie terms of the pooled sample.

    Returns a dict with ``doubled`` (the pooled doubled midranks, int64, a first),
    ``rank_sum_a``, ``u_a``, ``ties`` (``sum(t^3 - t)`` over pooled tie groups), ``ties_within``
    (the same over tie groups inside ``a`` plus inside ``b``: the ties that survive a shift of
    one sample), ``null_mean`` and ``null_variance`` (tie-corrected) of the rank sum.
    """
    n_a, n_b = a.size, b.size
    n = n_a + n_b
    pooled = np.concatenate([a, b])
    doubled = doubled_midranks(pooled)
    rank_sum_a = float(doubled[:n_a].sum()) / 2.0
    u_a = rank_sum_a - n_a * (n_a + 1) / 2.0
    ties = _tie_term(pooled)
    ties_within = _tie_term(a) + _tie_term(b)
    null_mean = n_a * (n + 1) / 2.0
    null_variance = n_a * n_b / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    return {
        "doubled": doubled,
        "rank_sum_a": rank_sum_a,
        "u_a": u_a,
        "ties": ties,
        "ties_within": ties_within,
        "null_mean": null_mean,
        "null_variance": null_variance,
    }


def _tie_term(x: np.ndarray) -> float:
    """``sum(t^3 - t)`` over the groups of equal values of ``x``."""
    if x.size < 2:
        return 0.0
    _, counts = np.unique(x, return_counts=True)
    counts = counts[counts > 1].astype(np.float64)
    return float(np.sum(counts**3 - counts))


def null_pmf_no_ties(n_a: int, n_b: int) -> np.ndarray:
    """Null probabilities of ``u = 0, ..., n_a n_b`` when there are no ties.

    Built by the probability-scale recursion on the last pooled value (it belongs to the
    first sample with probability ``i / (i + j)`` and then exceeds the ``j`` values of the
    second): ``f[i, j](u) = i / (i + j) f[i - 1, j](u - j) + j / (i + j) f[i, j - 1](u)``.
    Only non-negative terms are added, so every probability has a relative error of a few
    ulps times the number of steps, tails included. Cost: ``(n_a n_b)^2 / 4`` operations.

    """
    big, m = max(n_a, n_b), min(n_a, n_b)
    # prev[j] = f[i - 1, j] for j = 0..m (i runs over the larger size)
    prev = [np.ones(1) for _ in range(m + 1)]  # f[0, j] = point mass at 0
    for i in range(1, big + 1):
        cur = [np.ones(1)]  # f[i, 0]
        for j in range(1, m + 1):
            f = np.zeros(i * j + 1)
            w = i / (i + j)
            f[j : j + prev[j].size] += w * prev[j]
            f[: cur[j - 1].size] += (1 - w) * cur[j - 1]
            cur.append(f)
        prev = cur
    return prev[m]


def null_pmf_ties(doubled: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Conditional null distribution of the doubled rank sum of a random ``k``-subset.

    Parameters
    ----------
    doubled : ndarray of int64
        The pooled doubled midranks (all of them, both samples).
    k : int
        Size of the subset (one sample's size).

    Returns
    -------
    values, pmf : ndarray
        Doubled rank sums (int64, ascending, equally spaced, some possibly of
        probability 0) and their probabilities.

    """
    r = np.sort(np.asarray(doubled, dtype=np.int64))
    n = r.size
    base = int(r[0])
    s = r - base
    g = int(np.gcd.reduce(s)) if np.any(s) else 1
    s = s // g
    top = int(s[n - k :].sum())  # largest possible subset sum of the scaled values
    p = np.zeros((k + 1, top + 1))
    p[0, 0] = 1.0
    for j in range(1, n + 1):
        v = int(s[j - 1])
        c_hi = min(j, k)
        c_lo = max(0, k - (n - j))  # rows that can still reach k
        r0, r1 = max(c_lo, 1), c_hi + 1
        if r0 >= r1:
            continue
        rows = np.arange(r0, r1)
        take = (rows / j)[:, None]
        leave = ((j - rows) / j)[:, None]
        width = top + 1 - v
        new = p[r0 - 1 : r1 - 1, :width] * take
        p[r0:r1] *= leave
        p[r0:r1, v:] += new
    pmf = p[k]
    support = np.nonzero(pmf > 0)[0]
    lo, hi = support[0], support[-1]
    values = (np.arange(lo, hi + 1, dtype=np.int64) * g) + k * base
    return values, pmf[lo : hi + 1]
