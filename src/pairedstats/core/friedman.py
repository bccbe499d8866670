"""Friedman's test of ``k`` systems over ``N`` data sets, the post-hoc tests of all pairs
built on its ranks, and the cliques their decisions leave.

Each data set (a row, an *item* of the paired design) ranks the ``k`` systems: rank 1 to
the best, ties sharing their mean rank (midranks). ``R_j`` is system ``j``'s mean rank over
the ``N`` data sets.

* **Friedman** (Friedman 1937; Demšar 2006, eq. 3.2.2):
  ``chi2_F = 12 N / (k (k + 1)) * sum_j (R_j - (k + 1) / 2)**2``, on ``k - 1`` degrees of
  freedom. With ties it is divided by ``1 - sum(t**3 - t) / (N k (k**2 - 1))`` (``t`` the
  sizes of the groups of tied ranks within a data set), as R's ``friedman.test`` and
  scipy's ``friedmanchisquare`` do; Conover (1999, p. 370) writes the same statistic as
  ``T1 = (k - 1) (sum_j S_j**2 - N C1) / (A1 - C1)`` (``S_j`` the rank sums, ``A1`` the sum
  of the squared ranks, ``C1 = N k (k + 1)**2 / 4``).
* **Iman-Davenport** (Iman and Davenport 1980; Demšar 2006):
  ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``, on ``k - 1`` and ``(k - 1)(N - 1)``
  degrees of freedom: the F form of the same statistic, less conservative than chi-square.
* **Nemenyi** (Nemenyi 1963; Demšar 2006, section 3.2.2): ``z = |R_i - R_j| / SE`` with
  ``SE = sqrt(k (k + 1) / (6 N))``; the pair's own p-value ``2 (1 - Phi(z))`` and the
  family-wise one from the studentized range of ``k`` means with infinite degrees of
  freedom, ``P(Q_k >= sqrt(2) z)``. The critical difference is
  ``CD = q_alpha SE``, ``q_alpha`` the studentized range quantile over ``sqrt(2)``
  (Demšar's Table 5a: 2.569 for ``k = 4`` at ``alpha = 0.05``).
* **Conover** (Conover 1999, p. 371; the formula of PMCMRplus's ``frdAllPairsConoverTest``
  documentation, Pohlert): ``t = |S_i - S_j| / sqrt(2 (N A1 - sum_j S_j**2) /
  ((N - 1)(k - 1)))``, Student's t on ``(N - 1)(k - 1)`` degrees of freedom.
* **Cliques**: the maximal sets of systems no pair of which is significant (the maximal
  independent sets of the graph of significant pairs), found by splitting the set of all
  systems at each significant pair and keeping the maximal parts.

References:

* Conover, W. J. (1999). *Practical Nonparametric Statistics*, 3rd ed. Wiley, 369-373.
* Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
  *Journal of Machine Learning Research* 7, 1-30.
* Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in the
  analysis of variance. *JASA* 32(200), 675-701.
* Iman, R. L. and Davenport, J. M. (1980). Approximations of the critical region of the
  Friedman statistic. *Communications in Statistics A* 9(6), 571-595.
* Nemenyi, P. B. (1963). *Distribution-free multiple comparisons*. PhD thesis, Princeton.
* Pohlert, T. PMCMRplus: Calculate pairwise multiple comparisons of mean rank sums extended
  (R package documentation, ``frdAllPairsConoverTest``, ``frdAllPairsNemenyiTest``).

This module is part of the numpy core: numpy and scipy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = [
    "FriedmanTest",
    "PairTests",
    "conover",
    "critical_difference",
    "friedman_test",
    "maximal_cliques",
    "nemenyi",
    "within_ranks",
]


def within_ranks(losses, error) -> np.ndarray:
    """Each row's midranks, ascending (rank 1 to the smallest loss).

    Parameters
    ----------
    losses : array_like, shape (n, k)
        One row per data set; lower is better.
    error : array_like, shape (n, k) or float
        Each value's error (the rule of :func:`pairedstats.core.ties.tied_values`): sorted,
        a value within its error plus its predecessor's of the one before it joins its run
        of ties; 0 ties equal floats only.

    Returns
    -------
    ndarray of float64, shape (n, k)

    Examples
    --------
    >>> within_ranks([[0.3, 0.1, 0.3], [1.0, 2.0, 3.0]], 0.0).tolist()
    [[2.5, 1.0, 2.5], [1.0, 2.0, 3.0]]
    >>> within_ranks([[0.1 + 0.2, 0.3, 0.0]], 1e-16).tolist()
    [[2.5, 2.5, 1.0]]
    """
    x = np.asarray(losses, dtype=np.float64)
    n, k = x.shape
    error = np.broadcast_to(np.asarray(error, dtype=np.float64), (n, k))
    order = np.argsort(x, axis=1, kind="stable")
    ordered = np.take_along_axis(x, order, axis=1)
    e = np.take_along_axis(error, order, axis=1)
    starts = np.ones((n, k), dtype=bool)
    starts[:, 1:] = np.diff(ordered, axis=1) > e[:, 1:] + e[:, :-1]
    ends = np.ones((n, k), dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    position = np.arange(k)
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, position, k - 1)[:, ::-1], axis=1)[:, ::-1]
    ranks = np.empty((n, k))
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=1)
    return ranks


@dataclass(frozen=True)
class FriedmanTest:
    """Friedman's test of one group.

    Attributes
    ----------
    n_datasets, n_systems : int
        ``N`` and ``k``.
    mean_ranks : ndarray, shape (k,)
        ``R_j``, rank 1 the best.
    statistic, pvalue : float
        ``chi2_F`` (tie-corrected unless asked otherwise) and its chi-square p-value.
    iman_davenport, pvalue_iman_davenport : float
        ``F_F`` and its F p-value (``inf`` and 0 when every data set ranks the systems
        alike).
    tie_factor : float
        ``1 - sum(t**3 - t) / (N k (k**2 - 1))``: 1 without ties, 0 when every data set ties
        every system (the statistic is then NaN).
    """

    n_datasets: int
    n_systems: int
    mean_ranks: np.ndarray
    statistic: float
    pvalue: float
    iman_davenport: float
    pvalue_iman_davenport: float
    tie_factor: float


def friedman_test(ranks, *, tie_correction: bool = True) -> FriedmanTest:
    """Friedman's chi-square and the Iman-Davenport F from the within-data-set ranks.

    Parameters
    ----------
    ranks : array_like, shape (N, k)
        Midranks of each row (:func:`within_ranks`); at least 2 rows and 2 columns.
    tie_correction : bool
        Divide ``chi2_F`` by the tie factor (R, scipy, Conover); False gives Demšar's
        (2006) formula, which ignores ties.

    Examples
    --------
    Demšar's (2006) Table 6 ranks (four C4.5 variants on 14 data sets):

    >>> r = np.array([[4, 3, 2, 1], [1, 2, 3, 4], [4, 1, 2, 3], [4, 1, 3, 2], [4, 2, 3, 1],
    ...               [1, 2.5, 4, 2.5], [3, 2, 4, 1], [2.5, 2.5, 4, 1], [4, 3, 2, 1],
    ...               [2.5] * 4, [4, 2.5, 1, 2.5], [3, 2, 4, 1], [4, 1, 2, 3], [3, 1, 4, 2]])
    >>> res = friedman_test(r, tie_correction=False)
    >>> np.round(res.mean_ranks, 3).tolist(), round(res.statistic, 2), round(res.iman_davenport, 2)
    ([3.143, 2.0, 2.893, 1.964], 9.28, 3.69)
    """
    r = np.asarray(ranks, dtype=np.float64)
    n, k = r.shape
    mean = r.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1.0)) * float(np.sum((mean - (k + 1.0) / 2.0) ** 2))
    # sum(t**3 - t) over the runs of ties: each member of a run of t adds t**2 - 1
    sizes = (r[:, :, None] == r[:, None, :]).sum(axis=2)
    factor = 1.0 - float(np.sum(sizes.astype(np.float64) ** 2 - 1.0)) / (n * k * (k * k - 1.0))
    if tie_correction:
        chi2 = chi2 / factor if factor > 0 else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        room = n * (k - 1.0) - chi2  # 0 when every data set ranks the systems alike
        f = (n - 1.0) * chi2 / room if room > 1e-12 * n * k else np.inf
        if np.isnan(chi2):
            f = np.nan
    return FriedmanTest(
        n_datasets=n, n_systems=k, mean_ranks=mean, statistic=float(chi2),
        pvalue=float(stats.chi2.sf(chi2, k - 1)), iman_davenport=float(f),
        pvalue_iman_davenport=float(stats.f.sf(f, k - 1, (k - 1) * (n - 1))),
        tie_factor=factor,
    )  # fmt: skip


@dataclass(frozen=True)
class PairTests:
    """The post-hoc test of pairs ``(a, b)`` of one group.

    Attributes
    ----------
    statistic : ndarray
        ``z`` (Nemenyi) or ``t`` (Conover), ``>= 0``.
    pvalue : ndarray
        Each pair's own two-sided p-value.
    pvalue_single_step : ndarray or None
        Nemenyi: the family-wise p-value from the studentized range; None for Conover.
    """

    statistic: np.ndarray
    pvalue: np.ndarray
    pvalue_single_step: np.ndarray | None = None


def _pair_index(pairs) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    return pairs[:, 0], pairs[:, 1]


def nemenyi(mean_ranks, n_datasets: int, pairs) -> PairTests:
    """Nemenyi's test of the pairs ``(a, b)`` (system indices) from the mean ranks.

    Examples
    --------
    Demšar (2006, section 3.2.2): C4.5 (3.143) against C4.5+m+cf (1.964), 14 data sets,
    ``z = 2.416``, ``p = 0.016``:

    >>> res = nemenyi([3.143, 2.0, 2.893, 1.964], 14, [(0, 3)])
    >>> round(float(res.statistic[0]), 3), round(float(res.pvalue[0]), 3)
    (2.416, 0.016)
    """
    mean = np.asarray(mean_ranks, dtype=np.float64)
    k = mean.size
    a, b = _pair_index(pairs)
    z = np.abs(mean[b] - mean[a]) / np.sqrt(k * (k + 1.0) / (6.0 * n_datasets))
    single = stats.studentized_range.sf(np.sqrt(2.0) * z, k, np.inf)
    return PairTests(statistic=z, pvalue=2.0 * stats.norm.sf(z),
                     pvalue_single_step=np.clip(single, 0.0, 1.0))  # fmt: skip


def critical_difference(n_systems: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference of mean ranks: ``q_alpha sqrt(k (k + 1) / (6 N))``.

    Examples
    --------
    Demšar (2006): four systems, 14 data sets; 1.25 at ``alpha = 0.05``, 1.12 at 0.10.

    >>> round(critical_difference(4, 14), 2), round(critical_difference(4, 14, 0.10), 2)
    (1.25, 1.12)
    """
    k = int(n_systems)
    q = stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0)
    return float(q * np.sqrt(k * (k + 1.0) / (6.0 * n_datasets)))


def conover(ranks, pairs) -> PairTests:
    """Conover's test of the pairs ``(a, b)`` from the within-data-set ranks.

    A pair of equal rank sums has ``t = 0`` and ``p = 1``; when every data set ranks the
    systems alike (no within-data-set variation left) a pair of different rank sums has
    ``t = inf`` and ``p = 0``.
    """
    r = np.asarray(ranks, dtype=np.float64)
    n, k = r.shape
    sums = r.sum(axis=0)
    a, b = _pair_index(pairs)
    spread = 2.0 * (n * float(np.sum(r * r)) - float(np.sum(sums * sums)))
    scale = np.sqrt(max(spread, 0.0) / ((n - 1.0) * (k - 1.0)))
    difference = np.abs(sums[b] - sums[a])
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(difference > 0, difference / scale, 0.0)
    return PairTests(statistic=t, pvalue=2.0 * stats.t.sf(t, (n - 1) * (k - 1)))


def maximal_cliques(k: int, significant_pairs, order=None) -> list[frozenset]:
    """The maximal sets of ``range(k)`` that hold no significant pair.

    Parameters
    ----------
    k : int
        Systems, ``0 .. k-1``.
    significant_pairs : iterable of (int, int)
        The pairs found different.
    order : array_like of float, shape (k,), optional
        Each system's place (its mean rank): cliques are listed by their members' places,
        best first (default: the indices).

    Returns
    -------
    list of frozenset of int

    Examples
    --------
    Demšar's (2006) Nemenyi example at ``alpha = 0.10``: C4.5 (0) differs from C4.5+m (1)
    and C4.5+m+cf (3):

    >>> maximal_cliques(4, [(0, 1), (0, 3)], order=[3.143, 2.0, 2.893, 1.964])
    [frozenset({1, 2, 3}), frozenset({0, 2})]
    """
    parts = [frozenset(range(k))]
    for i, j in significant_pairs:
        split = []
        for part in parts:
            split += [part - {i}, part - {j}] if i in part and j in part else [part]
        unique = list(dict.fromkeys(split))
        parts = [p for p in unique if not any(p < other for other in unique)]
    place = np.arange(k, dtype=float) if order is None else np.asarray(order, dtype=float)
    return sorted(parts, key=lambda p: sorted((place[m], m) for m in p))
