"""The signed-rank test of paired differences against a margin: the two one-sided p-values
at the margin's ends (:func:`signrank_margin_pvalues`), which
:func:`pairedstats.core.margins.margin_columns` turns into non-inferiority and equivalence.

For a margin ``m > 0`` and the differences ``d = b - a``:

* ``p_above``, of ``H0: b - a <= -m`` against ``b - a > -m``, is the signed-rank test of
  ``d + m`` with the alternative ``"greater"``: R's ``wilcox.test(b, a, paired = TRUE, mu =
  -m, alternative = "greater")``;
* ``p_below``, of ``H0: b - a >= m`` against ``b - a < m``, is that of ``d - m`` with
  ``"less"``: ``mu = m``.

Each is the test of :func:`pairedstats.core.signrank.signrank_1d` on the shifted differences,
by its rules read on them: zeros are dropped after shifting (R's rule), ``method="auto"`` is
exact with fewer than 50 non-zero shifted differences and neither ties nor zeros among them,
``method="exact"`` is exact given the tied midranks, and the continuity correction is half a
unit toward the one-sided null. At the null's boundary (the differences symmetric about
``-m``, or about ``m``) each is the signed-rank test of the differences minus the null's
centre (Wilcoxon 1945; Hollander, Wolfe and Chicken 2014, section 3.1), of level alpha; the
equivalence test takes the larger of the two (Schuirmann 1987).

Zeros and ties of the shifted differences follow the package's tie rule
(:mod:`pairedstats.core.ties`): ``b - a + m`` carries the errors of ``a``, ``b`` and ``m``
(:func:`pairedstats.core.ties.shifted_difference_errors`), so a difference equal to ``-m`` in
exact arithmetic is a zero. R shifts in floating point and compares by exact equality: for
scores 0.8 and 0.7 and ``m = 0.1`` it finds ``d + m = -8.3e-17``, a non-zero difference with
the smallest rank, where this module drops a zero.

This module imports numpy and scipy only.
"""

from __future__ import annotations

import numpy as np

from .signrank import signrank_pvalue
from .ties import shifted_difference_errors

__all__ = ["signrank_margin_pvalues"]


def signrank_margin_pvalues(
    a: np.ndarray,
    b: np.ndarray,
    margin: float,
    *,
    precision: float,
    method: str,
    correction: bool,
) -> tuple[float, float]:
    """``(p_above, p_below)``: the signed-rank tests of ``b - a + margin`` (alternative
    ``"greater"``) and of ``b - a - margin`` (``"less"``).

    Parameters
    ----------
    a, b : ndarray of float64
        The two systems' scores, one per item (finite).
    margin : float
        The margin ``m > 0``, in the units of ``b - a``.
    precision : float
        Unit roundoff of the scores as given (the tie rule's; ``2**-53`` for float64).
    method : {"auto", "exact", "asymptotic"}
        As in :func:`pairedstats.core.signrank.signrank_1d`, decided on the shifted
        differences.
    correction : bool
        The continuity correction of the normal p-values.

    Returns
    -------
    tuple of float
        The p-values of ``H0: b - a <= -margin`` and of ``H0: b - a >= margin``.

    Examples
    --------
    Five differences of 0.5 to 1.5 are all above ``-0.25``: the exact one-sided p-value is
    ``2**-5``; below ``0.25`` none of them is:

    >>> a = np.zeros(5)
    >>> b = np.array([0.5, 1.0, 0.75, 1.5, 1.25])
    >>> signrank_margin_pvalues(a, b, 0.25, precision=2.0**-53, method="auto",
    ...                         correction=True)
    (0.03125, 1.0)

    Scores 0.8 and 0.7 are a difference of exactly -0.1: shifted by 0.1 it is a zero, dropped,
    and the test is the normal one of the four others (R's rule with zeros); R keeps
    ``-8.3e-17`` as a fifth difference and reports the exact ``2 / 32``:

    >>> a = np.array([0.8, 0.1, 0.2, 0.3, 0.4])
    >>> b = np.array([0.7, 0.6, 1.2, 0.9, 1.5])
    >>> p_above, _ = signrank_margin_pvalues(a, b, 0.1, precision=2.0**-53, method="auto",
    ...                                      correction=True)
    >>> round(p_above, 4)
    0.0502
    """
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    error = shifted_difference_errors(a, b, margin, precision)
    test = dict(method=method, correction=correction, error=error)
    p_above, _ = signrank_pvalue(d + margin, alternative="greater", **test)
    p_below, _ = signrank_pvalue(d - margin, alternative="less", **test)
    return p_above, p_below
