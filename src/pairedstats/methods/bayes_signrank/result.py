"""The Bayesian signed-rank test's result: one row per group, one column per comparison
b - a (:class:`BayesSignrankResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._shared.results import ComparisonResult, check_alpha, labelled_flags

__all__ = ["BayesSignrankResult"]


@dataclass(frozen=True, kw_only=True)
class BayesSignrankResult(ComparisonResult):
    """Result of :func:`bayes_signrank` and :func:`bayes_signrank_design`.

    Every column below is a read-only array of shape ``(n_groups, n_comparisons)``. The
    answer is a posterior probability, not a test: read ``prob_a_better``,
    ``prob_equivalent`` and ``prob_b_better`` (they sum to 1). :meth:`significant` marks a
    comparison whose winner is probable enough to act on: ``prob_a_better`` or
    ``prob_b_better`` at least ``1 - alpha`` (0.95 by default, Benavoli et al.'s
    suggestion).

    Attributes
    ----------
    n_items : ndarray of int
        Items (data sets) of the comparison.
    prob_a_better, prob_equivalent, prob_b_better : ndarray
        The fractions of the posterior samples in which ``p_left`` (``b - a < -rope``),
        ``p_rope`` (inside ``[-rope, rope]``) or ``p_right`` (``b - a > rope``) is the
        largest of the three; a sample whose largest is shared counts ``1/k`` for each of
        its ``k`` tied ones.
    mean_a_better, mean_equivalent, mean_b_better : ndarray
        The posterior means of ``p_left``, ``p_rope`` and ``p_right``.
    n_dropped : ndarray of int
        Items removed from the group by ``missing="complete"``.
    posterior : ndarray, shape (n_groups, n_comparisons, n_samples, 3), or None
        The posterior samples of ``(p_left, p_rope, p_right)`` (kept with
        ``as_result=True``), for a plot of the simplex or of histograms.
    """

    n_items: np.ndarray
    prob_a_better: np.ndarray
    prob_equivalent: np.ndarray
    prob_b_better: np.ndarray
    mean_a_better: np.ndarray
    mean_equivalent: np.ndarray
    mean_b_better: np.ndarray
    n_dropped: np.ndarray
    posterior: np.ndarray | None = None

    _columns: ClassVar[tuple[str, ...]] = (
        "n_items", "prob_a_better", "prob_equivalent", "prob_b_better", "mean_a_better",
        "mean_equivalent", "mean_b_better", "n_dropped",
    )  # fmt: skip
    estimate: ClassVar[str] = "prob_b_better"
    summary_columns: ClassVar[tuple[str, ...]] = (
        "n_items", "prob_a_better", "prob_equivalent", "prob_b_better",
    )  # fmt: skip
    title: ClassVar[str] = "Bayesian signed-rank test of b - a (posterior probabilities)"
    printed_metadata: ClassVar[tuple[str, ...]] = (
        "rope", "prior_strength", "n_samples", "seed_entropy",
    )  # fmt: skip

    def significant(self, alpha: float | None = None):
        """Which comparisons have a probable winner: ``prob_a_better >= 1 - alpha`` or
        ``prob_b_better >= 1 - alpha`` (default ``alpha=0.05``), a table of booleans, one row
        per group, one column per comparison.

        Parameters
        ----------
        alpha : float, optional
            In (0, 1); default 0.05.

        Returns
        -------
        pandas.DataFrame of bool

        Examples
        --------
        >>> import numpy as np
        >>> from pairedstats import bayes_signrank
        >>> x = np.array([[0.5, 0.6], [0.4, 0.55], [0.7, 0.8], [0.6, 0.7], [0.5, 0.62]])
        >>> bayes_signrank(x, rope=0.01, rng=1).significant().to_numpy().tolist()
        [[True]]
        """
        check_alpha(alpha)
        level = 1.0 - (0.05 if alpha is None else float(alpha))
        winner = np.maximum(np.asarray(self.prob_a_better), np.asarray(self.prob_b_better))
        return labelled_flags(self, winner >= level)

    def significance_note(self, alpha: float | None = None) -> str:
        """The rule as a LaTeX table note: a winner with posterior probability at least
        ``1 - alpha``."""
        return f"$P(\\text{{a or b better}}) \\geq {1 - (0.05 if alpha is None else alpha):g}$"
