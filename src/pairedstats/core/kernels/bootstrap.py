"""Bootstrap replicate sums of the index path, many streams in one call."""

from __future__ import annotations

import numba
import numpy as np

from ..draws import jit as draws
from ..parallel import scratch_array

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)

#: Resamples decoded and summed together: independent accumulators hide the add latency.
_LANES = 8
#: Units above which a stream decodes one resample at a time (a bounded buffer).
_MANY_UNITS = 1 << 20


@_inline
def _sum8(vq, buf, n, dst):  # pragma: no cover
    # dst[l] = sum over j, in draw order, of vq[buf[l * n + j]], eight lanes at once
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    for j in range(n):
        a0 += vq[buf[j]]
        a1 += vq[buf[n + j]]
        a2 += vq[buf[2 * n + j]]
        a3 += vq[buf[3 * n + j]]
        a4 += vq[buf[4 * n + j]]
        a5 += vq[buf[5 * n + j]]
        a6 += vq[buf[6 * n + j]]
        a7 += vq[buf[7 * n + j]]
    dst[0], dst[1], dst[2], dst[3] = a0, a1, a2, a3
    dst[4], dst[5], dst[6], dst[7] = a4, a5, a6, a7


@_inline
def _sum_lanes(vq, buf, n, lanes, dst):  # pragma: no cover
    # the same sums, lane by lane (every lane is summed in draw order either way)
    if lanes == _LANES:
        _sum8(vq, buf, n, dst)
        return
    for lane in range(lanes):
        s = 0.0
        base = lane * n
        for j in range(n):
            s += vq[buf[base + j]]
        dst[lane] = s


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
    chunks, :func:`~pairedstats.core.draws.jit.sum_units`), the lanes' sums. Allocated by
    the caller, so that the kernels allocate nothing (an allocation is one more function to
    compile), on cache lines of their own (:func:`~pairedstats.core.parallel.scratch_array`)."""
    state = scratch_array(draws.STATE_WORDS, np.uint64)
    if units.values.shape[0] == 1:
        return state, scratch_array(draws.PER_BLOCK, np.uint32), np.empty(0)
    n = np.diff(units.bounds)
    most = int(np.where(n <= _MANY_UNITS, _LANES * n, n).max(initial=1))
    return state, scratch_array(most, np.uint32), scratch_array(_LANES, np.float64)


@_njit
def column_sums(seeds, units, n_resamples, block_size, lo, hi, out, state,
                buf):  # fmt: skip  # pragma: no cover
    """:func:`stream_sums` of a single column (``units.values`` of one row), each resample
    summed as it is drawn (:func:`~pairedstats.core.draws.jit.sum_units`: the same bits,
    no buffer of indices; ``buf`` holds a block's remainders). A kernel of its own, so that
    a call compiles only the path it takes."""
    for t in range(lo, hi):
        s, u0, n, r, stop = _open_task(seeds, units, n_resamples, block_size, t, lo, state)
        width, threshold = draws.unit_rule(n)
        v = units.values[0, u0 : u0 + n]
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
    of ``units.values[q, unit]`` over them. The units of up to ``_LANES`` resamples are drawn
    into a buffer, then each column is summed over them (:func:`column_sums` does one column
    without the buffer). ``state``, ``buf`` and ``dst``: :func:`scratch`.
    """
    for t in range(lo, hi):
        s, u0, n, r, stop = _open_task(seeds, units, n_resamples, block_size, t, lo, state)
        width, threshold = draws.unit_rule(n)
        most = _LANES if n <= _MANY_UNITS else 1
        while r < stop:
            lanes = most if most < stop - r else stop - r
            draws.fill_units(state, buf, lanes * n, n, width, threshold)
            for q in range(units.values.shape[0]):
                _sum_lanes(units.values[q, u0 : u0 + n], buf, n, lanes, dst)
                for lane in range(lanes):
                    out[s, q, r + lane] = dst[lane]
            r += lanes
