"""The Poisson bootstrap's per-system sums, a batch of rows at a time.

A row is one cell of the items x systems table: an item key (uint64,
:func:`pairedstats.core.draws.poisson.item_keys`), a system code and a score. For every
resample ``r`` of a range, :func:`add_rows` adds ``w * score`` to ``sums[code, r]`` (a
compensated sum: Neumaier 1974, its rounding errors kept in ``errors[code, r]``) and
``w`` to ``weights[code, r]``, ``w`` the item's weight in resample ``r``
(:func:`pairedstats.core.draws.jit.poisson_weight`), made when it is used: nothing of size
rows x resamples is held. The consecutive rows of one item (a run of equal keys) share one
pass of the item's weights over the range, kept in ``buf``; rows in any other order give the
same weights, drawn again for each run.

Each cell of ``sums`` and ``weights`` is added to in the order of the rows, and by nothing
else, so a batch cut into smaller batches (the same rows in the same order) adds up to the
same bits, and a range of resamples split over threads too.
"""

from __future__ import annotations

import numba

from ..draws import jit as draws

#: Resamples taken together over all rows: their cells of ``sums`` and ``weights`` stay in
#: the first-level cache while the rows pass.
TILE = 64
#: Rows taken together through all the tiles (96 kB of keys, codes and scores): they are
#: read from memory once, not once per tile.
ROWS = 4096

_njit = numba.njit(cache=True, nogil=True, no_cfunc_wrapper=True, _nrt=False)
_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)


@_inline
def _add_row(w, x, s, e, t):  # pragma: no cover
    # Neumaier's step on each cell: s + e carries the sum, e the rounding errors of s
    for r in range(w.size):
        y = w[r] * x
        a = s[r]
        u = a + y
        e[r] += ((a - u) + y) if abs(a) >= abs(y) else ((y - u) + a)
        s[r] = u
        t[r] += w[r]


@_njit
def add_rows(keys, codes, scores, call_key, thresholds, r0, r1, sums, errors, weights,
             buf):  # fmt: skip  # pragma: no cover
    """Add the rows' weighted scores and weights of resamples ``r0 .. r1 - 1`` to ``sums``
    (with their rounding errors in ``errors``) and ``weights``, (k, B) float64 each (system
    by resample), in place.

    ``keys`` (uint64), ``codes`` (int64, in ``[0, k)``) and ``scores`` (float64, finite)
    are the rows; ``call_key`` the call's key
    (:func:`pairedstats.core.draws.poisson.call_key`); ``thresholds`` the decoding table
    (:data:`pairedstats.core.draws.poisson.THRESHOLDS`); ``buf`` a float64 scratch array of
    :data:`TILE` entries (one item's weights in a tile of resamples). Tile by tile, each
    run of rows of one item draws the item's weights, then each row adds them to its
    system's cells of the tile (contiguous: the compiler vectorizes the loop); the rows are
    taken :data:`ROWS` at a time through all the tiles (a run cut by the end of a chunk
    draws its item's weights again: the same weights).
    """
    n = keys.size
    for c0 in range(0, n, ROWS):
        c1 = c0 + ROWS if n - c0 > ROWS else n
        for lo in range(r0, r1, TILE):
            m = TILE if r1 - lo > TILE else r1 - lo
            w = buf[:m]
            i = c0
            while i < c1:
                j = i + 1
                while j < c1 and keys[j] == keys[i]:
                    j += 1
                draws.poisson_weights(draws.poisson_state(keys[i], call_key), lo, thresholds, w)
                for q in range(i, j):
                    c, hi = codes[q], lo + m
                    _add_row(w, scores[q], sums[c, lo:hi], errors[c, lo:hi], weights[c, lo:hi])
                i = j


@_njit
def add_totals(codes, scores, sums, errors):  # pragma: no cover
    """Add the rows' scores to their systems' ``sums`` (k,) in row order, compensated as
    :func:`add_rows` does (their rounding errors in ``errors``): the point estimates'
    sums, each row with weight 1."""
    for q in range(codes.size):
        c = codes[q]
        y = scores[q]
        a = sums[c]
        u = a + y
        errors[c] += ((a - u) + y) if abs(a) >= abs(y) else ((y - u) + a)
        sums[c] = u


@_njit
def add_columns(values, sums, errors):  # pragma: no cover
    """Add each column of ``values`` (n, m) to ``sums[j]`` in row order, compensated as
    :func:`add_rows` does (the rounding errors in ``errors``)."""
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            y = values[i, j]
            a = sums[j]
            u = a + y
            errors[j] += ((a - u) + y) if abs(a) >= abs(y) else ((y - u) + a)
            sums[j] = u
