"""Array core of the randomized Tukey HSD test (Carterette 2012; Sakai 2018).

Scores are an ``(n_items, k)`` array: one score of each of ``k`` systems on every item.
A *trial* shuffles the scores across systems independently within every item and records a
statistic of the system sums: the **range** (largest minus smallest; all pairs are the
family) or, against a baseline system ``base``, the **many-vs-one** statistic
``max_j |sum_j - sum_base|`` (the pairs ``(base, j)`` are the family: the randomization
analogue of Dunnett's test). A pair's p-value is the fraction of trials whose statistic
reaches the pair's observed ``|sum_b - sum_a|`` (the same as comparing means, all systems
having ``n_items`` scores); no +1 is added. Both statistics are read from the same trials.

Ties are read by the rule of :mod:`pairedstats.core.ties`, in exact arithmetic where
possible. Each item is shifted so that its smallest score is 0 (this changes neither the
observed differences nor any range); a difference ``d`` is then known to ``error = 2 *
ERROR_ULPS * u * max|x|`` (``u`` the unit roundoff of the scores as given: ``2**-53`` for
float64, ``2**-24`` for float32; ``max|x|`` the group's largest score: each score carries a
rounding relative to its own size), or exactly (``error = 0``) when the group's scores are
integers (:func:`pairedstats.core.ties.is_exact`). The rule is
decided on ``d`` scaled by a power of two, exactly, so that subnormal scores are read as any
others:

* **grid mode**: when every ``d`` is within ``2 * error`` of a multiple of a common quantum
  ``q`` (the approximate greatest common divisor of the distinct differences) and so many
  distinct multiples fit that chance cannot explain it (:func:`quantize`), the differences
  become integers and all sums and comparisons are exact;
* **tolerance mode**: otherwise sums are floats and a range counts when it is at least the
  observed difference minus the bound on the error of the sums: ``4 * n * (error + 2**-53
  * L)`` for ``n`` items, ``L`` the largest possible system sum (:func:`tie_tolerance`).

Exact p-values (every within-item arrangement weighted equally) come from dynamic programming
over the vector of system sums on a grid (the sums add up to a constant, so the state has
``k - 1`` coordinates; for ``k = 2`` this is the convolution of the 2**n sign flips), or from
enumerating the arrangements when they are few (item 0 held fixed for the range, which is
symmetric in the systems; for the many-vs-one statistic, symmetric in the other systems
only, item 0 takes each of its distinct scores at the baseline). Monte Carlo trials are counted by
:mod:`pairedstats.core.tukey_mc` (re-exported here: :class:`MonteCarloBatch`,
:func:`count_trials`).

This module imports numpy only (the kernels import numba, lazily).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from .parallel import default_workers
from .ties import ERROR_ULPS, is_exact, unit_scaled
from .tukey_mc import MonteCarloBatch, count_trials, trials_per_block

__all__ = [
    "ERROR_ULPS",
    "EXACT_ARRANGEMENTS",
    "EXACT_CELLS",
    "FALSE_GRID",
    "STREAM_LABEL",
    "MonteCarloBatch",
    "TukeyGroup",
    "count_trials",
    "default_workers",
    "exact_pvalues",
    "prepare_group",
    "quantize",
    "tie_tolerance",
    "trials_per_block",
]

#: Largest expected number of grids that unstructured differences fit by chance.
FALSE_GRID = 1e-3
#: Largest number of cells of the dense state array of the exact dynamic programme.
EXACT_CELLS = 2**22
#: Largest ``n_items * distinct arrangements * cells`` work of the dynamic programme.
EXACT_WORK = 2 * 10**8
#: Largest number of arrangements (item 0 fixed by symmetry) that are enumerated.
EXACT_ARRANGEMENTS = 2**18
#: First label of every stream of this method.
STREAM_LABEL = "tukey_hsd"

_UNIT = 2.0**-53  # unit roundoff of the float64 working arithmetic
_WIDTH = 8  # at most 8 lanes of int64 sums (bound used by the overflow guard)


# --------------------------------------------------------------------------- ties
def quantize(x: np.ndarray, precision: float = 2.0**-53) -> tuple[np.ndarray | None, float | None]:
    """Integers and quantum of scores on a common grid, or ``(None, None)``.

    The within-item differences ``d = x - x.min(axis=1)`` are on a grid of step ``q`` when
    every one is within twice its ``error`` (its own and the fitted step's;
    :func:`~pairedstats.core.ties.difference_error`, ``4 * precision * max|x|``, or 0 for
    integers: the tie rule of :mod:`pairedstats.core.ties`) of a multiple of ``q``, and the
    fit is not a coincidence: ``N`` distinct non-zero multiples, the largest ``K``, would all
    fall that close to a grid of at most ``K`` steps by chance about ``K * (4 * error /
    q)**(N - 1)`` times, which must not exceed ``FALSE_GRID`` (integers are on their grid by
    construction). ``q`` is the
    approximate greatest common divisor of the distinct differences
    (:func:`_approximate_gcd`), refined by least squares. The decision depends on ``x``
    through its differences, scaled exactly by a power of two, and on the rounding of each
    score, relative to its size: an affine map ``s * x + c`` of scores on a grid keeps the
    grid, its rounding being within the error.

    Parameters
    ----------
    x : ndarray of float, shape (n_items, k)
        Finite scores.
    precision : float
        Unit roundoff of the scores as they were given
        (:func:`~pairedstats.core.ties.difference_error`).

    Returns
    -------
    ints : ndarray of int64 or None
        ``d / quantum`` rounded: each item's smallest is 0.
    quantum : float or None
        The grid step, to one significant digit more than the scores resolve (at most 12):
        ``d[i, j]`` is ``ints[i, j] * quantum`` within the error. 0 when every item's scores
        are all equal.

    Examples
    --------
    >>> ints, q = quantize(np.array([[0.05, 0.15], [0.3, 0.1]]))
    >>> ints.tolist(), q
    ([[0, 1], [2, 0]], 0.1)
    >>> ints, q = quantize(np.array([[0.05, 0.15], [0.3, 0.1]], dtype=np.float32), 2.0**-24)
    >>> ints.tolist(), q
    ([[0, 1], [2, 0]], 0.1)
    >>> quantize(np.array([[0.1234567891, 0.2], [0.3, 0.4], [0.25, 0.7]]))
    (None, None)

    Integers offset by ``2**50`` (held exactly) are the integers:

    >>> quantize(np.array([[1.0, 4.0], [2.0, 0.0]]) + 2.0**50)
    (array([[0, 3],
           [2, 0]]), 1.0)
    """
    ints, _, _, quantum, _ = _working(np.asarray(x, dtype=np.float64), precision)
    return ints, quantum


def _working(x: np.ndarray, precision: float):
    """The working values of the scores ``x`` by the tie rule: ``(ints, scaled, exponent,
    quantum, error)``.

    ``scaled`` is ``d * 2**-exponent`` (``d`` the within-item differences, the largest in
    ``[0.5, 1)``: exact), ``error`` the error of each scaled difference
    (:func:`~pairedstats.core.ties.difference_error` of the group's scores, scaled alike);
    ``ints`` and ``quantum`` are those of :func:`quantize` (None off a grid; the quantum in
    the units of the scores).
    """
    scaled, exponent = unit_scaled(_differences(x))
    # the error relative to the scores' size, computed on the scaled size (exact: a power of
    # two), so that it does not underflow for subnormal scores
    size = float(np.ldexp(np.abs(x).max(initial=0.0), -exponent))
    error = 0.0 if is_exact(x, precision) else 2.0 * ERROR_ULPS * precision * size
    ints, step, relative = _grid(scaled, error)
    quantum = None if ints is None else _resolved(float(np.ldexp(step, exponent)), relative)
    return ints, scaled, exponent, quantum, error


def _differences(x: np.ndarray) -> np.ndarray:
    return x - _by_row(np.minimum, x)[:, None]


def _by_row(ufunc, a: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(a, axis=1)``, one column at a time (about 40 times faster for the
    few columns of a design than numpy's reduction over a short last axis)."""
    return functools.reduce(ufunc, a.T)


def _grid(d: np.ndarray, error: float):
    """:func:`quantize` on the within-item differences ``d``, each within ``error``:
    ``(ints, q, relative error of the largest difference)``, or ``(None, None, None)``."""
    values = np.unique(d[d > error])  # distinct differences that are not ties
    if values.size == 0:
        return np.zeros(d.shape, dtype=np.int64), 0.0, 1.0
    gaps = values - np.concatenate(([0.0], values[:-1]))  # multiples of q too, and small
    step = _approximate_gcd(gaps[gaps > 2 * error], error)
    if step is None:
        return None, None, None
    increments = _multiples(gaps, step, 2 * error)
    if increments is None:
        return None, None, None
    multiples = np.cumsum(increments)
    q = float(multiples @ values / (multiples @ multiples))
    if np.abs(values - multiples * q).max() > 2 * error:  # its error and the step's
        return None, None, None
    distinct = np.count_nonzero(increments)
    steps = multiples[-1]
    if (
        distinct > 1
        and error > 0
        and (math.log(steps) + (distinct - 1) * math.log(4 * error / q) > math.log(FALSE_GRID))
    ):
        return None, None, None
    ints = np.rint(d / q).astype(np.int64)
    if int(_by_row(np.maximum, ints).sum()) >= 2**62 // _WIDTH:  # the kernels' int64 sums
        return None, None, None
    return ints, q, error / values[-1]


def _approximate_gcd(values: np.ndarray, error: float) -> float | None:
    """The largest ``g > 4 * error`` of which every value is a multiple, or None.

    Euclid's algorithm on a set, vectorised: divide every value by the smallest, keep the
    remainders (nearest multiple) that exceed their error, repeat until none is left. Each
    value is within ``2 * error``; a remainder ``w - m * g`` is within ``err(w) + m * err(g)``.
    """
    err = np.full(values.shape, 2 * error)
    while values.size:
        j = int(np.argmin(values))
        g, g_err = values[j], err[j]
        if g <= 4 * error:
            return None
        m = np.rint(values / g)
        rest = np.abs(values - m * g)
        rest_err = err + m * g_err
        keep = rest > rest_err
        if not keep.any():
            return float(g)
        values = np.append(rest[keep], g)
        err = np.append(rest_err[keep], g_err)
    return None


def _multiples(gaps: np.ndarray, step: float, error: float) -> np.ndarray | None:
    """``gaps / step`` rounded, ``step`` refined by least squares as the gaps grow; None
    when a gap is not near a multiple (further than a quarter step).

    Euclid's ``step`` may be off by a fraction of a step over a large gap; the gaps are
    rounded from the smallest, in rounds that double the largest gap, each round refining
    the step on the gaps already rounded (gaps within ``error`` are multiple 0).
    """
    out = np.zeros(gaps.shape)
    order = np.argsort(gaps)
    ordered = gaps[order]
    done = int(np.searchsorted(ordered, error, side="right"))
    fitted = np.zeros(ordered.shape)
    while done < ordered.size:
        end = int(np.searchsorted(ordered, 2 * ordered[done], side="right"))
        fitted[done:end] = np.rint(ordered[done:end] / step)
        if np.abs(ordered[done:end] - fitted[done:end] * step).max() > step / 4:
            return None
        step = float(fitted[:end] @ ordered[:end] / (fitted[:end] @ fitted[:end]))
        done = end
    out[order] = fitted
    return out


def _resolved(q: float, relative_error: float) -> float:
    """``q`` to one significant digit more than ``relative_error`` resolves (at most 12);
    0 stays 0."""
    if q == 0.0 or relative_error == 0.0:  # exact scores: the exact step
        return q
    digits = int(min(12, max(1, math.floor(-math.log10(relative_error)) + 1)))
    return float(f"{q:.{digits}g}")


# ------------------------------------------------------------------ preparation
@dataclass(frozen=True, eq=False)
class TukeyGroup:
    """One group's data, prepared for exact and Monte Carlo computation.

    Attributes
    ----------
    values : ndarray, shape (n_items, k)
        Working scores: int64 on a grid (multiples of ``quantum``), float64 otherwise (the
        within-item differences times ``2**-exponent``); each item's smallest is 0.
    pairs : ndarray of intp, shape (n_pairs, 2)
    observed : ndarray, shape (n_pairs,)
        ``|sum_b - sum_a|`` in working units.
    thresholds : ndarray, shape (n_pairs,)
        A range counts for a pair when it is ``>=`` this (``observed`` on a grid,
        ``observed - tolerance`` otherwise).
    quantum : float or None
        Grid step (None in tolerance mode; 0 when every item's scores are all equal).
    tolerance : float
        Absolute tolerance in working units (0 on a grid; :func:`tie_tolerance`).
    base : int or None
        The baseline's column for the many-vs-one statistic ``max_j |sum_j - sum_base|``;
        None for the range of the sums (:attr:`statistic`).
    exponent : int
        Off a grid, the float working values are the differences times ``2**-exponent``
        (the largest in ``[0.5, 1)``: an exact scaling, so that the tie rule works at any
        scale, subnormal scores included); 0 on a grid.
    """

    values: np.ndarray
    pairs: np.ndarray
    observed: np.ndarray
    thresholds: np.ndarray
    quantum: float | None
    tolerance: float
    base: int | None = None
    exponent: int = 0

    @property
    def statistic(self) -> str:
        """``"range"`` (all pairs) or ``"many-vs-one"`` (against the column ``base``)."""
        return "range" if self.base is None else "many-vs-one"

    @property
    def n_items(self) -> int:
        return self.values.shape[0]

    @property
    def k(self) -> int:
        return self.values.shape[1]


def prepare_group(
    x: np.ndarray, pairs, precision: float = 2.0**-53, base: int | None = None
) -> TukeyGroup:
    """Prepare the finite scores ``x`` (n_items, k) of one group for the given pairs.

    ``precision`` is the unit roundoff of the scores as they were given
    (:attr:`pairedstats.core.design.PairedDesign.precision`): it sets the error model of the
    tie rule (:func:`quantize`, :func:`tie_tolerance`). ``base``: the baseline's column,
    whose comparisons ``(base, j)`` form the family (the many-vs-one statistic); None: the
    range, all pairs. The tie rule is the same for both: the statistic is a difference of
    two sums either way.

    Examples
    --------
    >>> g = prepare_group(np.array([[0.1, 0.3], [0.2, 0.0]]), [(0, 1)])
    >>> g.values.tolist(), g.observed.tolist(), g.quantum
    ([[0, 1], [1, 0]], [0], 0.2)
    >>> prepare_group(np.array([[0.1, 0.3, 0.2]]), [(1, 0), (1, 2)], base=1).statistic
    'many-vs-one'
    """
    x = np.asarray(x, dtype=np.float64)
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    if base is not None and not 0 <= base < x.shape[1]:
        raise ValueError(f"`base` must be a column of the {x.shape[1]} systems; got {base}.")
    ints, scaled, exponent, quantum, error = _working(x, precision)
    values = scaled if ints is None else ints
    sums = values.sum(axis=0)
    observed = np.abs(sums[pairs[:, 1]] - sums[pairs[:, 0]])
    tolerance = 0.0 if ints is not None else tie_tolerance(scaled, error)
    return TukeyGroup(
        values=values,
        pairs=pairs,
        observed=observed,
        thresholds=observed.copy() if ints is not None else observed - tolerance,
        quantum=quantum,
        tolerance=tolerance,
        base=None if base is None else int(base),
        exponent=0 if ints is not None else exponent,
    )


def tie_tolerance(d: np.ndarray, error: float) -> float:
    """Bound on the error of a range or an observed difference of float sums of ``d``.

    A system sum of ``n`` differences errs by at most ``n * error`` (the data) plus
    ``(n - 1) * 2**-53 * L`` (float64 summation, ``L = d.max(axis=1).sum()`` the largest
    possible sum); a range and an observed difference each subtract two sums, so ties in
    exact arithmetic are counted when a range is at least the observed difference minus
    ``4 * n * (error + 2**-53 * L)``.

    ``error`` keeps the precision of the scores as given even though no grid was found:
    float32 scores are exact binary numbers, but they stand for values known to ``2**-24``,
    and a group on no grid can still hold ties of those values (part of its items on a grid),
    which a tolerance of float64 rounding alone would lose, making p-values too small.
    Counting the near-ties within the scores' resolution instead errs on the safe side.

    Examples
    --------
    >>> tie_tolerance(np.array([[0.0, 1.0], [0.5, 0.0]]), 0.0) == 8 * 1.5 * 2.0**-53
    True
    """
    largest = float(_by_row(np.maximum, d).sum())
    return 4 * d.shape[0] * (error + _UNIT * largest)


# ------------------------------------------------------------------------ exact
def _distinct_arrangements(row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct permutations of ``row`` and the probability of each."""
    k = row.shape[0]
    perms = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    arranged = row[perms]
    distinct, counts = np.unique(arranged, axis=0, return_counts=True)
    return distinct, counts / perms.shape[0]


def _exact_base(group: TukeyGroup) -> int | None:
    """The baseline column of the exact computation: None for the range, and for two
    systems, whose many-vs-one statistic is the range."""
    return group.base if group.k > 2 else None


def _exact_plan(group: TukeyGroup) -> str | None:
    """Which exact computation fits: "dp", "enumerate" or None."""
    n, k = group.values.shape
    if k > 8 or n == 0:
        return None
    fact = math.factorial(k)
    if group.quantum is not None:
        total = int(group.values.max(axis=1).sum())
        cells = (total + 1) ** (k - 1)
        if cells <= EXACT_CELLS and n * fact * cells <= EXACT_WORK:
            return "dp"
    # arrangements with item 0 fixed (the range) or at the baseline (many-vs-one: one start
    # per distinct score of item 0); distinct ones counted, capped early
    count = 1 if _exact_base(group) is None else np.unique(group.values[0]).size
    for i in range(1, n):
        count *= _n_distinct(group.values[i])
        if count > EXACT_ARRANGEMENTS:
            return None
    return "enumerate"


def _n_distinct(row) -> int:
    _, counts = np.unique(row, return_counts=True)
    out = math.factorial(len(row))
    for c in counts.tolist():
        out //= math.factorial(c)
    return out


def exact_pvalues(group: TukeyGroup) -> np.ndarray | None:
    """Exact permutation p-values of the pairs, or None when too large to compute.

    A pair's p-value is the probability that the group's statistic (the range of the system
    sums, or the many-vs-one distance from the baseline's sum) reaches the pair's threshold.
    Every within-item arrangement has probability ``1 / k!``. Probabilities are summed in
    float64 (relative error about 1e-15); ties are exact on a grid and within the tolerance
    otherwise.

    Examples
    --------
    Two systems, three items: 8 sign flips, of which 2 reach the observed sum difference.

    >>> g = prepare_group(np.array([[1.0, 2.0], [1.0, 3.0], [5.0, 6.0]]), [(0, 1)])
    >>> exact_pvalues(g).tolist()
    [0.25]
    """
    plan = _exact_plan(group)
    if plan is None:
        return None
    base = _exact_base(group)
    if plan == "dp":
        ranges, probs = _exact_dp(group.values, base)
    else:
        ranges, probs = _exact_enumerate(group.values, base)
    order = np.argsort(ranges, kind="stable")
    ranges, probs = ranges[order], probs[order]
    tail = np.cumsum(probs[::-1])[::-1]  # tail[j] = P(range >= ranges[j])
    where = np.searchsorted(ranges, group.thresholds, side="left")
    out = np.zeros(len(group.thresholds))
    inside = where < len(ranges)
    out[inside] = tail[where[inside]]
    return np.minimum(out, 1.0)


def _statistic(sums: np.ndarray, base: int | None, axis: int) -> np.ndarray:
    """The trial statistic of system sums along ``axis``: their range (``base`` None), or
    their largest distance from the sum of system ``base`` (many-vs-one)."""
    hi, lo = sums.max(axis=axis), sums.min(axis=axis)
    if base is None:
        return hi - lo
    at = np.take(sums, base, axis=axis)
    return np.maximum(hi - at, at - lo)


def _exact_dp(values: np.ndarray, base: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of the statistic by dynamic programming over the first k-1 system sums."""
    n, k = values.shape
    total_max = int(values.max(axis=1).sum())
    size = total_max + 1
    dims = k - 1
    dist = np.zeros((size,) * dims)
    dist[(0,) * dims] = 1.0
    box = np.ones(dims, dtype=np.intp)  # current extent of the non-zero region
    for i in range(n):
        arranged, weights = _distinct_arrangements(values[i])
        grow = int(values[i].max())
        new_box = np.minimum(box + grow, size)
        new = np.zeros_like(dist)
        src = tuple(slice(0, b) for b in box)
        block = dist[src]
        for row, weight in zip(arranged, weights, strict=True):
            dst = tuple(slice(int(o), int(o) + int(b)) for o, b in zip(row[:dims], box))
            new[dst] += weight * block
        dist, box = new, new_box
    total = int(values.sum())
    grids = np.meshgrid(*[np.arange(b) for b in box], indexing="ij", sparse=False)
    region = dist[tuple(slice(0, b) for b in box)]
    mask = region > 0
    coords = [g[mask] for g in grids]
    last = total - np.sum(coords, axis=0) if dims > 1 else total - coords[0]
    stacked = np.stack([*coords, last], axis=0)
    return _statistic(stacked, base, 0).astype(np.int64), region[mask]


def _exact_enumerate(values: np.ndarray, base: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of the statistic by enumerating arrangements.

    The range is symmetric in the systems, and the system sums of items 1.. are
    exchangeable: item 0 is held fixed. The many-vs-one statistic is symmetric in the
    systems other than ``base`` only: item 0 starts once per distinct score at the baseline,
    with the probability of that score there (:func:`_baseline_starts`).
    """
    n, k = values.shape
    if base is None:
        sums, probs = values[0][None, :].copy(), np.ones(1)
    else:
        sums, probs = _baseline_starts(values[0], base)
    for i in range(1, n):
        arranged, weights = _distinct_arrangements(values[i])
        sums = (sums[:, None, :] + arranged[None, :, :]).reshape(-1, k)
        probs = (probs[:, None] * weights[None, :]).ravel()
    return _statistic(sums, base, 1), probs


def _baseline_starts(row: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """One arrangement of ``row`` per distinct score at column ``base`` (the other scores
    in their order), and the probability ``count / k`` of that score there.

    Examples
    --------
    >>> starts, probs = _baseline_starts(np.array([2, 0, 2]), 1)
    >>> starts.tolist(), probs.tolist()
    ([[2, 0, 2], [0, 2, 2]], [0.3333333333333333, 0.6666666666666666])
    """
    k = row.shape[0]
    distinct, counts = np.unique(row, return_counts=True)
    others = np.arange(k) != base
    starts = np.empty((distinct.size, k), dtype=row.dtype)
    for s, v in enumerate(distinct.tolist()):
        rest = row.tolist()
        rest.remove(v)
        starts[s, base] = v
        starts[s, others] = rest
    return starts, counts / k
