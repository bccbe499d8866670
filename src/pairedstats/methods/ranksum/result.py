"""The rank-sum test's result: one row per group, the comparison b - a
(:class:`RanksumResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.results import RankTestResult

__all__ = ["RanksumResult"]


@dataclass(frozen=True, kw_only=True)
class RanksumResult(RankTestResult):
    """Result of :func:`ranksum` and :func:`ranksum_design`.

    Every attribute below is a read-only array of shape ``(n_groups, 1)``: one row per
    group, one comparison (b minus a). The comparison is significant when
    ``pvalue < alpha`` (:meth:`significant`). Besides those of
    :class:`~pairedstats.methods._shared.results.RankTestResult` (``null_mean`` and
    ``null_variance`` are
    of ``rank_sum_a``; ``z`` is 0 when all values are tied, then every arrangement gives
    the observed statistic and the p-value is 1, as in scipy; ``shift`` is the median of
    all ``b_j - a_i``):

    Attributes
    ----------
    n_a, n_b : ndarray of int
        Sample sizes.
    rank_sum_a : ndarray
        Sum of the pooled ascending ranks of ``a`` (midranks for ties).
    u_a : ndarray
        ``rank_sum_a - n_a (n_a + 1) / 2``: pairs with ``a_i > b_j`` plus half the tied pairs
        (R's ``W`` of ``wilcox.test(a, b)``, scipy's ``U1`` of ``mannwhitneyu(a, b)``).
    common_language : ndarray
        ``P(b > a) + P(b = a) / 2`` over all pairs, ``1 - u_a / (n_a n_b)``.
    rank_biserial : ndarray
        ``2 common_language - 1``, in ``[-1, 1]``, positive when b tends to exceed a.
    """

    n_a: np.ndarray
    n_b: np.ndarray
    rank_sum_a: np.ndarray
    u_a: np.ndarray
    common_language: np.ndarray
    rank_biserial: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_a",
        "n_b",
        "rank_sum_a",
        "u_a",
        *RankTestResult.test_columns,
        "common_language",
        "rank_biserial",
        "method",
    )
    label_columns: ClassVar[tuple[str, str]] = ("group_a", "group_b")
    summary_columns: ClassVar[tuple[str, ...]] = ("n_a", "n_b", "shift", "ci_low", "ci_high",
                                                  "pvalue")  # fmt: skip
    title: ClassVar[str] = "Wilcoxon rank-sum test, Hodges-Lehmann shift of b - a"
