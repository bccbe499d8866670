"""The sign test's result: one row per group, one column per comparison b - a
(:class:`SigntestResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.results import ComparisonResult, PValueRule, labelled_flags

__all__ = ["SigntestResult"]


@dataclass(frozen=True, kw_only=True)
class SigntestResult(PValueRule, ComparisonResult):
    """Result of :func:`signtest` and :func:`signtest_design`.

    Every attribute below is a read-only array of shape ``(n_groups, n_comparisons)``. A
    comparison is significant when ``pvalue < alpha``, or with ``adjust`` when
    ``pvalue_adjusted < alpha`` (:meth:`significant`).

    Attributes
    ----------
    n_items : ndarray of int
        Items of the comparison (zero differences included).
    n_zeros : ndarray of int
        Items with ``b == a`` by the package's tie rule (:mod:`pairedstats.core.ties`: equal
        within the rounding error of the two scores, exactly for integers), dropped from
        the test and the interval.
    wins, losses : ndarray of int
        Items where ``b > a``, where ``b < a``.
    win_rate : ndarray
        ``wins / (wins + losses)``, the estimate of ``P(b > a | b != a)``; NaN when every
        difference is zero.
    ci_low, ci_high : ndarray
        The Clopper-Pearson (exact) interval of the win rate at ``confidence_level``; with a
        one-sided ``alternative`` the other end is 0 or 1 (scipy's
        ``binomtest(...).proportion_ci()``); ``[0, 1]`` when every difference is zero.
        Unadjusted for the number of comparisons.
    pvalue : ndarray
        The exact binomial p-value of ``wins`` out of ``wins + losses`` with probability
        1/2 (scipy's ``binomtest``; two-sided: twice the smaller tail, at most 1); 1 when
        every difference is zero.
    pvalue_adjusted : ndarray or None
        With ``adjust``, ``pvalue`` adjusted over the comparisons of the group
        (:func:`pairedstats.core.adjust.adjust_pvalues`).
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.
    """

    n_items: np.ndarray
    n_zeros: np.ndarray
    wins: np.ndarray
    losses: np.ndarray
    win_rate: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray | None = None
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_items", "n_zeros", "wins", "losses", "win_rate", "ci_low", "ci_high", "pvalue",
        "pvalue_adjusted", "n_dropped",
    )  # fmt: skip
    estimate: ClassVar[str] = "win_rate"
    interval: ClassVar[tuple[str, str]] = ("ci_low", "ci_high")
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue", "pvalue_adjusted")
    summary_columns: ClassVar[tuple[str, ...]] = ("wins", "losses", "win_rate", "ci_low",
                                                  "ci_high", "pvalue")  # fmt: skip
    title: ClassVar[str] = "Sign test of b - a, Clopper-Pearson interval of the win rate"
    printed_metadata: ClassVar[tuple[str, ...]] = ("confidence_level", "alternative", "adjust")

    def significant(self, alpha: float | None = None):
        """:meth:`PValueRule.significant <pairedstats.PValueRule.significant>` (``pvalue <
        alpha``, default 0.05), deciding by ``pvalue_adjusted`` with ``adjust``: a table of
        booleans, one row per group, one column per comparison."""
        flags = PValueRule.significant(self, alpha)  # checks alpha
        if self.pvalue_adjusted is None:
            return flags
        level = 0.05 if alpha is None else float(alpha)
        return labelled_flags(self, np.asarray(self.pvalue_adjusted) < level)
