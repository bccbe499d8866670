"""The result of the paired bootstrap (:func:`pairedstats.bootstrap` and its accessors),
made by its run (:func:`pairedstats.methods.bootstrap.run.run`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...core.adjust import by_factor
from .._shared.margins import MARGIN_COLUMNS, MARGIN_PVALUES, MarginColumns
from .._shared.results import ComparisonResult, IntervalRule, labelled_flags

__all__ = ["BootstrapResult"]


@dataclass(frozen=True, kw_only=True)
class BootstrapResult(MarginColumns, IntervalRule, ComparisonResult):
    """Result of :func:`bootstrap` and :func:`bootstrap_design`.

    The columns are arrays of shape ``(n_groups, n_comparisons)``, read-only. A comparison
    is significant when its interval excludes 0 (:meth:`significant`).

    Attributes
    ----------
    mean_a, mean_b : ndarray
        The estimate for each side: the item mean (with ``strata``, the weighted combination
        of stratum item means), or ``statistic`` of the side when one is given.
    difference : ndarray
        ``mean_b - mean_a``, the estimate the interval is about.
    ci_low, ci_high : ndarray
        Confidence interval of ``difference`` by ``method``, at ``confidence_level``; one
        end infinite with a one-sided ``alternative``. Unadjusted: with several comparisons
        each interval holds at its level on its own, not jointly (``adjust``).
    standard_error : ndarray
        Standard deviation of the bootstrap replicates (``ddof=1``, as scipy).
    pvalue : ndarray
        The bootstrap p-value of ``alternative``, the interval of ``method`` inverted:
        ``pvalue < 1 - confidence_level`` exactly when the interval excludes 0
        (:mod:`pairedstats.core.inference`). Its resolution is about ``1 / n_resamples``;
        0 means no resample crossed 0 (below about ``3 / n_resamples``), and displays show
        it as ``<1/n_resamples`` (:meth:`pvalue_bounds`).
    pvalue_adjusted : ndarray or None
        With ``adjust``, the p-values adjusted over the comparisons of the group (the
        family): Holm's, Bonferroni's, Benjamini-Hochberg's or Benjamini-Yekutieli's of the
        *add-one* p-values ``(B p + 2) / (B + 1)`` (one-sided ``(B p + 1) / (B + 1)``,
        ``B = n_resamples``; :func:`pairedstats.core.adjust.add_one_pvalues`), so that a
        ``pvalue`` of 0, "below about 1 / B", never passes a threshold ``alpha / m`` finer
        than the resamples resolve; or max-t's step-down p-values from the joint replicates
        (:mod:`pairedstats.core.adjust`). The metadata's ``adjusted_pvalues`` and the
        printed header say which.
    equivalent, noninferior, pvalue_equivalence, pvalue_noninferiority : ndarray or None
        With ``margin``, the test against it
        (:class:`~pairedstats.methods._shared.margins.MarginColumns`): the one-sided
        p-values at ``-margin`` and ``margin`` are the interval of ``method`` inverted there
        instead of at 0 (:mod:`pairedstats.core.inference`), so that ``noninferior`` is
        "the one-sided interval at ``confidence_level`` lies above ``-margin``" and
        ``equivalent`` "the two-sided interval at ``1 - 2 (1 - confidence_level)`` lies
        inside ``(-margin, margin)``". A 0 means below about ``1 / n_resamples``. With
        ``adjust`` (not ``"max-t"``, which is refused with ``margin``), the
        ``*_adjusted`` columns adjust the one-sided add-one p-values ``(B p + 1) / (B +
        1)`` and the decision reads them.
    ci_low_adjusted, ci_high_adjusted : ndarray or None
        With ``adjust="max-t"`` or ``"bonferroni"``, simultaneous intervals: all the
        group's comparisons are covered together at ``confidence_level``.
    n_items : ndarray of int
        Items in the group.
    effect_size : ndarray or None
        Cohen's ``d_z``: the mean of the per-item differences ``b - a`` over their standard
        deviation (``ddof=1``), over the items of the group whatever ``cluster`` and
        ``strata`` (a description of the items, not the resampled estimate). None with
        ``statistic`` (no per-item difference) and with ``weights`` (the estimate is not
        the item mean).
    wins, ties, losses : ndarray of int or None
        Items with ``b > a``, ``b == a``, ``b < a`` (ties by the tie rule of
        :mod:`pairedstats.core.ties`); None with
        ``statistic``. Always "b higher than a", also for metrics where lower is better.
    n_clusters : ndarray of int or None
        Clusters in the group (the resampled units), with ``cluster``; else None.
    n_dropped : ndarray of int
        Items of the group dropped by ``missing="complete"`` (0 otherwise).
    bootstrap_distribution : ndarray, shape (n_groups, n_comparisons, n_resamples), or None
        The replicates of ``difference`` (not a column), jointly those of one resampling of
        the units for all comparisons of a group. None when the call did not keep them (an
        accessor returning a table), and with ``resampling="counts"`` and two or more
        comparisons, whose replicates are drawn per comparison and are not a joint
        distribution.
    bias_correction, acceleration : ndarray or None
        BCa's ``z0`` and ``a`` per comparison with ``method="bca"``; else None. ``z0`` is
        infinite where the estimate lies outside the replicates (the percentile interval was
        used), ``a`` NaN where it is undefined (taken as 0).
    counts_path : ndarray of bool
        Per comparison, whether the per-comparison multinomial-counts resampling was used
        (``resampling="counts"``; see :mod:`pairedstats.core.bootstrap`) instead of drawing
        unit indices.
    """

    mean_a: np.ndarray
    mean_b: np.ndarray
    difference: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    standard_error: np.ndarray
    pvalue: np.ndarray
    n_items: np.ndarray
    pvalue_adjusted: np.ndarray | None = None
    ci_low_adjusted: np.ndarray | None = None
    ci_high_adjusted: np.ndarray | None = None
    effect_size: np.ndarray | None = None
    wins: np.ndarray | None = None
    ties: np.ndarray | None = None
    losses: np.ndarray | None = None
    n_clusters: np.ndarray | None = None
    n_dropped: np.ndarray | None = None
    bootstrap_distribution: np.ndarray | None = None
    bias_correction: np.ndarray | None = None
    acceleration: np.ndarray | None = None
    counts_path: np.ndarray | None = None

    _columns: ClassVar[tuple[str, ...]] = (
        "mean_a",
        "mean_b",
        "difference",
        "ci_low",
        "ci_high",
        "standard_error",
        "pvalue",
        "pvalue_adjusted",
        "ci_low_adjusted",
        "ci_high_adjusted",
        *MARGIN_COLUMNS,
        "n_items",
        "effect_size",
        "wins",
        "ties",
        "losses",
        "n_clusters",
        "n_dropped",
    )
    estimate: ClassVar[str] = "difference"
    interval: ClassVar[tuple[str, str]] = ("ci_low", "ci_high")
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue", "pvalue_adjusted", *MARGIN_PVALUES)
    summary_columns: ClassVar[tuple[str, ...]] = (
        "mean_a",
        "mean_b",
        "difference",
        "ci_low",
        "ci_high",
    )
    title: ClassVar[str] = "Paired bootstrap of b - a"
    printed_metadata: ClassVar[tuple[str, ...]] = (
        *ComparisonResult.printed_metadata[:-1],
        "margin",
        "stream",
        "seed_entropy",
    )

    def significant(self, alpha: float | None = None):
        """Which comparisons are significant at ``alpha = 1 - confidence_level``: the
        interval excludes 0 (``pvalue < alpha``), or with ``adjust`` the adjusted p-value
        is below ``alpha`` (the family-wise decision; Benjamini-Hochberg's, with
        ``"fdr_bh"`` or Benjamini-Yekutieli's with ``"fdr_by"``, at that false discovery
        rate).

        Parameters
        ----------
        alpha : float, optional
            Must be ``1 - confidence_level`` when given; another value raises a
            ``ValueError`` (re-run with that confidence level instead).

        Returns
        -------
        pandas.DataFrame of bool
            One row per group, one column per comparison
            (:func:`pairedstats.methods._shared.results.labelled_flags`).
        """
        flags = IntervalRule.significant(self, alpha)
        if self.pvalue_adjusted is None:
            return flags
        return labelled_flags(self, self.pvalue_adjusted < 1 - self.metadata["confidence_level"])

    @property
    def caveat(self) -> str | None:
        """What the table could be misread as saying: with ``statistic``, that ``mean_a``
        and ``mean_b`` hold that statistic; with ``adjust``, which p-values
        ``pvalue_adjusted`` adjusts (``pvalue_adjusted: holm of add-one p-values (B p + 2) /
        (B + 1), B = 10000``); with several comparisons per group and no ``adjust``, that
        each interval and p-value holds for its comparison alone."""
        lines = []
        statistic = self.metadata.get("statistic")
        if statistic is not None:
            lines.append(f"mean_a, mean_b: {statistic} of each system (statistic=), not means")
        adjusted = self.metadata.get("adjusted_pvalues")
        if self.pvalue_adjusted is not None and adjusted:
            lines.append(f"pvalue_adjusted: {self.metadata.get('adjust')} of {adjusted}")
        k = len(self.label_a)
        if k > 1 and self.pvalue_adjusted is None:
            lines.append(
                f"unadjusted: each interval and p-value holds for its comparison alone ({k} "
                "comparisons per group; adjust= controls them together)"
            )
        return "\n".join(lines) or None

    def pvalue_bounds(self) -> dict[str, np.ndarray]:
        """What a p-value of 0 stands for, per row (:mod:`pairedstats.display` shows the
        0 as ``<`` its bound): ``pvalue`` is read off the ``n_resamples`` replicates, so its
        0 is below ``1 / n_resamples``; ``pvalue_adjusted`` is max-t's share of the joint
        replicates (``1 / n_resamples`` too), or Holm's, Bonferroni's or
        Benjamini-Hochberg's of ``pvalue``, which multiply it by at most the family size
        ``m`` (the group's comparisons with a p-value): ``m / n_resamples``;
        Benjamini-Yekutieli's by at most ``m c(m)``, ``c(m) = sum_{i<=m} 1/i``. (Those four
        adjust the add-one p-values, which are never 0: the bound then marks no value.) The
        margin's p-values (``pvalue_equivalence``, ``pvalue_noninferiority`` and their
        adjusted columns) are bounded as ``pvalue`` and ``pvalue_adjusted``."""
        n = self.metadata.get("n_resamples")
        if not n:
            return {}
        pvalue = np.asarray(self.pvalue, dtype=float)
        out = {"pvalue": np.full(pvalue.size, 1.0 / n)}
        if self.pvalue_adjusted is not None:
            family = np.ones_like(pvalue)
            if self.metadata.get("adjust") != "max-t":
                m = (~np.isnan(pvalue)).sum(axis=-1, keepdims=True)
                family *= m
                if self.metadata.get("adjust") == "fdr_by":
                    family *= by_factor(m)
            out["pvalue_adjusted"] = (family / n).reshape(-1)
        for name in MARGIN_PVALUES:
            if getattr(self, name) is not None:
                plain = name.removesuffix("_adjusted")
                out[name] = out["pvalue_adjusted" if name != plain else "pvalue"]
        return out

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule as a LaTeX table note: ``95\\% interval excludes 0`` (``, unadjusted
        for 6 comparisons`` when there are several), or with ``adjust`` ``adjusted
        $p < 0.05$ (holm)``."""
        if self.pvalue_adjusted is None:
            note = IntervalRule.significance_note(self, alpha)
            k = len(self.label_a)
            return note if k < 2 else f"{note}, unadjusted for {k} comparisons"
        level = 1 - self.metadata["confidence_level"]
        return f"adjusted $p < {level:.6g}$ ({self.metadata['adjust']})"
