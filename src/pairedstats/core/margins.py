"""Tests against a margin: non-inferiority and equivalence (two one-sided tests) of a
difference b - a, from the p-values of the two one-sided tests at the margin's ends.

A method that takes ``margin`` computes, for every comparison, the p-value of each one-sided
test at the shifted nulls (its own statistic: a t, a signed rank, a score, a bootstrap
interval): ``p_above`` of ``H0: b - a <= -margin`` against ``b - a > -margin`` and
``p_below`` of ``H0: b - a >= margin`` against ``b - a < margin``. :func:`margin_columns`
turns them into the decision columns:

- ``alternative="greater"``: non-inferiority of b, higher is better (``H0: b - a <=
  -margin``): ``pvalue_noninferiority = p_above``;
- ``alternative="less"``: non-inferiority of b, lower is better (``H0: b - a >= margin``):
  ``pvalue_noninferiority = p_below``;
- ``alternative="two-sided"``: equivalence, ``H0: |b - a| >= margin``, by Schuirmann's (1987)
  two one-sided tests: ``pvalue_equivalence = max(p_above, p_below)``. At level alpha this
  is the rule "the ``1 - 2 alpha`` interval lies inside ``(-margin, margin)``".

The decision (``noninferior``, ``equivalent``) is ``p < alpha``, by the adjusted p-values
(``pvalue_*_adjusted``, over the comparisons of a group) when an adjustment is asked.
"""

from __future__ import annotations

import numpy as np

from .adjust import adjust_pvalues

__all__ = ["margin_columns", "margin_names"]


def margin_names(alternative: str) -> tuple[str, str]:
    """``(decision, pvalue)``: the names of the decision and p-value columns for
    ``alternative``.

    Examples
    --------
    >>> margin_names("two-sided")
    ('equivalent', 'pvalue_equivalence')
    >>> margin_names("greater")
    ('noninferior', 'pvalue_noninferiority')
    """
    if alternative == "two-sided":
        return "equivalent", "pvalue_equivalence"
    return "noninferior", "pvalue_noninferiority"


def margin_columns(
    p_above, p_below, alternative: str, alpha: float, adjust: str | None = None
) -> dict[str, np.ndarray]:
    """The columns of the margin's test from its two one-sided p-values.

    Parameters
    ----------
    p_above, p_below : array_like, shape (..., k)
        P-values of ``H0: b - a <= -margin`` (against above) and of ``H0: b - a >= margin``
        (against below); the last axis is a group's comparisons. NaN is kept as NaN (an
        undefined test) and decides False.
    alternative : {"two-sided", "greater", "less"}
        Equivalence, non-inferiority of b (higher is better), non-inferiority of b (lower
        is better).
    alpha : float
        The level of the decision.
    adjust : {"holm", "bonferroni", "fdr_bh", "fdr_by"} or None
        Adjust the margin's p-values over the last axis
        (:func:`~pairedstats.core.adjust.adjust_pvalues`); the decision reads them.

    Returns
    -------
    dict
        ``{decision: bool array, pvalue: float array}`` named by :func:`margin_names`, and
        ``pvalue + "_adjusted"`` with ``adjust``.

    Examples
    --------
    >>> out = margin_columns([0.01, 0.2], [0.03, 0.001], "two-sided", 0.05)
    >>> out["pvalue_equivalence"].tolist(), out["equivalent"].tolist()
    ([0.03, 0.2], [True, False])
    >>> margin_columns([0.01, 0.2], [0.03, 0.001], "greater", 0.05)["noninferior"].tolist()
    [True, False]
    """
    p_above = np.asarray(p_above, dtype=np.float64)
    p_below = np.asarray(p_below, dtype=np.float64)
    if alternative == "greater":
        p = p_above
    elif alternative == "less":
        p = p_below
    else:
        p = np.fmax(p_above, p_below)
        p = np.where(np.isnan(p_above) | np.isnan(p_below), np.nan, p)
    decision, name = margin_names(alternative)
    out = {name: p.copy()}
    decide = p
    if adjust is not None:
        decide = out[name + "_adjusted"] = adjust_pvalues(p, adjust)
    with np.errstate(invalid="ignore"):
        out[decision] = np.asarray(decide < alpha)
    return out
