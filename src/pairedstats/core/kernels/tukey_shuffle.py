"""Randomized Tukey HSD counts, Fisher-Yates arrangements (any number of systems)."""

from __future__ import annotations

import numba
import numpy as np

from ..draws import jit as draws
from .tukey_table import count_statistics

_njit = numba.njit(cache=True, nogil=True)
_inline = numba.njit(cache=True, nogil=True, inline="always")

#: Trials whose draws are held at once.
_TRIALS = 256


@_njit
def _open_chunks(streams, states, layout, g, block, skip, n, buf):  # pragma: no cover
    # chunk c's stream of group g at `block`, its first `skip` trials' draws skipped
    n_chunks = layout.chunk_ends.shape[0]
    for c in range(n_chunks):
        s = g * n_chunks + c
        prefix = streams.prefixes[streams.bounds[s] : streams.bounds[s + 1]]
        draws.reset_stream(states[c], prefix, block)
        high = layout.chunk_highs[c]
        draws.fill_rows(states[c], high, (1 << 32) % high, buf, n, skip, 0, 1, 0)


@_inline
def _arrange(perm, buf, i, t, layout):  # pragma: no cover
    # item i's arrangement in trial t: Fisher-Yates swaps from the digits of its draws
    n_chunks = layout.chunk_ends.shape[0]
    for j in range(perm.shape[0]):
        perm[j] = j
    start = 0
    for c in range(n_chunks):
        v = np.int64(buf[(i * n_chunks + c) * _TRIALS + t])
        end = layout.chunk_ends[c]
        for p in range(start, end):
            r = layout.radices[p]
            q = (v * layout.magics[p]) >> layout.shifts[p]  # v // r, exact for v < 2**31
            digit = v - q * r
            v = q
            swap = perm[r - 1]
            perm[r - 1] = perm[digit]
            perm[digit] = swap
        start = end


@_njit
def shuffle_counts(streams, groups, layout, tasks, out):  # pragma: no cover
    """Randomized Tukey HSD counts of many (group, block) tasks, Fisher-Yates arrangements.

    As :func:`pairedstats.core.kernels.tukey_table.table_counts`, with a
    :class:`ShuffleLayout`: chunk ``c`` of the radices ``k, k - 1, ..., 2`` has its own
    block streams (stream ``g * n_chunks + c`` of ``streams``) and bound ``chunk_highs[c]``;
    trial ``t`` takes item ``i``'s chunk ``c`` from draw ``t * n + i`` of that stream.
    """
    k = groups.values.shape[1]
    n_chunks = layout.chunk_ends.shape[0]
    states = np.empty((n_chunks, 6), dtype=np.uint64)
    most = 0
    for task in range(tasks.shape[0]):
        g = tasks[task, 0]
        most = max(most, groups.item_bounds[g + 1] - groups.item_bounds[g])
    buf = np.empty(most * n_chunks * _TRIALS, dtype=np.uint32)
    perm = np.empty(k, dtype=np.int64)
    sums = np.empty((1, k), dtype=groups.values.dtype)
    row = sums[0]
    for task in range(tasks.shape[0]):
        g, a, z = tasks[task, 0], tasks[task, 1], tasks[task, 2]
        i0 = groups.item_bounds[g]
        n = groups.item_bounds[g + 1] - i0
        block = a // groups.block_sizes[g]
        _open_chunks(streams, states, layout, g, block, a - block * groups.block_sizes[g], n, buf)
        for r0 in range(a, z, _TRIALS):
            mb = min(_TRIALS, z - r0)
            for c in range(n_chunks):
                high = layout.chunk_highs[c]
                draws.fill_rows(states[c], high, (1 << 32) % high, buf, n, mb, _TRIALS,
                                n_chunks, c)  # fmt: skip
            for t in range(mb):
                row[:] = 0
                for i in range(n):
                    _arrange(perm, buf, i, t, layout)
                    for j in range(k):
                        row[j] += groups.values[i0 + i, perm[j]]
                count_statistics(sums, 1, k, groups.bases[g], groups.thresholds[g], out[task])
