"""What the methods that take ``margin`` share: its check (:func:`check_margin`) and the
result columns of the margin's test (:class:`MarginColumns`), filled by
:func:`pairedstats.core.margins.margin_columns`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...core import checks

__all__ = ["MARGIN_COLUMNS", "MARGIN_PVALUES", "MarginColumns", "check_margin"]

#: The p-value columns of the margin's test.
MARGIN_PVALUES = (
    "pvalue_equivalence",
    "pvalue_equivalence_adjusted",
    "pvalue_noninferiority",
    "pvalue_noninferiority_adjusted",
)
#: Every column of the margin's test, in the order of the tables.
MARGIN_COLUMNS = ("equivalent", "noninferior", *MARGIN_PVALUES)


def check_margin(value) -> float | None:
    """``margin``: None, or a finite number above 0 (in the units of b - a).

    Examples
    --------
    >>> check_margin(None), check_margin(1)
    (None, 1.0)
    >>> check_margin(-0.01)
    Traceback (most recent call last):
    ...
    ValueError: `margin` must be finite and > 0; got -0.01.
    """
    return None if value is None else checks.nonnegative(value, "margin", zero=False)


@dataclass(frozen=True, kw_only=True)
class MarginColumns:
    """The columns of a test against ``margin`` (a mixin of the result classes), each of
    shape ``(n_groups, n_comparisons)`` or None.

    Attributes
    ----------
    equivalent : ndarray of bool or None
        With ``margin`` and a two-sided alternative: b - a is within ``(-margin, margin)``
        by two one-sided tests at ``alpha = 1 - confidence_level`` (the ``1 - 2 alpha``
        interval inside the margins; Schuirmann 1987), by ``pvalue_equivalence_adjusted``
        with ``adjust``.
    noninferior : ndarray of bool or None
        With ``margin`` and ``alternative="greater"``: b is not worse than a by ``margin``
        or more (``H0: b - a <= -margin`` rejected at ``alpha = 1 - confidence_level``);
        with ``"less"`` (lower is better), ``H0: b - a >= margin`` rejected.
    pvalue_equivalence, pvalue_noninferiority : ndarray or None
        The p-value of that null: the larger of the two one-sided p-values (equivalence),
        or the one-sided p-value at the margin (non-inferiority).
    pvalue_equivalence_adjusted, pvalue_noninferiority_adjusted : ndarray or None
        With ``adjust``, adjusted over the comparisons of each group.
    """

    equivalent: np.ndarray | None = None
    noninferior: np.ndarray | None = None
    pvalue_equivalence: np.ndarray | None = None
    pvalue_equivalence_adjusted: np.ndarray | None = None
    pvalue_noninferiority: np.ndarray | None = None
    pvalue_noninferiority_adjusted: np.ndarray | None = None

    margin_pvalues: ClassVar[tuple[str, ...]] = MARGIN_PVALUES
