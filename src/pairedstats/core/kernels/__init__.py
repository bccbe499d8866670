"""Compiled kernels (numba), each small, drawing through :mod:`pairedstats.core.draws.jit`.

* :func:`~pairedstats.core.kernels.bootstrap.stream_sums` (and ``column_sums``, one column):
  bootstrap replicate sums of the index path, for the streams of one group or of many
  ``by=`` groups at once;
* :func:`~pairedstats.core.kernels.tukey_table.table_counts` (``k <= 6`` systems) and
  :func:`~pairedstats.core.kernels.tukey_shuffle.shuffle_counts`: randomized Tukey HSD
  counts of all Monte Carlo groups of a call;
* :func:`~pairedstats.core.kernels.walsh.row_ends`: the Walsh sums of sorted differences below a
  threshold, row by row with two pointers (the signed-rank shift and interval);
* :func:`~pairedstats.core.kernels.crossing.crossing_stats`: where each row of replicates
  crosses a value, in one pass (the bootstrap's p-values on large inputs), and
  :func:`~pairedstats.core.kernels.crossing.tails`: each row's smallest and largest values
  (the percentile interval's ends);
* :mod:`~pairedstats.core.kernels.maxt`: max-t's passes over a block of replicates (ties
  snapped, studentized deviations, their maxima and the step-down shares);
* :mod:`~pairedstats.core.kernels.pairs`: per comparison, the sums over the items of
  ``b - a`` (the mean, the moments and win/tie/loss counts of the effect sizes), a block of
  comparisons at a time item by item, without forming the differences;
* :func:`~pairedstats.core.kernels.poisson.add_rows`: the Poisson bootstrap's per-system
  sums of a batch of rows for a range of resamples, each item's weights drawn as they are
  used (:mod:`pairedstats.core.draws.poisson`), compensated sums;
* :mod:`~pairedstats.core.kernels.ranksum`: the rank-sum test's pooled midranks, the order
  statistics of ``b_j - a_i`` (shift and interval, all ranks in one call, two pointers as in
  ``walsh``) and both exact null recursions.

A *task* is one block of one stream (for the Tukey kernels, a range of trials within one
block of one group). Tasks write disjoint parts of the output, so a caller can split a task
range over threads (the kernels release the GIL) without changing a number.

The kernels take named structures (the tuples below) instead of long rows of positional
arrays. They are cached (``cache=True``), compiled without reference counting where they
allocate nothing (``_nrt=False``: less to compile on a first call) and read no constant of
another module; numba's cache is keyed on a kernel's own file only, so a change of
:mod:`pairedstats.core.draws.jit` alone is not seen by the cached kernels that call it:
remove the package's ``__pycache__`` (``*.nbi``, ``*.nbc``) after editing it. This
package's ``__init__`` imports no numba: the method cores build the structures at import
time and import the kernel modules lazily.
``tests/core/test_kernels.py`` checks the kernels against the numpy reference engine
(``tests/core/reference_engine.py``), also with numba's bounds checking on
(``NUMBA_BOUNDSCHECK=1``, in a subprocess).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Groups", "ShuffleLayout", "Streams", "TableLayout", "Units", "offsets"]


def offsets(sizes) -> np.ndarray:
    """``[0, s0, s0 + s1, ...]`` (int64): where each part of a concatenation starts and ends.

    Examples
    --------
    >>> offsets([2, 3]).tolist()
    [0, 2, 5]
    """
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


class Streams(NamedTuple):
    """The entropy prefixes of many streams: stream ``s`` is ``prefixes[bounds[s]:bounds[s+1]]``
    (:func:`pairedstats.core.draws.entropy_prefix`); :func:`pairedstats.core.draws.block_seeds`
    appends a block number and gives the seed words the kernels start that block from."""

    prefixes: np.ndarray  # uint32
    bounds: np.ndarray  # int64, one more than streams


class Units(NamedTuple):
    """The resampled units of many bootstrap streams: stream ``s`` draws the rows
    ``bounds[s]:bounds[s + 1]`` of ``values`` (N, k); ``out[s, q, r]`` sums column ``q``."""

    values: np.ndarray  # float64 (N, k), C-contiguous
    bounds: np.ndarray  # int64


class Groups(NamedTuple):
    """Tukey groups: group ``g``'s items are ``values[item_bounds[g]:item_bounds[g + 1]]``
    (working scores, int64 on a grid or float64), a trial's statistic counts for pair ``j``
    when it is ``>= thresholds[g, j]``, and its trials are cut into blocks of
    ``block_sizes[g]``. The statistic is the range of the system sums when ``bases[g]`` is
    -1, else their largest distance from the sum of system ``bases[g]`` (many-vs-one)."""

    values: np.ndarray
    item_bounds: np.ndarray  # int64
    thresholds: np.ndarray  # (n_groups, n_pairs)
    block_sizes: np.ndarray  # int64
    bases: np.ndarray  # int64, per group: the baseline's column, or -1 (the range)


class TableLayout(NamedTuple):
    """Table arrangements (``k <= 6``): ``perms`` (k!, k) lists the arrangements; a draw in
    ``[0, high[g])`` holds ``digits[g]`` items' arrangement numbers, lowest digit first, and
    ``v // k! == (v * magic[g]) >> shift[g]``."""

    perms: np.ndarray  # int64 (k!, k)
    digits: np.ndarray  # int64, per group
    high: np.ndarray
    magic: np.ndarray
    shift: np.ndarray


class ShuffleLayout(NamedTuple):
    """Fisher-Yates arrangements: radices ``k, ..., 2`` (with ``v // r == (v * magics) >>
    shifts``), cut into chunks ending at ``chunk_ends``, each chunk drawn in
    ``[0, chunk_highs[c])`` from a stream of its own."""

    radices: np.ndarray  # int64
    magics: np.ndarray
    shifts: np.ndarray
    chunk_ends: np.ndarray
    chunk_highs: np.ndarray
