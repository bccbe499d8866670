"""The signed-rank test's result: one row per group, one column per comparison b - a
(:class:`SignrankResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.margins import MARGIN_COLUMNS, MARGIN_PVALUES, MarginColumns
from .._shared.results import RankTestResult

__all__ = ["SignrankResult"]


@dataclass(frozen=True, kw_only=True)
class SignrankResult(MarginColumns, RankTestResult):
    """Result of :func:`signrank` and :func:`signrank_design`.

    Every attribute below is a read-only array of shape ``(n_groups, n_comparisons)``. A
    comparison is significant when ``pvalue < alpha`` (:meth:`significant`). Besides those
    of :class:`~pairedstats.methods._shared.results.RankTestResult` (``null_mean`` and
    ``null_variance``
    are ``n (n + 1) / 4`` and the tie-corrected ``n (n + 1) (2n + 1) / 24 - sum(t^3 - t) /
    48``, ``n`` non-zero differences, ``t`` the sizes of the groups of tied ``|b - a|``;
    ``shift`` is the paired Hodges-Lehmann estimate, the median of the Walsh averages
    ``(d_i + d_j) / 2``, ``i <= j``, of the non-zero differences ``d = b - a``;
    ``ci_coverage`` is NaN on the asymptotic path when the level cannot be reached):

    Attributes
    ----------
    n_items : ndarray of int
        Items of the comparison (zero differences included).
    n_zeros : ndarray of int
        Items with ``b == a`` (within the tie error of the differences, see
        :mod:`pairedstats.core.ties`): dropped before ranking, as R's ``wilcox.test`` does;
        the test, the shift and the interval are those of the ``n_items - n_zeros`` others.
    statistic : ndarray
        ``V``: the sum of the ranks of the positive differences, ranks of ``|b - a|``
        ascending with midranks for ties (R's ``V``; scipy's ``r_plus``).
    equivalent, noninferior, pvalue_equivalence, pvalue_noninferiority : ndarray or None
        With ``margin``, the test against it by the signed-rank tests of ``b - a + margin``
        and ``b - a - margin`` (:mod:`pairedstats.core.signrank_margin`;
        :class:`~pairedstats.methods._shared.margins.MarginColumns`).
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.
    """

    n_items: np.ndarray
    n_zeros: np.ndarray
    statistic: np.ndarray
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_items",
        "n_zeros",
        "statistic",
        *RankTestResult.test_columns,
        *MARGIN_COLUMNS,
        "n_dropped",
        "method",
    )
    summary_columns: ClassVar[tuple[str, ...]] = ("n_items", "shift", "ci_low", "ci_high",
                                                  "pvalue")  # fmt: skip
    pvalue_columns: ClassVar[tuple[str, ...]] = (*RankTestResult.pvalue_columns,
                                                 *MARGIN_PVALUES)  # fmt: skip
    title: ClassVar[str] = "Wilcoxon signed-rank test, Hodges-Lehmann shift of b - a"
    printed_metadata: ClassVar[tuple[str, ...]] = (*RankTestResult.printed_metadata, "margin")
