"""Randomized Tukey HSD counts, Fisher-Yates arrangements (any number of systems)."""

from __future__ import annotations

import numba
import numpy as np

from ..draws import jit as draws
from ..parallel import scratch_array
from .tukey_table import count_statistics

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)
_U64 = np.uint64
_ZERO = _U64(0)


def scratch(groups, layout, tasks) -> tuple[np.ndarray, ...]:
    """The scratch arrays of one call of :func:`shuffle_counts` (the same whatever the
    ``tasks``): the chunks' stream states, bounds and rejection thresholds, the radix table
    (radix, magic multiplier, shift of each digit, flat: a row index of a 2-D table costs a
    multiply by its stride and a wraparound test in the swap loop), two arranged rows, the
    trial's sums and an empty draw buffer. Allocated by the caller, so that the kernel
    allocates nothing (an allocation is one more function to compile), those it writes on
    cache lines of their own (:func:`~pairedstats.core.parallel.scratch_array`)."""
    highs = layout.chunk_highs.astype(np.uint64)
    radix = np.column_stack([layout.radices, layout.magics, layout.shifts]).astype(np.uint64)
    k, dtype = groups.values.shape[1], groups.values.dtype
    return (
        scratch_array((highs.size, draws.STATE_WORDS), np.uint64),
        highs,
        (np.uint64(1 << 32) % highs).astype(np.uint64),
        radix.ravel(),
        scratch_array(k, dtype),
        scratch_array(k, dtype),
        scratch_array(k, dtype),
        np.empty(0, dtype=np.uint32),
    )


@_njit
def _open_chunks(seeds, states, highs, thresholds, task, skip, n, nothing):  # pragma: no cover
    # chunk c's stream of the task's block (seed words seeds[task, c]), its first `skip`
    # trials' draws skipped
    for c in range(states.shape[0]):
        draws.start_stream(states[c], seeds[task, c])
        high, threshold = np.int64(highs[c]), np.int64(thresholds[c])  # fill_rows' int64 types
        draws.fill_rows(states[c], high, threshold, nothing, n, skip, np.int64(0))


@_inline
def _shuffle_two(row, other, v, w, radix, start, end):  # pragma: no cover
    # Fisher-Yates swaps of two items' rows (row, other) from the digits of their
    # draws v and w (radices start:end, lowest digit first), side by side: two independent
    # chains of loads and stores; unsigned indices: no wraparound checks on the swaps
    for p in range(start, end):
        at = _U64(3) * _U64(p)  # digit p's (radix, magic, shift)
        r, magic, shift = radix[at], radix[at + _U64(1)], radix[at + _U64(2)]
        q, qw = (v * magic) >> shift, (w * magic) >> shift  # v // r, exact for v < 2**31
        digit, digit_w = v - q * r, w - qw * r
        v, w = q, qw
        top = r - _U64(1)
        swap = row[top]
        row[top] = row[digit]
        row[digit] = swap
        swap = other[top]
        other[top] = other[digit_w]
        other[digit_w] = swap


@_njit
def shuffle_counts(seeds, groups, layout, tasks, out, states, highs, thresholds, radix, row,
                   other, sums, nothing):  # fmt: skip  # pragma: no cover
    """Randomized Tukey HSD counts of many (group, block) tasks, Fisher-Yates arrangements.

    As :func:`pairedstats.core.kernels.tukey_table.table_counts`, with a
    :class:`ShuffleLayout`: chunk ``c`` of the radices ``k, k - 1, ..., 2`` has its own
    block streams (stream ``g * n_chunks + c``; task ``t``'s block set from ``seeds[t, c]``)
    and bound ``chunk_highs[c]``;
    trial ``t`` takes item ``i``'s chunk ``c`` from draw ``t * n + i`` of that stream. Each
    item's scores are shuffled in place (the arranged row) and added to the trial's sums, in
    item order; the draws are taken as they are needed (no buffer). Two items are shuffled
    side by side (their rows are independent, so their swaps overlap; the last item of an
    odd count is shuffled beside a row that is not added, with a draw of 0). The arrays
    after ``out``: :func:`scratch`.
    """
    k = groups.values.shape[1]
    n_chunks = layout.chunk_ends.shape[0]
    one = np.int64(1)  # a variable: a constant would compile count_statistics once more
    for task in range(tasks.shape[0]):
        g, a, z = tasks[task, 0], tasks[task, 1], tasks[task, 2]
        i0 = groups.item_bounds[g]
        n = groups.item_bounds[g + 1] - i0
        block = a // groups.block_sizes[g]
        skip = a - block * groups.block_sizes[g]
        _open_chunks(seeds, states, highs, thresholds, task, skip, n, nothing)
        for _ in range(a, z):
            sums[:] = 0
            for i in range(i0, i0 + n, 2):  # two items at a time, added in item order
                pair = i + 1 < i0 + n
                for j in range(k):
                    row[j] = groups.values[i, j]
                if pair:
                    for j in range(k):
                        other[j] = groups.values[i + 1, j]
                start = 0
                for c in range(n_chunks):  # the pair's draws: consecutive in chunk c's stream
                    v = draws.next_bounded(states[c], highs[c], thresholds[c])
                    w = draws.next_bounded(states[c], highs[c], thresholds[c]) if pair else _ZERO
                    _shuffle_two(row, other, v, w, radix, start, layout.chunk_ends[c])
                    start = layout.chunk_ends[c]
                for j in range(k):
                    sums[j] += row[j]
                if pair:
                    for j in range(k):
                        sums[j] += other[j]
            count_statistics(sums, k, one, k, groups.bases[g], groups.thresholds[g], out[task])
