"""The corrected resampled t-test's result: one row per group, one column per comparison
b - a (:class:`CvTtestResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.margins import MARGIN_COLUMNS, MARGIN_PVALUES, MarginColumns
from .._shared.results import ComparisonResult, PValueRule, labelled_flags

__all__ = ["CvTtestResult"]


@dataclass(frozen=True, kw_only=True)
class CvTtestResult(MarginColumns, PValueRule, ComparisonResult):
    """Result of :func:`cv_ttest` and :func:`cv_ttest_design`.

    Every attribute below is a read-only array of shape ``(n_groups, n_comparisons)``. A
    comparison is significant when the corrected ``pvalue < alpha``, or with ``adjust`` when
    ``pvalue_adjusted < alpha`` (:meth:`significant`).

    Attributes
    ----------
    n_folds : ndarray of int
        The folds n = r*k of the comparison (every (repetition, fold) cell).
    n_repeats : ndarray of int or None
        With ``repeat``, the repetitions r (``n_folds / n_repeats`` folds each).
    difference : ndarray
        The mean of the per-fold differences b - a.
    df : ndarray of int
        Degrees of freedom, n - 1.
    t : ndarray
        The corrected t, ``difference / sqrt((1/n + test/train) s^2)`` (Nadeau and Bengio
        2003); +-inf when every fold has the same non-zero difference, NaN when all are 0.
    pvalue : ndarray
        Its Student t p-value on ``df`` degrees of freedom (by ``alternative``); 1 when
        every difference is 0.
    ci_low, ci_high : ndarray
        The corrected interval ``difference +- t_{n-1} sqrt((1/n + test/train) s^2)`` at
        ``confidence_level``; one-sided (an infinite end) with a one-sided ``alternative``.
        Unadjusted for the number of comparisons.
    t_uncorrected, pvalue_uncorrected : ndarray
        The plain one-sample t-test of the differences (variance ``s^2 / n``, scipy's
        ``ttest_rel``), too liberal for cross-validation folds: for contrast.
    prob_a_better, prob_equivalent, prob_b_better : ndarray or None
        With ``rope``, the posterior probabilities of the Bayesian correlated t-test (Corani
        and Benavoli 2015) that the mean difference is below ``-rope``, within ``[-rope,
        rope]``, above ``rope``; they sum to 1.
    pvalue_adjusted : ndarray or None
        With ``adjust``, ``pvalue`` adjusted over the comparisons of the group
        (:func:`pairedstats.core.adjust.adjust_pvalues`).
    equivalent, noninferior, pvalue_equivalence, pvalue_noninferiority : ndarray or None
        With ``margin``, the test against it by the corrected t, shifted by the margin
        (:class:`~pairedstats.methods._shared.margins.MarginColumns`).
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.
    """

    n_folds: np.ndarray
    n_repeats: np.ndarray | None = None
    difference: np.ndarray
    df: np.ndarray
    t: np.ndarray
    pvalue: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    t_uncorrected: np.ndarray
    pvalue_uncorrected: np.ndarray
    prob_a_better: np.ndarray | None = None
    prob_equivalent: np.ndarray | None = None
    prob_b_better: np.ndarray | None = None
    pvalue_adjusted: np.ndarray | None = None
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_folds", "n_repeats", "difference", "df", "t", "pvalue", "ci_low", "ci_high",
        "t_uncorrected", "pvalue_uncorrected", "prob_a_better", "prob_equivalent",
        "prob_b_better", "pvalue_adjusted", *MARGIN_COLUMNS, "n_dropped",
    )  # fmt: skip
    estimate: ClassVar[str] = "difference"
    interval: ClassVar[tuple[str, str]] = ("ci_low", "ci_high")
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue", "pvalue_uncorrected",
                                                 "pvalue_adjusted", *MARGIN_PVALUES)  # fmt: skip
    summary_columns: ClassVar[tuple[str, ...]] = ("difference", "t", "ci_low",
                                                  "ci_high", "pvalue")  # fmt: skip
    title: ClassVar[str] = "Corrected resampled t-test of b - a over cross-validation folds"
    printed_metadata: ClassVar[tuple[str, ...]] = ("test_fraction", "rope", "margin",
                                                   "confidence_level", "alternative",
                                                   "adjust")  # fmt: skip

    def significant(self, alpha: float | None = None):
        """:meth:`PValueRule.significant <pairedstats.PValueRule.significant>` (``pvalue <
        alpha``, default 0.05), deciding by ``pvalue_adjusted`` with ``adjust``: a table of
        booleans, one row per group, one column per comparison."""
        flags = PValueRule.significant(self, alpha)  # checks alpha
        if self.pvalue_adjusted is None:
            return flags
        level = 0.05 if alpha is None else float(alpha)
        return labelled_flags(self, np.asarray(self.pvalue_adjusted) < level)
