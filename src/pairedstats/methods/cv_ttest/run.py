"""The corrected resampled t-test's run: the per-fold differences b - a of every comparison
in every group, their corrected and uncorrected t-tests, the corrected interval and, with a
rope, the posterior probabilities of the Bayesian correlated t-test (:func:`run`)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from ...core.adjust import adjust_pvalues
from ...core.margins import margin_columns
from .._shared.runs import Outputs, comparison_labels
from .result import CvTtestResult
from .settings import Settings

__all__ = ["corrected_t", "run", "t_pvalues"]


def t_pvalues(t, df, alternative: str) -> np.ndarray:
    """P-values of Student t statistics ``t`` on ``df`` degrees of freedom: the upper tail
    for ``"greater"``, the lower for ``"less"``, twice the smaller one for ``"two-sided"``
    (at most 1); 1 where ``t`` is NaN (every difference zero).

    Examples
    --------
    >>> t_pvalues(np.array([2.0, np.nan]), np.array([9, 9]), "two-sided").round(6).tolist()
    [0.076553, 1.0]
    """
    t, df = np.asarray(t, dtype=np.float64), np.asarray(df, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        if alternative == "greater":
            p = stats.t.sf(t, df)
        elif alternative == "less":
            p = stats.t.cdf(t, df)
        else:  # the smaller tail: sf(|t|) is cdf(t) for a negative t (one call, not two)
            p = np.minimum(1.0, 2.0 * stats.t.sf(np.abs(t), df))
    return np.where(np.isnan(t), 1.0, p)


def corrected_t(d: np.ndarray, ratio: float) -> dict:
    """The statistics of the differences ``d`` (folds x comparisons): ``mean``, the
    corrected ``variance`` ``(1/n + ratio) s^2`` and the uncorrected ``s^2 / n``, with
    ``ratio = n_test / n_train`` and ``s^2`` the sample variance (ddof 1).

    Examples
    --------
    >>> out = corrected_t(np.array([[1.0], [2.0], [3.0], [4.0], [5.0]]), 0.25)
    >>> float(out["mean"][0]), float(out["variance"][0]), float(out["plain"][0])
    (3.0, 1.125, 0.5)
    """
    n = d.shape[0]
    mean = d.mean(axis=0)
    s2 = d.var(axis=0, ddof=1) if n > 1 else np.full(d.shape[1], np.nan)
    # a constant difference is a zero variance, not the rounding error of its mean
    tiny = (8 * np.finfo(np.float64).eps * np.abs(d).max(axis=0, initial=0.0)) ** 2
    s2 = np.where(s2 <= tiny, 0.0, s2)
    return {"mean": mean, "variance": (1.0 / n + ratio) * s2, "plain": s2 / n}


def _t(mean, variance):
    """``mean / sqrt(variance)``: +-inf for a zero variance and a non-zero mean, NaN for
    both zero."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return mean / np.sqrt(variance)


def _interval(mean, variance, df, level: float, alternative: str):
    tail = 1.0 - level if alternative != "two-sided" else (1.0 - level) / 2
    with np.errstate(invalid="ignore"):
        half = stats.t.ppf(1.0 - tail, df) * np.sqrt(variance)
    low, high = mean - half, mean + half
    if alternative == "greater":
        high = np.full_like(high, np.inf)
    elif alternative == "less":
        low = np.full_like(low, -np.inf)
    return low, high


def posterior(mean, variance, df, rope: float):
    """``(prob_a_better, prob_equivalent, prob_b_better)``: the Student t posterior of the
    mean difference (``df`` degrees of freedom, location ``mean``, scale
    ``sqrt(variance)``) below ``-rope``, within ``[-rope, rope]`` and above ``rope``; with a
    zero variance, a point mass at ``mean`` (as baycomp).

    Examples
    --------
    >>> pa, pe, pb = posterior(np.array([0.5]), np.array([0.25]), np.array([9.0]), 1.0)
    >>> round(float(pa[0] + pe[0] + pb[0]), 12), round(float(pb[0]), 4)
    (1.0, 0.1717)
    """
    mean, variance = np.asarray(mean, float), np.asarray(variance, float)
    point = variance == 0
    scale = np.where(point | np.isnan(variance), 1.0, np.sqrt(variance))
    with np.errstate(invalid="ignore"):
        pa = stats.t.cdf(-rope, df, mean, scale)
        pb = stats.t.sf(rope, df, mean, scale)
    pa = np.where(point, (mean < -rope).astype(float), pa)
    pb = np.where(point, (mean > rope).astype(float), pb)
    return pa, 1.0 - pa - pb, pb


def run(s: Settings) -> CvTtestResult:
    """Test every comparison (b - a) of every group on its per-fold differences."""
    design = s.design
    out = Outputs(design.n_groups, len(s.pairs))
    out.add("n_folds", np.int64, 0)
    for name in ("difference", "variance", "plain"):
        out.add(name, np.float64, np.nan)
    out.per_group("n_dropped", design.n_dropped(), np.int64)
    a = np.array([p[0] for p in s.pairs], dtype=np.intp)
    b = np.array([p[1] for p in s.pairs], dtype=np.intp)
    ratio = s.test_fraction / (1.0 - s.test_fraction)
    for g in range(design.n_groups):
        scores = design.scores[design.group(g), :, 0]
        if scores.shape[0] == 0:
            continue
        st = corrected_t(scores[:, b] - scores[:, a], ratio)
        out.set(g, n_folds=scores.shape[0], difference=st["mean"], variance=st["variance"],
                plain=st["plain"])  # fmt: skip
    arrays = out.arrays
    n, m = arrays["n_folds"], arrays.pop("difference")
    variance, plain = arrays.pop("variance"), arrays.pop("plain")
    df = np.where(n > 1, n - 1, 0).astype(np.int64)
    dff = np.where(df > 0, df, np.nan)
    arrays["difference"] = m
    if s.n_repeats is not None:
        arrays["n_repeats"] = np.repeat(s.n_repeats[:, None], len(s.pairs), axis=1)
    arrays["df"] = df
    arrays["t"] = _t(m, variance)
    arrays["pvalue"] = t_pvalues(arrays["t"], dff, s.alternative)
    arrays["ci_low"], arrays["ci_high"] = _interval(m, variance, dff, s.confidence_level,
                                                    s.alternative)  # fmt: skip
    arrays["t_uncorrected"] = _t(m, plain)
    arrays["pvalue_uncorrected"] = t_pvalues(arrays["t_uncorrected"], dff, s.alternative)
    if s.rope is not None:
        names = ("prob_a_better", "prob_equivalent", "prob_b_better")
        arrays.update(zip(names, posterior(m, variance, dff, s.rope), strict=True))
    if s.adjust is not None:
        arrays["pvalue_adjusted"] = adjust_pvalues(arrays["pvalue"], s.adjust)
    if s.margin is not None:
        p_above = t_pvalues(_t(m + s.margin, variance), dff, "greater")
        p_below = t_pvalues(_t(m - s.margin, variance), dff, "less")
        alpha = 1.0 - s.confidence_level
        arrays.update(margin_columns(p_above, p_below, s.alternative, alpha, s.adjust))
    return CvTtestResult(**comparison_labels(design, s.pairs), metadata=s.metadata(), **arrays)
