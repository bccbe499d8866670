"""The plan's result: one row per group, one column per comparison b - a
(:class:`ItemsForResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.results import ComparisonResult, labelled_flags

__all__ = ["ItemsForResult"]


@dataclass(frozen=True, kw_only=True)
class ItemsForResult(ComparisonResult):
    """Result of ``df.paired.items_for(difference, ...)``: how many items each comparison
    needs, estimated from the table itself.

    Every attribute below is a read-only array of shape ``(n_groups, n_comparisons)``. A plan
    tests nothing: :meth:`significant` marks no comparison.

    Attributes
    ----------
    n_items : ndarray of int
        Items of the comparison in the table.
    target_difference : ndarray
        The difference b - a to detect: the ``difference`` asked for (the same in every
        row), not one observed in the table (the observed quantities are ``n_items``,
        ``standard_deviation`` and ``discordant_rate``).
    standard_deviation : ndarray
        Of the per-item differences ``b - a`` in the table (``ddof=1``).
    discordant_rate : ndarray
        For 0/1 scores, the share of items on which the two systems differ (one passes, the
        other fails); NaN for other scores.
    standard_deviation_planned : ndarray
        The standard deviation the plan used (rows of ``method="t"``; NaN in the rows of
        ``method="mcnemar"``, 0/1 scores, whose plan uses ``discordant_rate_planned``):
        ``standard_deviation`` itself, or with ``standard_deviation_level`` its one-sided
        upper confidence limit at that level, the table being a pilot of ``n_items`` items
        (:func:`pairedstats.core.power.standard_deviation_limit`).
    discordant_rate_planned : ndarray
        The discordant rate the plan used (rows of ``method="mcnemar"``; NaN in the rows of
        ``method="t"``):
        ``discordant_rate`` itself, or with ``standard_deviation_level`` its exact
        (Clopper-Pearson) one-sided upper confidence limit at that level
        (:func:`pairedstats.core.power.discordant_rate_limit`).
    method : ndarray of str
        ``"t"``: the paired t-test's noncentral t with ``standard_deviation``
        (:func:`pairedstats.items_for`); ``"mcnemar"``: McNemar's test for 0/1 scores with
        ``discordant_rate`` (the test of ``mcnemar_method``, in the metadata: by default
        the exact test's exact power; Connor 1987 for the asymptotic test;
        :func:`pairedstats.core.power_mcnemar.mcnemar_items_for`).
    n_items_needed : ndarray
        The items needed to detect ``target_difference`` with probability ``power`` at level
        ``alpha`` (a count; NaN where the table cannot say: see
        :class:`~pairedstats.methods.items_for.PlanningWarning`).
    detectable_difference : ndarray
        The smallest difference that the table's ``n_items`` detect with that power
        (negative for ``alternative="less"``; NaN where none can be).
    power, alpha : ndarray
        As planned (the same in every row).
    alternative : ndarray of str
        As planned.
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.

    Notes
    -----
    One column holds the plan's target, the others what the table shows: ``target_difference``
    (with ``power``, ``alpha`` and ``alternative``) repeats what was asked for, while
    ``n_items``, ``standard_deviation`` and ``discordant_rate`` are observed. Each row is
    planned by one of two methods, and the spread of the other is NaN there: a row of 0/1
    scores (``method="mcnemar"``) plans from ``discordant_rate_planned`` and has NaN in
    ``standard_deviation_planned``; any other row (``method="t"``) plans from
    ``standard_deviation_planned`` and has NaN in ``discordant_rate`` and
    ``discordant_rate_planned``.
    """

    n_items: np.ndarray
    target_difference: np.ndarray
    standard_deviation: np.ndarray
    discordant_rate: np.ndarray
    standard_deviation_planned: np.ndarray
    discordant_rate_planned: np.ndarray
    method: np.ndarray
    n_items_needed: np.ndarray
    detectable_difference: np.ndarray
    power: np.ndarray
    alpha: np.ndarray
    alternative: np.ndarray
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "n_items", "target_difference", "standard_deviation", "discordant_rate",
        "standard_deviation_planned", "discordant_rate_planned", "method", "n_items_needed",
        "detectable_difference", "power", "alpha", "alternative", "n_dropped",
    )  # fmt: skip
    count_columns: ClassVar[tuple[str, ...]] = ("n_items_needed",)
    summary_columns: ClassVar[tuple[str, ...]] = (
        "n_items", "standard_deviation", "discordant_rate", "standard_deviation_planned",
        "discordant_rate_planned", "n_items_needed", "detectable_difference",
    )  # fmt: skip
    title: ClassVar[str] = (
        "Items needed to detect the target difference b - a (the spread observed in the table)"
    )
    printed_metadata: ClassVar[tuple[str, ...]] = (
        "difference", "power", "alpha", "alternative", "mcnemar_method",
        "standard_deviation_level",
    )  # fmt: skip

    def significant(self, alpha: float | None = None):
        """No comparison: a plan tests nothing (all False, so tables mark no row).

        Returns
        -------
        pandas.DataFrame of bool
            :func:`~pairedstats.methods._shared.results.labelled_flags`.
        """
        return labelled_flags(self, np.zeros(np.shape(self.n_items), dtype=bool))

    def significance_note(self, alpha: float | None = None) -> str:
        """Nothing is marked: an empty note."""
        return ""
