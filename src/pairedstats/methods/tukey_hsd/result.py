"""The result of the randomized Tukey HSD test and the checkpoints a monitor is shown.

Made by :mod:`pairedstats.methods.tukey_hsd.run` (:func:`pairedstats.tukey_hsd` and its run).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...core.montecarlo import MonteCarloPValue
from .._shared.results import ComparisonResult, PValueRule

__all__ = ["Checkpoint", "TukeyHSDResult"]


@dataclass(frozen=True, kw_only=True)
class TukeyHSDResult(PValueRule, ComparisonResult):
    """Result of the randomized Tukey HSD test.

    Every array has shape ``(n_groups, n_comparisons)``, read-only. A comparison is
    significant when ``pvalue < alpha`` (:meth:`significant`; default ``alpha = 0.05``).
    Without a baseline the comparisons are all pairs and the trials' statistic is the range
    of the system means; with ``baseline=X`` they are the pairs ``(X, b)`` and the statistic
    is the largest ``|mean_j - mean_X|`` (``metadata["baseline"]``).

    Attributes
    ----------
    mean_a, mean_b : ndarray
        Mean score of each side over the items.
    difference : ndarray
        The mean of the per-item differences ``b - a`` (``mean_b - mean_a`` in exact
        arithmetic; the bootstrap's bits). The p-value uses ``|difference|``.
    pvalue : ndarray
        Fraction of trials (or, exactly, of all within-item arrangements) whose statistic
        (range of the system means, or largest distance from the baseline's mean) is at
        least ``|difference|``. No +1: a 0 out of ``B`` trials means only that the exact
        p-value is likely below about ``3 / B`` (``pvalue_high``).
    pvalue_low, pvalue_high : ndarray
        95% highest-density interval of the exact p-value given the trials (uniform Beta
        prior, :meth:`MonteCarloPValue.hdi`); both equal ``pvalue`` when it is exact.
    n_resamples : ndarray of int
        Trials drawn (0 for an exact p-value).
    exceeding : ndarray of float
        Trials whose statistic reached ``|difference|`` (NaN for an exact p-value): a count,
        a float only to hold NaN; displays show it as an integer.
    n_items : ndarray of int
        Items (blocks) in the group.
    pvalue_method : ndarray of str
        ``"exact"`` or ``"monte-carlo"``.
    tie_quantum : ndarray of float
        The grid step of the group's scores when ties are counted in exact integer sums
        (e.g. 0.05, in the units of the scores; 0 when every item's scores are all equal);
        NaN when the scores are on no grid and a tolerance is used instead.
    n_dropped : ndarray of int
        Items of the group dropped by ``missing="complete"``.
    """

    mean_a: np.ndarray
    mean_b: np.ndarray
    difference: np.ndarray
    pvalue: np.ndarray
    pvalue_low: np.ndarray
    pvalue_high: np.ndarray
    n_resamples: np.ndarray
    exceeding: np.ndarray
    n_items: np.ndarray
    pvalue_method: np.ndarray
    tie_quantum: np.ndarray
    n_dropped: np.ndarray

    _columns: ClassVar[tuple[str, ...]] = (
        "mean_a",
        "mean_b",
        "difference",
        "pvalue",
        "pvalue_low",
        "pvalue_high",
        "n_resamples",
        "exceeding",
        "n_items",
        "pvalue_method",
        "tie_quantum",
        "n_dropped",
    )
    estimate: ClassVar[str] = "difference"
    trials_column: ClassVar[str] = "n_resamples"
    count_columns: ClassVar[tuple[str, ...]] = ("exceeding",)
    pvalue_columns: ClassVar[tuple[str, ...]] = ("pvalue", "pvalue_low", "pvalue_high")
    summary_columns: ClassVar[tuple[str, ...]] = ("mean_a", "mean_b", "difference", "pvalue")
    title: ClassVar[str] = "Randomized Tukey HSD"

    @property
    def printed_metadata(self) -> tuple[str, ...]:
        """The trials and the seed, printed only when a p-value was drawn (a row computed
        by Monte Carlo); exact p-values draw nothing. (With ``method="auto"`` the metadata
        keeps both, so that the exact and the Monte Carlo chunks of a sweep share them.)"""
        drawn = bool(np.any(np.asarray(self.n_resamples) > 0))
        return ("n_resamples", "seed_entropy") if drawn else ()

    def monte_carlo_pvalues(self) -> tuple[MonteCarloPValue | None, ...]:
        """One :class:`MonteCarloPValue` per row of :meth:`to_dataframe` (None if exact)."""
        out = []
        for count, trials in zip(
            self.exceeding.ravel().tolist(), self.n_resamples.ravel().tolist(), strict=True
        ):
            out.append(None if math.isnan(count) else MonteCarloPValue(int(count), trials))
        return tuple(out)


@dataclass(frozen=True)
class Checkpoint:
    """What a monitor is shown: a copy of the state of a run.

    Attributes
    ----------
    trials : int
        Trials done so far.
    planned : int
        Trials the run will do in all.
    pvalues : tuple
        One :class:`MonteCarloPValue` per row of the result (group-major, pairs in order);
        None for the rows of groups computed exactly.
    done : bool
        Whether this is the last checkpoint.
    """

    trials: int
    planned: int
    pvalues: tuple
    done: bool
