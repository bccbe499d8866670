"""The tie rule of every method: when two numbers computed from the scores are equal.

A test or an interval often turns on an equality: a permuted range that equals an observed
difference (Tukey HSD), two sizes ``|b - a|`` that share a rank or a difference that is zero
(signed-rank), a resample whose mean equals the estimate or 0 (bootstrap). Equal in exact
arithmetic, such numbers can come out an ulp apart in floating point, and a strict
comparison would then split them by the accident of rounding. Every method therefore reads
ties by one rule, written here once:

**The rule.** A number a method compares is built from differences of scores (``b - a``
for a comparison; for the Tukey HSD test, each score minus its item's smallest). Each such
difference is taken to be known to

    E = ERROR_ULPS * u * S            (ERROR_ULPS = 16)

``S`` the spread of the scores whose differences are taken (``max x - min x`` over the
comparison's two systems, or over the Tukey group: the largest difference between two of
them), ``u`` the unit roundoff of the scores as given (``2**-53`` for float64 and integers,
``2**-24`` for float32: :attr:`pairedstats.core.design.PairedDesign.precision`). Two numbers
are tied when they differ by no more than what ``E`` and the float64 arithmetic can move
them apart: two differences, or a difference and 0, within ``2 E`` (:func:`tie_error`); two
weighted means of differences (a replicate and the estimate) within ``2 E`` too; two
differences of sums of ``n`` differences within ``4 n (E + 2**-53 L)``
(:func:`pairedstats.core.tukey.tie_tolerance`), or exactly when the differences are on a
grid (:func:`pairedstats.core.tukey.quantize`).

**Why differences and not the scores.** Every one of these numbers is a function of the
differences, and so is ``S``. A constant added to every score that float64 holds exactly
(integers offset by ``2**50``, or integers up to ``2**53``) changes no difference and no
spread, so it changes no tie and no number; a bound that grows with the size of the scores
(``16 u max|x|``, the rule before) read integer differences at ``2**50`` as ties of 0
(every Tukey p-value 1, bootstrap intervals ``(0, 0)``). The floats given are the data: an
offset that float64 does not hold exactly (``0.1 k + 1e12``, stored to ``2**-13``) changes
the scores, and the p-values are those of the floats given (an exact enumeration of those
floats is the reference), not of the numbers meant.

**Why a relative error at all.** Scores are often decimals or products stored in binary:
``0.3 - 0.2`` is not ``0.2 - 0.1``, and ``0.1 * x`` of integer scores gives differences that
were equal and are now an ulp apart; float32 scores stand for decimals known to
``2**-24``. A score ``x`` carries a rounding of about ``u |x|``, and a difference of two
scores up to ``u (|a| + |b|)``: within ``2 E`` of its twin whenever the scores lie within
about ``7 S`` of 0 (scores in [0, 1], or in [-1, 1], always). Scores offset far from 0
compared with their spread by an amount float64 does not hold exactly (``1000 + x`` for
``x`` in [0, 1], times 0.1) keep the ties of the floats given only: subtract the offset
first, or give the scores on their grid (integers).

**Which methods.** The Tukey HSD test (:mod:`pairedstats.core.tukey`), the signed-rank
test (:mod:`pairedstats.core.signrank`), the bootstrap's ties with the estimate and with 0
(:mod:`pairedstats.core.intervals`, :mod:`pairedstats.core.inference`) and its win/tie/loss
counts and ``d_z`` (:mod:`pairedstats.core.effects`). The rank-sum test ranks the scores
themselves, not numbers computed from them: equal floats are its ties, and an exact offset
or any positive factor keeps them. A bootstrap ``statistic=`` (and the unpaired replicates
of a crossed design) subtracts two numbers each computed from one system's scores, whose
rounding follows their own size: ``S`` is then the larger magnitude of the two
(:func:`magnitude_tie_error`).

This module imports numpy only.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ERROR_ULPS",
    "difference_error",
    "magnitude_tie_error",
    "spread",
    "tie_error",
    "tied_values",
    "unit_scaled",
]

#: A difference of scores is taken to be known to this many units of roundoff of the scores
#: as given, relative to their spread.
ERROR_ULPS = 16


def spread(x) -> float:
    """``S = max x - min x`` of the finite scores ``x`` (0 when empty): the largest difference
    between two of them, which no offset that float64 holds exactly changes.

    Examples
    --------
    >>> x = np.array([[1.0, 4.0], [3.0, 2.0]])
    >>> spread(x), spread(x + 2.0**50), spread(x * 0.1)
    (3.0, 3.0, 0.30000000000000004)
    """
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return 0.0
    return float(x.max() - x.min())


def difference_error(x, precision: float = 2.0**-53) -> float:
    """``E = ERROR_ULPS * precision * S``: how well a difference of the scores ``x`` is known
    (``S`` their :func:`spread`).

    Parameters
    ----------
    x : array_like of float
        The scores whose differences a method takes (finite): a comparison's two systems,
        or a Tukey group.
    precision : float
        Unit roundoff of the scores as given (``2**-53`` for float64 and integers, ``2**-24``
        for float32; :func:`pairedstats.core.design.unit_roundoff`).

    Examples
    --------
    >>> difference_error(np.array([[0.5, -0.5]]), 2.0**-24) == 16 * 2.0**-24
    True

    An exact offset of the scores leaves their differences, and so the error, as they are:

    >>> x = np.array([[1.0, 3.0], [4.0, 5.0]])
    >>> difference_error(x) == difference_error(x + 2.0**50)
    True
    """
    return ERROR_ULPS * precision * spread(x)


def tie_error(x, precision: float = 2.0**-53) -> float:
    """``2 E`` (:func:`difference_error` of the scores ``x``): two numbers each within ``E``
    of its exact value (two differences, or two weighted means of differences with weights
    summing to one) are a tie when they are this close; so is a difference and 0.

    Examples
    --------
    >>> tie_error(np.array([[0.25, -0.5]]), 2.0**-24) == 2 * 16 * 2.0**-24 * 0.75
    True
    """
    return 2.0 * difference_error(x, precision)


def magnitude_tie_error(values, precision: float = 2.0**-53) -> float:
    """:func:`tie_error` of a difference of numbers each computed on its own (a statistic of
    one system's scores): their rounding follows their size, ``S = max|values|``.

    Examples
    --------
    >>> magnitude_tie_error(np.array([0.5, -2.0])) == 2 * 16 * 2.0**-53 * 2.0
    True
    """
    values = np.asarray(values, dtype=np.float64)
    return 2.0 * ERROR_ULPS * precision * float(np.abs(values).max(initial=0.0))


def tied_values(values, tie: float) -> np.ndarray:
    """``values`` with each run of ties replaced by its smallest value (for ranking).

    Sorted ascending, a value within ``tie`` of the one before it joins its run; every value
    of a run is then the run's first. Equal floats are always one run, so ``tie = 0`` gives
    the values back. Ranks of the result (midranks) are the ranks with ties read by the rule
    of this module.

    Examples
    --------
    >>> a, b = np.array([0.2, 0.0, 0.1]), np.array([0.3, 0.1, 0.2])
    >>> (b - a).tolist()
    [0.09999999999999998, 0.1, 0.1]
    >>> tied_values(b - a, tie_error(np.column_stack([a, b]))).tolist()
    [0.09999999999999998, 0.09999999999999998, 0.09999999999999998]
    >>> tied_values(np.array([2.0, 1.0, 2.0]), 0.0).tolist()
    [2.0, 1.0, 2.0]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2 or not tie > 0:
        return values.copy()
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.concatenate(([True], np.diff(ordered) > tie))
    firsts = ordered[starts][np.cumsum(starts) - 1]
    out = np.empty_like(values)
    out[order] = firsts
    return out


def unit_scaled(d: np.ndarray) -> tuple[np.ndarray, int]:
    """``d * 2**-e`` with ``max|d| * 2**-e`` in ``[0.5, 1)``, and ``e``.

    A power of two scales every float exactly (subnormal ones too, upwards), so decisions
    taken on the scaled differences are those on ``d`` at any scale, and a rule whose
    error bound would underflow for subnormal scores (``16 * 2**-53 * 1e-310`` is 0) works
    as for any other scale. ``e`` is 0 when every difference is 0.

    Examples
    --------
    >>> scaled, e = unit_scaled(np.array([3e-310, 1e-310]))
    >>> e, bool(scaled[0] * 2.0**e == 3e-310), bool(0.5 <= scaled.max() < 1)
    (-1028, True, True)
    """
    d = np.asarray(d, dtype=np.float64)
    largest = float(np.abs(d).max(initial=0.0))
    if largest == 0.0:
        return d.copy(), 0
    e = int(np.frexp(largest)[1])
    return np.ldexp(d, -e), e
