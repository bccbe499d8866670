"""Array core of the randomized Tukey HSD test (Carterette 2012; Sakai 2018).

Scores are an ``(n_items, k)`` array: one score of each of ``k`` systems on every item.
A *trial* shuffles the scores across systems independently within every item and records
the range (largest minus smallest) of the system sums. A pair's p-value is the fraction of
trials whose range reaches the pair's observed ``|sum_b - sum_a|`` (the same as comparing
means, all systems having ``n_items`` scores); no +1 is added.

Ties are counted in exact arithmetic. Each item is shifted so that its smallest score is 0
(this changes neither the observed differences nor any range); a difference ``d`` then errs by
at most ``error = ERROR_ULPS * u * max|x|`` (``u`` the unit roundoff of the scores as given:
``2**-53`` for float64, ``2**-24`` for float32), whatever the scale and offset of the scores:

* **grid mode**: when every ``d`` is within ``error`` of a multiple of a common quantum ``q``
  (the approximate greatest common divisor of the distinct differences) and so many
  distinct multiples fit that chance cannot explain it (:func:`quantize`), the differences
  become integers and all sums and comparisons are exact;
* **tolerance mode**: otherwise sums are floats and a range counts when it is at least the
  observed difference minus the bound on the error of the sums: ``4 * n * (error + 2**-53
  * L)`` for ``n`` items, ``L`` the largest possible system sum (:func:`tie_tolerance`).

Exact p-values (every within-item arrangement weighted equally) come from dynamic programming
over the vector of system sums on a grid (the sums add up to a constant, so the state has
``k - 1`` coordinates; for ``k = 2`` this is the convolution of the 2**n sign flips), or from
enumerating the arrangements when they are few. Monte Carlo trials draw, per item, one
uniform integer picking one of the ``k!`` arrangements from a precomputed table (several
items share one 32-bit draw), or, for larger ``k``, the digits of a Fisher-Yates shuffle.

Random numbers: trials are cut into blocks of ``B = trials_per_block(...)`` trials (a multiple
of ``streams.BLOCK`` fixed by the number of draws per trial, so by the design's shape only);
trial ``r`` of a stream uses the ``r % B``-th row of the draws of block ``r // B``
(:func:`pairedstats.core.streams.block_generator`), decoded by :func:`bounded_uint32`, so a
trial's numbers depend on the seed, the labels and the trial number only.

Engines: :class:`MonteCarloBatch` counts all Monte Carlo groups of a call (``by=`` groups,
sweep cells) in one compiled call per worker (:mod:`pairedstats.core._kernels`, which seeds
the block generators itself); :class:`MonteCarloCounter` is the numpy reference, one group
at a time, that the kernels are tested against.

This module imports numpy (and numba, lazily, when installed) only.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from .parallel import default_workers, run_parts
from .streams import BLOCK, entropy_prefix, label_words, words_generator

__all__ = [
    "ERROR_ULPS",
    "EXACT_ARRANGEMENTS",
    "EXACT_CELLS",
    "FALSE_GRID",
    "STREAM_LABEL",
    "MonteCarloBatch",
    "MonteCarloCounter",
    "TukeyGroup",
    "count_trials",
    "difference_error",
    "exact_pvalues",
    "prepare_group",
    "quantize",
    "tie_tolerance",
]

#: Bound on the error of a within-item difference, in units of roundoff of the largest score.
ERROR_ULPS = 16
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
_TABLE_MAX_K = 6  # k! <= 720 arrangements in the table
_TABLE_MAX_ENTRIES = 2**22
_WIDTH = 8  # at most 8 lanes (bound used by the overflow guard)


def _lanes(k: int) -> int:
    """k padded to 2, 4 or 6: the table size rule of :func:`_table_params`.

    The first compiled kernel kept 2, 4 or 6 accumulators; the rule stays because which
    sampler a design gets (and so its draws) is part of the reproducibility contract.
    """
    return 2 if k <= 2 else 4 if k <= 4 else 6


_DRAW_LIMIT = 2**31


# --------------------------------------------------------------------------- ties
def difference_error(x: np.ndarray, precision: float = 2.0**-53) -> float:
    """Bound on the error of a within-item difference ``x[i, j] - x[i].min()``.

    ``ERROR_ULPS * precision * max|x|``: each score is taken to be within ``7 * precision``
    of the largest magnitude of its intended value (its own rounding when it was stored, and
    a few operations such as a change of unit or an offset), and the float64 subtraction adds
    at most ``2 * precision * max|x|``.

    Parameters
    ----------
    x : ndarray of float, shape (n_items, k)
        Finite scores.
    precision : float
        Unit roundoff of the scores as they were given (``2**-53`` for float64 and integers,
        ``2**-24`` for float32; :func:`pairedstats.core.design.unit_roundoff`).

    Examples
    --------
    >>> difference_error(np.array([[0.5, 1.0]]), 2.0**-24) == 16 * 2.0**-24
    True
    """
    return ERROR_ULPS * precision * float(np.abs(x).max(initial=0.0))


def quantize(x: np.ndarray, precision: float = 2.0**-53) -> tuple[np.ndarray | None, float | None]:
    """Integers and quantum of scores on a common grid, or ``(None, None)``.

    The within-item differences ``d = x - x.min(axis=1)`` are on a grid of step ``q`` when
    every one is within :func:`difference_error` of a multiple of ``q``, and the fit is not a
    coincidence: ``N`` distinct non-zero multiples, the largest ``K``, would all fall that
    close to a grid of at most ``K`` steps by chance about ``K * (4 * error / q)**(N - 1)``
    times, which must not exceed ``FALSE_GRID``. ``q`` is the approximate greatest common
    divisor of the distinct differences (:func:`_approximate_gcd`), refined by least squares.
    The decision depends on ``x`` only through ``d / max|x|``: it is the same for
    ``s * x + c`` (``s > 0``) as long as ``precision * |c|`` stays far below ``q * s``.

    Parameters
    ----------
    x : ndarray of float, shape (n_items, k)
        Finite scores.
    precision : float
        Unit roundoff of the scores as they were given (see :func:`difference_error`).

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
    """
    x = np.asarray(x, dtype=np.float64)
    return _grid(_differences(x), difference_error(x, precision))


def _differences(x: np.ndarray) -> np.ndarray:
    return x - _by_row(np.minimum, x)[:, None]


def _by_row(ufunc, a: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(a, axis=1)``, one column at a time (about 40 times faster for the
    few columns of a design than numpy's reduction over a short last axis)."""
    return functools.reduce(ufunc, a.T)


def _grid(d: np.ndarray, error: float) -> tuple[np.ndarray | None, float | None]:
    """:func:`quantize` on the within-item differences ``d``, each within ``error``."""
    values = np.unique(d[d > error])  # distinct differences that are not ties
    if values.size == 0:
        return np.zeros(d.shape, dtype=np.int64), 0.0
    gaps = values - np.concatenate(([0.0], values[:-1]))  # multiples of q too, and small
    step = _approximate_gcd(gaps[gaps > 2 * error], error)
    if step is None:
        return None, None
    increments = _multiples(gaps, step, 2 * error)
    if increments is None:
        return None, None
    multiples = np.cumsum(increments)
    q = float(multiples @ values / (multiples @ multiples))
    if np.abs(values - multiples * q).max() > error:
        return None, None
    distinct = np.count_nonzero(increments)
    steps = multiples[-1]
    if distinct > 1 and (
        math.log(steps) + (distinct - 1) * math.log(4 * error / q) > math.log(FALSE_GRID)
    ):
        return None, None
    ints = np.rint(d / q).astype(np.int64)
    if int(_by_row(np.maximum, ints).sum()) >= 2**62 // _WIDTH:  # the kernels' int64 sums
        return None, None
    return ints, _resolved(q, error / values[-1])


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
    """``q`` to one significant digit more than ``relative_error`` resolves (at most 12)."""
    digits = int(min(12, max(1, math.floor(-math.log10(relative_error)) + 1)))
    return float(f"{q:.{digits}g}")


# ------------------------------------------------------------------ preparation
@dataclass(frozen=True, eq=False)
class TukeyGroup:
    """One group's data, prepared for exact and Monte Carlo computation.

    Attributes
    ----------
    values : ndarray, shape (n_items, k)
        Working scores: int64 on a grid, float64 otherwise; each item's smallest is 0.
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
    """

    values: np.ndarray
    pairs: np.ndarray
    observed: np.ndarray
    thresholds: np.ndarray
    quantum: float | None
    tolerance: float

    @property
    def n_items(self) -> int:
        return self.values.shape[0]

    @property
    def k(self) -> int:
        return self.values.shape[1]


def prepare_group(x: np.ndarray, pairs, precision: float = 2.0**-53) -> TukeyGroup:
    """Prepare the finite scores ``x`` (n_items, k) of one group for the given pairs.

    ``precision`` is the unit roundoff of the scores as they were given
    (:attr:`pairedstats.core.design.PairedDesign.precision`): it sets the error model of the
    tie rule (:func:`quantize`, :func:`tie_tolerance`).

    Examples
    --------
    >>> g = prepare_group(np.array([[0.1, 0.3], [0.2, 0.0]]), [(0, 1)])
    >>> g.values.tolist(), g.observed.tolist(), g.quantum
    ([[0, 1], [1, 0]], [0], 0.2)
    """
    x = np.asarray(x, dtype=np.float64)
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    d = _differences(x)
    error = difference_error(x, precision)
    ints, quantum = _grid(d, error)
    values = d if ints is None else ints
    sums = values.sum(axis=0)
    observed = np.abs(sums[pairs[:, 1]] - sums[pairs[:, 0]])
    tolerance = 0.0 if ints is not None else tie_tolerance(d, error)
    return TukeyGroup(
        values=values,
        pairs=pairs,
        observed=observed,
        thresholds=observed.copy() if ints is not None else observed - tolerance,
        quantum=quantum,
        tolerance=tolerance,
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
    # arrangements with item 0 fixed; distinct ones counted, capped early
    count = 1
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


def exact_possible(group: TukeyGroup) -> bool:
    """Whether :func:`exact_pvalues` fits the limits for this group."""
    return _exact_plan(group) is not None


def exact_pvalues(group: TukeyGroup) -> np.ndarray | None:
    """Exact permutation p-values of the pairs, or None when too large to compute.

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
    if plan == "dp":
        ranges, probs = _exact_dp(group.values)
    else:
        ranges, probs = _exact_enumerate(group.values)
    order = np.argsort(ranges, kind="stable")
    ranges, probs = ranges[order], probs[order]
    tail = np.cumsum(probs[::-1])[::-1]  # tail[j] = P(range >= ranges[j])
    where = np.searchsorted(ranges, group.thresholds, side="left")
    out = np.zeros(len(group.thresholds))
    inside = where < len(ranges)
    out[inside] = tail[where[inside]]
    return np.minimum(out, 1.0)


def _exact_dp(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of the range by dynamic programming over the first k-1 system sums."""
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
    ranges = stacked.max(axis=0) - stacked.min(axis=0)
    return ranges.astype(np.int64), region[mask]


def _exact_enumerate(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of the range by enumerating arrangements (item 0 held fixed)."""
    n, k = values.shape
    sums = values[0][None, :].copy()
    probs = np.ones(1)
    for i in range(1, n):
        arranged, weights = _distinct_arrangements(values[i])
        sums = (sums[:, None, :] + arranged[None, :, :]).reshape(-1, k)
        probs = (probs[:, None] * weights[None, :]).ravel()
    ranges = sums.max(axis=1) - sums.min(axis=1)
    return ranges, probs


# ------------------------------------------------------------------ Monte Carlo
@dataclass(frozen=True, eq=False)
class _Sampler:
    """How one group's trials are drawn and summed."""

    kind: str  # "table" or "shuffle"
    high: np.ndarray | int  # bound(s) of the uint32 draws of one trial
    n_draws: int  # draws per trial
    table: np.ndarray | None = None  # (n * F, k) arranged rows (table kind)
    factorial: int = 0
    digits: int = 0  # arrangements per draw (table kind)
    magic: int = 0
    shift: int = 0
    radices: np.ndarray | None = None  # shuffle kind: k, k-1, ..., 2
    chunk_ends: np.ndarray | None = None  # shuffle kind: end of each draw's radices
    chunk_highs: np.ndarray | None = None  # shuffle kind: bound of each chunk's draws
    magic_radix: np.ndarray | None = None  # shuffle kind: v // r == (v * magic) >> shift
    shift_radix: np.ndarray | None = None

    def draw(self, root: int, words: tuple[int, ...], block: int, m: int) -> np.ndarray:
        """The draws of the first ``m`` trials of ``block``: one row per trial.

        The table kind makes one call on the block's generator. The shuffle kind has one
        stream per chunk of radices (its words extended by the chunk number), each one call
        with a scalar bound, interleaved so that row ``t`` holds item 0's chunks, then item
        1's, ...
        """
        if self.kind == "table":
            gen = words_generator(root, words, block)
            return bounded_uint32(gen, self.high, m * self.n_draws).reshape(m, self.n_draws)
        n_chunks = len(self.chunk_highs)
        out = np.empty((m, self.n_draws), dtype=np.uint32)
        for c, high in enumerate(self.chunk_highs.tolist()):
            gen = words_generator(root, (*words, c), block)
            out[:, c::n_chunks] = bounded_uint32(
                gen, high, m * (self.n_draws // n_chunks)
            ).reshape(m, self.n_draws // n_chunks)
        return out


def bounded_uint32(gen: np.random.Generator, high: int, count: int) -> np.ndarray:
    """``count`` exactly uniform integers in ``[0, high)`` (``high <= 2**32``), in order.

    The generator's raw 64-bit words are cut into 32-bit halves, low half first; a half
    ``x`` gives ``(x * high) >> 32`` unless ``(x * high) mod 2**32 < 2**32 mod high``, when
    it is rejected (Lemire's unbiased multiply-shift rule). The values are a function of the
    raw stream alone, so the first ``count`` of a longer draw are the same values: a
    partial block is a prefix of a full one. About 5x faster than ``Generator.integers``
    with a large bound (which takes 7 to 10 ns a value here, against 1.4 ns a raw half).

    Examples
    --------
    >>> g = np.random.Generator(np.random.PCG64(1))
    >>> x = bounded_uint32(g, 10, 6)
    >>> bool(((0 <= x) & (x < 10)).all()), x.dtype.name
    (True, 'uint32')
    >>> h = np.random.Generator(np.random.PCG64(1))
    >>> bool((bounded_uint32(h, 10, 4) == x[:4]).all())
    True
    """
    high = int(high)
    if not 1 <= high <= 2**32:
        raise ValueError(f"high must be in [1, 2**32]; got {high}")
    thresh = np.uint64((2**32) % high)
    accept = 1.0 - float(thresh) / 2**32
    bits = gen.bit_generator
    out = np.empty(count, dtype=np.uint32)
    kernels = _compiled()
    have = 0
    while have < count:
        need = count - have
        raw = bits.random_raw(-(-(int(need / accept * 1.002) + 64) // 2))
        if kernels is not None:
            have += kernels["lemire"](raw, np.uint64(high), thresh, out[have:])
            continue
        x = raw.view(np.uint32).astype(np.uint64) * np.uint64(high)
        values = (x >> np.uint64(32))[(x & np.uint64(0xFFFFFFFF)) >= thresh][:need]
        out[have : have + values.size] = values
        have += values.size
    return out


@functools.lru_cache(maxsize=16)
def _permutations(k: int) -> np.ndarray:
    out = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    out.flags.writeable = False
    return out


def _table_params(n: int, k: int) -> tuple[int, int, int, int] | None:
    """``(digits, high, magic, shift)`` of the table arrangements, or None if they do not fit.

    A draw in ``[0, high)``, ``high = k! ** digits``, picks the arrangements of ``digits``
    items, lowest digit first; ``v // k! == (v * magic) >> shift`` for every draw.
    """
    fact = math.factorial(k)
    if k > _TABLE_MAX_K or n * fact * _lanes(k) > _TABLE_MAX_ENTRIES:
        return None
    digits = 1
    while fact ** (digits + 1) <= _DRAW_LIMIT and digits < n:
        digits += 1
    high = fact**digits
    bits = max(1, math.ceil(math.log2(high)))
    shift = bits + max(1, math.ceil(math.log2(fact)))
    return digits, high, -(-(2**shift) // fact), shift


def _sampler(group: TukeyGroup) -> _Sampler:
    n, k = group.values.shape
    fact = math.factorial(k)
    params = _table_params(n, k)
    if params is not None:
        digits, high, magic, shift = params
        return _Sampler(
            kind="table",
            high=high,
            n_draws=-(-n // digits),
            table=group.values[:, _permutations(k)].reshape(n * fact, k),
            factorial=fact,
            digits=digits,
            magic=magic,
            shift=shift,
        )
    shuffle = _shuffle_params(k)
    return _Sampler(
        kind="shuffle",
        high=np.tile(shuffle["chunk_highs"], n),
        n_draws=n * len(shuffle["chunk_highs"]),
        **shuffle,
    )


@functools.lru_cache(maxsize=16)
def _shuffle_params(k: int) -> dict:
    """Fisher-Yates digits: radices ``k, ..., 2`` cut into chunks whose product fits a draw."""
    radices = np.arange(k, 1, -1, dtype=np.int64)
    ends, highs, product = [], [], 1
    for j, r in enumerate(radices.tolist()):
        if product * r > _DRAW_LIMIT:
            ends.append(j)
            highs.append(product)
            product = 1
        product *= r
    ends.append(len(radices))
    highs.append(product)
    out = {
        "radices": radices,
        "chunk_ends": np.array(ends, dtype=np.int64),
        "chunk_highs": np.array(highs, dtype=np.int64),
        "magic_radix": np.array([_magic(r)[0] for r in radices.tolist()], dtype=np.int64),
        "shift_radix": np.array([_magic(r)[1] for r in radices.tolist()], dtype=np.int64),
    }
    for value in out.values():
        value.flags.writeable = False  # shared by every caller (cached)
    return out


def _magic(divisor: int, bits: int = 31) -> tuple[int, int]:
    """``(magic, shift)`` with ``v // divisor == (v * magic) >> shift`` for ``0 <= v < 2**bits``.

    With ``shift = bits + ceil(log2 divisor)`` and ``magic = ceil(2**shift / divisor)`` the
    error ``e = magic * divisor - 2**shift`` is below ``divisor``, so ``v * e < 2**shift``
    and the floor is exact; ``v * magic < 2**63`` fits an int64.
    """
    shift = bits + max(1, math.ceil(math.log2(divisor)))
    return -(-(2**shift) // divisor), shift


# numpy versions of the kernels: the reference the numba ones must match exactly
def _table_ranges_numpy(s: _Sampler, n: int, draws: np.ndarray) -> np.ndarray:
    m = draws.shape[0]
    powers = np.array([s.factorial**u for u in range(s.digits)], dtype=np.int64)
    digits = (draws.astype(np.int64)[:, :, None] // powers) % s.factorial
    digits = digits.reshape(m, -1)[:, :n]
    rows = digits + np.arange(n, dtype=np.int64) * s.factorial
    sums = np.zeros((m, s.table.shape[1]), dtype=s.table.dtype)
    for i in range(n):  # items in order, as the compiled kernel adds them
        sums += s.table[rows[:, i]]
    return sums.max(axis=1) - sums.min(axis=1)


def _shuffle_ranges_numpy(s: _Sampler, values: np.ndarray, draws: np.ndarray) -> np.ndarray:
    m = draws.shape[0]
    n, k = values.shape
    n_chunks = len(s.chunk_ends)
    d = draws.astype(np.int64).reshape(m, n, n_chunks)
    perm = np.broadcast_to(np.arange(k), (m, n, k)).copy()
    start = 0
    rows = np.arange(m)[:, None]
    cols = np.arange(n)[None, :]
    for c, end in enumerate(s.chunk_ends.tolist()):
        v = d[:, :, c]
        for r in s.radices[start:end].tolist():
            digit = v % r
            v = v // r
            j = r - 1
            a = perm[:, :, j].copy()
            perm[:, :, j] = perm[rows, cols, digit]
            perm[rows, cols, digit] = a
        start = end
    sums = np.zeros((m, k), dtype=values.dtype)
    for i in range(n):
        sums += values[i][perm[:, i, :]]
    return sums.max(axis=1) - sums.min(axis=1)


def _count_block(group, s, draws, counts):
    if s.kind == "table":
        ranges = _table_ranges_numpy(s, group.n_items, draws)
    else:
        ranges = _shuffle_ranges_numpy(s, group.values, draws)
    counts += (ranges[:, None] >= group.thresholds[None, :]).sum(axis=0)


def trials_per_block(n_draws: int) -> int:
    """Trials per block generator: about 2**20 draws, 256 to 8192 trials, a power of two.

    Part of the reproducibility contract (with the draws per trial, it depends only on the
    numbers of items and systems).
    """
    size = BLOCK
    while size < 8192 and 2 * size * n_draws <= 2**20:
        size *= 2
    return size


def _count_range(group, s, root, words, lo, hi) -> np.ndarray:
    counts = np.zeros(len(group.thresholds), dtype=np.int64)
    size = trials_per_block(s.n_draws)
    for block in range(lo // size, -(-hi // size)):
        first = block * size
        a, z = max(lo, first), min(hi, first + size)
        draws = s.draw(root, words, block, z - first)
        _count_block(group, s, draws[a - first :], counts)
    return counts


class MonteCarloCounter:
    """Counts of trials reaching each pair's difference, one group, in numpy.

    The reference the compiled kernels of :class:`MonteCarloBatch` are tested against (and
    the engine without numba). A counter is bound to one group and its stream (root entropy
    and labels); any split of the trials into calls and any number of workers gives the
    same counts.
    """

    def __init__(self, group: TukeyGroup, root: int, labels):
        self.group = group
        self.root = int(root)
        self.labels = tuple(labels)
        self.words = label_words(self.labels)
        self.sampler = _sampler(group)

    def count(self, lo: int, hi: int, workers: int = 1) -> np.ndarray:
        """Counts over trials ``lo`` (inclusive) to ``hi`` (exclusive)."""
        tasks = self.split(lo, hi, workers)
        parts = run_parts([lambda a=a, z=z: self._count(a, z) for a, z in tasks])
        return np.sum(parts, axis=0, dtype=np.int64)

    def split(self, lo: int, hi: int, workers: int) -> list[tuple[int, int]]:
        """Trials ``lo`` to ``hi`` cut at block boundaries into at most ``workers`` runs."""
        return _split(lo, hi, workers, trials_per_block(self.sampler.n_draws))

    def _count(self, lo, hi):
        return _count_range(self.group, self.sampler, self.root, self.words, lo, hi)


class MonteCarloBatch:
    """Counts of trials reaching each pair's difference, for many groups at once.

    Group ``g`` draws its trials from the stream of ``root`` and ``labels[g]``, so its
    counts are those of a :class:`MonteCarloCounter` of that group alone, whatever the other
    groups, the split of the trials into calls or the number of workers. All groups of a
    sampler kind and working dtype are counted by one compiled call per worker over all
    their (group, block) tasks (:func:`pairedstats.core._kernels.tukey_table_counts` for
    ``k <= 6``, :func:`~pairedstats.core._kernels.tukey_shuffle_counts` above); with
    ``engine="numpy"`` (the reference) :class:`MonteCarloCounter` counts one group after
    another.
    """

    def __init__(self, groups, root: int, labels, engine: str = "auto"):
        self.n_groups = len(groups)
        self.n_pairs = len(groups[0].thresholds) if groups else 0
        self._counters: dict[int, MonteCarloCounter] = {}
        self._fused: list[dict] = []
        self._sizes = [BLOCK]
        kernels = _compiled() if engine != "numpy" else None
        members: dict[tuple, list] = {}
        for g, (group, lab) in enumerate(zip(groups, labels, strict=True)):
            if kernels is None:
                counter = MonteCarloCounter(group, root, lab)
                self._counters[g] = counter
                self._sizes.append(trials_per_block(counter.sampler.n_draws))
                continue
            params = _table_params(group.n_items, group.k)
            if params is not None:
                kind, n_draws = "table", -(-group.n_items // params[0])
            else:
                kind = "shuffle"
                n_draws = group.n_items * len(_shuffle_params(group.k)["chunk_highs"])
            size = trials_per_block(n_draws)
            self._sizes.append(size)
            key = (kind, group.values.dtype.kind)  # one batch per kind and working dtype
            members.setdefault(key, []).append((g, group, lab, params, size))
        for (kind, _), rows in members.items():
            build = _table_args if kind == "table" else _shuffle_args
            self._fused.append(
                {
                    "kernel": kernels[kind],
                    "index": np.array([g for g, *_ in rows], dtype=np.intp),
                    "n_items": np.array([row[1].n_items for row in rows], dtype=np.int64),
                    "sizes": np.array([row[4] for row in rows], dtype=np.int64),
                    "args": build(root, rows),
                }
            )

    def block_size(self) -> int:
        """The largest number of trials per block of the groups."""
        return max(self._sizes)

    def count(self, lo: int, hi: int, workers: int = 1) -> np.ndarray:
        """Counts ``(n_groups, n_pairs)`` over trials ``lo`` (inclusive) to ``hi``."""
        out = np.zeros((self.n_groups, self.n_pairs), dtype=np.int64)
        for batch in self._fused:
            calls = [
                (t, np.zeros((len(t), self.n_pairs), dtype=np.int64))
                for t in _balanced_tasks(batch, lo, hi, workers)
            ]
            kernel, args = batch["kernel"], batch["args"]
            run_parts([lambda t=t, c=c, f=kernel, x=args: f(*x, t, c) for t, c in calls])
            for t, c in calls:
                np.add.at(out, batch["index"][t[:, 0]], c)
        for g, counter in self._counters.items():
            out[g] = counter.count(lo, hi, workers)
        return out


def _bounds(sizes) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _balanced_tasks(batch: dict, lo: int, hi: int, workers: int) -> list[np.ndarray]:
    """The (group, first trial, end) tasks of trials ``lo:hi``, cut into ``workers`` parts.

    A task lies within one block of its group. The parts carry equal work (trials times
    items), a task being split at the trial where a cut falls: its second part then skips
    the draws of the first (about a tenth of the cost of counting them).
    """
    rows = []
    for g, (n, size) in enumerate(zip(batch["n_items"].tolist(), batch["sizes"].tolist())):
        for block in range(lo // size, -(-hi // size)):
            rows.append((g, max(lo, block * size), min(hi, (block + 1) * size), n))
    total = sum((z - a) * n for _, a, z, n in rows)
    parts, current, p, done = [], [], 1, 0
    for g, a, z, n in rows:
        while p < workers and done + (z - a) * n > total * p // workers:
            cut = min(z, a + -(-(total * p // workers - done) // n))  # next part's first trial
            if cut > a:
                current.append((g, a, cut))
                done += (cut - a) * n
                a = cut
            parts.append(current)
            current, p = [], p + 1
        if z > a:
            current.append((g, a, z))
            done += (z - a) * n
    parts.append(current)
    return [np.array(c, dtype=np.int64) for c in parts if c]


def _table_args(root, rows) -> tuple:
    """Arguments of :func:`pairedstats.core._kernels.tukey_table_counts` but the tasks."""
    prefixes = [entropy_prefix(root, label_words(lab)) for _, _, lab, _, _ in rows]
    groups = [row[1] for row in rows]
    return (
        np.concatenate(prefixes),
        _bounds([len(p) for p in prefixes]),
        np.concatenate([grp.values for grp in groups]),
        _bounds([grp.n_items for grp in groups]),
        _permutations(groups[0].k).astype(np.int64),
        np.array([(*params, size) for *_, params, size in rows], dtype=np.int64),
        np.stack([grp.thresholds for grp in groups]),
    )


def _shuffle_args(root, rows) -> tuple:
    """Arguments of :func:`pairedstats.core._kernels.tukey_shuffle_counts` but the tasks."""
    groups = [row[1] for row in rows]
    shuffle = _shuffle_params(groups[0].k)
    chunks = range(len(shuffle["chunk_highs"]))
    prefixes = [
        entropy_prefix(root, (*label_words(lab), c)) for _, _, lab, _, _ in rows for c in chunks
    ]
    return (
        np.concatenate(prefixes),
        _bounds([len(p) for p in prefixes]),
        np.concatenate([grp.values for grp in groups]),
        _bounds([grp.n_items for grp in groups]),
        shuffle["radices"],
        shuffle["magic_radix"],
        shuffle["shift_radix"],
        shuffle["chunk_ends"],
        shuffle["chunk_highs"],
        np.array([row[4] for row in rows], dtype=np.int64),
        np.stack([grp.thresholds for grp in groups]),
    )


_COMPILED: list = []


def _compiled() -> dict | None:
    """The compiled kernels (:mod:`pairedstats.core._kernels`) by name, or None without numba.

    ``"table"`` and ``"shuffle"``: the many-group trial counts; ``"lemire"``: the decoding
    of :func:`bounded_uint32`.
    """
    if not _COMPILED:
        try:
            from ._kernels import lemire, tukey_shuffle_counts, tukey_table_counts
        except ImportError:  # pragma: no cover - numba is installed in CI
            _COMPILED.append(None)
        else:
            _COMPILED.append(
                {"table": tukey_table_counts, "shuffle": tukey_shuffle_counts, "lemire": lemire}
            )
    return _COMPILED[0]


def _split(lo: int, hi: int, workers: int, size: int = BLOCK) -> list[tuple[int, int]]:
    """Cut trials into at most ``workers`` contiguous runs at block boundaries."""
    if hi <= lo:
        return [(lo, lo)]
    first, last = lo // size, -(-hi // size)
    n_blocks = last - first
    parts = max(1, min(workers, n_blocks // 2 if n_blocks >= 4 else n_blocks))
    edges = [first + (n_blocks * p) // parts for p in range(parts + 1)]
    out = []
    for p in range(parts):
        a = lo if p == 0 else edges[p] * size
        z = hi if p == parts - 1 else edges[p + 1] * size
        out.append((a, z))
    return out


def count_trials(
    group: TukeyGroup, root: int, labels, lo: int, hi: int, *, workers: int | None = None,
    engine: str = "auto",
) -> np.ndarray:  # fmt: skip
    """Per pair, the number of trials ``lo <= r < hi`` whose range reaches the difference.

    Examples
    --------
    >>> g = prepare_group(np.array([[1.0, 2.0], [1.0, 3.0], [5.0, 6.0]]), [(0, 1)])
    >>> int(count_trials(g, 1, ["tukey_hsd"], 0, 4000)[0])  # about a quarter of 4000
    968
    """
    batch = MonteCarloBatch([group], root, [labels], engine)
    return batch.count(lo, hi, default_workers(workers))[0]
