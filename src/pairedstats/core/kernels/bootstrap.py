"""Bootstrap replicate sums of the index path, many streams in one call."""

from __future__ import annotations

import numba
import numpy as np

from ..draws import jit as draws
from ..parallel import scratch_array

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)

#: Resamples decoded together (a buffer of their unit indices).
_LANES = 8
#: Columns summed together over a resample's units (a row of the unit table at a time):
#: their rows over the units of a stream, a few MB, stay in cache.
_WIDTH = 128
#: Units above which a stream decodes one resample at a time (a bounded buffer).
_MANY_UNITS = 1 << 20


@_inline
def _sum_rows(values, u0, q0, width, buf, base, n, acc):  # pragma: no cover
    # acc[c] = sum over j, in draw order, of values[u0 + buf[base + j], q0 + c], c < width:
    # one unit's row of ``width`` columns added at a time (vectorized over the columns,
    # each column's sum still in draw order)
    a = acc[:width]
    a[:] = 0.0
    for j in range(n):
        row = values[u0 + buf[base + j], q0 : q0 + width]
        for c in range(width):
            a[c] += row[c]


@_inline
def _open_task(seeds, units, n_resamples, block_size, t, lo, state):  # pragma: no cover
    # task t: block t % n_blocks of stream s = t // n_blocks, its generator set in `state`
    # from its seed words seeds[t - lo]; (s, first unit, units, first resample, end)
    n_blocks = (n_resamples + block_size - 1) // block_size
    s = t // n_blocks
    block = t - s * n_blocks
    draws.start_stream(state, seeds[t - lo])
    u0 = units.bounds[s]
    r = block * block_size
    stop = r + block_size
    return s, u0, units.bounds[s + 1] - u0, r, stop if stop < n_resamples else n_resamples


def scratch(units) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scratch arrays of one call of :func:`stream_sums` (:func:`column_sums` takes the
    first two): a stream state, the unit buffer (one column: the remainders of a block of
    chunks, :func:`~pairedstats.core.draws.jit.sum_units`), the sums of a row's columns.
    Allocated by the caller, so that the kernels allocate nothing (an allocation is one more
    function to compile), on cache lines of their own
    (:func:`~pairedstats.core.parallel.scratch_array`)."""
    state = scratch_array(draws.STATE_WORDS, np.uint64)
    if units.values.shape[1] == 1:
        return state, scratch_array(draws.PER_BLOCK, np.uint32), np.empty(0)
    n = np.diff(units.bounds)
    most = int(np.where(n <= _MANY_UNITS, _LANES * n, n).max(initial=1))
    return state, scratch_array(most, np.uint32), scratch_array(_WIDTH, np.float64)


@_njit
def column_sums(seeds, units, n_resamples, block_size, lo, hi, out, state,
                buf):  # fmt: skip  # pragma: no cover
    """:func:`stream_sums` of a single column (``units.values`` of one column), each resample
    summed as it is drawn (:func:`~pairedstats.core.draws.jit.sum_units`: the same bits,
    no buffer of indices; ``buf`` holds a block's remainders). A kernel of its own, so that
    a call compiles only the path it takes."""
    for t in range(lo, hi):
        s, u0, n, r, stop = _open_task(seeds, units, n_resamples, block_size, t, lo, state)
        width, threshold = draws.unit_rule(n)
        v = units.values[u0 : u0 + n, 0]
        for i in range(r, stop):
            out[s, 0, i] = draws.sum_units(state, v, n, width, threshold, buf)


@_njit
def stream_sums(seeds, units, n_resamples, block_size, lo, hi, out, state, buf,
                dst):  # fmt: skip  # pragma: no cover
    """Index-path replicate sums of many streams: ``out[s, q, r]`` for tasks ``[lo, hi)``.

    Task ``t`` is block ``t % n_blocks`` of stream ``s = t // n_blocks`` (:class:`Units`),
    its generator set from ``seeds[t - lo]`` (:func:`pairedstats.core.draws.block_seeds`):
    resample ``r`` of the block draws ``n`` unit indices
    (:func:`pairedstats.core.draws.jit.fill_units`) and ``out[s, q, r]`` is the draw-order sum
    of ``units.values[unit, q]`` over them. The units of up to ``_LANES`` resamples are drawn
    into a buffer, then each resample's sums are taken :data:`_WIDTH` columns at a time, a
    unit's row at a time (:func:`column_sums` does one column without the buffer).
    ``state``, ``buf`` and ``dst``: :func:`scratch`.
    """
    k = units.values.shape[1]
    for t in range(lo, hi):
        s, u0, n, r, stop = _open_task(seeds, units, n_resamples, block_size, t, lo, state)
        width, threshold = draws.unit_rule(n)
        most = _LANES if n <= _MANY_UNITS else 1
        while r < stop:
            lanes = most if most < stop - r else stop - r
            draws.fill_units(state, buf, lanes * n, n, width, threshold)
            for q0 in range(0, k, _WIDTH):
                w = _WIDTH if k - q0 > _WIDTH else k - q0
                for lane in range(lanes):
                    _sum_rows(units.values, u0, q0, w, buf, lane * n, n, dst)
                    for c in range(w):
                        out[s, q0 + c, r + lane] = dst[c]
            r += lanes
