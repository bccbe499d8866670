"""The paired bootstrap: resampling streams, replicates, jackknife and intervals.

Everything here works on validated ndarrays; :mod:`pairedstats.bootstrap` is the user-facing
layer. The module imports numpy and scipy.special only (numba, if installed, for one kernel).

Resampling streams
------------------
The draws of a group (a stratum of a group, with ``strata``) come from the streams named
``("bootstrap", group_key)`` (``("bootstrap", group_key, stratum_label)``) under the root
entropy, cut into blocks of :data:`~pairedstats.core.streams.BLOCK` resamples, each block with
its own generator (:func:`~pairedstats.core.streams.block_generator`). Two ways of drawing
exist, both exact (equal in distribution to drawing ``n`` units uniformly with replacement):

*index path* (all statistics; ``resampling="index"`` and ``"auto"``): the block generator's
64-bit outputs are cut into 16-bit chunks (32-bit chunks when there are more than 65,536
units), lowest bits first; a chunk ``x`` of width ``w`` gives the unit ``(x * n) >> w`` unless
``(x * n) mod 2**w < 2**w mod n``, in which case it is rejected (Lemire's unbiased
multiply-shift rule). Resample ``r`` of the block takes the next ``n`` accepted units. The
draws are shared by every comparison of the group, so the numbers of a comparison do not
depend on which other systems are in the call, and the replicates of several comparisons are
jointly those of one resampling of the items (``D(a, c) = D(a, b) + D(b, c)`` resample by
resample).

*counts path* (the mean, ``resampling="counts"`` only): resampling ``n`` units is the same in
distribution as drawing the multinomial counts of their distinct values,
``Generator.multinomial(n, p_values)`` per resample: a handful of binomials instead of ``n``
draws when the values are few (accuracies, 0/1 indicators, grades). The stream is keyed
exactly as on the index path but the numbers differ from it. Each comparison draws its own
counts over its own distinct values: the replicates of one comparison are exact, those of
several comparisons are *not* jointly resampled (marginal resampling). A comparison is drawn
in a canonical orientation, ``b - a`` when the system labels are in the order of
:func:`~pairedstats.core.streams.label_words` and ``a - b`` (then negated) otherwise, so that
``(a, b)`` and ``(b, a)`` draw the same counts and give exactly negated replicates.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable, Sequence

import numpy as np
from scipy import special

from .parallel import default_workers, run_parts
from .streams import BLOCK, block_generator, block_slices, entropy_prefix, label_words
from .tukey import difference_error

__all__ = [
    "LABEL",
    "GroupData",
    "acceleration",
    "basic_interval",
    "bca_interval",
    "bias_correction",
    "canonical_sign",
    "counts_from_indices",
    "draw_indices",
    "group_replicates",
    "mean_influence",
    "mean_replicates_many",
    "pair_differences",
    "per_resample",
    "percentile_interval",
    "plain_mean",
    "ratio_replicates",
    "resample_indices",
    "tie_error",
]

#: First label of every bootstrap stream.
LABEL = "bootstrap"

#: Units above which the index path uses 32-bit chunks.
_WIDTH16_MAX = 1 << 16

#: Target size in bytes of one batch of per-resample work arrays.
_BATCH_BYTES = 8 << 20


# --------------------------------------------------------------------------- the sampler
def _decode_python(raw, pos, width, n, thresh, r, j, out, vals):
    """Reference decoder in numpy, same contract as the compiled kernels.

    Fills ``out`` from resample ``r``, position ``j`` on: with ``vals`` None, ``out`` (rows, n)
    gets unit indices; otherwise ``out`` (rows, k) gets ``vals[unit]`` added. Starts at chunk
    ``pos`` of ``raw``; returns ``(pos, r, j)`` where it stopped (rows full or raw used up).
    """
    cpw = 64 // width
    mask = np.uint64((1 << width) - 1)
    shifts = np.arange(cpw, dtype=np.uint64) * np.uint64(width)
    chunks = ((raw[:, None] >> shifts[None, :]) & mask).ravel()[pos:]
    m = chunks * np.uint64(n)
    ok = (m & mask) >= np.uint64(thresh)
    units = (m >> np.uint64(width))[ok].astype(np.int64)
    need = (out.shape[0] - r) * n - j
    take = min(need, units.size)
    if take == need:
        consumed = int(np.flatnonzero(ok)[take - 1]) + 1 if take else 0
    else:
        consumed = chunks.size
    flat_start = r * n + j
    seq = units[:take]
    rr, jj = np.divmod(np.arange(flat_start, flat_start + take), n)
    if vals is None:
        out[rr, jj] = seq
    else:
        np.add.at(out, rr, vals[seq])
    end = flat_start + take
    return pos + consumed, int(end // n), int(end % n)


def _compile():
    import numba

    @numba.njit(cache=True, nogil=True)
    def sums_kernel(raw, pos, width, n, thresh, r, j, acc, vals):  # pragma: no cover
        # Chunks of `width` bits of the words of `raw`, lowest first, from chunk `pos` on; a
        # chunk x is accepted when (x * n) mod 2**width >= thresh and gives unit
        # (x * n) >> width (Lemire). acc[r] += vals[unit], resample r taking n units.
        cpw = 64 // width
        mask = np.uint64((1 << width) - 1)
        un = np.uint64(n)
        ut = np.uint64(thresh)
        uw = np.uint64(width)
        nwords = raw.shape[0]
        rows = acc.shape[0]
        k = vals.shape[1]
        local = np.zeros(k)
        s = 0.0
        if r < rows:
            for q in range(k):
                local[q] = acc[r, q]
            s = local[0] if k == 1 else 0.0
        w = pos // cpw
        skip = pos - w * cpw
        while w < nwords:
            word = raw[w]
            for c in range(cpw):
                x = word & mask
                word >>= uw
                if c < skip:
                    continue
                m = x * un
                if (m & mask) >= ut:
                    unit = np.intp(m >> uw)
                    if k == 1:
                        s += vals[unit, 0]
                    else:
                        for q in range(k):
                            local[q] += vals[unit, q]
                    j += 1
                    if j == n:
                        if k == 1:
                            acc[r, 0] = s
                            s = 0.0
                        else:
                            for q in range(k):
                                acc[r, q] = local[q]
                                local[q] = 0.0
                        j = 0
                        r += 1
                        if r == rows:
                            return w * cpw + c + 1, r, j
            skip = 0
            w += 1
        if r < rows:
            if k == 1:
                acc[r, 0] = s
            else:
                for q in range(k):
                    acc[r, q] = local[q]
        return w * cpw, r, j

    @numba.njit(cache=True, nogil=True)
    def index_kernel(raw, pos, width, n, thresh, r, j, out):  # pragma: no cover
        # Same rule; out[r, j] = unit.
        cpw = 64 // width
        mask = np.uint64((1 << width) - 1)
        un = np.uint64(n)
        ut = np.uint64(thresh)
        uw = np.uint64(width)
        nwords = raw.shape[0]
        rows = out.shape[0]
        w = pos // cpw
        skip = pos - w * cpw
        while w < nwords:
            word = raw[w]
            for c in range(cpw):
                x = word & mask
                word >>= uw
                if c < skip:
                    continue
                m = x * un
                if (m & mask) >= ut:
                    out[r, j] = np.intp(m >> uw)
                    j += 1
                    if j == n:
                        j = 0
                        r += 1
                        if r == rows:
                            return w * cpw + c + 1, r, j
            skip = 0
            w += 1
        return w * cpw, r, j

    def decode(raw, pos, width, n, thresh, r, j, out, vals):
        if vals is None:
            return index_kernel(raw, pos, width, n, thresh, r, j, out)
        return sums_kernel(raw, pos, width, n, thresh, r, j, out, vals)

    return decode


_DECODER = None


def _decoder():
    """The compiled decoder (numba), or the numpy reference if numba is not installed."""
    global _DECODER
    if _DECODER is None:
        try:
            _DECODER = _compile()
        except ImportError:  # pragma: no cover
            _DECODER = _decode_python
    return _DECODER


class _UnitStream:
    """Uniform draws of ``n`` units from one block generator, consumed in order."""

    def __init__(self, gen: np.random.Generator, n: int, decoder=None):
        if not 1 <= n < (1 << 32):
            raise ValueError(f"the number of resampled units must be in [1, 2**32); got {n}")
        self.gen = gen
        self.n = int(n)
        self.width = 16 if n <= _WIDTH16_MAX else 32
        self.cpw = 64 // self.width
        self.thresh = (1 << self.width) % self.n
        self.accept = 1.0 - self.thresh / float(1 << self.width)
        self.raw = np.empty(0, dtype=np.uint64)
        self.pos = 0
        self.decoder = decoder or _decoder()

    def _refill(self, need_units: int) -> None:
        need_units = min(need_units, 1 << 20)  # bounded buffer; the kernel resumes
        first = self.pos // self.cpw
        keep = self.raw[first:]
        self.pos -= first * self.cpw
        chunks = need_units / self.accept
        words = math.ceil((chunks + 6.0 * math.sqrt(chunks + 1.0)) / self.cpw) + 4
        self.raw = np.concatenate([keep, self.gen.bit_generator.random_raw(words)])

    def _run(self, out, vals):
        r, j = 0, 0
        rows = out.shape[0]
        while r < rows:
            need = (rows - r) * self.n - j
            available = (self.raw.size * self.cpw - self.pos) * self.accept
            if available < min(need, 1 << 19):
                self._refill(need)
            self.pos, r, j = self.decoder(
                self.raw, self.pos, self.width, self.n, self.thresh, r, j, out, vals
            )

    def indices(self, out: np.ndarray) -> np.ndarray:
        """Fill ``out`` (rows, n) of int64 with the next resamples' unit indices."""
        self._run(out, None)
        return out

    def sums(self, vals: np.ndarray, acc: np.ndarray) -> np.ndarray:
        """Add, per resample (row of ``acc``), ``vals[unit]`` over the next resamples' units.

        Each column of ``acc`` is summed in draw order, whatever the other columns are.
        """
        self._run(acc, vals)
        return acc


def draw_indices(gen: np.random.Generator, n: int, n_resamples: int) -> np.ndarray:
    """Draw ``n_resamples`` resamples of ``n`` unit indices from ``gen`` (index path rule).

    Parameters
    ----------
    gen : numpy.random.Generator
        Consumed in order: the first resample uses the first accepted chunks.
    n : int
        Number of units to draw from (and per resample).
    n_resamples : int

    Returns
    -------
    ndarray of int64, shape (n_resamples, n)

    Examples
    --------
    >>> gen = np.random.Generator(np.random.PCG64(1))
    >>> idx = draw_indices(gen, 5, 3)
    >>> idx.shape, bool(((idx >= 0) & (idx < 5)).all())
    ((3, 5), True)
    """
    out = np.empty((n_resamples, n), dtype=np.int64)
    return _UnitStream(gen, n).indices(out)


def resample_indices(
    root: int, labels: Sequence[Hashable], n: int, n_resamples: int
) -> np.ndarray:
    """The unit indices of resamples ``0..n_resamples-1`` of the stream ``labels``.

    This is the index path of the module's rule, block by block; the bootstrap functions draw
    exactly these (as counts or indices).

    Examples
    --------
    >>> a = resample_indices(7, ["bootstrap", ()], 4, 600)
    >>> b = resample_indices(7, ["bootstrap", ()], 4, 300)
    >>> bool((a[:300] == b).all())
    True
    """
    out = np.empty((n_resamples, n), dtype=np.int64)
    for block, lo, hi in block_slices(n_resamples):
        _UnitStream(block_generator(root, labels, block), n).indices(out[lo:hi])
    return out


def counts_from_indices(indices: np.ndarray, n: int) -> np.ndarray:
    """Per-resample counts of each unit, shape (n_resamples, n), from an index matrix.

    Examples
    --------
    >>> counts_from_indices(np.array([[0, 1, 1, 4, 3]]), 5)
    array([[1., 2., 0., 1., 1.]])
    """
    indices = np.asarray(indices, dtype=np.int64)
    rows = indices.shape[0]
    flat = (indices + np.arange(rows)[:, None] * n).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


def ratio_replicates(
    sums: np.ndarray,
    sizes: np.ndarray | None = None,
    *,
    indices: np.ndarray | None = None,
    counts: np.ndarray | None = None,
) -> np.ndarray:
    """Replicate means ``(counts @ sums) / (counts @ sizes)`` from given draws.

    Parameters
    ----------
    sums : array_like, shape (n_units,) or (n_units, k)
        Per unit (item or cluster) the sum of the values (for items: the value).
    sizes : array_like, shape (n_units,), optional
        Items per unit; all ones by default (the plain mean).
    indices : array_like of int, shape (n_resamples, m), optional
        Drawn unit indices (0-based), one row per resample.
    counts : array_like, shape (n_resamples, n_units), optional
        Or the number of times each unit is drawn.

    Returns
    -------
    ndarray, shape (n_resamples,) or (n_resamples, k)

    Examples
    --------
    The two replicates of the tutorial's five cases (indices 1,2,2,5,4 and 3,3,1,5,5):

    >>> d = np.array([5, -5, 7, -3, 8])
    >>> ratio_replicates(d, indices=np.array([[1, 2, 2, 5, 4], [3, 3, 1, 5, 5]]) - 1)
    array([0., 7.])
    """
    sums = np.asarray(sums, dtype=np.float64)
    n_units = sums.shape[0]
    sizes = np.ones(n_units) if sizes is None else np.asarray(sizes, dtype=np.float64)
    if (indices is None) == (counts is None):
        raise ValueError("give exactly one of `indices` and `counts`")
    if counts is None:
        counts = counts_from_indices(indices, n_units)
    counts = np.asarray(counts, dtype=np.float64)
    num = counts @ sums
    den = counts @ sizes
    return num / (den if num.ndim == 1 else den[:, None])


# ------------------------------------------------------------------------ intervals
def _levels(confidence_level: float) -> tuple[float, float]:
    alpha = 1.0 - confidence_level
    return alpha / 2.0, 1.0 - alpha / 2.0


def _quantiles(replicates: np.ndarray, q) -> np.ndarray:
    """numpy's linear quantile along the last axis at ``q``: one level, or one per row."""
    q = np.asarray(q, dtype=np.float64)
    if q.ndim == 0:
        return np.quantile(replicates, q, axis=-1)
    rows = replicates.reshape(-1, replicates.shape[-1])
    levels = np.broadcast_to(q, replicates.shape[:-1]).reshape(-1)
    out = np.array([np.quantile(r, p) for r, p in zip(rows, levels, strict=True)])
    return out.reshape(replicates.shape[:-1])


def _ends(replicates, lower, upper_tail) -> tuple[np.ndarray, np.ndarray]:
    """The quantile at ``lower`` and the one with ``upper_tail`` of the replicates above it.

    The upper end is minus the ``upper_tail`` quantile of the negated replicates (the same
    value as the ``1 - upper_tail`` quantile up to rounding), so that negating the
    replicates (swapping a and b) mirrors the interval exactly: ``(-high, -low)``.
    """
    reps = np.asarray(replicates, dtype=np.float64)
    return _quantiles(reps, lower), -_quantiles(-reps, upper_tail)


def percentile_interval(replicates, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along the last axis (numpy's linear rule, h = 1 + (B-1)p).

    The upper end is computed as minus the lower end of the negated replicates, so that
    negated replicates give exactly the mirrored interval.

    Examples
    --------
    The tutorial's 20 replicates at 90%:

    >>> reps = [-3, -2, -1, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 10]
    >>> [round(float(x), 10) for x in percentile_interval(reps, 0.90)]
    [-2.05, 8.1]
    """
    lo, _ = _levels(confidence_level)
    return _ends(replicates, lo, lo)


def basic_interval(replicates, estimate, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Basic (reverse percentile) interval: ``2 * estimate - q(1 - p), 2 * estimate - q(p)``.

    Examples
    --------
    >>> reps = [-3, -2, -1, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 10]
    >>> [round(float(x), 10) for x in basic_interval(reps, 3.0, 0.90)]
    [-2.1, 8.05]
    """
    low, high = percentile_interval(replicates, confidence_level)
    estimate = np.asarray(estimate, dtype=np.float64)
    return 2.0 * estimate - high, 2.0 * estimate - low


def bias_correction(replicates, estimate, tie_error=0.0) -> np.ndarray:
    """BCa bias correction ``z0 = Phi^-1(F)``, F the share of replicates below the estimate.

    Ties count one half (scipy's rule: the mean of the shares ``< estimate`` and
    ``<= estimate``). A replicate is a tie when it lies within ``max(1e-12 * scale,
    tie_error)`` of the estimate: ``scale`` is the larger of ``|estimate|`` and the
    replicates' mean absolute value, and ``1e-12 * scale`` covers the float64 arithmetic
    (a resample equal to the sample in exact arithmetic, e.g. every unit drawn once, must not
    be split by rounding); ``tie_error`` bounds how far the rounding of the scores as given
    can move a replicate from the estimate (:func:`tie_error`), so that scores given in
    float32 count the same ties as the decimals they stand for.
    ``Phi^-1`` is taken of the smaller tail and given its sign, so that negated replicates
    and estimate give exactly ``-z0``.

    Parameters
    ----------
    replicates : array_like, shape (..., B)
    estimate : array_like, shape (...)
    tie_error : float or array_like, shape (...), default 0

    Examples
    --------
    >>> reps = np.array([1.0, 2.0, 3.0, 4.0])
    >>> bool(bias_correction(reps, 1.5) == -bias_correction(-reps, -1.5))
    True

    ``0.3`` (a resample's mean of 0.1 and 0.5 given in float32) is a tie with ``0.3`` (the
    sample's mean of 0.2 and 0.4) once the scores' precision is taken into account:

    >>> f = np.float32
    >>> rep, est = (float(f(0.1)) + float(f(0.5))) / 2, (float(f(0.2)) + float(f(0.4))) / 2
    >>> rep == est
    False
    >>> error = tie_error(np.array([[0.0, 0.5]]), 2.0**-24)
    >>> float(bias_correction([rep, 0.0, 1.0], est, error))
    0.0
    """
    reps = np.asarray(replicates, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)[..., None]
    scale = np.maximum(np.abs(est), np.abs(reps).mean(axis=-1, keepdims=True))
    tol = np.maximum(1e-12 * scale, np.asarray(tie_error, dtype=np.float64)[..., None])
    below = (reps < est - tol).sum(axis=-1)
    at_or_below = (reps <= est + tol).sum(axis=-1)
    twice = below + at_or_below  # 2 B F
    total = 2 * reps.shape[-1]
    z = special.ndtri(np.minimum(twice, total - twice) / total)
    return np.where(2 * twice <= total, z, -z)


def tie_error(scores, precision: float = 2.0**-53) -> float:
    """Bound on how far the rounding of the scores as given moves a replicate from the estimate.

    Each per-item difference ``b - a`` errs by at most ``ERROR_ULPS * precision * max|x|``
    (:func:`pairedstats.core.tukey.difference_error`, the error model of the scores that the
    Tukey tie rule uses: ``max|x|`` the largest magnitude of the two systems' scores). A
    replicate and the estimate are both weighted means of those differences, with weights
    that sum to one (items, the ratio of cluster sums to cluster sizes, strata combined with
    their weights), so rounding moves them apart by at most twice that: a replicate closer to
    the estimate than this cannot be told from a tie with the precision of the scores.

    Parameters
    ----------
    scores : ndarray of float, shape (n_items, 2)
        The scores of a and b (finite).
    precision : float
        Unit roundoff of the scores as given (``2**-53`` for float64 and integers,
        ``2**-24`` for float32; :attr:`pairedstats.core.design.PairedDesign.precision`).

    Examples
    --------
    >>> tie_error(np.array([[0.25, -0.5]]), 2.0**-24) == 2 * 16 * 2.0**-24 * 0.5
    True
    """
    return 2.0 * difference_error(np.asarray(scores, dtype=np.float64), precision)


def acceleration(influence, strata_sizes: Sequence[int] | None = None) -> np.ndarray:
    """BCa acceleration of influence values ``L`` (last axis), stratified.

    ``a = sum_h n_h**-3 sum_j L_hj**3 / (6 * (sum_h n_h**-2 sum_j L_hj**2) ** 1.5)``: the
    third cumulant over the variance to the power 1.5, over 6, of the linear approximation of
    a statistic whose bootstrap draws ``n_h`` units within each stratum ``h`` (Davison and
    Hinkley 1997, *Bootstrap Methods and their Application*, section 5.3, stratified case).
    With one stratum it is Efron's ``sum(L**3) / (6 * sum(L**2) ** 1.5)``; with strata of
    unequal sizes that unweighted form is wrong.

    Parameters
    ----------
    influence : array_like, shape (..., n_units)
        Jackknife influence values (:func:`jackknife_influence`), the units of a stratum
        contiguous.
    strata_sizes : sequence of int, optional
        Units of each stratum, in order (one stratum of all units if None).

    Returns
    -------
    ndarray, shape (...)
        NaN where all ``L`` are zero (or not finite).

    Examples
    --------
    For a linear statistic ``a`` is the skewness of its exact bootstrap distribution over 6.
    The mean of ``[0, 0, 3]``: the mean of 3 draws has third cumulant ``mu3 / 9`` and
    variance ``var / 3``, so ``a = (2 / 9) / (6 * (2 / 3) ** 1.5)``:

    >>> float(np.round(acceleration([-1.0, -1.0, 2.0]), 12))
    0.068041381744
    >>> float(np.round((2 / 9) / (6 * (2 / 3) ** 1.5), 12))
    0.068041381744
    """
    L = np.asarray(influence, dtype=np.float64)
    sizes = [L.shape[-1]] if strata_sizes is None else list(strata_sizes)
    scaled = L / np.repeat(np.asarray(sizes, dtype=np.float64), sizes)
    square = scaled * scaled  # products, not np.power: exactly odd in L
    num = (square * scaled).sum(axis=-1)
    den = 6.0 * square.sum(axis=-1) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def jackknife_influence(values, strata_sizes=None) -> np.ndarray:
    """Influence values from leave-one-out estimates (Efron & Tibshirani 1993, eq. 14.15).

    ``L_i = (n_h - 1) * (mean of the leave-outs of i's stratum - leave-out i)``; the leave-outs
    of one stratum are contiguous, ``strata_sizes`` gives their counts (one stratum if None).
    A stratum of one unit contributes ``L = 0``.
    """
    values = np.asarray(values, dtype=np.float64)
    sizes = [values.shape[-1]] if strata_sizes is None else list(strata_sizes)
    out = np.zeros_like(values)
    lo = 0
    for size in sizes:
        hi = lo + size
        if size > 1:
            part = values[..., lo:hi]
            out[..., lo:hi] = (size - 1) * (part.mean(axis=-1, keepdims=True) - part)
        lo = hi
    return out


def bca_interval(
    replicates, estimate, acceleration, confidence_level: float, tie_error=0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bias-corrected and accelerated interval along the last axis (Efron 1987).

    Parameters
    ----------
    replicates : array_like, shape (..., B)
    estimate : array_like, shape (...)
    acceleration : array_like, shape (...)
        BCa's ``a`` (:func:`acceleration`); NaN (undefined) is taken as 0.
    confidence_level : float
    tie_error : float or array_like, shape (...), default 0
        Replicates this close to the estimate are ties (:func:`bias_correction`,
        :func:`tie_error`).

    Returns
    -------
    low, high, z0 : ndarray, shape (...)
        Where ``z0`` is infinite (the estimate lies outside the replicates) the percentile
        interval is returned. Where the replicates are a point, the interval is that point.
        Negated replicates, estimate and acceleration give exactly ``(-high, -low, -z0)``.

    Examples
    --------
    >>> reps = np.array([1.0, 2.0, 2.5, 3.0, 4.0, 6.0])
    >>> low, high, z0 = bca_interval(reps, 2.5, 0.1, 0.8)
    >>> mlow, mhigh, mz0 = bca_interval(-reps, -2.5, -0.1, 0.8)
    >>> bool(low == -mhigh and high == -mlow and z0 == -mz0)
    True
    """
    reps = np.asarray(replicates, dtype=np.float64)
    est = np.broadcast_to(np.asarray(estimate, dtype=np.float64), reps.shape[:-1])
    z0 = np.asarray(bias_correction(reps, est, tie_error), dtype=np.float64)
    finite = np.isfinite(z0)
    zz = np.where(finite, z0, 0.0)
    a = np.asarray(acceleration, dtype=np.float64)
    aa = np.where(finite & np.isfinite(a), a, 0.0)
    lo, _ = _levels(confidence_level)
    z_lo = special.ndtri(lo)
    u_lo = zz + (zz + z_lo) / (1.0 - aa * (zz + z_lo))
    u_hi = zz + (zz - z_lo) / (1.0 - aa * (zz - z_lo))
    # percentile fallback where z0 is infinite: the percentile levels themselves
    lower = np.where(finite, special.ndtr(u_lo), lo)
    upper_tail = np.where(finite, special.ndtr(-u_hi), lo)
    low, high = _ends(reps, lower, upper_tail)
    return low, high, z0


# ---------------------------------------------------------------------- group data
def pair_differences(scores: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """Per item b - a of each comparison (a, b) of ``scores`` (n_items, n_systems).

    Examples
    --------
    >>> pair_differences(np.array([[1.0, 3.0, 4.0]]), [(0, 1), (0, 2)]).tolist()
    [[2.0, 3.0]]
    """
    return scores[:, [b for _, b in pairs]] - scores[:, [a for a, _ in pairs]]


def canonical_sign(a: Hashable, b: Hashable) -> float:
    """+1.0 if the comparison of ``a`` and ``b`` is drawn as ``b - a``, -1.0 if as ``a - b``.

    The order of two labels is that of their :func:`~pairedstats.core.streams.label_words`,
    which does not depend on the order of the systems in a call: ``(a, b)`` and ``(b, a)``
    are drawn the same way.

    Examples
    --------
    >>> canonical_sign("x", "y") == -canonical_sign("y", "x")
    True
    """
    return 1.0 if label_words((a,)) <= label_words((b,)) else -1.0


class GroupData:
    """The resampling units of one group, ready for the replicate computation.

    Parameters
    ----------
    scores : ndarray, shape (n_items, n_systems, n_columns)
    pairs : sequence of (a, b) system indices
    cluster : ndarray of int, shape (n_items,), optional
        Cluster code of each item; units are clusters, in order of first appearance.
    strata : ndarray of int, shape (n_items,), optional
        Stratum code of each item; clusters must be nested in strata.
    strata_labels : sequence, optional
        Label of each stratum code (the stream key).
    weights : mapping stratum code -> weight, optional
        Population weights (normalised here over the strata present); sample proportions
        when None.
    systems : sequence, optional
        Label of each system (default: its index). They fix each comparison's canonical
        orientation on the counts path (:attr:`orientation`) and name systems in messages.
    precision : float, default ``2**-53``
        Unit roundoff of the scores as given (:attr:`PairedDesign.precision
        <pairedstats.core.design.PairedDesign.precision>`): it sets BCa's tie tolerance
        (:func:`tie_error`).
    """

    def __init__(
        self,
        scores: np.ndarray,
        pairs: Sequence[tuple[int, int]],
        *,
        cluster: np.ndarray | None = None,
        strata: np.ndarray | None = None,
        strata_labels: Sequence[Hashable] = (),
        weights: dict | None = None,
        systems: Sequence[Hashable] | None = None,
        precision: float = 2.0**-53,
    ):
        self.scores = scores
        self.precision = float(precision)
        self.pairs = list(pairs)
        self.systems = list(range(scores.shape[1])) if systems is None else list(systems)
        #: per comparison, +1 if it is drawn as b - a on the counts path, -1 if as a - b
        self.orientation = np.array([canonical_sign(self.systems[a], self.systems[b])
                                     for a, b in self.pairs])  # fmt: skip
        n = scores.shape[0]
        self.n_items = n
        # strata, in order of first appearance within the group
        if strata is None:
            s_codes = np.zeros(n, dtype=np.int64)
            self.stratum_keys: list = [None]
        else:
            uniq, first, inv = np.unique(strata, return_index=True, return_inverse=True)
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(order.size)
            s_codes = rank[inv.reshape(-1)]
            self.stratum_keys = [strata_labels[int(c)] for c in uniq[order]]
            self._stratum_codes = [int(c) for c in uniq[order]]
        # units: items or clusters, ordered by stratum, then first appearance
        if cluster is None:
            unit_of_item = np.arange(n)
        else:
            uniq, first, inv = np.unique(cluster, return_index=True, return_inverse=True)
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(order.size)
            unit_of_item = rank[inv.reshape(-1)]
        n_units = int(unit_of_item.max()) + 1 if n else 0
        unit_stratum = np.full(n_units, -1, dtype=np.int64)
        unit_stratum[unit_of_item] = s_codes
        if cluster is not None:
            check = unit_stratum[unit_of_item] != s_codes
            if check.any():
                raise ValueError("each cluster must lie within one stratum")
        # reorder units by stratum (stable)
        perm = np.argsort(unit_stratum, kind="stable")
        new_id = np.empty_like(perm)
        new_id[perm] = np.arange(n_units)
        self.unit_of_item = new_id[unit_of_item]
        self.unit_stratum = unit_stratum[perm]
        self.n_units = n_units
        self.clustered = cluster is not None
        self.stratified = strata is not None
        self.strata_sizes = np.bincount(self.unit_stratum, minlength=len(self.stratum_keys))
        self.strata_bounds = np.concatenate([[0], np.cumsum(self.strata_sizes)])
        self.unit_sizes = np.bincount(self.unit_of_item, minlength=n_units).astype(np.float64)
        items_per_stratum = np.bincount(s_codes, minlength=len(self.stratum_keys))
        if weights is None:
            w = items_per_stratum / float(n)
        else:
            w = np.array([float(weights[c]) for c in self._stratum_codes])
            w = w / w.sum()
        self.weights = w
        self.item_stratum = s_codes
        # items ordered by unit, for the general statistic with clusters
        self.item_order = np.argsort(self.unit_of_item, kind="stable")
        self.unit_starts = np.concatenate([[0], np.cumsum(self.unit_sizes.astype(np.int64))])

    # -- the mean
    def differences(self, column: int = 0) -> np.ndarray:
        """Per item, per comparison b - a, shape (n_items, n_comp)."""
        return pair_differences(self.scores[:, :, column], self.pairs)

    def unit_sums(self, values: np.ndarray) -> np.ndarray:
        """Sum of ``values`` (n_items, k) per unit, shape (n_units, k)."""
        out = np.zeros((self.n_units, values.shape[1]))
        if self.clustered:
            np.add.at(out, self.unit_of_item, values)
        else:
            out[self.unit_of_item] = values
        return out

    def stratified_mean(self, values: np.ndarray) -> np.ndarray:
        """The weighted combination of stratum item means of ``values`` (n_items, k)."""
        k = len(self.stratum_keys)
        sums = np.zeros((k, values.shape[1]))
        np.add.at(sums, self.item_stratum, values)
        counts = np.bincount(self.item_stratum, minlength=k).astype(np.float64)
        means = sums / counts[:, None]
        # stratum by stratum, elementwise: a column's bits do not depend on the other columns
        # (a matrix product's may, through its vector lanes)
        out = self.weights[0] * means[0]
        for w, m in zip(self.weights[1:], means[1:], strict=True):
            out += w * m
        return out


def mean_influence(group: GroupData, sums: np.ndarray) -> np.ndarray:
    """Jackknife influence values of the (stratified) ratio estimator, shape (k, n_units).

    Leave-one-unit-out in closed form: removing unit ``u`` of stratum ``h`` changes only that
    stratum's ratio, to ``(S_h - s_u) / (N_h - m_u)``.

    A comparison's values come from its own column by the same operations in the same order
    whatever the other columns: the stratum totals ``S_h`` are summed along the contiguous
    rows of the transposed sums. Summed down the columns of the ``(n, k)`` sums, one column
    would be added pairwise and several row after row, and another system in the call would
    move the acceleration by an ulp.
    """
    k = sums.shape[1]
    leave = np.empty((k, group.n_units))
    for h in range(len(group.stratum_keys)):
        lo, hi = group.strata_bounds[h], group.strata_bounds[h + 1]
        s = sums[lo:hi]
        m = group.unit_sizes[lo:hi]
        S, N = np.ascontiguousarray(s.T).sum(axis=-1), m.sum()
        if hi - lo > 1:
            leave[:, lo:hi] = group.weights[h] * ((S[None, :] - s) / (N - m)[:, None]).T
        else:
            leave[:, lo:hi] = group.weights[h] * (S / N)[:, None]
        # other strata are unchanged: a constant shift, irrelevant to the influence values
    return jackknife_influence(leave, group.strata_sizes)


def _rows_per_batch(width: int) -> int:
    return int(max(1, min(BLOCK, _BATCH_BYTES // max(1, 8 * width))))


def _stratum_labels(group_key, stratum_key, stratified: bool) -> tuple:
    if stratified:
        return (LABEL, group_key, stratum_key)
    return (LABEL, group_key)


def _index_mean(vals, group_key, stratum_key, stratified, root, n_resamples, workers, batch_rows):
    """Replicate sums over the drawn units of each column of ``vals``: shape (B, k).

    The compiled kernel (:func:`pairedstats.core._kernels.stream_sums`) seeds and runs the
    block generators itself; without numba, or with ``batch_rows`` (tests), the numpy-driven
    :class:`_UnitStream` computes the same sums.
    """
    n, k = vals.shape
    labels = _stratum_labels(group_key, stratum_key, stratified)
    vals = np.ascontiguousarray(vals, dtype=np.float64)
    blocks = block_slices(n_resamples)
    nw = min(default_workers(workers), len(blocks))
    kernel = None if batch_rows else _stream_kernel()
    if kernel is not None:
        prefix = entropy_prefix(root, label_words(labels))
        out = np.empty((1, k, n_resamples))
        args = (prefix, np.array([0, prefix.size]), np.ascontiguousarray(vals.T),
                np.array([0, n]), n_resamples)  # fmt: skip
        _run_tasks(lambda lo, hi: kernel(*args, lo, hi, out), len(blocks), nw)
        return out[0].T
    acc = np.zeros((n_resamples, k))

    def task(first, last):
        for block, lo, hi in blocks[first:last]:
            stream = _UnitStream(block_generator(root, labels, block), n)
            rows = batch_rows or (hi - lo)
            for start in range(lo, hi, rows):
                stream.sums(vals, acc[start : min(start + rows, hi)])

    _run_tasks(task, len(blocks), nw)
    return acc


def _run_tasks(fn, n_tasks: int, nw: int) -> None:
    """Call ``fn(lo, hi)`` on ``nw`` contiguous parts of ``range(n_tasks)``, in threads."""
    cuts = [n_tasks * i // nw for i in range(nw + 1)]
    run_parts([lambda lo=lo, hi=hi: fn(lo, hi) for lo, hi in itertools.pairwise(cuts) if hi > lo])


_STREAM_KERNEL: list = []


def _stream_kernel():
    """:func:`pairedstats.core._kernels.stream_sums`, or None if numba is not installed."""
    if not _STREAM_KERNEL:
        try:
            from ._kernels import stream_sums
        except ImportError:  # pragma: no cover
            stream_sums = None
        _STREAM_KERNEL.append(stream_sums)
    return _STREAM_KERNEL[0]


def _counts_mean(sums1, sizes, group_key, stratum_key, stratified, root, n_resamples):
    """(num, den) replicates of one comparison on the counts path: (B,) and (B,)."""
    n = sums1.shape[0]
    vals, inv = np.unique(np.column_stack([sums1, sizes]), axis=0, return_inverse=True)
    mult = np.bincount(inv.reshape(-1), minlength=vals.shape[0]).astype(np.float64)
    p = mult / n
    labels = _stratum_labels(group_key, stratum_key, stratified)
    num = np.empty(n_resamples)
    den = np.empty(n_resamples)
    for block, lo, hi in block_slices(n_resamples):
        gen = block_generator(root, labels, block)
        c = gen.multinomial(n, p, size=hi - lo).astype(np.float64)
        num[lo:hi] = c @ vals[:, 0]
        den[lo:hi] = c @ vals[:, 1]
    return num, den


def _stratum_ratios(group, h, sums, group_key, root, n_resamples, resampling, workers, batch_rows):
    """Replicates (B, k) of stratum ``h``'s ratio (item mean) of each column of ``sums``."""
    lo, hi = group.strata_bounds[h], group.strata_bounds[h + 1]
    s, m, n = sums[lo:hi], group.unit_sizes[lo:hi], hi - lo
    skey, stratified = group.stratum_keys[h], group.stratified
    if resampling == "counts":
        ratio = np.empty((n_resamples, s.shape[1]))
        for c, sign in enumerate(group.orientation):
            num, den = _counts_mean(sign * s[:, c], m, group_key, skey, stratified, root,
                                    n_resamples)  # fmt: skip
            ratio[:, c] = sign * (num / den)
        return ratio
    vals = np.column_stack([s, m]) if group.clustered else s
    acc = _index_mean(vals, group_key, skey, stratified, root, n_resamples, workers, batch_rows)
    if group.clustered:
        return acc[:, :-1] / acc[:, -1:]
    return acc / float(n)


def _mean_replicates(group, group_key, root, n_resamples, resampling, workers, batch_rows):
    d = group.differences()
    sums = group.unit_sums(d)
    total = np.zeros((n_resamples, d.shape[1]))
    for h in range(len(group.stratum_keys)):
        total += group.weights[h] * _stratum_ratios(
            group, h, sums, group_key, root, n_resamples, resampling, workers, batch_rows
        )
    # degenerate: every stratum's differences constant -> the estimate exactly
    estimate = group.stratified_mean(d)
    constant = np.ones(d.shape[1], dtype=bool)
    for h in range(len(group.stratum_keys)):
        constant &= np.ptp(d[group.item_stratum == h], axis=0) == 0
    total[:, constant] = estimate[constant]
    return total.T, estimate, sums


def plain_mean(values: np.ndarray) -> np.ndarray:
    """Column means of ``values`` (n, k) as :meth:`GroupData.stratified_mean` computes them
    for one stratum (same additions in the same order, so the same bits).

    Examples
    --------
    >>> plain_mean(np.array([[1.0, 2.0], [3.0, 6.0]])).tolist()
    [2.0, 4.0]
    """
    sums = np.zeros((1, values.shape[1]))
    np.add.at(sums, np.zeros(values.shape[0], dtype=np.intp), values)
    return 1.0 * (sums[0] / float(values.shape[0]))


def mean_replicates_many(
    differences: Sequence[np.ndarray],
    group_keys: Sequence[Hashable],
    *,
    root: int,
    n_resamples: int,
    workers: int | None = None,
) -> np.ndarray:
    """Index-path replicates of many unclustered, unstratified groups in one kernel call.

    ``differences[g]`` (n_g, k) are group ``g``'s per-item differences. Returns (G, k, B),
    equal to what :func:`group_replicates` gives each group on its own (``resampling=
    "index"``): the streams are keyed by each group's key, never by its position.

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> d = [gen.normal(size=(30, 2)), gen.normal(size=(12, 2))]
    >>> both = mean_replicates_many(d, ["x", "y"], root=1, n_resamples=500)
    >>> alone = mean_replicates_many(d[1:], ["y"], root=1, n_resamples=500)
    >>> both.shape, bool((both[1] == alone[0]).all())
    ((2, 2, 500), True)
    """
    kernel = _stream_kernel()
    if kernel is None:  # pragma: no cover
        return np.stack([
            _index_mean(d, key, None, False, root, n_resamples, workers, None).T / d.shape[0]
            for d, key in zip(differences, group_keys, strict=True)
        ])  # fmt: skip
    k = differences[0].shape[1]
    prefixes = [entropy_prefix(root, label_words((LABEL, key))) for key in group_keys]
    prefix_bounds = np.concatenate([[0], np.cumsum([p.size for p in prefixes])])
    sizes = np.array([d.shape[0] for d in differences])
    unit_bounds = np.concatenate([[0], np.cumsum(sizes)])
    vals = np.ascontiguousarray(np.concatenate(differences).T, dtype=np.float64)
    out = np.empty((len(differences), k, n_resamples))
    args = (np.concatenate(prefixes), prefix_bounds, vals, unit_bounds, n_resamples)
    n_tasks = len(differences) * len(block_slices(n_resamples))
    _run_tasks(lambda lo, hi: kernel(*args, lo, hi, out), n_tasks, default_workers(workers))
    out /= sizes.astype(np.float64)[:, None, None]
    for g, d in enumerate(differences):
        constant = np.ptp(d, axis=0) == 0
        if constant.any():
            out[g, constant] = plain_mean(d)[constant, None]
    return out


# ----------------------------------------------------------------- general statistic
class _ContractError(ValueError):
    """``statistic`` returned something other than what the contract asks for."""


def per_resample(statistic: Callable) -> Callable:
    """A vectorized form of a ``statistic`` that takes no ``axis``.

    The returned function takes ``(*columns, axis=-1)`` and calls ``statistic(*columns)``
    once per resample (row) on 1-D columns, as scipy does with ``vectorized=False``: one
    Python call per resample and system instead of one per batch.

    Examples
    --------
    >>> f = per_resample(lambda x: float(x.max()))
    >>> f(np.array([[1.0, 3.0], [2.0, 0.0]]), axis=-1).tolist()
    [3.0, 2.0]
    """

    def vectorized(*columns, axis=-1):
        rows = columns[0].shape[:-1]
        out = np.empty(rows)
        for r in np.ndindex(rows):
            value = statistic(*(c[r] for c in columns))
            if np.ndim(value) != 0:
                raise _ContractError(
                    "`statistic` (no `axis` parameter: called once per resample on 1-D "
                    f"columns) must return one number; got an array of shape {np.shape(value)}."
                )
            out[r] = value
        return out

    return functools.wraps(statistic)(vectorized)


def _system_statistic(statistic, group, system, idx, what="resamples"):
    """``statistic`` of one system's columns at items ``idx``: one value per row of ``idx``.

    Checks the contract: the statistic must not raise on the sample and must return shape
    ``idx.shape[:-1]`` (one value per resample along the last axis).
    """
    scores = group.scores
    cols = [scores[:, system, c][idx] for c in range(scores.shape[2])]
    where = f"{what} of system {group.systems[system]!r}"
    try:
        value = np.asarray(statistic(*cols, axis=-1), dtype=np.float64)
    except _ContractError:
        raise
    except Exception as exc:
        raise ValueError(
            f"`statistic` raised {type(exc).__name__} on the {where}: {exc}. It must take one "
            "array per score column (and `axis`, if it has that parameter) and return the "
            "metric."
        ) from exc
    expected = idx.shape[:-1]
    if value.shape != expected:
        raise ValueError(
            "`statistic` must return one value per resample along the last axis: on the "
            f"{where}, given columns of shape {cols[0].shape}, it returned shape {value.shape}; "
            f"expected {expected}. Reduce along `axis` (e.g. `np.mean(x, axis=axis)`), or "
            "define `statistic` without an `axis` parameter to have it called once per "
            "resample."
        )
    return value


def _statistic_replicates(group, statistic, group_key, root, n_resamples, batch_rows):
    """Replicates (k, B) of statistic(b) - statistic(a) on resampled items."""
    systems = sorted({s for p in group.pairs for s in p})
    scores = group.scores
    per_system = {s: np.empty(n_resamples) for s in systems}
    strata = range(len(group.stratum_keys))
    if not group.clustered:
        items_of_stratum = [np.flatnonzero(group.item_stratum == h) for h in strata]
        n = group.n_items
        rows = batch_rows or _rows_per_batch(n * max(1, scores.shape[2]) * 2)
        for block, lo, hi in block_slices(n_resamples):
            streams = [
                _UnitStream(
                    block_generator(
                        root,
                        _stratum_labels(group_key, group.stratum_keys[h], group.stratified),
                        block,
                    ),
                    group.strata_sizes[h],
                )
                for h in strata
            ]
            for start in range(lo, hi, rows):
                stop = min(start + rows, hi)
                parts = []
                for h in strata:
                    ih = np.empty((stop - start, group.strata_sizes[h]), dtype=np.int64)
                    streams[h].indices(ih)
                    parts.append(items_of_stratum[h][ih])
                idx = np.concatenate(parts, axis=1)
                for s in systems:
                    per_system[s][start:stop] = _system_statistic(statistic, group, s, idx)
    else:
        order = group.item_order
        starts = group.unit_starts
        sizes = group.unit_sizes.astype(np.int64)
        for block, lo, hi in block_slices(n_resamples):
            parts = []
            for h in strata:
                labels = _stratum_labels(group_key, group.stratum_keys[h], group.stratified)
                nh = group.strata_sizes[h]
                uh = np.empty((hi - lo, nh), dtype=np.int64)
                _UnitStream(block_generator(root, labels, block), nh).indices(uh)
                parts.append(uh + group.strata_bounds[h])
            units = np.concatenate(parts, axis=1)
            for r in range(hi - lo):
                u = units[r]
                lens = sizes[u]
                total = int(lens.sum())
                base = np.repeat(starts[u] - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
                idx = order[base + np.arange(total)]
                for s in systems:
                    per_system[s][lo + r] = _system_statistic(statistic, group, s, idx)
    reps = np.stack([per_system[b] - per_system[a] for a, b in group.pairs])
    return reps


def _statistic_estimates(group, statistic):
    systems = sorted({s for p in group.pairs for s in p})
    idx = np.arange(group.n_items)
    return {s: float(_system_statistic(statistic, group, s, idx, "sample")) for s in systems}


_LEAVE_ONE_OUT = "leave-one-out samples"


def _statistic_influence(group, statistic):
    """Leave-one-unit-out influence values (k, n_units) of statistic(b) - statistic(a)."""
    systems = sorted({s for p in group.pairs for s in p})
    n_units = group.n_units
    leave = {s: np.empty(n_units) for s in systems}
    scores = group.scores
    if not group.clustered:
        # units are items, ordered by stratum: unit u is item item_of_unit[u]
        item_of_unit = np.empty(group.n_items, dtype=np.int64)
        item_of_unit[group.unit_of_item] = np.arange(group.n_items)
        n = group.n_items
        rows = _rows_per_batch(n * max(1, scores.shape[2]) * 2)
        base = np.arange(n - 1)
        for lo in range(0, n_units, rows):
            hi = min(lo + rows, n_units)
            out = item_of_unit[lo:hi]
            idx = base[None, :] + (base[None, :] >= out[:, None])
            for s in systems:
                leave[s][lo:hi] = _system_statistic(statistic, group, s, idx, _LEAVE_ONE_OUT)
    else:
        for u in range(n_units):
            keep = np.flatnonzero(group.unit_of_item != u)
            for s in systems:
                leave[s][u] = _system_statistic(statistic, group, s, keep, _LEAVE_ONE_OUT)
    values = np.stack([leave[b] - leave[a] for a, b in group.pairs])
    return jackknife_influence(values, group.strata_sizes)


# ------------------------------------------------------------------------- one group
def group_replicates(
    group: GroupData,
    *,
    group_key: Hashable,
    root: int,
    n_resamples: int,
    statistic: Callable | None = None,
    resampling: str = "index",
    influence: bool = False,
    workers: int | None = None,
    batch_rows: int | None = None,
) -> dict:
    """Replicates and estimates of every comparison of one group.

    Parameters
    ----------
    statistic : callable, optional
        Vectorized (``statistic(*columns, axis=-1)``; see :func:`per_resample`); the mean
        when None.
    resampling : {"index", "counts", "auto"}
        "counts" (the mean only) draws each comparison's multinomial counts; any other value
        the shared unit indices (the module docstring).
    influence : bool
        Also compute what BCa needs besides the replicates: the jackknife influence values,
        the acceleration (:func:`acceleration` with the group's units per stratum) and the
        tie tolerance (:func:`tie_error` of each comparison's two systems; with
        ``statistic``, of the two sides' statistics, taken to be known as a score is).

    Returns
    -------
    dict
        ``replicates`` (k, B), ``estimate`` (k,), ``stat_a``, ``stat_b`` (k,),
        ``counts_path`` (k,) bool, and if asked ``influence`` (k, n_units),
        ``acceleration`` (k,) and ``tie_error`` (k,).
    """
    a_idx = [p[0] for p in group.pairs]
    b_idx = [p[1] for p in group.pairs]
    counts = statistic is None and resampling == "counts"
    out: dict = {"counts_path": np.full(len(group.pairs), counts)}
    if statistic is None:
        reps, estimate, sums = _mean_replicates(
            group, group_key, root, n_resamples, resampling, workers, batch_rows
        )
        means = group.stratified_mean(group.scores[:, :, 0])
        stat_a, stat_b = means[a_idx], means[b_idx]
    else:
        values = _statistic_estimates(group, statistic)
        stat_a = np.array([values[a] for a in a_idx])
        stat_b = np.array([values[b] for b in b_idx])
        estimate = stat_b - stat_a
        reps = _statistic_replicates(group, statistic, group_key, root, n_resamples, batch_rows)
    out.update(stat_a=stat_a, stat_b=stat_b, estimate=estimate, replicates=reps)
    if influence:
        L = (
            mean_influence(group, sums)
            if statistic is None
            else _statistic_influence(group, statistic)
        )
        out["influence"] = L
        out["acceleration"] = acceleration(L, group.strata_sizes)
        if statistic is None:
            sides = [group.scores[:, [a, b], 0] for a, b in group.pairs]
        else:
            sides = [np.array([[sa, sb]]) for sa, sb in zip(stat_a, stat_b, strict=True)]
        out["tie_error"] = np.array([tie_error(x, group.precision) for x in sides])
    return out
