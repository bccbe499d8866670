"""McNemar's tests and Tango's intervals of many pairs of systems at once
(:func:`mcnemar_pairs`): the one implementation behind :func:`pairedstats.mcnemar` and the
one-comparison functions of :mod:`pairedstats.core.mcnemar`, whose notes give every formula.

For ``n`` items x ``k`` systems of 0/1 outcomes ``X``, the counts of every pair come from one
matrix product: ``both[a, b] = sum_i X[i, a] X[i, b]`` (``X^T X``), ``only_a = ones[a] -
both`` and ``only_b = ones[b] - both`` with ``ones`` the column sums. The products of 0s and
1s are exact in float64 and so is every partial sum below ``2**53``: the counts are the
integers, whatever the order of the summation. The p-values take arrays
(:mod:`scipy.stats`), Tango's ends are found by Brent's steps for every table together
(:func:`pairedstats.core.tango.tango_ends`), and clusters are one grouped sum: the sums
``S[c, s]`` of each system's outcomes over each cluster give ``D_c = S[c, b] - S[c, a]`` of
every pair, and ``sum_c D_c^2`` from the product ``S^T S``.

This module imports numpy and scipy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from . import checks
from .inference import ALTERNATIVES
from .tango import tango_ends, tango_margin_pvalues

__all__ = [
    "METHODS",
    "McNemarPairs",
    "binary_matrix",
    "mcnemar_pairs",
    "mcnemar_pvalues",
    "outcome_products",
]

#: The tests of :func:`pairedstats.core.mcnemar.mcnemar_test`.
METHODS = ("exact", "mid-p", "asymptotic")

#: Integers up to this are exact in float64 (and so are sums of them that stay below it).
_EXACT = 2**53


@dataclass(frozen=True, kw_only=True)
class McNemarPairs:
    """What the method reports for each pair (:func:`mcnemar_pairs`): arrays with one value
    per pair, the fields of :class:`pairedstats.core.mcnemar.McNemar`.

    Attributes
    ----------
    n_items : int
    only_a, only_b : ndarray of int64
    rate_a, rate_b, difference, ci_low, ci_high, statistic, z, pvalue : ndarray of float64
    method : str
    n_clusters : int or None
    design_effect : ndarray of float64 or None
        With ``cluster``.
    p_above, p_below : ndarray of float64 or None
        With ``margin``, the p-values of ``H0: b - a <= -margin`` and ``H0: b - a >=
        margin`` by Tango's score test (:func:`pairedstats.core.tango.tango_margin_pvalues`,
        Rao-Scott adjusted with ``cluster``).
    """

    n_items: int
    only_a: np.ndarray
    only_b: np.ndarray
    rate_a: np.ndarray
    rate_b: np.ndarray
    difference: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    statistic: np.ndarray
    z: np.ndarray
    pvalue: np.ndarray
    method: str
    n_clusters: int | None = None
    design_effect: np.ndarray | None = None
    p_above: np.ndarray | None = None
    p_below: np.ndarray | None = None


def binary_matrix(x, name: str = "x") -> np.ndarray:
    """``x`` (items x systems of 0/1 outcomes: bool, or the numbers 0 and 1) checked once, as
    float64 (the dtype of the matrix products), or a ValueError naming the first other value.

    Examples
    --------
    >>> binary_matrix([[True, False], [1, 0]]).tolist()
    [[1.0, 0.0], [1.0, 0.0]]
    """
    x = np.asarray(x)
    if x.ndim != 2:
        raise ValueError(f"`{name}` must be 2-D (items x systems); got shape {x.shape}.")
    if x.dtype.kind != "b":
        bad = (x != 0) & (x != 1)
        if bad.any():
            raise ValueError(
                f"`{name}` must hold 0/1 outcomes (bool or the numbers 0 and 1); got "
                f"{x[bad][0].item()!r} among {int(bad.sum())} value(s) that are neither."
            )
    return np.asarray(x, dtype=np.float64)


def _pair_products(m: np.ndarray, a: np.ndarray, b: np.ndarray, largest: int):
    """``sum_i m[i, a_p] m[i, b_p]`` of each pair ``p`` and ``sum_i m[i, s]^2`` of each
    column, as int64, from matrix products: of the whole ``m^T m`` when most systems are
    on both sides, else of the columns of the smaller side with all of ``m`` (one baseline
    against the others: ``k`` products, not ``k^2``).

    ``m`` holds integers, and ``largest`` bounds every sum of products: they are exact in
    float32 up to ``2**24`` (products of 0s and 1s in any order of summation), in float64 up
    to ``2**53``, and taken in int64 beyond. The rows are taken in blocks of about
    half a megabyte (:func:`_blocks`), whose products are summed in int64: no copy of ``m``.
    """
    dtype = np.float32 if largest <= 2**24 else np.float64 if largest < _EXACT else np.int64
    k = m.shape[1]
    side_a, in_a = np.unique(a, return_inverse=True)
    side_b, in_b = np.unique(b, return_inverse=True)
    full = 2 * min(side_a.size, side_b.size) > k
    left = side_a if side_a.size <= side_b.size else side_b
    product = np.zeros((k, k) if full else (left.size, k), dtype=np.int64)
    squares = np.zeros(k, dtype=np.int64)
    for block in _blocks(m, dtype):
        block = np.asarray(block, dtype=dtype)
        if full:
            product += (block.T @ block).astype(np.int64)
        else:
            product += (block[:, left].T @ block).astype(np.int64)
            squares += np.einsum("ij,ij->j", block, block).astype(np.int64)
    if full:
        return product[a, b], np.diagonal(product).copy()
    cross = product[in_a, b] if side_a.size <= side_b.size else product[in_b, a]
    return cross, squares


#: The bytes of a block of rows of :func:`_pair_products` (it stays in the cache).
_BLOCK_BYTES = 2**19


def _blocks(m: np.ndarray, dtype):
    """``m``'s rows in blocks of about :data:`_BLOCK_BYTES` once taken as ``dtype``."""
    step = max(1, _BLOCK_BYTES // max(1, m.shape[1] * np.dtype(dtype).itemsize))
    for start in range(0, m.shape[0], step):
        yield m[start : start + step]


def outcome_products(x: np.ndarray) -> np.ndarray | None:
    """``X^T X`` of the outcomes ``x`` (items x systems) when every one is 0 or 1, else None:
    the check and the counts in one pass over blocks of rows (``products`` of
    :func:`mcnemar_pairs`). As int64: ``[a, b]`` counts the items both a and b get right,
    the diagonal each system's 1s.

    Examples
    --------
    >>> outcome_products(np.array([[1.0, 0.0], [1.0, 1.0]])).tolist()
    [[2, 1], [1, 1]]
    >>> outcome_products(np.array([[0.5, 1.0]])) is None
    True
    """
    k = x.shape[1]
    products = np.zeros((k, k), dtype=np.int64)
    for block in _blocks(x, np.float32):  # a block's counts are exact in float32
        if np.count_nonzero(block == 0) + np.count_nonzero(block == 1) != block.size:
            return None
        block = np.asarray(block, dtype=np.float32)
        products += (block.T @ block).astype(np.int64)
    return products


def mcnemar_pvalues(
    only_a, only_b, *, method: str = "exact", alternative: str = "two-sided",
    correction: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """McNemar's test of many tables at once: ``(statistic, z, pvalue)`` arrays.

    The tests of :func:`pairedstats.core.mcnemar.mcnemar_test` (which checks one table and
    calls this), over arrays of discordant counts (non-negative integers, not checked).

    Examples
    --------
    >>> statistic, z, p = mcnemar_pvalues([1, 5], [9, 5])
    >>> statistic.tolist(), np.round(p, 6).tolist()
    ([9.0, 5.0], [0.021484, 1.0])
    """
    y, x = np.asarray(only_a, dtype=np.int64), np.asarray(only_b, dtype=np.int64)
    n = x + y
    if method == "asymptotic":
        d = (x - y).astype(np.float64)
        if correction:
            d = np.copysign(np.maximum(np.abs(d) - 1.0, 0.0), d)
        return (*normal(d, n.astype(np.float64), alternative),)
    half = 0.5 * stats.binom.pmf(x, n, 0.5) if method == "mid-p" else 0.0
    greater = stats.binom.sf(x - 1, n, 0.5) - half  # P(X >= x), less half P(X = x)
    less = stats.binom.cdf(x, n, 0.5) - half
    if alternative == "greater":
        p = greater
    elif alternative == "less":
        p = less
    else:
        p = np.minimum(1.0, 2.0 * np.minimum(greater, less))
    return x.astype(np.float64), np.full(x.shape, np.nan), np.asarray(p, dtype=np.float64)


def normal(d: np.ndarray, variance: np.ndarray, alternative: str):
    """Chi-square, ``z`` and p-value of signed counts ``d`` with null ``variance`` (0 and 0
    where the variance is 0: nothing against the null)."""
    some = variance > 0
    spread = np.sqrt(np.where(some, variance, 1.0))
    chi2 = np.where(some, d * d / np.where(some, variance, 1.0), 0.0)
    z = np.where(some, d / spread, 0.0)
    if alternative == "two-sided":
        p = stats.chi2.sf(chi2, 1)
    elif alternative == "greater":
        p = special.ndtr(-z)
    else:
        p = special.ndtr(z)
    return chi2, z, np.asarray(p, dtype=np.float64)


def _cluster_sums(x: np.ndarray, cluster) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster (in the order of the sorted labels) each system's sum of outcomes, ``(C,
    k)`` float64, and the cluster sizes ``m`` (int64): one grouped sum of the sorted rows."""
    codes = np.unique(np.asarray(cluster), return_inverse=True)[1].reshape(-1)
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    sums = np.add.reduceat(x[order], starts, axis=0)
    return sums, np.diff(np.r_[starts, codes.size]).astype(np.int64)


def clustered_sums(x, cluster, a, b, only_a, only_b):
    """Durkalski's chi-square inputs and the Rao-Scott design effect of each pair:
    ``(sum_c D_c^2, design_effect)``, every sum exact (in integers)."""
    n = x.shape[0]
    sums, sizes = _cluster_sums(np.asarray(x, dtype=np.float64), cluster)
    sums = sums.astype(np.int64)  # sums of products up to n^2: exact in int64
    cross, square = _pair_products(sums, a, b, n * n)
    s_dd = square[a] + square[b] - 2 * cross  # sum_c D_c^2
    with_sizes = sizes @ sums
    s_dm = with_sizes[b] - with_sizes[a]  # sum_c D_c m_c
    s_mm = int(np.sum(sizes * sizes))
    effect = np.ones(a.size)
    rows = zip(*(v.tolist() for v in (only_b - only_a, only_a + only_b, s_dd, s_dm)))
    for p, (total, discordant, dd, dm) in enumerate(rows):  # Python integers: n^4 > 2**63
        v_m = n * n * discordant - n * total * total  # n^2 V_m
        if v_m > 0:
            v_c = n * n * dd - 2 * n * total * dm + total * total * s_mm  # n^2 V_c
            effect[p] = max(v_c / v_m, 1.0)  # int / int is correctly rounded
    return s_dd, effect, int(sizes.size)


def mcnemar_pairs(
    x,
    pairs,
    *,
    method: str = "exact",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    cluster=None,
    checked: bool = False,
    products=None,
    margin: float | None = None,
    n_items: int | None = None,
) -> McNemarPairs:
    """McNemar's test and Tango's interval of many comparisons b - a of the same items.

    Parameters
    ----------
    x : array_like of 0/1, shape (n_items, n_systems)
        Each item's outcome under each system (bool, or the numbers 0 and 1).
    pairs : array_like of int, shape (n_pairs, 2)
        The comparisons, as column indices ``(a, b)``.
    method : {"exact", "mid-p", "asymptotic"}, default "exact"
        As :func:`pairedstats.core.mcnemar.mcnemar_1d`'s; with ``cluster`` only
        ``"asymptotic"``, the clustered test.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
    confidence_level : float, default 0.95
    cluster : array_like, shape (n_items,), optional
        Each item's cluster label.
    checked : bool, default False
        ``x`` is a matrix already checked to hold 0s and 1s (bool or float: skip the check).
    products : ndarray of int64, shape (n_systems, n_systems), optional
        ``X^T X`` of ``x`` when the caller has it (:func:`outcome_products`): not counted
        again.
    margin : float, optional
        A margin in ``(0, 1)``: adds Tango's one-sided tests at ``-margin`` and ``margin``
        (``p_above``, ``p_below``).
    n_items : int, optional
        With ``x`` None: the number of items whose ``products`` are given (the test needs
        nothing else of them without ``cluster``).

    Returns
    -------
    McNemarPairs
        Each pair's numbers: those of :func:`pairedstats.core.mcnemar.mcnemar_1d` on its two
        columns, to the bit (the tests and the counts) and to the last bits of Tango's ends.

    Examples
    --------
    >>> x = [[1, 1, 0], [1, 0, 1], [0, 1, 1], [1, 1, 1], [0, 1, 1]]
    >>> r = mcnemar_pairs(x, [(0, 1), (0, 2), (1, 2)])
    >>> r.only_a.tolist(), r.only_b.tolist(), r.pvalue.tolist()
    ([1, 1, 1], [2, 2, 1], [1.0, 1.0, 1.0])
    """
    method = checks.choice(method, "method", METHODS)
    alternative = checks.choice(alternative, "alternative", ALTERNATIVES)
    confidence_level = checks.probability(confidence_level, "confidence_level")
    if margin is not None and not 0.0 < margin < 1.0:
        raise ValueError(f"`margin` must be in (0, 1); got {margin!r}.")
    if x is None:  # the items are their products (sums of a table read in pieces)
        if products is None or n_items is None or cluster is not None:
            raise ValueError("without `x`, give `products` and `n_items` (and no `cluster`)")
        n = int(n_items)
    else:
        x = np.asarray(x) if checked else binary_matrix(x)
        n = int(x.shape[0])
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    if n == 0 or n >= _EXACT:
        raise ValueError(f"`x` must hold at least one item and fewer than 2**53; got {n}.")
    a, b = pairs[:, 0], pairs[:, 1]
    if products is None:
        both, ones = _pair_products(x, a, b, n)  # the 1s of both, and each system's 1s
    else:
        both, ones = products[a, b], np.diagonal(products).copy()
    only_a, only_b = ones[a] - both, ones[b] - both
    extra: dict = {}
    if cluster is None:
        statistic, z, p = mcnemar_pvalues(only_a, only_b, method=method, alternative=alternative)
        effect = 1.0
    else:
        if method != "asymptotic":
            raise ValueError(
                "`method`: the clustered McNemar test is asymptotic (the exact and mid-p "
                f"tests assume independent items); pass method='asymptotic'; got {method!r}."
            )
        if np.shape(cluster) != (n,):
            raise ValueError(
                f"`cluster` must have one value per item; got {np.size(cluster)} for {n} items."
            )
        s_dd, effect, n_clusters = clustered_sums(x, cluster, a, b, only_a, only_b)
        statistic, z, p = normal((only_b - only_a).astype(np.float64),
                                  s_dd.astype(np.float64), alternative)  # fmt: skip
        extra = {"n_clusters": n_clusters, "design_effect": effect}
    low, high = tango_ends(only_a, only_b, n, confidence_level=confidence_level,
                           alternative=alternative, design_effect=effect)  # fmt: skip
    if margin is not None:
        extra["p_above"], extra["p_below"] = tango_margin_pvalues(only_a, only_b, n, margin,
                                                                  effect)  # fmt: skip
    return McNemarPairs(
        n_items=n, only_a=only_a, only_b=only_b, rate_a=ones[a] / n,
        rate_b=ones[b] / n, difference=(only_b - only_a) / n, ci_low=low,
        ci_high=high, statistic=statistic, z=z, pvalue=p,
        method="clustered" if cluster is not None else method, **extra,
    )  # fmt: skip
