"""Compiled kernels that seed and run many (stream, block) generators in one call.

Imported lazily (they import numba) by the method cores:

* :func:`stream_sums`, by :mod:`pairedstats.core.bootstrap`, for one group's streams and for
  up to 64 ``by=`` groups at once: bootstrap replicate sums of the index path, bit for bit
  what the numpy-driven ``_UnitStream`` computes;
* :func:`tukey_table_counts` and :func:`tukey_shuffle_counts`, by
  :class:`pairedstats.core.tukey.MonteCarloBatch`, for all Monte Carlo groups of a call:
  randomized Tukey HSD counts, equal to those of the numpy ``MonteCarloCounter``;
  :func:`lemire`, the decoding step of :func:`pairedstats.core.tukey.bounded_uint32`.

So a sweep costs one kernel call per batch of groups and worker instead of a Python round
trip per group and block. ``tests/core/test_kernels.py`` and ``tests/core/test_tukey.py``
check the kernels against the numpy engines and against numpy's generators.

A *task* is one block of one stream (for the Tukey kernels, a range of trials within one
block of one group). Tasks write disjoint parts of the output, so a caller can split a task
range over threads (the kernels release the GIL) without changing a number.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from . import _pcg
from .streams import BLOCK

_njit = numba.njit(cache=True, nogil=True)
_U64 = np.uint64
_S16, _S32, _S48 = _U64(16), _U64(32), _U64(48)

#: Resamples decoded and summed together: independent accumulators hide the add latency.
_LANES = 8


@_njit
def _decode(state, buf, total, n, width, thresh, carry):  # pragma: no cover
    """Fill ``buf[:total]`` with the next accepted units of the block generator ``state``.

    The index path's rule (:mod:`pairedstats.core.bootstrap`): chunks of ``width`` bits of
    each 64-bit output, lowest first; chunk ``x`` gives unit ``(x * n) >> width`` unless
    ``(x * n) mod 2**width < thresh``. ``carry`` holds the current word and how many of its
    chunks are left, so that the next call goes on where this one stopped.
    """
    mask = _U64((1 << width) - 1)
    uw, un, ut = _U64(width), _U64(n), _U64(thresh)
    cpw = 64 // width
    word, left = carry[0], int(carry[1])
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
    i = 0
    while True:
        while left > 0 and i < total:  # the chunks left in the current word
            m = (word & mask) * un
            word >>= uw
            left -= 1
            if (m & mask) >= ut:
                buf[i] = m >> uw
                i += 1
        if i == total:
            break
        if width == 16:
            # whole words, branch-free: every chunk is written, the position moves on if kept
            while i + 4 <= total:
                word, hi, lo = _pcg.next64(hi, lo, inc_hi, inc_lo)
                m = (word & mask) * un
                buf[i] = m >> uw
                i += (m & mask) >= ut
                m = ((word >> _S16) & mask) * un
                buf[i] = m >> uw
                i += (m & mask) >= ut
                m = ((word >> _S32) & mask) * un
                buf[i] = m >> uw
                i += (m & mask) >= ut
                m = (word >> _S48) * un
                buf[i] = m >> uw
                i += (m & mask) >= ut
            if i == total:
                break
        word, hi, lo = _pcg.next64(hi, lo, inc_hi, inc_lo)
        left = cpw
    state[0], state[1] = hi, lo
    carry[0], carry[1] = word, _U64(left)


@_njit
def _sum_lanes(vq, buf, n, lanes, dst):  # pragma: no cover
    # dst[l] = sum over j, in draw order, of vq[buf[l * n + j]]
    if lanes == _LANES:
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
    else:
        for lane in range(lanes):
            s = 0.0
            base = lane * n
            for j in range(n):
                s += vq[buf[base + j]]
            dst[lane] = s


@_njit
def stream_sums(
    prefixes, prefix_bounds, vals, unit_bounds, n_resamples, task_lo, task_hi, out
):  # pragma: no cover
    """Index-path replicate sums of many streams: ``out[s, q, r]`` for task range ``[lo, hi)``.

    Stream ``s`` resamples the units ``unit_bounds[s]:unit_bounds[s + 1]`` of ``vals``
    (k, N) from the block generators whose entropy is ``prefixes[prefix_bounds[s]:...]``
    followed by the block number (:func:`pairedstats.core.streams.entropy_prefix`);
    ``out[s, q, r]`` is the draw-order sum of ``vals[q, unit]`` over resample ``r``'s units,
    exactly as :meth:`pairedstats.core.bootstrap._UnitStream.sums` adds them.
    """
    k = vals.shape[0]
    n_blocks = (n_resamples + BLOCK - 1) // BLOCK
    state = np.empty(4, dtype=np.uint64)
    carry = np.empty(2, dtype=np.uint64)
    dst = np.empty(_LANES)
    for t in range(task_lo, task_hi):
        s = t // n_blocks
        block = t - s * n_blocks
        prefix = prefixes[prefix_bounds[s] : prefix_bounds[s + 1]]
        u0 = unit_bounds[s]
        n = unit_bounds[s + 1] - u0
        width = 16 if n <= 65536 else 32
        thresh = (1 << width) % n
        state[0], state[1], state[2], state[3] = _pcg.seed(prefix, block)
        carry[0], carry[1] = 0, 0
        r = block * BLOCK
        stop = min(r + BLOCK, n_resamples)
        most = _LANES if n <= (1 << 20) else 1  # bounded buffer for huge groups
        buf = np.empty(most * n, dtype=np.uint32)  # unsigned: no wraparound checks
        while r < stop:
            lanes = min(most, stop - r)
            _decode(state, buf, lanes * n, n, width, thresh, carry)
            for q in range(k):
                _sum_lanes(vals[q, u0 : u0 + n], buf, n, lanes, dst)
                for lane in range(lanes):
                    out[s, q, r + lane] = dst[lane]
            r += lanes


# ------------------------------------------------------------------- Tukey HSD trials
#: Trials whose draws and sums are held at once by :func:`tukey_table_counts`.
_TRIALS = 256
#: Lanes of a table row and of a trial's sums: k <= 6 systems, padded (one 512-bit vector).
_ROW = 8
_MASK32 = _U64(0xFFFFFFFF)


def _add_rows_codegen(context, builder, signature, args):
    # dst[d_at:d_at + _ROW] += src[a:a + _ROW] for each row offset a, in order, in a register
    dst_arr = context.make_array(signature.args[0])(context, builder, args[0])
    src_arr = context.make_array(signature.args[2])(context, builder, args[2])
    floats = isinstance(signature.args[0].dtype, types.Float)
    vec = ir.VectorType(ir.DoubleType() if floats else ir.IntType(64), _ROW)
    add = builder.fadd if floats else builder.add

    def at(arr, offset):
        return builder.bitcast(builder.gep(arr.data, [offset]), vec.as_pointer())

    target = at(dst_arr, args[1])
    acc = builder.load(target, align=8)
    for offset in args[3:]:
        acc = add(acc, builder.load(at(src_arr, offset), align=8))
    builder.store(acc, target, align=8)
    return context.get_dummy_value()


@intrinsic
def _add4(typingctx, dst, d_at, src, a1, a2, a3, a4):
    """``dst[d_at:d_at + 8] +=`` the rows ``src[a:a + 8]``, ``a = a1 .. a4``, in order.

    ``_ROW``-wide vectors kept in a register: lane by lane the same additions, in the same
    order, as scalar code, so the numbers are unchanged; int64 rows add as integers.
    """
    return types.void(dst, d_at, src, a1, a2, a3, a4), _add_rows_codegen


@intrinsic
def _add1(typingctx, dst, d_at, src, a1):
    """:func:`_add4` with one row."""
    return types.void(dst, d_at, src, a1), _add_rows_codegen


@_njit
def lemire(raw, high, thresh, out):  # pragma: no cover
    """Decode raw 64-bit words into ``out`` as :func:`pairedstats.core.tukey.bounded_uint32`.

    Halves low first; a half ``x`` gives ``(x * high) >> 32`` unless its low 32 bits are below
    ``thresh``. Returns how many values were written (at most ``out.size``).
    """
    n = 0
    cap = out.shape[0]
    for w in range(raw.shape[0]):
        word = raw[w]
        for _ in range(2):
            m = (word & _MASK32) * high
            word >>= _S32
            if (m & _MASK32) >= thresh:
                out[n] = np.uint32(m >> _S32)
                n += 1
                if n == cap:
                    return n
    return n


@_njit
def _bounded(
    state, carry, high, thresh, buf, count, stride, rows, step=1, offset=0
):  # pragma: no cover
    """The next ``count * rows`` draws of :func:`pairedstats.core.tukey.bounded_uint32`.

    Draw ``c`` of row ``t`` (rows of ``count`` draws, in stream order) goes to
    ``buf[(c * step + offset) * stride + t]``; with ``stride == 0`` they are skipped.
    ``carry`` holds the current word and whether its high half is still unused.
    """
    hi, lo, inc_hi, inc_lo = state[0], state[1], state[2], state[3]
    word, left = carry[0], carry[1]
    uh, ut = _U64(high), _U64(thresh)
    for t in range(rows):
        c = 0
        while c < count:
            if left == 0:
                word, hi, lo = _pcg.next64(hi, lo, inc_hi, inc_lo)
                left = 2
            m = (word & _MASK32) * uh
            word >>= _S32
            left -= 1
            if (m & _MASK32) >= ut:
                if stride:
                    buf[(c * step + offset) * stride + t] = m >> _S32
                c += 1
    state[0], state[1] = hi, lo
    carry[0], carry[1] = word, left


@_njit
def tukey_table_counts(
    prefixes, prefix_bounds, values, item_bounds, perms, params, thresholds, tasks, out
):  # pragma: no cover
    """Randomized Tukey HSD counts of many (group, block) tasks, table arrangements.

    Task ``t`` is the trials ``tasks[t, 1]:tasks[t, 2]`` of group ``g = tasks[t, 0]``
    (within one block of ``params[g, 4]`` trials): the group's items are
    ``values[item_bounds[g]:item_bounds[g + 1]]`` (``k`` systems, int64 on a grid or
    float64), its draws those of :meth:`pairedstats.core.tukey._Sampler.draw` from the
    block generator of entropy ``prefixes[prefix_bounds[g]:...]`` and the block number,
    ``params[g] = (digits, high, magic, shift, trials per block)`` as in
    :func:`pairedstats.core.tukey._sampler`. ``out[t, j]`` counts the trials whose range
    of system sums reaches ``thresholds[g, j]``.

    Each trial adds its items' arranged scores in item order, as the numpy reference
    (``MonteCarloCounter``) does, so the counts are the same; the work runs item by item over
    ``_TRIALS`` trials at a time so that the item's arrangements stay in the first-level
    cache.
    """
    k = values.shape[1]
    fact = perms.shape[0]
    n_pairs = thresholds.shape[1]
    state = np.empty(4, dtype=np.uint64)
    carry = np.empty(2, dtype=np.uint64)
    zero = values[0, 0] - values[0, 0]
    most = 0  # largest group of the tasks: one table and one draw buffer for all
    for task in range(tasks.shape[0]):
        g = tasks[task, 0]
        most = max(most, item_bounds[g + 1] - item_bounds[g])
    table = np.zeros((most * fact, _ROW), dtype=values.dtype)  # lanes k: unused zeros
    flat = table.reshape(-1)
    buf = np.empty(most * _TRIALS, dtype=np.uint32)
    sums = np.empty((_TRIALS, _ROW), dtype=values.dtype)
    flat_sums = sums.reshape(-1)
    built = -1
    row_bytes = _U64(_ROW)
    for task in range(tasks.shape[0]):
        g, a, z = tasks[task, 0], tasks[task, 1], tasks[task, 2]
        i0 = item_bounds[g]
        n = item_bounds[g + 1] - i0
        digits, high, magic, shift, size = (
            params[g, 0],
            params[g, 1],
            params[g, 2],
            params[g, 3],
            params[g, 4],
        )
        umagic, ushift, ufact = _U64(magic), _U64(shift), _U64(fact)
        n_draws = (n + digits - 1) // digits
        full = n // digits
        thresh = (1 << 32) % high
        block = a // size
        state[0], state[1], state[2], state[3] = _pcg.seed(
            prefixes[prefix_bounds[g] : prefix_bounds[g + 1]], block
        )
        carry[0], carry[1] = 0, 0
        _bounded(state, carry, high, thresh, buf, n_draws, 0, a - block * size)  # skip
        if g != built:  # the group's arrangements, once for its consecutive tasks
            for i in range(n):
                for d in range(fact):
                    for j in range(k):
                        table[i * fact + d, j] = values[i0 + i, perms[d, j]]
            built = g
        for r0 in range(a, z, _TRIALS):
            mb = min(_TRIALS, z - r0)
            _bounded(state, carry, high, thresh, buf, n_draws, _TRIALS, mb)
            sums[:mb] = zero
            for c in range(n_draws):
                base = _U64(c * digits * fact)
                count = digits if c < full else n - full * digits
                for t in range(mb):
                    v = _U64(buf[c * _TRIALS + t])  # unsigned: no wraparound checks
                    dst = _U64(t) * row_bytes
                    row = base
                    left = count
                    while left >= 4:  # four items' rows added in a register, in item order
                        q = (v * umagic) >> ushift  # v // fact, exact for v < 2**31
                        r1 = (row + v - q * ufact) * row_bytes
                        row += ufact
                        v = (q * umagic) >> ushift
                        r2 = (row + q - v * ufact) * row_bytes
                        row += ufact
                        q = (v * umagic) >> ushift
                        r3 = (row + v - q * ufact) * row_bytes
                        row += ufact
                        v = (q * umagic) >> ushift
                        r4 = (row + q - v * ufact) * row_bytes
                        row += ufact
                        _add4(flat_sums, dst, flat, r1, r2, r3, r4)
                        left -= 4
                    while left > 0:
                        q = (v * umagic) >> ushift
                        _add1(flat_sums, dst, flat, (row + v - q * ufact) * row_bytes)
                        v = q
                        row += ufact
                        left -= 1
            for t in range(mb):
                hi_, lo_ = sums[t, 0], sums[t, 0]
                for j in range(1, k):
                    hi_ = max(hi_, sums[t, j])
                    lo_ = min(lo_, sums[t, j])
                r = hi_ - lo_
                for j in range(n_pairs):
                    if r >= thresholds[g, j]:
                        out[task, j] += 1


@_njit
def tukey_shuffle_counts(
    prefixes,
    prefix_bounds,
    values,
    item_bounds,
    radices,
    magics,
    shifts,
    chunk_ends,
    chunk_highs,
    sizes,
    thresholds,
    tasks,
    out,
):  # pragma: no cover
    """Randomized Tukey HSD counts of many (group, block) tasks, Fisher-Yates arrangements.

    As :func:`tukey_table_counts`, for the shuffle kind of
    :func:`pairedstats.core.tukey._sampler` (``k > 6``): chunk ``c`` of the radices
    ``k, k - 1, ..., 2`` has its own block generators, of entropy
    ``prefixes[prefix_bounds[g * n_chunks + c]:...]`` (the labels' words and ``c``), and
    bound ``chunk_highs[c]``; trial ``t`` takes item ``i``'s chunk ``c`` from draw
    ``t * n + i`` of that stream. ``sizes[g]`` is the group's trials per block.
    """
    k = values.shape[1]
    n_chunks = chunk_ends.shape[0]
    n_pairs = thresholds.shape[1]
    states = np.empty((n_chunks, 4), dtype=np.uint64)
    carries = np.empty((n_chunks, 2), dtype=np.uint64)
    most = 0
    for task in range(tasks.shape[0]):
        g = tasks[task, 0]
        most = max(most, item_bounds[g + 1] - item_bounds[g])
    buf = np.empty(most * n_chunks * _TRIALS, dtype=np.uint32)
    perm = np.empty(k, dtype=np.int64)
    sums = np.empty(k, dtype=values.dtype)
    for task in range(tasks.shape[0]):
        g, a, z = tasks[task, 0], tasks[task, 1], tasks[task, 2]
        i0 = item_bounds[g]
        n = item_bounds[g + 1] - i0
        size = sizes[g]
        block = a // size
        for c in range(n_chunks):
            at = prefix_bounds[g * n_chunks + c]
            states[c, 0], states[c, 1], states[c, 2], states[c, 3] = _pcg.seed(
                prefixes[at : prefix_bounds[g * n_chunks + c + 1]], block
            )
            carries[c, 0], carries[c, 1] = 0, 0
            thresh = (1 << 32) % chunk_highs[c]
            _bounded(states[c], carries[c], chunk_highs[c], thresh, buf, n, 0, a - block * size)
        for r0 in range(a, z, _TRIALS):
            mb = min(_TRIALS, z - r0)
            for c in range(n_chunks):
                thresh = (1 << 32) % chunk_highs[c]
                _bounded(
                    states[c], carries[c], chunk_highs[c], thresh, buf, n, _TRIALS, mb,
                    n_chunks, c,
                )  # fmt: skip
            for t in range(mb):
                for j in range(k):
                    sums[j] = 0
                for i in range(n):
                    for j in range(k):
                        perm[j] = j
                    start = 0
                    for c in range(n_chunks):
                        v = np.int64(buf[(i * n_chunks + c) * _TRIALS + t])
                        end = chunk_ends[c]
                        for p in range(start, end):
                            r = radices[p]
                            q = (v * magics[p]) >> shifts[p]  # v // r, exact for v < 2**31
                            digit = v - q * r
                            v = q
                            j = r - 1
                            swap = perm[j]
                            perm[j] = perm[digit]
                            perm[digit] = swap
                        start = end
                    for j in range(k):
                        sums[j] += values[i0 + i, perm[j]]
                hi_, lo_ = sums[0], sums[0]
                for j in range(1, k):
                    hi_ = max(hi_, sums[j])
                    lo_ = min(lo_, sums[j])
                r = hi_ - lo_
                for j in range(n_pairs):
                    if r >= thresholds[g, j]:
                        out[task, j] += 1
