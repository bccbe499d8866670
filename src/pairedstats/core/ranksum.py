"""Wilcoxon rank-sum (Mann-Whitney) test and the Hodges-Lehmann shift: the array core.

Conventions (the whole package reads differences as b minus a):

* ranks ascend over the pooled sample, tied values get their midrank;
  ``rank_sum_a`` is the sum of the ranks of ``a`` and ``u_a = rank_sum_a - n_a (n_a + 1) / 2``
  (the number of pairs with ``a_i > b_j`` plus half the tied pairs);
* ``alternative`` is about b - a: ``"greater"`` means b tends to exceed a, which makes
  ``u_a`` small; ``z > 0`` when b tends to exceed a;
* ``shift`` is the Hodges-Lehmann estimate, the median of all ``b_j - a_i``; its interval is
  made of order statistics of those differences.

Exact null distributions
------------------------
Without ties the null distribution of ``u_a`` comes from the counting recursion on the
largest pooled value, on the probability scale (:func:`null_pmf_no_ties`): only additions of
non-negative numbers, so tails and centre are accurate to a few ulps per step (the Gaussian
binomial product ``prod (1 - q^(M + i)) / (1 - q^i)`` is cheaper but loses up to 1e-7
relative accuracy in floating point at 200 x 200, so it is not used). With ties, the
conditional null of the rank sum given the midranks is the distribution of the sum of a
random ``k``-subset (``k = min(n_a, n_b)``) of the pooled doubled midranks (integers),
built by a subset-sum recursion over the pooled values on the probability scale (a random
k-subset of the first j values leaves value j out with probability (j - k) / j, or takes
it): only additions of non-negative numbers.

Pairwise differences without forming them
-----------------------------------------
:func:`order_differences` selects order statistics of the ``n_a n_b`` floating point
differences ``fl(b_j - a_i)`` exactly (the numbers ``np.sort(np.subtract.outer(b, a),
axis=None)`` holds at ``k - 1``) in one compiled call (:mod:`pairedstats.core.kernels.ranksum`):
both samples sorted, the differences at or below a threshold counted row by row with two
pointers on the floating point differences themselves (``O(n_a + n_b)``), and a few
Floyd-Rivest rounds on a sample of the remaining candidates (Monahan 1984, "Fast computation
of the Hodges-Lehmann location estimator", ACM TOMS 10(3)) shrink the candidates until a
few thousand remain, which are selected directly; ``O(n_a + n_b)`` memory.

The pooled midranks (a merge of the sorted samples) and both exact recursions run in the
same kernel module, each cell computed by the same floating point operations as the array
formulation of the recursions above (``tests/core/ranksum_reference.py``, which the tests
compare with them float for float).

This module imports numpy and scipy only (the kernels import numba, lazily).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .parallel import default_workers, run_parts
from .ranktest import RankTest, asymptotic_pvalue, ci_tail, exact_ci_rank, z_score

__all__ = [
    "AUTO_EXACT_BUDGET",
    "EXACT_MAX_CELLS",
    "RankStatistics",
    "RanksumTest",
    "asymptotic_ci_ranks",
    "exact_cost",
    "hodges_lehmann",
    "kth_difference",
    "null_pmf_no_ties",
    "null_pmf_ties",
    "order_differences",
    "rank_statistics",
    "ranksum_1d",
]

#: ``method="auto"`` uses the exact (conditional, with ties) distribution when its estimated
#: cost :func:`exact_cost` is at most this many floating point operations (at most about
#: 0.1 s: no ties up to about 90 x 90, ties up to about 60 x 60).
AUTO_EXACT_BUDGET = 2e7
#: ``method="exact"`` refuses when the tables it would hold exceed this many float64 cells
#: (2**27 cells = 1 GiB).
EXACT_MAX_CELLS = 2**27
#: Number of candidate differences (at least) below which :func:`order_differences` selects
#: directly.
_DIRECT = 1 << 14
#: Size of the sample of candidates a selection round draws (four times more from 10^9).
_SAMPLE = 2048
#: float64 cells the no-ties recursion keeps in cache (16 MiB: the rows of a wavefront).
_CACHE_CELLS = 1 << 21
#: float64 cells a tile of the subset-sum recursion keeps in cache (2 MiB, about a core's
#: L2 cache): 1.6 s for the 300 x 300 null with six tied levels here, 2.1 s with 16 MiB
#: wavefronts of whole rows. A tile size never changes a number.
_TILE_CELLS = 1 << 18
#: With ties, above this many estimated operations (:func:`exact_cost`; about 0.05 s) the
#: exact nulls of the p-value and of the interval are computed in two threads.
_THREADED_OPS = 1e8
#: Up to this many differences ``n_a n_b`` (8 MiB of them), and up to this many pooled
#: values for the midranks, numpy does the work (``np.partition`` of the formed differences,
#: ``np.unique`` of the pooled values): a small call costs no compilation of the kernels
#: (about 2.5 s on their first use), which are there for the large samples that need them.
#: Both roads give the same floats (tests/core/test_ranksum.py runs every check on both).
SMALL = 1 << 20


def _kernel():
    from .kernels import ranksum  # numba: imported when first needed

    return ranksum


# --------------------------------------------------------------------------- ranks


@dataclass(frozen=True, kw_only=True)
class RankStatistics:
    """The rank statistics of two samples (:func:`rank_statistics`).

    Attributes
    ----------
    doubled : ndarray of int64
        Twice the pooled ascending midranks (exact integers), ``a`` first, each sample in
        the order it was given.
    rank_sum_a : float
        Sum of the pooled ranks of ``a``.
    u_a : float
        ``rank_sum_a - n_a (n_a + 1) / 2``: pairs with ``a_i > b_j`` plus half the tied pairs.
    ties : float
        ``sum(t^3 - t)`` over the pooled tie groups.
    ties_within : float
        The same over the tie groups inside ``a`` plus those inside ``b``: the ties that
        survive a shift of one sample.
    null_mean, null_variance : float
        Null mean and tie-corrected null variance of the rank sum of ``a``.
    """

    doubled: np.ndarray
    rank_sum_a: float
    u_a: float
    ties: float
    ties_within: float
    null_mean: float
    null_variance: float


def rank_statistics(a: np.ndarray, b: np.ndarray, *, presorted: bool = False) -> RankStatistics:
    """Rank sum of ``a``, ``u_a``, and the tie terms of the pooled sample.

    ``presorted=True`` says both are sorted ascending.

    Examples
    --------
    >>> st = rank_statistics(np.array([3.0, 1.0]), np.array([3.0, 2.0]))
    >>> st.doubled.tolist(), st.rank_sum_a, st.ties
    ([7, 2, 7, 4], 4.5, 6.0)
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    n_a, n_b = a.size, b.size
    n = n_a + n_b
    if presorted:
        order_a = order_b = None
    else:
        order_a, order_b = np.argsort(a, kind="stable"), np.argsort(b, kind="stable")
        a, b = a[order_a], b[order_b]
    doubled, groups = _merge_ranks(a, b)
    rank_sum_a = float(doubled[:n_a].sum()) / 2.0
    if order_a is not None:
        doubled[np.concatenate([order_a, n_a + order_b])] = doubled.copy()
    ties = _tie_term(groups[0])
    return RankStatistics(
        doubled=doubled,
        rank_sum_a=rank_sum_a,
        u_a=rank_sum_a - n_a * (n_a + 1) / 2.0,
        ties=ties,
        ties_within=_tie_term(groups[1]) + _tie_term(groups[2]),
        null_mean=n_a * (n + 1) / 2.0,
        null_variance=n_a * n_b / 12.0 * ((n + 1) - ties / (n * (n - 1))),
    )


def _tie_term(counts: np.ndarray) -> float:
    """``sum(t^3 - t)`` over the sizes ``t`` of the groups of equal values (ascending)."""
    counts = counts[counts > 1].astype(np.float64)
    return float(np.sum(counts**3 - counts))


# ------------------------------------------------------------------ exact nulls
def null_pmf_no_ties(n_a: int, n_b: int) -> np.ndarray:
    """Null probabilities of ``u = 0, ..., n_a n_b`` when there are no ties.

    Built by the probability-scale recursion on the last pooled value (it belongs to the
    first sample with probability ``i / (i + j)`` and then exceeds the ``j`` values of the
    second): ``f[i, j](u) = i / (i + j) f[i - 1, j](u - j) + j / (i + j) f[i, j - 1](u)``.
    Only non-negative terms are added, so every probability has a relative error of a few
    ulps times the number of steps, tails included. Cost: ``(n_a n_b)^2 / 4`` operations.

    Examples
    --------
    >>> null_pmf_no_ties(2, 2) * 6
    array([1., 1., 2., 1., 1.])
    """
    big, m = max(n_a, n_b), min(n_a, n_b)
    return _kernel().no_ties_pmf(big, m, _CACHE_CELLS)


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

    Examples
    --------
    >>> values, pmf = null_pmf_ties(np.array([3, 3, 6, 8]), 2)  # ranks 1.5, 1.5, 3, 4
    >>> keep = pmf > 0
    >>> values[keep].tolist(), (pmf[keep] * 6).round(12).tolist()
    ([6, 9, 11, 14], [1.0, 2.0, 2.0, 1.0])
    """
    r = np.sort(np.asarray(doubled, dtype=np.int64))
    n = r.size
    base = int(r[0])
    s = r - base
    g = int(np.gcd.reduce(s)) if np.any(s) else 1
    s = s // g
    top = int(s[n - k :].sum())  # largest possible subset sum of the scaled values
    pmf = _kernel().subset_sum_band(np.ascontiguousarray(s), k, top, _TILE_CELLS)
    support = np.nonzero(pmf > 0)[0]
    lo, hi = support[0], support[-1]
    values = (np.arange(lo, hi + 1, dtype=np.int64) * g) + k * base
    return values, pmf[lo : hi + 1]


def exact_cost(n_a: int, n_b: int, doubled: np.ndarray | None, has_ties: bool) -> tuple:
    """Estimated ``(operations, cells)`` of the exact computation.

    Without ties: ``(m M)^2 / 4`` operations and ``m^2 M / 2`` cells for the recursion
    (``m = min(n_a, n_b)``, ``M = max``). With ties, add the subset-sum table:
    ``(n_a + n_b) (m + 1) S / 2`` operations and ``(m + 1) S`` cells, ``S`` the number of
    possible scaled rank sums.
    """
    m, big = min(n_a, n_b), max(n_a, n_b)
    ops = 0.25 * (m * big) ** 2
    cells = 0.5 * m * m * big + 1
    if has_ties:
        r = np.sort(doubled)
        s = r - r[0]
        g = int(np.gcd.reduce(s)) if np.any(s) else 1
        top = float((s[s.size - m :] // g).sum()) + 1
        ops += 0.5 * s.size * (m + 1) * top
        cells += (m + 1) * top
    return ops, cells


def asymptotic_ci_ranks(
    zq: float, n_a: int, n_b: int, sigma: float, correction: bool, alternative: str
) -> int:
    """Rank (1-based, ascending) of the difference ``a_i - b_j`` where R's normal score crosses.

    R inverts ``(U(d) - n_a n_b / 2 - CORR) / SIGMA = zq`` for ``d`` with ``uniroot``, where
    ``U(d)`` counts pairs with ``a_i - d > b_j``; the crossing is a jump of that step function,
    i.e. the ``k``-th smallest ``a_i - b_j`` with ``k = min{k : g(N - k) <= zq}``. This returns
    that ``k`` (clipped to ``1..N`` as R returns the extreme difference there).
    """
    total = n_a * n_b
    half = total / 2.0
    if not correction:
        u_star = math.floor(half + zq * sigma)
    elif alternative == "two-sided":
        if zq >= 0:
            u_star = math.floor(half + 0.5 + zq * sigma)
        else:
            u_star = math.floor(half - 0.5 + zq * sigma)
    else:
        # R's one-sided corrections: 0.5 for its "greater", -0.5 for its "less"; our caller
        # passes the alternative in R's orientation.
        corr = 0.5 if alternative == "greater" else -0.5
        u_star = math.floor(half + corr + zq * sigma)
    return int(min(max(total - u_star, 1), total))


# ------------------------------------------------------ order statistics of b - a
def _merge_ranks(a, b):
    """Doubled midranks of sorted ``a`` then sorted ``b``, and the sizes of the pooled tie
    groups, ascending (rows: pooled, within ``a``, within ``b``)."""
    if a.size + b.size > SMALL:
        doubled = np.empty(a.size + b.size, dtype=np.int64)
        groups = np.empty((3, a.size + b.size), dtype=np.int64)
        count = _kernel().merge_ranks(np.ascontiguousarray(a), np.ascontiguousarray(b),
                                      doubled, groups)  # fmt: skip
        return doubled, groups[:, :count]
    pooled = np.concatenate([a, b])
    if np.isnan(pooled).any():
        raise ValueError("`a` and `b` must not hold NaN; remove them first.")
    values, sizes = np.unique(pooled, return_counts=True)
    rank2 = 2 * (np.cumsum(sizes) - sizes) + sizes + 1  # 2 x (first rank + last rank) / 2
    doubled = rank2[np.searchsorted(values, pooled)]
    in_a = np.searchsorted(a, values, "right") - np.searchsorted(a, values, "left")
    return doubled.astype(np.int64), np.stack([sizes, in_a, sizes - in_a]).astype(np.int64)


def order_differences(a: np.ndarray, b: np.ndarray, ranks) -> np.ndarray:
    """The ``ranks``-th smallest (1-based) of the differences ``b_j - a_i``, not formed.

    Parameters
    ----------
    a, b : ndarray of float64
        Both sorted ascending.
    ranks : sequence of int
        Ranks, each ``1 <= k <= a.size * b.size``, in any order.

    Returns
    -------
    ndarray of float64
        Actual differences ``fl(b_j - a_i)``, one per rank: the values at ``k - 1`` of
        ``np.sort(np.subtract.outer(b, a), axis=None)``.

    Examples
    --------
    >>> a = np.array([0.0, 1.0, 5.0]); b = np.array([2.0, 3.0])
    >>> order_differences(a, b, [1, 2, 3, 4, 5, 6]).tolist()
    [-3.0, -2.0, 1.0, 2.0, 2.0, 3.0]
    """
    total = a.size * b.size
    ranks = np.asarray(ranks, dtype=np.int64).reshape(-1)
    bad = ranks[(ranks < 1) | (ranks > total)]
    if bad.size:
        raise ValueError(f"`k` must be between 1 and {total}; got {int(bad[0])}.")
    b = np.ascontiguousarray(b, dtype=np.float64)
    if total <= SMALL:
        with np.errstate(over="ignore"):  # differences beyond the float range are +-inf
            formed = np.subtract.outer(b, np.asarray(a, dtype=np.float64)).reshape(-1)
        return np.partition(formed, np.unique(ranks - 1))[ranks - 1] + 0.0  # no -0.0
    order = np.argsort(ranks, kind="stable")
    c = np.ascontiguousarray(-np.asarray(a, dtype=np.float64)[::-1])  # b - a == b + (-a)
    out = np.empty(ranks.size)
    limit = max(_DIRECT, 2 * (a.size + b.size))  # selected directly: O(n_a + n_b) memory
    size = _SAMPLE if total < 10**9 else 4 * _SAMPLE
    _kernel().select_differences(b, c, ranks[order], out, limit, size)
    values = np.empty(ranks.size)
    values[order] = out + 0.0  # a zero difference is 0.0, whichever of -0.0 and 0.0 it was
    return values


def kth_difference(a: np.ndarray, b: np.ndarray, k: int) -> float:
    """The ``k``-th smallest (1-based) of the differences ``b_j - a_i`` (``a``, ``b`` sorted).

    Examples
    --------
    >>> kth_difference(np.array([0.0, 1.0, 5.0]), np.array([2.0, 3.0]), 3)
    1.0
    """
    return float(order_differences(a, b, [k])[0])


def _median_ranks(total: int) -> list[int]:
    return [total // 2 + 1] if total % 2 else [total // 2, total // 2 + 1]


def _median_of(values) -> float:
    """Median from its one or two middle order statistics, as ``np.median`` computes it."""
    return float(values[0]) if len(values) == 1 else float((values[0] + values[1]) / 2)


def hodges_lehmann(a: np.ndarray, b: np.ndarray) -> float:
    """Median of all ``b_j - a_i`` (mean of the two middle ones for an even count).

    ``a`` and ``b`` sorted ascending.

    Examples
    --------
    >>> hodges_lehmann(np.array([0.0, 1.0]), np.array([3.0, 10.0]))
    6.0
    """
    return _median_of(order_differences(a, b, _median_ranks(a.size * b.size)))


# --------------------------------------------------------------------- one test
@dataclass(frozen=True, kw_only=True)
class RanksumTest(RankTest):
    """The rank-sum test of two samples (:func:`ranksum_1d`): the fields of
    :class:`~pairedstats.core.ranktest.RankTest` (``null_mean`` and ``null_variance`` of
    ``rank_sum_a``; ``shift`` the median of all ``b_j - a_i``) and these.

    Attributes
    ----------
    n_a, n_b : int
        Sample sizes.
    rank_sum_a, u_a : float
        As in :class:`RankStatistics`.
    common_language : float
        ``P(b > a) + P(b = a) / 2`` over all pairs, ``1 - u_a / (n_a n_b)``.
    rank_biserial : float
        ``2 common_language - 1``.
    """

    n_a: int
    n_b: int
    rank_sum_a: float
    u_a: float
    common_language: float
    rank_biserial: float


def ranksum_1d(
    a: np.ndarray,
    b: np.ndarray,
    *,
    alternative: str,
    confidence_level: float,
    method: str,
    correction: bool,
) -> RanksumTest:
    """The test, the shift and its interval for two validated 1-D samples.

    ``method`` is ``"auto"``, ``"exact"`` or ``"asymptotic"``; the result's ``method`` says
    which was used (``"exact"``, ``"exact-conditional"`` with ties, ``"asymptotic"``).
    """
    a = np.sort(np.asarray(a, dtype=np.float64))
    b = np.sort(np.asarray(b, dtype=np.float64))
    n_a, n_b = a.size, b.size
    total = n_a * n_b
    st = rank_statistics(a, b, presorted=True)
    has_ties = st.ties > 0
    sigma = math.sqrt(st.null_variance)
    u_a = st.u_a
    use_exact, ops = _use_exact(method, n_a, n_b, st.doubled, has_ties)
    z = z_score(total / 2.0 - u_a, sigma, alternative, correction)
    if use_exact:
        pmf_nt, tied = _exact_nulls(st.doubled, n_a, n_b, has_ties, ops)
        pvalue, used = _exact_pvalue(st, n_a, n_b, alternative, pmf_nt, tied)
        ci_ranks, coverage, level_reached = _exact_interval(n_a, n_b, alternative,
                                                            confidence_level, pmf_nt)  # fmt: skip
    else:
        pvalue, used = asymptotic_pvalue(z, sigma, alternative), "asymptotic"
        ci_ranks = _asymptotic_interval(n_a, n_b, st, alternative, confidence_level,
                                        correction)  # fmt: skip
        coverage, level_reached = confidence_level, True
    # the shift and both interval ends: one selection among the differences
    mid = _median_ranks(total)
    values = order_differences(a, b, mid + [k for k in ci_ranks if k]).tolist()
    ends = iter(values[len(mid) :])
    ci_low = next(ends) if ci_ranks[0] else -math.inf
    ci_high = next(ends) if ci_ranks[1] else math.inf
    if ci_ranks == (0, 0):  # all values tied on the asymptotic path: no interval
        ci_low = ci_high = math.nan
    common_language = 1.0 - u_a / total  # P(b > a) + P(b = a) / 2
    return RanksumTest(
        n_a=n_a,
        n_b=n_b,
        rank_sum_a=st.rank_sum_a,
        u_a=u_a,
        null_mean=st.null_mean,
        null_variance=st.null_variance,
        z=z,
        pvalue=pvalue,
        shift=_median_of(values[: len(mid)]),
        ci_low=ci_low,
        ci_high=ci_high,
        ci_coverage=coverage,
        common_language=common_language,
        rank_biserial=2 * common_language - 1,
        method=used,
        level_reached=level_reached,
    )


def _use_exact(method: str, n_a: int, n_b: int, doubled: np.ndarray, has_ties: bool):
    """``(exact?, estimated operations of the exact path or 0)``."""
    if method == "asymptotic":
        return False, 0.0
    ops, cells = exact_cost(n_a, n_b, doubled, has_ties)
    if method == "auto":
        return ops <= AUTO_EXACT_BUDGET and cells <= EXACT_MAX_CELLS, ops
    if method == "exact":
        if cells > EXACT_MAX_CELLS:
            raise ValueError(
                "`method='exact'` would need tables of "
                f"{cells:.3g} float64 cells (limit {EXACT_MAX_CELLS}) for n_a={n_a}, "
                f"n_b={n_b}; use method='asymptotic' or 'auto'."
            )
        return True, ops
    return False, 0.0


def _exact_nulls(doubled: np.ndarray, n_a: int, n_b: int, has_ties: bool, ops: float):
    """``(no-ties pmf of u, None or the conditional null (values, pmf) of a's doubled rank
    sum)``. The interval always reads the no-ties null; with ties the p-value reads the
    conditional one, and the two are computed at once in two threads when they cost more
    than :data:`_THREADED_OPS` (``ops``: :func:`exact_cost`; each kernel releases the GIL,
    and neither number depends on the other)."""
    if not has_ties:
        return null_pmf_no_ties(n_a, n_b), None
    calls = [lambda: null_pmf_no_ties(n_a, n_b), lambda: _subset_sum_pmf_of_a(doubled, n_a, n_b)]
    if default_workers(None) > 1 and ops > _THREADED_OPS:
        return tuple(run_parts(calls))
    return tuple(call() for call in calls)


def _exact_pvalue(st: RankStatistics, n_a: int, n_b: int, alternative: str, pmf_nt, tied):
    """``(pvalue, "exact" or "exact-conditional")`` from the nulls of :func:`_exact_nulls`."""
    total = n_a * n_b
    if tied is None:
        lower_tail = np.cumsum(pmf_nt)  # P(U <= u)
        upper_tail = np.cumsum(pmf_nt[::-1])[::-1]  # P(U >= u)
        u_int = round(st.u_a)
        p_less_u = float(lower_tail[u_int])  # P(U_a <= u_a): b tends to exceed a
        p_more_u = float(upper_tail[u_int])
        dist = abs(2 * u_int - total)
        lo_u = (total - dist) // 2
        if dist == 0:
            p_two = 1.0
        else:
            p_two = min(1.0, float(lower_tail[lo_u]) + float(upper_tail[total - lo_u]))
        used = "exact"
    else:
        values, pmf = tied
        w2 = int(st.doubled[:n_a].sum())
        mu2 = n_a * (n_a + n_b + 1)
        p_less_u = float(pmf[values <= w2].sum())
        p_more_u = float(pmf[values >= w2].sum())
        p_two = min(1.0, float(pmf[np.abs(values - mu2) >= abs(w2 - mu2)].sum()))
        used = "exact-conditional"
    return {"greater": p_less_u, "less": p_more_u, "two-sided": p_two}[alternative], used


def _exact_interval(n_a: int, n_b: int, alternative: str, confidence_level: float, pmf_nt):
    """``((rank_low, rank_high), coverage, level_reached)`` at R's exact critical values of
    the no-ties null ``pmf_nt``; a rank is ``None`` for an infinite end."""
    total = n_a * n_b
    tail = ci_tail(alternative, confidence_level)
    q, missed = exact_ci_rank(tail, pmf_nt)
    k_low = q if alternative in ("two-sided", "greater") else None
    k_high = total - q + 1 if alternative in ("two-sided", "less") else None
    coverage = 1 - (2 * missed if alternative == "two-sided" else missed)
    return (k_low, k_high), coverage, missed <= tail


def _asymptotic_interval(n_a, n_b, st, alternative, confidence_level, correction):
    """``(rank_low, rank_high)`` by R's normal inversion (tie-corrected variance); ``None``
    for an infinite end, ``(0, 0)`` when the variance is 0 (no interval)."""
    n, total = n_a + n_b, n_a * n_b
    tail = ci_tail(alternative, confidence_level)
    k_low = k_high = None
    within = st.ties_within
    sigma_ci = math.sqrt(total / 12.0 * ((n + 1) - within / (n * (n - 1))))
    if sigma_ci == 0:
        return 0, 0
    # R works on d = a - b (x = a, y = b); its alternative is ours mirrored.
    r_alt = {"two-sided": "two-sided", "greater": "less", "less": "greater"}[alternative]
    z_hi = float(-special.ndtri(tail))
    if alternative in ("two-sided", "greater"):
        # our lower end = -(R's upper end) = -(k-th smallest a - b at zq = -z_hi)
        k_low = total + 1 - asymptotic_ci_ranks(-z_hi, n_a, n_b, sigma_ci, correction, r_alt)
    if alternative in ("two-sided", "less"):
        k_high = total + 1 - asymptotic_ci_ranks(z_hi, n_a, n_b, sigma_ci, correction, r_alt)
    return k_low, k_high


def _subset_sum_pmf_of_a(doubled: np.ndarray, n_a: int, n_b: int):
    """Conditional null of a's doubled rank sum, via the smaller sample's subset sums."""
    if n_a <= n_b:
        return null_pmf_ties(doubled, n_a)
    values_b, pmf_b = null_pmf_ties(doubled, n_b)
    total2 = int(doubled.sum())
    return (total2 - values_b)[::-1], pmf_b[::-1]
