"""McNemar's test's result: one row per group, one column per comparison b - a
(:class:`McNemarResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.margins import MARGIN_COLUMNS, MARGIN_PVALUES, MarginColumns
from .._shared.results import ComparisonResult, PValueRule, labelled_flags

__all__ = ["McNemarResult"]


@dataclass(frozen=True, kw_only=True)
class McNemarResult(MarginColumns, PValueRule, ComparisonResult):
    """Result of :func:`mcnemar` and :func:`mcnemar_design`.

    Every attribute below is a read-only array of shape ``(n_groups, n_comparisons)``. A
    comparison is significant when ``pvalue < alpha``, or with ``adjust`` when
    ``pvalue_adjusted < alpha`` (:meth:`significant`). The numbers come from
    :mod:`pairedstats.core.mcnemar`, whose notes give every formula.

    Attributes
    ----------
    n_items : ndarray of int
        Items of the comparison.
    rate_a, rate_b : ndarray
        Each system's rate of 1s (passes) over the items.
    difference : ndarray
        ``rate_b - rate_a``, ``(only_b - only_a) / n_items``.
    ci_low, ci_high : ndarray
        Tango's (1998) score interval of ``difference`` at ``confidence_level`` (with
        ``cluster``, Rao-Scott adjusted by ``design_effect``); with a one-sided
        ``alternative`` the other end is the bound, -1 or 1. Unadjusted for the number of
        comparisons.
    only_a, only_b : ndarray of int
        Items only a gets right (1 for a, 0 for b), only b gets right: the discordant items.
    statistic : ndarray
        ``only_b`` for the exact and mid-p tests (the binomial count whose tails give the
        p-value); the chi-square ``(only_b - only_a)^2 / (only_a + only_b)`` for the
        asymptotic test; Durkalski's clustered chi-square with ``cluster``.
    pvalue : ndarray
        The p-value of ``alternative`` (about b - a) by the test of ``method``.
    pvalue_adjusted : ndarray or None
        With ``adjust``, ``pvalue`` adjusted over the comparisons of the group (Holm,
        Bonferroni, Benjamini-Hochberg or Benjamini-Yekutieli:
        :func:`pairedstats.core.adjust.adjust_pvalues`).
    equivalent, noninferior, pvalue_equivalence, pvalue_noninferiority : ndarray or None
        With ``margin``, the test against it by Tango's (1998) score test at ``-margin``
        and ``margin`` (the inversion of ``ci_low, ci_high``; Rao-Scott adjusted with
        ``cluster``), whatever ``method``
        (:class:`~pairedstats.methods._shared.margins.MarginColumns`).
    n_clusters : ndarray of int or None
        With ``cluster``, the clusters of the group.
    design_effect : ndarray or None
        With ``cluster``, the Rao-Scott design effect of the difference (at least 1) that
        widens the interval (:func:`pairedstats.core.mcnemar.cluster_design_effect`).
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.
    """

    n_items: np.ndarray
    rate_a: np.ndarray
    rate_b: np.ndarray
    difference: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    only_a: np.ndarray
    only_b: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray | None = None
    n_clusters: np.ndarray | None = None
    design_effect: np.ndarray | None = None
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_items", "rate_a", "rate_b", "difference", "ci_low", "ci_high", "only_a", "only_b",
        "statistic", "pvalue", "pvalue_adjusted", *MARGIN_COLUMNS, "n_clusters",
        "design_effect", "n_dropped",
    )  # fmt: skip
    estimate: ClassVar[str] = "difference"
    side_columns: ClassVar[tuple[str, str]] = ("rate_a", "rate_b")
    interval: ClassVar[tuple[str, str]] = ("ci_low", "ci_high")
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue", "pvalue_adjusted", *MARGIN_PVALUES)
    summary_columns: ClassVar[tuple[str, ...]] = ("rate_a", "rate_b", "difference", "ci_low",
                                                  "ci_high", "pvalue")  # fmt: skip
    title: ClassVar[str] = "McNemar's test of paired pass/fail outcomes, Tango interval of b - a"
    printed_metadata: ClassVar[tuple[str, ...]] = (
        "test", "interval", "margin", "confidence_level", "alternative", "adjust",
    )  # fmt: skip

    def significant(self, alpha: float | None = None):
        """:meth:`PValueRule.significant <pairedstats.PValueRule.significant>` (``pvalue <
        alpha``, default 0.05), deciding by ``pvalue_adjusted`` with ``adjust`` (the
        family-wise decision; Benjamini-Hochberg's with ``"fdr_bh"`` or
        Benjamini-Yekutieli's with ``"fdr_by"``, at that false discovery rate): a table of
        booleans, one row per group, one column per comparison."""
        flags = PValueRule.significant(self, alpha)  # checks alpha
        if self.pvalue_adjusted is None:
            return flags
        level = 0.05 if alpha is None else float(alpha)
        return labelled_flags(self, np.asarray(self.pvalue_adjusted) < level)

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule as a LaTeX table note: ``$p < 0.05$`` (``, unadjusted for 3
        comparisons`` when there are several), or ``adjusted $p < 0.05$ (holm)``."""
        note = PValueRule.significance_note(self, alpha)
        if self.pvalue_adjusted is not None:
            return f"adjusted {note} ({self.metadata.get('adjust')})"
        k = len(self.label_a)
        return note if k < 2 else f"{note}, unadjusted for {k} comparisons"

    @property
    def caveat(self) -> str | None:
        """With several comparisons per group and no ``adjust``: that each interval and
        p-value holds for its comparison alone."""
        k = len(self.label_a)
        if k > 1 and self.pvalue_adjusted is None:
            return (f"unadjusted: each interval and p-value holds for its comparison alone ({k} "
                    "comparisons per group; adjust= controls the p-values together)")  # fmt: skip
        return None
