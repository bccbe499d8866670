"""The tie rule of every method: when two numbers computed from the scores are equal.

A test or an interval often turns on an equality: a permuted range that equals an observed
difference (Tukey HSD), two sizes ``|b - a|`` that share a rank or a difference that is zero
(signed-rank), two scores of one data set that share a rank (Friedman) or of two samples
(rank-sum), a resample whose mean equals the estimate or 0 (bootstrap), a resampled
statistic that equals the observed one (the best set). Equal in exact arithmetic, such
numbers can come out an ulp apart in floating point, and a strict comparison would then split
them by the accident of rounding. Every method therefore reads ties by one rule, written here
once:

**The rule.** Each score ``x`` is known to its own rounding, ``e(x) = ERROR_ULPS * u * |x|``
(``ERROR_ULPS = 2``; ``u`` the unit roundoff of the scores' dtype: ``2**-53`` for float64 and
integers, ``2**-24`` for float32, ``2**-11`` for float16:
:attr:`pairedstats.core.design.PairedDesign.precision`); a difference ``b - a`` carries
``e(a) + e(b)``. Two numbers are tied when they differ by no more than the errors they carry
added: a difference and 0 within ``e(a) + e(b)``, two differences within the sum of their
errors, two scores ``x`` and ``y`` within ``e(x) + e(y)``; two means of differences (a
replicate and the estimate) within twice the largest error of a difference
(:func:`tie_error`); a difference against a margin, ``b - a + m``, carries ``e(a) + e(b) +
e(m)`` (:func:`shifted_difference_errors`). **Integers are exact**: scores that are all
integers the dtype holds exactly (``|x| <= 1 / u``, so up to ``2**53`` for float64, at any
offset) carry no error: their ties are equal values (:func:`is_exact`).

**Why the size of each value.** The rounding of a float is relative to its own size, not to
the spread of the table: the means of fold accuracies ``0.9533333333333335`` and
``0.9533333333333334`` (both 143/150) are an ulp apart whatever else the table holds, and
float16 scores ``0.51`` and ``0.52`` are twenty of their ulps apart however wide the table
is. A rule relative to the spread (``max x - min x``) reads the first pair as different in a
data set of close scores, and the second as a tie in a table that spans [0, 1]. Relative to
each value, an affine map ``s x + c`` of scores on a grid (``s`` 0.1, 0.001, 7.25; ``c`` 0 to
``1e4``) keeps every tie: the rounding it adds to each score is within that score's error.

**Why integers are exact.** Integers (counts, ratings, pass/fail) are stored without
rounding and their differences and sums are computed exactly: reading them with a tolerance
relative to their size would tie integers offset by ``2**50`` (each then carries half a unit)
that differ by one. Binary fractions (``k / 4``) are read by the rule like any other score,
which keeps their ties while their step exceeds the error of their size (quarters below
``2**48``); a binary grid is no proof of exact data (decimals that passed through float32,
or through an offset, lie on one too). The scores of a comparison (its two systems), of a
Tukey group, or of a data set (Friedman) are exact or not together.

**Which methods.** The Tukey HSD test (:mod:`pairedstats.core.tukey`), the signed-rank
test (:mod:`pairedstats.core.signrank`), the rank-sum test's pooled ranks, Friedman's ranks
within a data set, the bootstrap's ties with the estimate and with 0
(:mod:`pairedstats.core.intervals`, :mod:`pairedstats.core.inference`), its win/tie/loss
counts and ``d_z`` (:mod:`pairedstats.core.effects`), and the best set's resampled statistics
(:mod:`pairedstats.core.mcs`). A bootstrap ``statistic=`` (and the unpaired replicates of a
crossed design) subtracts two numbers each computed from one system's scores, whose rounding
follows their own size (:func:`magnitude_tie_error`).

This module imports numpy only.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ERROR_ULPS",
    "difference_error",
    "difference_errors",
    "exact_columns",
    "exact_scores",
    "is_exact",
    "magnitude_difference_error",
    "magnitude_tie_error",
    "pair_difference_errors",
    "row_score_errors",
    "score_errors",
    "shifted_difference_errors",
    "tie_error",
    "tied_samples",
    "tied_values",
    "unit_scaled",
    "whole_rows",
]

#: A score is taken to be known to this many units of roundoff of its dtype, relative to its
#: own size (a value produced by a few operations: a mean of fold accuracies, a decimal).
ERROR_ULPS = 2


def whole_rows(x) -> np.ndarray:
    """Per row of ``x`` (its last axis), whether every finite value is a whole number.

    Examples
    --------
    >>> whole_rows(np.array([[3.0, -2.0], [3.0, 0.5], [2.0**52 + 1, np.nan]])).tolist()
    [True, False, True]
    """
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return ((x == np.rint(x)) | ~np.isfinite(x)).all(axis=-1)


def exact_scores(largest, whole, precision: float = 2.0**-53) -> np.ndarray:
    """:func:`is_exact` from the scores' largest magnitude and :func:`whole_rows`
    (elementwise, for many sets of scores at once)."""
    largest = np.asarray(largest, dtype=np.float64)
    return np.asarray(whole, dtype=bool) & (largest * precision <= 1.0)


def is_exact(x, precision: float = 2.0**-53) -> bool:
    """Whether the scores ``x`` are exact: integers their dtype holds exactly (``|x| <= 1 /
    precision``: ``2**53`` for float64, ``2**24`` for float32).

    Exact scores carry no rounding: their differences, and sums of them, are computed
    exactly, and their ties are equal values. Other binary fractions (``k / 4``) are read
    by the error of their size, which keeps their ties while their step exceeds it (below
    ``2**48`` for quarters in float64).

    Examples
    --------
    >>> is_exact(np.array([3.0, 1.0, 4.0]) + 2.0**50), is_exact(np.array([0.25, 1.75]))
    (True, False)
    >>> is_exact(np.array([0.1, 0.3])), is_exact(np.array([1.0, 2.0]), 2.0**-11)
    (False, True)
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    largest = np.abs(x[np.isfinite(x)]).max(initial=0.0)
    return bool(exact_scores(largest, whole_rows(x), precision))


def score_errors(x, precision: float = 2.0**-53) -> np.ndarray:
    """Each score's error ``ERROR_ULPS * precision * |x|``, 0 for exact scores
    (:func:`is_exact`, of ``x`` as a whole).

    Examples
    --------
    >>> (score_errors(np.array([3.0, -1.0])) / 2.0**-53).tolist()
    [0.0, 0.0]
    >>> (score_errors(np.array([0.5, -0.25])) / 2.0**-53).tolist()
    [1.0, 0.5]
    >>> (score_errors(np.array([0.1, -0.3])) / 2.0**-53).tolist()
    [0.2, 0.6]
    """
    x = np.asarray(x, dtype=np.float64)
    if is_exact(x, precision):
        return np.zeros(x.shape)
    return ERROR_ULPS * precision * np.abs(x)


def row_score_errors(x, precision: float = 2.0**-53) -> np.ndarray:
    """:func:`score_errors` of each row of ``x`` (n, k) on its own (a data set's scores).

    Examples
    --------
    >>> (row_score_errors(np.array([[1.0, 3.0], [0.1, 0.3]])) / 2.0**-53).tolist()
    [[0.0, 0.0], [0.2, 0.6]]
    """
    x = np.asarray(x, dtype=np.float64)
    largest = np.abs(np.where(np.isfinite(x), x, 0.0)).max(axis=-1, initial=0.0)
    exact = exact_scores(largest, whole_rows(x), precision)
    return np.where(exact[..., None], 0.0, ERROR_ULPS * precision * np.abs(x))


def difference_errors(a, b, precision: float = 2.0**-53) -> np.ndarray:
    """The error of each difference ``b - a``: ``e(a) + e(b)``, 0 when the scores of both
    are exact (:func:`is_exact` of ``a`` and ``b`` together).

    Examples
    --------
    >>> a, b = np.array([0.2, 0.0]), np.array([0.3, 0.1])
    >>> (difference_errors(a, b) / 2.0**-53).round(6).tolist()
    [1.0, 0.2]
    >>> difference_errors(np.array([1.0, 2.0]), np.array([3.0, 2.0]) + 2.0**50).tolist()
    [0.0, 0.0]
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if is_exact(np.concatenate([a.ravel(), b.ravel()]), precision):
        return np.zeros(np.broadcast_shapes(a.shape, b.shape))
    return ERROR_ULPS * precision * (np.abs(a) + np.abs(b))


def shifted_difference_errors(a, b, shift: float, precision: float = 2.0**-53) -> np.ndarray:
    """The error of each shifted difference ``b - a + shift`` (a difference against a margin):
    :func:`difference_errors` of the scores plus the shift's own :func:`score_errors` (0 for
    a whole ``shift``), the shift read at the scores' ``precision``.

    Equal in exact arithmetic, ``b - a`` and ``-shift`` give a zero: scores 0.8 and 0.7
    shifted by 0.1 are ``8.3e-17`` in floating point, within their errors.

    Examples
    --------
    >>> a, b = np.array([0.8, 0.5]), np.array([0.7, 0.5])
    >>> d = b - a + 0.1
    >>> (np.abs(d) <= shifted_difference_errors(a, b, 0.1)).tolist()
    [True, False]
    >>> shifted_difference_errors(np.array([1.0]), np.array([3.0]), 2.0).tolist()
    [0.0]
    """
    return difference_errors(a, b, precision) + score_errors(np.float64(shift), precision)


def exact_columns(x, precision: float = 2.0**-53) -> np.ndarray:
    """:func:`is_exact` of each column of ``x`` (n, k): one system's scores.

    Examples
    --------
    >>> exact_columns(np.array([[1.0, 0.5], [2.0**52, 3.0]])).tolist()
    [True, False]
    """
    size = np.abs(np.asarray(x, dtype=np.float64))
    largest = np.where(np.isfinite(size), size, 0.0).max(axis=0, initial=0.0)
    return exact_scores(largest, whole_rows(np.asarray(x, dtype=np.float64).T), precision)


def pair_difference_errors(x, a, b, precision: float = 2.0**-53, exact=None) -> np.ndarray:
    """:func:`difference_errors` of many pairs of columns of ``x`` (n, k) at once: column
    ``i`` of the result is the error of ``x[:, b[i]] - x[:, a[i]]``, 0 when the two columns
    are exact together (``exact``: :func:`exact_columns` of ``x``, found once for all its
    pairs when given).

    Examples
    --------
    >>> x = np.array([[0.2, 0.3, 1.0], [0.0, 0.1, 2.0]])
    >>> (pair_difference_errors(x, [0, 2], [1, 0]) / 2.0**-53).round(6).tolist()
    [[1.0, 2.4], [0.2, 4.0]]
    >>> pair_difference_errors(np.array([[1.0, 3.0], [4.0, 5.0]]) + 2.0**50, [0], [1]).tolist()
    [[0.0], [0.0]]
    """
    x = np.asarray(x, dtype=np.float64)
    a, b = np.asarray(a, dtype=np.intp), np.asarray(b, dtype=np.intp)
    exact = exact_columns(x, precision) if exact is None else np.asarray(exact, dtype=bool)
    size = np.abs(x)
    errors = ERROR_ULPS * precision * (size[:, a] + size[:, b])
    return np.where(exact[a] & exact[b], 0.0, errors)


def difference_error(x, precision: float = 2.0**-53) -> float:
    """A bound on the error of any difference of two of the scores ``x``:
    ``2 * ERROR_ULPS * precision * max|x|``, 0 when they are exact (:func:`is_exact`).

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
    >>> difference_error(np.array([[0.5, -0.7]]), 2.0**-24) == 4 * 2.0**-24 * 0.7
    True

    Integers are exact, at any offset float64 holds:

    >>> difference_error(np.array([[1.0, 3.0], [4.0, 5.0]]) + 2.0**50)
    0.0
    """
    x = np.asarray(x, dtype=np.float64)
    if is_exact(x, precision):
        return 0.0
    return magnitude_difference_error(float(np.abs(x).max(initial=0.0)), False, precision)


def magnitude_difference_error(largest: float, whole: bool,
                               precision: float = 2.0**-53) -> float:  # fmt: skip
    """:func:`difference_error` of scores whose largest magnitude is ``largest`` and which
    are all integers when ``whole`` (what sums of the scores keep of them).

    Examples
    --------
    >>> x = np.array([[0.5, -0.7]])
    >>> magnitude_difference_error(0.7, False, 2.0**-24) == difference_error(x, 2.0**-24)
    True
    >>> magnitude_difference_error(2.0**50, True)
    0.0
    """
    if bool(exact_scores(largest, whole, precision)):
        return 0.0
    return 2.0 * ERROR_ULPS * precision * float(largest)


def tie_error(x, precision: float = 2.0**-53) -> float:
    """``2 E`` (:func:`difference_error` of the scores ``x``): two numbers each within ``E``
    of its exact value (two weighted means of differences with weights summing to one, such
    as a bootstrap replicate and the estimate) are a tie when they are this close.

    Examples
    --------
    >>> tie_error(np.array([[0.2, -0.7]]), 2.0**-24) == 2 * 4 * 2.0**-24 * 0.7
    True
    """
    return 2.0 * difference_error(x, precision)


def magnitude_tie_error(values, precision: float = 2.0**-53) -> float:
    """:func:`tie_error` of a difference of numbers each computed on its own (a statistic of
    one system's scores): their rounding follows their size, ``2 ERROR_ULPS u max|values|``
    each.

    Examples
    --------
    >>> magnitude_tie_error(np.array([0.5, -2.0])) == 2 * 4 * 2.0**-53 * 2.0
    True
    """
    values = np.asarray(values, dtype=np.float64)
    return 2.0 * 2.0 * ERROR_ULPS * precision * float(np.abs(values).max(initial=0.0))


def tied_values(values, errors) -> np.ndarray:
    """``values`` with each run of ties replaced by its smallest value (for ranking).

    ``errors`` is each value's error (one number for all, or one per value): sorted
    ascending, a value within its error plus its predecessor's of the one before it joins its
    run; every value of a run is then the run's first. Equal floats are always one run, so
    ``errors = 0`` gives the values back. Ranks of the result (midranks) are the ranks with
    ties read by the rule of this module.

    Examples
    --------
    >>> a, b = np.array([0.2, 0.0, 0.1]), np.array([0.3, 0.1, 0.2])
    >>> (b - a).tolist()
    [0.09999999999999998, 0.1, 0.1]
    >>> tied_values(b - a, difference_errors(a, b)).tolist()
    [0.09999999999999998, 0.09999999999999998, 0.09999999999999998]
    >>> tied_values(np.array([2.0, 1.0, 2.0]), 0.0).tolist()
    [2.0, 1.0, 2.0]
    """
    values = np.asarray(values, dtype=np.float64)
    errors = np.broadcast_to(np.asarray(errors, dtype=np.float64), values.shape)
    if values.size < 2 or not np.any(errors > 0):
        return values.copy()
    order = np.argsort(values, kind="stable")
    ordered, e = values[order], errors[order]
    starts = np.concatenate(([True], np.diff(ordered) > e[1:] + e[:-1]))
    firsts = ordered[starts][np.cumsum(starts) - 1]
    out = np.empty_like(values)
    out[order] = firsts
    return out


def tied_samples(a, b, precision: float = 2.0**-53) -> tuple[np.ndarray, np.ndarray]:
    """Two samples with each run of tied scores (pooled, :func:`tied_values` with their
    :func:`score_errors`) replaced by its smallest value, so that a test that ranks them by
    equality (the rank-sum test) reads ties by the rule of this module; exact scores come
    back as they are.

    Examples
    --------
    >>> a, b = np.array([0.1 + 0.2, 0.5]), np.array([0.3, 0.2])
    >>> [x.tolist() for x in tied_samples(a, b)]
    [[0.3, 0.5], [0.3, 0.2]]
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    pooled = np.concatenate([a, b])
    tied = tied_values(pooled, score_errors(pooled, precision))
    return tied[: a.size], tied[a.size :]


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
