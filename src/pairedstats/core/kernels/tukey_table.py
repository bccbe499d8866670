"""Randomized Tukey HSD counts, table arrangements (``k <= 6`` systems)."""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ..draws import jit as draws
from ..parallel import scratch_array

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)
_U64 = np.uint64

#: Trials whose draws and sums are held at once.
_TRIALS = 256
#: Lanes of a table row and of a trial's sums: k <= 6 systems, padded (one 512-bit vector).
_ROW = 8


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
    order, as scalar code, so the numbers are unchanged; int64 rows add as integers. No
    bounds check: the callers' offsets are rows of arrays of ``_ROW`` columns.
    """
    return types.void(dst, d_at, src, a1, a2, a3, a4), _add_rows_codegen


@intrinsic
def _add1(typingctx, dst, d_at, src, a1):
    """:func:`_add4` with one row."""
    return types.void(dst, d_at, src, a1), _add_rows_codegen


@_inline
def _build_table(table, values, i0, n, perms):  # pragma: no cover
    # row i * k! + d (of _ROW lanes): item i's scores arranged by permutation d (lanes k..
    # stay zero)
    fact, k = perms.shape
    for i in range(n):
        for d in range(fact):
            for j in range(k):
                table[(i * fact + d) * _ROW + j] = values[i0 + i, perms[d, j]]


@_inline
def _item_rows(flat_sums, dst, flat, v, row, count, fact, magic, shift):  # pragma: no cover
    # add the arranged rows of `count` items whose arrangement numbers are the digits of v
    row_bytes = _U64(_ROW)
    while count >= 4:  # four items' rows added in a register, in item order
        q = (v * magic) >> shift  # v // fact, exact for v < 2**31
        r1 = (row + v - q * fact) * row_bytes
        row += fact
        v = (q * magic) >> shift
        r2 = (row + q - v * fact) * row_bytes
        row += fact
        q = (v * magic) >> shift
        r3 = (row + v - q * fact) * row_bytes
        row += fact
        v = (q * magic) >> shift
        r4 = (row + q - v * fact) * row_bytes
        row += fact
        _add4(flat_sums, dst, flat, r1, r2, r3, r4)
        count -= 4
    while count > 0:
        q = (v * magic) >> shift
        _add1(flat_sums, dst, flat, (row + v - q * fact) * row_bytes)
        v = q
        row += fact
        count -= 1


@_inline
def _trial_sums(sums, table, buf, mb, n, digits, fact, magic, shift):  # pragma: no cover
    # sums[t * _ROW:(t + 1) * _ROW] = the system sums of trial t (< mb): items added in item
    # order (flat arrays: a reshape is one more function to compile)
    for i in range(mb * _ROW):
        sums[i] = 0
    full = n // digits
    ufact, umagic, ushift = _U64(fact), _U64(magic), _U64(shift)
    for c in range((n + digits - 1) // digits):
        count = digits if c < full else n - full * digits
        base = _U64(c * digits * fact)
        for t in range(mb):
            v = _U64(buf[c * _TRIALS + t])  # unsigned: no wraparound checks
            _item_rows(sums, _U64(t * _ROW), table, v, base, count, ufact, umagic, ushift)


@_inline
def count_statistics(sums, stride, mb, k, base, thresholds, out):  # pragma: no cover
    """``out[j] +=`` the trials ``t < mb`` whose statistic of the system sums
    ``sums[t * stride:t * stride + k]`` reaches ``thresholds[j]``.

    The statistic is the range of the sums (``base < 0``: all pairs), or their largest
    distance from the sum of the system ``base`` (many-vs-one: ``max_j |s_j - s_base|``),
    computed as ``max(hi - s_base, s_base - lo)`` from the range's ``hi`` and ``lo``: a
    rounded subtraction is monotone, so this is the largest of the rounded distances.
    """
    for t in range(mb):
        at = t * stride
        hi, lo = sums[at], sums[at]
        for j in range(1, k):
            s = sums[at + j]
            hi = s if s > hi else hi
            lo = s if s < lo else lo
        if base < 0:
            r = hi - lo
        else:
            up, down = hi - sums[at + base], sums[at + base] - lo
            r = up if up > down else down
        for j in range(thresholds.shape[0]):
            if r >= thresholds[j]:
                out[j] += 1


def scratch(groups, layout, tasks) -> tuple[np.ndarray, ...]:
    """The scratch arrays of one call of :func:`table_counts`: the arrangement table of the
    largest group of ``tasks``, the draw buffer, the trials' sums and a stream state.
    Allocated by the caller, so that the kernel allocates nothing (an allocation is one more
    function to compile), on cache lines of their own
    (:func:`~pairedstats.core.parallel.scratch_array`)."""
    items = np.diff(groups.item_bounds)[tasks[:, 0]]
    most = int(items.max(initial=1))
    dtype = groups.values.dtype
    return (
        scratch_array(most * layout.perms.shape[0] * _ROW, dtype, zeros=True),
        scratch_array(most * _TRIALS, np.uint32),
        scratch_array(_TRIALS * _ROW, dtype),
        scratch_array(draws.STATE_WORDS, np.uint64),
    )


@_njit
def table_counts(seeds, groups, layout, tasks, out, table, buf, sums, state):  # pragma: no cover
    """Randomized Tukey HSD counts of many (group, block) tasks, table arrangements.

    Task ``t`` is the trials ``tasks[t, 1]:tasks[t, 2]`` of group ``g = tasks[t, 0]`` (within
    one block of ``groups.block_sizes[g]`` trials; :class:`Groups`, :class:`TableLayout`): a
    trial takes ``ceil(n / digits)`` draws in ``[0, high)`` from the block's stream, set from
    ``seeds[t, 0]`` (:func:`pairedstats.core.tukey_mc.task_seeds`), each the arrangement
    numbers of ``digits`` items, adds its items' arranged rows in item order and counts for
    pair ``j`` when its statistic (the range, or the many-vs-one distance from
    ``groups.bases[g]``: :func:`count_statistics`) reaches the group's threshold: ``out[t,
    j]``. The work runs item by item over ``_TRIALS`` trials at a time so that the item's
    arrangements stay in the first-level cache. ``table``, ``buf``, ``sums``, ``state``:
    :func:`scratch` (one table for all tasks, rebuilt per group).
    """
    fact, k = layout.perms.shape
    stride = np.int64(_ROW)
    built = -1
    for task in range(tasks.shape[0]):
        g, a, z = tasks[task, 0], tasks[task, 1], tasks[task, 2]
        i0 = groups.item_bounds[g]
        n = groups.item_bounds[g + 1] - i0
        digits, high = layout.digits[g], layout.high[g]
        n_draws = (n + digits - 1) // digits
        threshold = (1 << 32) % high
        block = a // groups.block_sizes[g]
        draws.start_stream(state, seeds[task, 0])
        skip = a - block * groups.block_sizes[g]
        draws.fill_rows(state, high, threshold, buf, n_draws, skip, np.int64(0))
        if g != built:  # the group's arrangements, once for its consecutive tasks
            _build_table(table, groups.values, i0, n, layout.perms)
            built = g
        for r0 in range(a, z, _TRIALS):
            mb = _TRIALS if z - r0 > _TRIALS else z - r0
            draws.fill_rows(state, high, threshold, buf, n_draws, mb, np.int64(_TRIALS))
            _trial_sums(sums, table, buf, mb, n, digits, fact, layout.magic[g], layout.shift[g])
            count_statistics(sums, stride, mb, k, groups.bases[g], groups.thresholds[g], out[task])
