"""Wilcoxon signed-rank test of paired differences and the paired Hodges-Lehmann shift.

Conventions (the whole package reads differences as b minus a; ``d = b - a``):

* zero differences are dropped before ranking, as R's ``wilcox.test`` does (the count is
  reported); ``n`` below is the number of non-zero differences;
* the absolute differences are ranked ascending (midranks for ties); the statistic ``V``
  is the sum of the ranks of the positive differences (R's ``V``);
* zeros and ties follow the tie rule of :mod:`pairedstats.core.ties`: a difference
  ``b - a`` carries the error ``e = 2 u (|a| + |b|)`` of its two scores (``u`` the unit
  roundoff of their dtype; 0 when the scores are integers); it is a zero
  within ``e`` of 0, and two sizes ``|d|`` are tied within their errors added. Differences
  equal in exact arithmetic stay tied when the scores are scaled (``0.1 * x`` of integer
  scores), offset, or given as decimals, which R's exact equality splits by an ulp;
* ``alternative`` is about b - a: ``"greater"`` means b tends to exceed a (``V`` large);
* ``shift`` is the median of the Walsh averages ``(d_i + d_j) / 2``, ``i <= j``, of the
  non-zero differences (the paired Hodges-Lehmann estimate); its interval is made of order
  statistics of the Walsh averages.

Exact null distributions
------------------------
Under the null each sign is + or - with probability 1/2, independently, so ``V`` is a sum
of independent ``rank * Bernoulli(1/2)`` terms. Its distribution given the (doubled, so
integer) midranks comes from the recursion ``p_k(s) = (p_{k-1}(s) + p_{k-1}(s - r_k)) / 2``
on the probability scale (:func:`null_pmf`): halvings and additions of dyadic numbers, exact
in floating point while the probabilities need at most 53 bits (``n <= 53``). Without ties
the ranks are ``1..n`` (R's ``psignrank``); with ties it is the exact conditional null given
the midranks.

Walsh averages without forming them
-----------------------------------
:func:`walsh_order_statistics` selects the ``k``-th smallest of the ``n (n + 1) / 2`` Walsh
averages exactly (the number ``np.sort`` of all of them, computed as ``fl(d_i + d_j) / 2``,
holds at ``k - 1``), every rank a test needs (the median's one or two, the interval's two) at
once. Up to ``2**20`` of them (``n <= 1447``) the sums are formed (by numpy with the indices of
the pairs kept per ``n`` up to ``2**16`` sums, by a compiled loop beyond) and one
``np.partition`` places every rank. Beyond, each rank is selected in ``O(n)`` memory and a few
``O(n)`` passes: the number of sums ``<= t`` is counted row by row with two pointers over the
sorted differences (:mod:`pairedstats.core.kernels.walsh`), and Floyd-Rivest rounds on a
random sample of the remaining candidates (Monahan 1984) shrink them until they fit in
memory, where ``np.partition`` finishes.

This module imports numpy and scipy only (the kernel imports numba, lazily).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .ranktest import RankTest, asymptotic_pvalue, ci_tail, continuity, exact_ci_rank, z_score
from .ties import difference_errors, tied_values

__all__ = [
    "EXACT_MAX_OPERATIONS",
    "SignedRanks",
    "SignrankTest",
    "asymptotic_ci_count",
    "kth_walsh",
    "null_pmf",
    "signed_ranks",
    "signrank_1d",
    "signrank_pair",
    "signrank_pvalue",
    "walsh_median",
    "walsh_order_statistics",
]

#: ``method="exact"`` refuses when the recursion would take more than this many operations
#: (``n`` times the largest rank sum: no ties, about ``n = 1250``; a few seconds).
EXACT_MAX_OPERATIONS = 1e9
#: ``method="auto"`` is exact below this many non-zero differences without ties (R's rule).
AUTO_EXACT_BELOW = 50
#: Number of candidate sums below which :func:`kth_walsh` materialises them.
_MATERIALISE = 1 << 20
#: Number of Walsh sums up to which numpy forms them (their indices kept per ``n``).
_SMALL = 1 << 16
#: Size of the random sample of candidates a selection round draws.
_SAMPLE = 16384


# --------------------------------------------------------------------------- ranks
def _doubled_midranks(x: np.ndarray) -> np.ndarray:
    """Twice the ascending midranks of ``x`` (exact integers)."""
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    before = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return (2 * before + counts + 1)[inverse.reshape(-1)].astype(np.int64)


def _tie_term(x: np.ndarray) -> float:
    """``sum(t^3 - t)`` over the groups of equal values of ``x``."""
    if x.size < 2:
        return 0.0
    _, counts = np.unique(x, return_counts=True)
    counts = counts[counts > 1].astype(np.float64)
    return float(np.sum(counts**3 - counts))


@dataclass(frozen=True, kw_only=True)
class SignedRanks:
    """The signed-rank statistic of paired differences (:func:`signed_ranks`).

    Attributes
    ----------
    nonzero : ndarray of float64
        The non-zero differences, in their given order.
    error : ndarray of float64
        Their errors (the tie rule's; 0 for exact scores).
    n_zeros : int
        Differences read as zero (dropped).
    n : int
        Non-zero differences.
    doubled : ndarray of int64
        Twice the ascending midranks of ``|nonzero|`` (exact integers).
    positive : ndarray of bool
        Which of ``nonzero`` are positive.
    statistic : float
        ``V``, the sum of the ranks of the positive differences.
    ties : float
        ``sum(t^3 - t)`` over the groups of tied ``|nonzero|``.
    null_mean, null_variance : float
        ``n (n + 1) / 4`` and the tie-corrected ``n (n + 1) (2 n + 1) / 24 - ties / 48``.
    """

    nonzero: np.ndarray
    error: np.ndarray
    n_zeros: int
    n: int
    doubled: np.ndarray
    positive: np.ndarray
    statistic: float
    ties: float
    null_mean: float
    null_variance: float


def signed_ranks(d: np.ndarray, error=0.0) -> SignedRanks:
    """The signed-rank statistic of the differences ``d`` (zeros dropped).

    ``error`` is each difference's error (one number, or one per difference;
    :func:`pairedstats.core.ties.difference_errors`): a difference within its error of 0 is
    a zero, and sizes ``|d|`` within their errors added share their midrank
    (:func:`pairedstats.core.ties.tied_values`); ``error = 0`` reads both by exact
    equality, as R does.

    Examples
    --------
    >>> st = signed_ranks(np.array([1.5, -0.5, 0.0, 2.0, -1.5]))
    >>> st.n, st.n_zeros, st.statistic, st.doubled.tolist()
    (4, 1, 6.5, [5, 2, 8, 5])

    ``0.3 - 0.2`` and ``0.2 - 0.1`` are an ulp apart; within the errors of the scores
    (:func:`pairedstats.core.ties.difference_errors`) they share a rank:

    >>> from pairedstats.core.ties import difference_errors
    >>> a, b = np.array([0.2, 0.1, 0.0]), np.array([0.3, 0.2, 0.5])
    >>> error = difference_errors(a, b)
    >>> signed_ranks(b - a).doubled.tolist(), signed_ranks(b - a, error).doubled.tolist()
    ([2, 4, 6], [3, 3, 6])
    """
    d = np.asarray(d, dtype=np.float64)
    error = np.broadcast_to(np.asarray(error, dtype=np.float64), d.shape)
    kept = np.abs(d) > error
    nonzero, error = d[kept], error[kept]
    n = nonzero.size
    absolute = tied_values(np.abs(nonzero), error)
    doubled = _doubled_midranks(absolute)
    positive = nonzero > 0
    ties = _tie_term(absolute)
    return SignedRanks(
        nonzero=nonzero,
        error=error,
        n_zeros=int(d.size - n),
        n=n,
        doubled=doubled,
        positive=positive,
        statistic=float(doubled[positive].sum()) / 2.0,
        ties=ties,
        null_mean=n * (n + 1) / 4.0,
        null_variance=n * (n + 1) * (2 * n + 1) / 24.0 - ties / 48.0,
    )


# ------------------------------------------------------------------ exact nulls
def null_pmf(doubled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Null distribution of ``V`` given the doubled midranks: ``(values, pmf)``.

    Each rank enters ``V`` with probability 1/2; ``values`` are the possible sums (on the
    grid of the ranks' greatest common divisor), ``pmf`` their probabilities.

    Examples
    --------
    >>> values, pmf = null_pmf(2 * np.arange(1, 4))  # ranks 1, 2, 3
    >>> values.tolist(), (pmf * 8).tolist()
    ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0])
    """
    r = np.asarray(doubled, dtype=np.int64)
    g = int(np.gcd.reduce(r)) if r.size else 2
    scores = r // g
    pmf = np.zeros(int(scores.sum()) + 1)
    pmf[0] = 1.0
    top = 0
    for s in np.sort(scores):
        s = int(s)
        new = pmf[: top + 1] * 0.5
        pmf[: top + 1] *= 0.5
        pmf[s : s + top + 1] += new
        top += s
    return np.arange(pmf.size) * (g / 2.0), pmf


def exact_operations(doubled: np.ndarray) -> float:
    """Operations of :func:`null_pmf`: ``n`` times the largest scaled rank sum."""
    if doubled.size == 0:
        return 0.0
    g = int(np.gcd.reduce(doubled))
    return float(doubled.size) * float((doubled // g).sum())


# --------------------------------------------------------- Walsh averages
def _walsh_kernel():
    from .kernels import walsh  # numba: imported when first needed

    return walsh


@functools.lru_cache(maxsize=16)
def _upper_triangle(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.triu_indices(n)``, built once per ``n`` (small ``n`` only: at most
    ``_SMALL`` pairs)."""
    return np.triu_indices(n)


def _all_walsh_sums(d: np.ndarray) -> np.ndarray:
    """Every Walsh sum ``fl(d_i + d_j)``, ``i <= j``, row after row (no order)."""
    n = d.size
    total = n * (n + 1) // 2
    if total <= _SMALL:  # numpy, the indices kept between calls
        i, j = _upper_triangle(n)
        return d[i] + d[j]
    out = np.empty(total)  # compiled, without index arrays
    _walsh_kernel().gather(d, np.arange(n, dtype=np.int64), np.full(n, n, dtype=np.int64), out)
    return out


def walsh_order_statistics(d: np.ndarray, ks, *, rng=None) -> np.ndarray:
    """The ``ks``-th smallest (1-based) Walsh averages of ``d``, all selected at once.

    Up to :data:`_MATERIALISE` Walsh sums they are formed (by numpy with indices kept per
    ``n`` up to ``_SMALL`` sums, else by a compiled loop) and one ``np.partition`` places
    every requested rank; beyond, each rank is selected by :func:`kth_walsh`'s rounds
    without forming them. Either way the values are those of ``np.sort`` of all the Walsh
    averages, bit for bit.

    Parameters
    ----------
    d : ndarray of float64
        Sorted ascending.
    ks : sequence of int
        Ranks, each ``1 <= k <= n (n + 1) / 2``.
    rng : numpy.random.Generator, optional
        Draws :func:`kth_walsh`'s candidate samples (large ``n`` only; only the running time
        depends on it).

    Returns
    -------
    ndarray of float64
        ``fl(d_i + d_j) / 2`` of the pair at each rank, in the order of ``ks``.

    Examples
    --------
    >>> walsh_order_statistics(np.array([-1.0, 2.0, 4.0]), [6, 1, 3]).tolist()
    [4.0, -1.0, 1.5]
    """
    n = d.size
    total = n * (n + 1) // 2
    ks = np.asarray(ks, dtype=np.int64).reshape(-1)
    if ks.size and not (ks.min() >= 1 and ks.max() <= total):
        bad = ks[(ks < 1) | (ks > total)][0]
        raise ValueError(f"`k` must be between 1 and {total}; got {bad}.")
    if total > _MATERIALISE:
        return np.array([_select_walsh(d, int(k), rng) for k in ks], dtype=np.float64)
    if ks.size == 0:
        return np.empty(0)
    places = np.unique(ks - 1)
    sums = np.partition(_all_walsh_sums(d), places)
    return sums[ks - 1] / 2.0


def kth_walsh(d: np.ndarray, k: int, *, rng=None) -> float:
    """The ``k``-th smallest (1-based) Walsh average of ``d``, without forming them all.

    Parameters
    ----------
    d : ndarray of float64
        Sorted ascending.
    k : int
        Rank, ``1 <= k <= n (n + 1) / 2``.
    rng : numpy.random.Generator, optional
        Draws the candidate samples; only the running time depends on it (default: a fixed
        seed).

    Returns
    -------
    float
        ``fl(d_i + d_j) / 2`` for the pair at rank ``k``: the value at ``k - 1`` of
        ``np.sort((d[:, None] + d[None, :])[np.triu_indices(n)] / 2)``.

    Examples
    --------
    >>> d = np.array([-1.0, 2.0, 4.0])
    >>> [kth_walsh(d, k) for k in range(1, 7)]
    [-1.0, 0.5, 1.5, 2.0, 3.0, 4.0]
    """
    return float(walsh_order_statistics(d, [k], rng=rng)[0])


def _select_walsh(d: np.ndarray, k: int, rng) -> float:
    """:func:`kth_walsh` beyond :data:`_MATERIALISE` sums: Floyd-Rivest rounds on a random
    sample of the candidates (Monahan 1984) shrink them until they fit in memory."""
    n = d.size
    walsh = _walsh_kernel()
    rng = np.random.default_rng(0x5EED) if rng is None else rng
    lo = np.arange(n, dtype=np.int64)  # row i: j < lo[i] are below the answer
    hi = np.full(n, n, dtype=np.int64)  # j >= hi[i] are above it
    below = 0
    while True:
        active = int((hi - lo).sum())
        kk = k - below
        if active <= _MATERIALISE:
            values = np.empty(active)
            walsh.gather(d, lo, hi, values)
            return float(np.partition(values, kk - 1)[kk - 1]) / 2.0
        positions = np.sort(rng.integers(0, active, size=_SAMPLE))
        sample = np.empty(_SAMPLE)
        walsh.pick(d, lo, hi, positions, sample)
        sample.sort()
        frac = kk / active
        spread = 3.0 * math.sqrt(max(frac * (1 - frac), 1.0 / _SAMPLE) * _SAMPLE)
        low = int(min(max(math.floor(frac * _SAMPLE - spread), 0), _SAMPLE - 1))
        high = int(min(max(math.ceil(frac * _SAMPLE + spread), 0), _SAMPLE - 1))
        for t in dict.fromkeys((sample[low], sample[high])):
            ends_lt, n_lt = walsh.ends(d, t, strict=True)
            if n_lt >= k:  # the answer is below t: everything >= t is above it
                hi = np.maximum(np.minimum(hi, ends_lt), lo)
                break
            ends_le, n_le = walsh.ends(d, t, strict=False)
            if n_le < k:  # the answer is above t: everything <= t is below it
                lo = np.minimum(np.maximum(lo, ends_le), hi)
                below = n_le
                continue
            return float(t) / 2.0  # n_lt < k <= n_le


def walsh_median(d: np.ndarray) -> float:
    """Median of the Walsh averages of ``d`` (sorted): the paired Hodges-Lehmann shift.

    Examples
    --------
    >>> walsh_median(np.array([-1.0, 2.0, 4.0]))  # averages -1, .5, 1.5, 2, 3, 4
    1.75
    """
    total = d.size * (d.size + 1) // 2
    if total % 2:
        return kth_walsh(d, total // 2 + 1)
    low, high = walsh_order_statistics(d, [total // 2, total // 2 + 1])
    return float((low + high) / 2)


def asymptotic_ci_count(
    zq: float, n: int, sigma: float, correction: bool, alternative: str
) -> int | None:
    """Where R's normal score of the shifted differences crosses ``zq``.

    R inverts ``W(t) = (V(t) - n (n + 1) / 4 - CORR) / SIGMA = zq`` with ``uniroot``, where
    ``V(t)`` is the signed-rank statistic of ``d - t``; between Walsh averages ``V(t)`` is the
    number ``c`` of Walsh averages above ``t`` and ``SIGMA`` is the variance with the ties of
    ``d`` only. ``W`` falls with ``t`` and jumps at the Walsh averages; it crosses ``zq`` where
    ``c`` drops below ``c* = min{c : score(c) > zq}``, i.e. at the Walsh average of rank
    ``N - c* + 1`` (``N = n (n + 1) / 2``). Returns ``c*``, or None when no ``c`` in ``1..N``
    works (the level cannot be reached).
    """
    total = n * (n + 1) // 2
    mean = n * (n + 1) / 4.0

    def score(c: int) -> float:
        return (c - mean - continuity(c - mean, alternative, correction)) / sigma

    # score(c) is non-decreasing in c: a first guess from the formula, then exact steps
    c = int(min(max(math.floor(mean + zq * sigma), 0), total))
    while c > 0 and score(c - 1) > zq:
        c -= 1
    while c <= total and not score(c) > zq:
        c += 1
    return c if 1 <= c <= total else None


# --------------------------------------------------------------------- one test
@dataclass(frozen=True, kw_only=True)
class SignrankTest(RankTest):
    """The signed-rank test of paired differences (:func:`signrank_1d`): the fields of
    :class:`~pairedstats.core.ranktest.RankTest` (``null_mean`` and ``null_variance`` of
    ``V``; ``shift`` the median of the Walsh averages of the non-zero differences, NaN and
    no interval when there are none) and these.

    Attributes
    ----------
    n_items : int
        Differences given (zeros included).
    n_zeros : int
        Differences read as zero, dropped before ranking.
    statistic : float
        ``V``, the sum of the ranks of the positive differences.
    """

    n_items: int
    n_zeros: int
    statistic: float


def signrank_pair(a: np.ndarray, b: np.ndarray, *, precision: float, **test) -> SignrankTest:
    """:func:`signrank_1d` of ``b - a`` for the scores of two systems, its zeros and ties read
    by the package's tie rule: :func:`pairedstats.core.ties.difference_errors` of the two
    systems' scores at ``precision`` (the unit roundoff of the scores as given).

    Examples
    --------
    >>> a, b = np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.2, 0.3, 0.4, 0.9])
    >>> test = signrank_pair(a, b, precision=2.0**-53, alternative="two-sided",
    ...                      confidence_level=0.9, method="exact", correction=True)
    >>> test.statistic, test.method  # three tied differences of 0.1, as the decimals say
    (10.0, 'exact-conditional')
    """
    return signrank_1d(b - a, error=difference_errors(a, b, precision), **test)


def signrank_1d(
    d: np.ndarray,
    *,
    alternative: str,
    confidence_level: float,
    method: str,
    correction: bool,
    error=0.0,
) -> SignrankTest:
    """The test, the shift and its interval for the validated differences ``d = b - a``.

    ``method`` is ``"auto"``, ``"exact"`` or ``"asymptotic"``; the result's ``method`` says
    which was used (``"exact"``, ``"exact-conditional"`` given tied ranks,
    ``"asymptotic"``). Zeros and ties are read within ``error``, each difference's
    (:func:`signed_ranks`; :func:`pairedstats.core.ties.difference_errors` of the two
    systems' scores, by the package's tie rule); 0 reads them by exact equality, as R does.
    """
    st = signed_ranks(d, error)
    n = st.n
    z, pvalue, used = _test(st, alternative, method, correction)
    use_exact = used != "asymptotic"
    order = np.argsort(st.nonzero, kind="stable")
    x, x_error = st.nonzero[order], st.error[order]
    if n == 0:
        ci_low = ci_high = shift = coverage = math.nan
        level_reached = True
    elif use_exact:
        ends, coverage, level_reached = _exact_interval(n, alternative, confidence_level)
        shift, ci_low, ci_high = _shift_and_ends(x, ends)
    else:
        ends, level_reached = _asymptotic_interval(x, alternative, confidence_level,
                                                   correction, x_error)  # fmt: skip
        shift, ci_low, ci_high = _shift_and_ends(x, ends)
        coverage = confidence_level if level_reached else math.nan
    return SignrankTest(
        n_items=int(np.asarray(d).size),
        n_zeros=st.n_zeros,
        statistic=st.statistic,
        null_mean=st.null_mean,
        null_variance=st.null_variance,
        z=z,
        pvalue=pvalue,
        shift=shift,
        ci_low=ci_low,
        ci_high=ci_high,
        ci_coverage=coverage,
        method=used,
        level_reached=level_reached,
    )


def signrank_pvalue(
    d: np.ndarray, *, alternative: str, method: str, correction: bool, error=0.0
) -> tuple[float, str]:
    """The p-value of :func:`signrank_1d` alone (no shift, no interval) and the method it
    used, by the same rules: zeros and ties read within ``error``, exact or normal by
    ``method``.

    Examples
    --------
    >>> signrank_pvalue(np.array([1.5, -0.5, 2.0, 3.0]), alternative="greater",
    ...                 method="auto", correction=True)
    (0.125, 'exact')
    """
    _, pvalue, used = _test(signed_ranks(d, error), alternative, method, correction)
    return pvalue, used


def _test(st: SignedRanks, alternative: str, method: str, correction: bool):
    """``(z, pvalue, method used)`` of the signed ranks ``st``."""
    has_ties = st.ties > 0
    sigma = math.sqrt(st.null_variance)
    z = z_score(st.statistic - st.null_mean, sigma, alternative, correction)
    if _use_exact(method, st, has_ties):
        return z, _exact_pvalue(st, alternative), "exact-conditional" if has_ties else "exact"
    return z, asymptotic_pvalue(z, sigma, alternative), "asymptotic"


def _use_exact(method: str, st: SignedRanks, has_ties: bool) -> bool:
    if method == "auto":  # R's rule
        return st.n < AUTO_EXACT_BELOW and not has_ties and st.n_zeros == 0
    if method == "exact":
        ops = exact_operations(st.doubled)
        if ops > EXACT_MAX_OPERATIONS:
            raise ValueError(
                f"`method='exact'` would take {ops:.3g} operations (limit "
                f"{EXACT_MAX_OPERATIONS:.3g}) for n={st.n} non-zero differences; use "
                "method='asymptotic' or 'auto'."
            )
        return True
    return False


def _exact_pvalue(st: SignedRanks, alternative: str) -> float:
    values, pmf = null_pmf(st.doubled)
    at = round(st.statistic / (values[1] if values.size > 1 else 1.0))
    lower = float(pmf[: at + 1].sum())  # P(V <= v)
    upper = float(pmf[at:].sum())  # P(V >= v)
    if alternative == "greater":
        return upper
    if alternative == "less":
        return lower
    return min(1.0, 2.0 * min(lower, upper))  # the null is symmetric


def _shift_and_ends(x: np.ndarray, ends) -> tuple[float, float, float]:
    """The median of the Walsh averages of ``x`` (sorted) and the interval's two ends, each
    given as the rank of a Walsh average (an int) or as its value (a float), every rank
    selected in one pass (:func:`walsh_order_statistics`)."""
    total = x.size * (x.size + 1) // 2
    middle = [total // 2 + 1] if total % 2 else [total // 2, total // 2 + 1]
    ranks = middle + [e for e in ends if isinstance(e, int)]
    found = iter(walsh_order_statistics(x, ranks).tolist())
    shift = next(found) if total % 2 else (next(found) + next(found)) / 2
    low, high = (next(found) if isinstance(e, int) else float(e) for e in ends)
    return shift, low, high


def _exact_interval(n: int, alternative: str, confidence_level: float):
    """``(ends, coverage, level_reached)`` at R's ``qsignrank`` ranks: each end the rank of
    its Walsh average among the ``n (n + 1) / 2``, or an infinite one-sided end."""
    total = n * (n + 1) // 2
    tail = ci_tail(alternative, confidence_level)
    _, pmf = null_pmf(2 * np.arange(1, n + 1))
    q, missed = exact_ci_rank(tail, pmf)
    low = q if alternative in ("two-sided", "greater") else -math.inf
    high = total - q + 1 if alternative in ("two-sided", "less") else math.inf
    coverage = 1 - (2 * missed if alternative == "two-sided" else missed)
    return (low, high), coverage, missed <= tail


def _asymptotic_interval(x: np.ndarray, alternative: str, confidence_level: float,
                         correction: bool, error=0.0):  # fmt: skip
    """``(ends, level_reached)`` by R's normal inversion, solved exactly (R's ``SIGMA`` with
    the ties of the differences ``x``, read within their ``error``): each end the rank of its
    Walsh average, or its value (infinite, or the extreme difference when the level is out of
    reach)."""
    n = x.size
    total = n * (n + 1) // 2
    tail = ci_tail(alternative, confidence_level)
    sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0 - _tie_term(tied_values(x, error)) / 48.0)
    z_hi = float(-special.ndtri(tail))
    reached = True
    ends = []
    for side, zq, extreme in (("low", z_hi, x[0]), ("high", -z_hi, x[-1])):
        if (side == "low" and alternative == "less") or (
            side == "high" and alternative == "greater"
        ):
            ends.append(-math.inf if side == "low" else math.inf)
            continue
        c = asymptotic_ci_count(zq, n, sigma, correction, alternative)
        if c is None:
            reached = False
            ends.append(float(extreme))
        else:
            ends.append(total - c + 1)
    return tuple(ends), reached
