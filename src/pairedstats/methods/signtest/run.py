"""The sign test's run: the signs of b - a of every comparison in every group, their exact
binomial test and the Clopper-Pearson interval of the win rate (:func:`run`)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from ...core.adjust import adjust_pvalues
from ...core.ties import exact_columns, pair_difference_errors
from .._shared.runs import Outputs, comparison_labels
from .result import SigntestResult
from .settings import Settings

__all__ = ["BLOCK", "binomial_pvalues", "clopper_pearson", "run", "signs"]


#: Comparisons counted at once (bounds the memory of the differences: items x this).
BLOCK = 64


def signs(x: np.ndarray, pairs, precision: float) -> tuple[np.ndarray, np.ndarray]:
    """``(wins, losses)`` of ``b - a`` for each pair ``(a, b)`` of columns of ``x`` (items x
    systems); a difference within the rounding error of its two scores is a zero, neither
    (:func:`pairedstats.core.ties.pair_difference_errors`), counted in blocks of pairs.

    Examples
    --------
    >>> x = np.array([[0.1, 0.1 + 2e-17, 0.0], [0.2, 0.5, 0.0], [0.3, 0.0, 0.3]])
    >>> wins, losses = signs(x, [(0, 1), (0, 2)], 2.0**-53)
    >>> wins.tolist(), losses.tolist()
    ([1, 0], [1, 2])
    """
    a, b = (np.array([p[i] for p in pairs], dtype=np.intp) for i in (0, 1))
    wins, losses = np.zeros(len(a), np.int64), np.zeros(len(a), np.int64)
    exact = exact_columns(x, precision)
    for start in range(0, len(a), BLOCK):
        block = slice(start, start + BLOCK)
        d = x[:, b[block]] - x[:, a[block]]
        if (exact[a[block]] & exact[b[block]]).all():  # integers: a zero is 0
            nonzero = d != 0
        else:
            errors = pair_difference_errors(x, a[block], b[block], precision, exact)
            nonzero = np.abs(d) > errors
        wins[block] = np.count_nonzero(nonzero & (d > 0), axis=0)
        losses[block] = np.count_nonzero(nonzero & (d < 0), axis=0)
    return wins, losses


def binomial_pvalues(wins, n, alternative: str) -> np.ndarray:
    """The exact p-values of ``wins`` successes in ``n`` trials with probability 1/2, as
    scipy's ``binomtest``: ``"greater"`` the upper tail, ``"less"`` the lower one,
    ``"two-sided"`` twice the smaller tail (the null is symmetric), at most 1; 1 when
    ``n == 0``.

    Examples
    --------
    >>> binomial_pvalues(np.array([9, 0]), np.array([10, 0]), "two-sided").round(6).tolist()
    [0.021484, 1.0]
    """
    wins, n = np.asarray(wins), np.asarray(n)
    upper = stats.binom.sf(wins - 1, n, 0.5)
    lower = stats.binom.cdf(wins, n, 0.5)
    p = {"greater": upper, "less": lower}.get(alternative)
    if p is None:
        p = np.minimum(1.0, 2.0 * np.minimum(upper, lower))
    return np.where(n > 0, p, 1.0)


def clopper_pearson(wins, n, confidence_level: float, alternative: str):
    """The Clopper-Pearson interval of a binomial proportion (``wins`` of ``n``), as scipy's
    ``binomtest(...).proportion_ci(confidence_level, method="exact")``: quantiles of the
    beta distribution, one-sided for a one-sided ``alternative``; ``[0, 1]`` when
    ``n == 0``.

    Examples
    --------
    >>> low, high = clopper_pearson(np.array([9]), np.array([10]), 0.95, "two-sided")
    >>> round(float(low[0]), 6), round(float(high[0]), 6)
    (0.554984, 0.997471)
    """
    wins, n = np.asarray(wins, dtype=np.float64), np.asarray(n, dtype=np.float64)
    tail = 1.0 - confidence_level if alternative != "two-sided" else (1.0 - confidence_level) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(wins > 0, stats.beta.ppf(tail, wins, n - wins + 1), 0.0)
        high = np.where(wins < n, stats.beta.ppf(1.0 - tail, wins + 1, n - wins), 1.0)
    if alternative == "greater":
        high = np.ones_like(high)
    elif alternative == "less":
        low = np.zeros_like(low)
    return low, high


def run(s: Settings) -> SigntestResult:
    """Count the signs of every comparison (b - a) of every group, then test them all at
    once."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    for name in ("n_items", "n_zeros", "wins", "losses"):
        out.add(name, np.int64, 0)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    for g in range(design.n_groups):
        scores = design.scores[design.group(g), :, 0]
        wins, losses = signs(scores, s.pairs, design.precision)
        zeros = scores.shape[0] - wins - losses
        out.set(g, n_items=scores.shape[0], n_zeros=zeros, wins=wins, losses=losses)
    n = out["wins"] + out["losses"]
    with np.errstate(invalid="ignore", divide="ignore"):
        out.arrays["win_rate"] = np.where(n > 0, out["wins"] / np.maximum(n, 1), np.nan)
    low, high = clopper_pearson(out["wins"], n, s.confidence_level, s.alternative)
    out.arrays.update(ci_low=low, ci_high=high)
    out.arrays["pvalue"] = binomial_pvalues(out["wins"], n, s.alternative)
    if s.adjust is not None:
        out.arrays["pvalue_adjusted"] = adjust_pvalues(out["pvalue"], s.adjust)
    return SigntestResult(**comparison_labels(design, s.pairs), metadata=s.metadata(),
                          **out.arrays)  # fmt: skip
