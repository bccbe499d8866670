"""The signed-rank test of many pairs of systems at once, p-values only (the Wilcoxon-Holm
post-hoc test of Friedman's test).

:func:`signrank_pvalues` gives, for every pair ``(a, b)`` of columns of a table of scores,
the statistic, normal score and p-value that :func:`pairedstats.core.signrank.signrank_pair`
gives for ``b - a`` with ``method="auto"`` (R's ``wilcox.test`` defaults: exact below 50
non-zero differences without ties or zeros, else normal with the tie-corrected variance and,
unless asked otherwise, the continuity correction), bit for bit, without the shift and its
interval (no Walsh average is formed). Zeros and ties follow the package's tie rule
(:mod:`pairedstats.core.ties`): a pair's scores are exact (integers) or carry the error of
their size, and its differences are zeros and ties within their errors added.

All pairs are ranked together: the differences of a block of pairs are one array (pairs x
items), sorted by size along the items with the zeros moved to the end, and each run of ties
(the tie rule's chain) gets its midrank from where it starts and ends, as
:func:`pairedstats.core.friedman.within_ranks` ranks the systems of each data set. The exact
null distribution of ``V`` without ties depends on ``n`` only: its two tails are tabulated
once per ``n`` and every pair with ``n`` non-zero differences reads its p-value there (the
probabilities are multiples of ``2**-n``, so the tabulated sums are exact and equal the sums
:func:`pairedstats.core.signrank.signrank_1d` takes).

This module imports numpy and scipy only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .ranktest import asymptotic_pvalues, continuity
from .signrank import AUTO_EXACT_BELOW, null_pmf
from .ties import ERROR_ULPS, exact_scores, whole_rows

__all__ = ["SignrankPvalues", "signrank_pvalues"]

#: Differences (pairs x items) ranked in one block.
_BLOCK = 1 << 21


@dataclass(frozen=True)
class SignrankPvalues:
    """The signed-rank test of each pair (:func:`signrank_pvalues`), one value per pair.

    Attributes
    ----------
    n_zeros : ndarray of int64
        Differences read as zero (dropped before ranking).
    statistic : ndarray of float64
        ``V``, the sum of the ranks of the positive differences.
    z : ndarray of float64
        R's normal score (continuity-corrected when asked; 0 when the null has no spread).
    pvalue : ndarray of float64
        The p-value for the alternative, exact or normal by R's rule (``exact``).
    exact : ndarray of bool
        Whether the p-value is the exact one (fewer than 50 non-zero differences, neither
        ties nor zeros).
    """

    n_zeros: np.ndarray
    statistic: np.ndarray
    z: np.ndarray
    pvalue: np.ndarray
    exact: np.ndarray


def signrank_pvalues(
    scores,
    pairs,
    *,
    precision: float = 2.0**-53,
    alternative: str = "two-sided",
    correction: bool = True,
) -> SignrankPvalues:
    """The signed-rank test of ``b - a`` for every pair ``(a, b)`` of columns of ``scores``.

    Parameters
    ----------
    scores : array_like, shape (n_items, n_systems)
        Finite scores, one row per item (a data set).
    pairs : array_like of int, shape (n_pairs, 2)
        Column indices ``(a, b)``; each pair tests ``b - a``.
    precision : float
        Unit roundoff of the scores as given (``2**-53`` for float64; the tie rule's).
    alternative : {"two-sided", "less", "greater"}
        About ``b - a``.
    correction : bool
        R's continuity correction of the normal score.

    Returns
    -------
    SignrankPvalues

    Examples
    --------
    The first pair has a zero difference (normal p-value), the second none and no ties:
    ``V = 13`` of ranks 1..5, exact ``p = 2 * 3 / 32``.

    >>> x = np.array([[1.0, 2.5, 3.0], [2.0, 2.0, 5.5], [0.5, 3.0, 4.2], [4.0, 1.0, 1.5],
    ...               [3.0, 3.5, 8.0]])
    >>> res = signrank_pvalues(x, [(0, 1), (0, 2)])
    >>> res.n_zeros.tolist(), res.statistic.tolist(), res.exact.tolist()
    ([1, 0], [6.0, 13.0], [False, True])
    >>> res.pvalue.round(4).tolist()
    [0.8551, 0.1875]
    """
    x = np.ascontiguousarray(np.asarray(scores, dtype=np.float64).T)  # systems x items
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    a, b = pairs[:, 0], pairs[:, 1]
    largest = np.abs(np.where(np.isfinite(x), x, 0.0)).max(axis=1, initial=0.0)
    whole = whole_rows(x)
    exact_scores_of = exact_scores(np.maximum(largest[a], largest[b]), whole[a] & whole[b],
                                   precision)  # fmt: skip
    n_items = x.shape[1]
    step = max(1, _BLOCK // max(n_items, 1))
    parts = [_block(x[a[s:s + step]], x[b[s:s + step]], exact_scores_of[s:s + step], precision,
                    alternative, correction)
             for s in range(0, pairs.shape[0], step)]  # fmt: skip
    if not parts:
        empty = np.empty(0)
        return SignrankPvalues(np.empty(0, np.int64), empty, empty, empty, np.empty(0, bool))
    return SignrankPvalues(*(np.concatenate(column) for column in zip(*parts)))


def _block(xa, xb, exact, precision, alternative, correction):
    """``(n_zeros, statistic, z, pvalue, exact)`` of the pairs of one block (rows of ``xa``
    and ``xb``: the two systems' scores over the items)."""
    d = xb - xa
    error = np.where(exact[:, None], 0.0, ERROR_ULPS * precision * (np.abs(xa) + np.abs(xb)))
    twice_v, ties, n = _signed_ranks(d, error)
    n_zeros = d.shape[1] - n
    statistic = twice_v / 2.0
    mean = n * (n + 1) / 4.0
    sigma = np.sqrt(n * (n + 1) * (2 * n + 1) / 24.0 - ties / 48.0)
    dz = statistic - mean
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sigma > 0, (dz - continuity(dz, alternative, correction)) / sigma, 0.0)
    pvalue = asymptotic_pvalues(z, sigma, alternative)
    use_exact = (n < AUTO_EXACT_BELOW) & (ties == 0) & (n_zeros == 0)
    for m in np.unique(n[use_exact]).tolist():
        cols = np.flatnonzero(use_exact & (n == m))
        pvalue[cols] = _exact_pvalues(m, twice_v[cols] // 2, alternative)
    return n_zeros, statistic, z, pvalue, use_exact


def _signed_ranks(d: np.ndarray, error: np.ndarray):
    """Per row of ``d`` (pairs x items): twice ``V``, ``sum(t^3 - t)`` over the runs of tied
    sizes and the number of non-zero differences, by the rule of
    :func:`pairedstats.core.signrank.signed_ranks` (zeros within their error, sizes tied
    within their errors added, chained in ascending order)."""
    kept = np.abs(d) > error
    n = kept.sum(axis=1)
    size = np.where(kept, np.abs(d), np.nan)  # the zeros sort last
    order = np.argsort(size, axis=1, kind="stable")
    size = np.take_along_axis(size, order, axis=1)
    e = np.take_along_axis(error, order, axis=1)
    positive = np.take_along_axis(d > 0, order, axis=1)
    m = d.shape[1]
    position = np.arange(m)
    valid = position < n[:, None]
    starts = ~valid
    starts[:, :1] = True
    with np.errstate(invalid="ignore"):
        starts[:, 1:] |= np.diff(size, axis=1) > e[:, 1:] + e[:, :-1]
    ends = np.ones(d.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, position, m - 1)[:, ::-1], axis=1)[:, ::-1]
    twice_v = np.where(valid & positive, first + last + 2, 0).sum(axis=1)  # doubled midranks
    t = last - first + 1  # each member of a run of t adds t^2 - 1: the run, t^3 - t
    ties = np.where(valid, t * t - 1, 0).sum(axis=1).astype(np.float64)
    return twice_v, ties, n


@functools.lru_cache(maxsize=64)
def _exact_tails(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``P(V <= v)`` and ``P(V >= v)`` for ``v = 0 .. n (n + 1) / 2``, ranks ``1..n``
    (exact: sums of multiples of ``2**-n``)."""
    _, pmf = null_pmf(2 * np.arange(1, n + 1))
    lower, upper = np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]
    lower.flags.writeable = upper.flags.writeable = False
    return lower, upper


def _exact_pvalues(n: int, v: np.ndarray, alternative: str) -> np.ndarray:
    """The exact p-values of the statistics ``v`` (integers) with ``n`` untied ranks."""
    lower, upper = _exact_tails(n)
    if alternative == "greater":
        return upper[v]
    if alternative == "less":
        return lower[v]
    return np.minimum(1.0, 2.0 * np.minimum(lower[v], upper[v]))
