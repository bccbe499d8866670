"""The numpy reference engine: every draw and count of the compiled kernels, in numpy.

Nothing here is used by the package. The kernels (``pairedstats.core.kernels`` drawing through
``pairedstats.core.draws.jit``) must agree with these functions bit for bit:

* block generators are numpy's own ``SFC64(SeedSequence(root, spawn_key=(*words, block)))``;
* unit indices (bootstrap) and bounded integers (Tukey trials) are decoded from
  ``BitGenerator.random_raw`` with vectorised numpy arithmetic (Lemire's multiply-shift
  rejection, written out again);
* replicate sums are added in draw order, Tukey trial sums in item order, as the kernels do;
* a Tukey trial's statistic is the range of its sums, or with a baseline column ``base`` the
  largest ``|sum_j - sum_base|`` over the other columns (written out as such here).
"""

from __future__ import annotations

import math

import numpy as np

from pairedstats.core.draws import BLOCK, block_slices, label_words
from pairedstats.core.tukey_mc import (
    arrangement_layout,
    permutations,
    shuffle_params,
    table_params,
    trials_per_block,
)


def words_generator(root: int, words, block: int) -> np.random.Generator:
    """numpy's generator of block ``block`` of the stream with label words ``words``."""
    seq = np.random.SeedSequence(int(root), spawn_key=(*words, int(block)))
    return np.random.Generator(np.random.SFC64(seq))


# ------------------------------------------------------------------------ unit indices
def _decode(raw, pos, width, n, thresh, need):
    """Accepted units of the chunks of ``raw`` from chunk ``pos`` on, at most ``need``.

    Returns ``(units, consumed chunks)``.
    """
    per_word = 64 // width
    mask = np.uint64((1 << width) - 1)
    shifts = np.arange(per_word, dtype=np.uint64) * np.uint64(width)
    chunks = ((raw[:, None] >> shifts[None, :]) & mask).ravel()[pos:]
    m = chunks * np.uint64(n)
    ok = (m & mask) >= np.uint64(thresh)
    units = (m >> np.uint64(width))[ok].astype(np.int64)[:need]
    if units.size == need:
        consumed = int(np.flatnonzero(ok)[need - 1]) + 1 if need else 0
    else:
        consumed = chunks.size
    return units, consumed


class UnitStream:
    """Unit indices of ``n`` units from a numpy generator, consumed in order."""

    def __init__(self, gen: np.random.Generator, n: int):
        self.bits = gen.bit_generator
        self.n = int(n)
        self.width = 16 if n <= 65536 else 32
        self.thresh = (1 << self.width) % self.n
        self.raw = np.empty(0, dtype=np.uint64)
        self.pos = 0  # chunks of raw used

    def take(self, count: int) -> np.ndarray:
        out = []
        have = 0
        while have < count:
            per_word = 64 // self.width
            if self.pos >= self.raw.size * per_word:
                self.raw = self.bits.random_raw(max(16, (count - have) // per_word + 16))
                self.pos = 0
            units, used = _decode(self.raw, self.pos, self.width, self.n, self.thresh,
                                  count - have)  # fmt: skip
            self.pos += used
            out.append(units)
            have += units.size
        return np.concatenate(out) if out else np.empty(0, dtype=np.int64)

    def indices(self, rows: int) -> np.ndarray:
        return self.take(rows * self.n).reshape(rows, self.n)


def resample_indices(root: int, labels, n: int, n_resamples: int) -> np.ndarray:
    """Resample ``r`` takes the next ``n`` units of block ``r // BLOCK``."""
    words = label_words(labels)
    out = np.empty((n_resamples, n), dtype=np.int64)
    for block, lo, hi in block_slices(n_resamples):
        out[lo:hi] = UnitStream(words_generator(root, words, block), n).indices(hi - lo)
    return out


def draw_order_sums(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``out[r, q]`` = sum over ``j`` in draw order of ``values[idx[r, j], q]``."""
    out = np.zeros((idx.shape[0], values.shape[1]))
    for j in range(idx.shape[1]):
        out += values[idx[:, j]]
    return out


def counts_from_indices(indices: np.ndarray, n: int) -> np.ndarray:
    """Per-resample counts of each unit, shape (n_resamples, n)."""
    rows = indices.shape[0]
    flat = (indices + np.arange(rows)[:, None] * n).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


# --------------------------------------------------------------------- bounded integers
def bounded_uint32(gen: np.random.Generator, high: int, count: int) -> np.ndarray:
    """``count`` integers in ``[0, high)``: 32-bit halves of the raw words, low half first,
    ``(x * high) >> 32`` unless ``(x * high) mod 2**32 < 2**32 mod high``."""
    thresh = np.uint64((2**32) % high)
    out = np.empty(count, dtype=np.uint32)
    have = 0
    while have < count:
        raw = gen.bit_generator.random_raw(max(8, count - have))
        x = raw.view(np.uint32).astype(np.uint64) * np.uint64(high)
        values = (x >> np.uint64(32))[(x & np.uint64(0xFFFFFFFF)) >= thresh][: count - have]
        out[have : have + values.size] = values
        have += values.size
    return out


# ---------------------------------------------------------------------- Tukey trials
def draws_per_trial(n: int, k: int) -> int:
    if arrangement_layout(n, k) == "table":
        return -(-n // table_params(n, k)[0])
    return n * len(shuffle_params(k).chunk_highs)


def trial_draws(n: int, k: int, root: int, words, block: int, m: int) -> np.ndarray:
    """The draws of the first ``m`` trials of ``block``: one row per trial.

    Table layout: one stream. Shuffle layout: one stream per chunk of radices (the words
    extended by the chunk number), interleaved so that row ``t`` holds item 0's chunks, then
    item 1's, ...
    """
    if arrangement_layout(n, k) == "table":
        _, high, _, _ = table_params(n, k)
        per = draws_per_trial(n, k)
        return bounded_uint32(words_generator(root, words, block), high, m * per).reshape(m, per)
    highs = shuffle_params(k).chunk_highs.tolist()
    out = np.empty((m, n * len(highs)), dtype=np.uint32)
    for c, high in enumerate(highs):
        gen = words_generator(root, (*words, c), block)
        out[:, c :: len(highs)] = bounded_uint32(gen, high, m * n).reshape(m, n)
    return out


def table_sums(values: np.ndarray, draws: np.ndarray) -> np.ndarray:
    n, k = values.shape
    fact = math.factorial(k)
    digits = table_params(n, k)[0]
    table = values[:, permutations(k)].reshape(n * fact, k)
    m = draws.shape[0]
    powers = np.array([fact**u for u in range(digits)], dtype=np.int64)
    arrangement = (draws.astype(np.int64)[:, :, None] // powers) % fact
    rows = arrangement.reshape(m, -1)[:, :n] + np.arange(n, dtype=np.int64) * fact
    sums = np.zeros((m, k), dtype=values.dtype)
    for i in range(n):  # items in order, as the compiled kernel adds them
        sums += table[rows[:, i]]
    return sums


def shuffle_sums(values: np.ndarray, draws: np.ndarray) -> np.ndarray:
    m = draws.shape[0]
    n, k = values.shape
    layout = shuffle_params(k)
    d = draws.astype(np.int64).reshape(m, n, len(layout.chunk_ends))
    perm = np.broadcast_to(np.arange(k), (m, n, k)).copy()
    start = 0
    rows = np.arange(m)[:, None]
    cols = np.arange(n)[None, :]
    for c, end in enumerate(layout.chunk_ends.tolist()):
        v = d[:, :, c]
        for r in layout.radices[start:end].tolist():
            digit = v % r
            v = v // r
            a = perm[:, :, r - 1].copy()
            perm[:, :, r - 1] = perm[rows, cols, digit]
            perm[rows, cols, digit] = a
        start = end
    sums = np.zeros((m, k), dtype=values.dtype)
    for i in range(n):
        sums += values[i][perm[:, i, :]]
    return sums


def trial_statistic(sums: np.ndarray, base) -> np.ndarray:
    """Per trial (row): the range of the sums, or their largest absolute difference from
    column ``base`` over the other columns."""
    if base is None:
        return sums.max(axis=1) - sums.min(axis=1)
    others = np.delete(sums, base, axis=1)
    return np.abs(others - sums[:, [base]]).max(axis=1)


class MonteCarloCounter:
    """Counts of trials reaching each pair's threshold, one group, in numpy."""

    def __init__(self, group, root: int, labels):
        self.group = group
        self.root = int(root)
        self.words = label_words(tuple(labels))
        n, k = group.values.shape
        self.layout = arrangement_layout(n, k)
        self.block_size = trials_per_block(draws_per_trial(n, k))

    def count(self, lo: int, hi: int) -> np.ndarray:
        g = self.group
        n, k = g.values.shape
        counts = np.zeros(len(g.thresholds), dtype=np.int64)
        size = self.block_size
        for block in range(lo // size, -(-hi // size)):
            first = block * size
            a, z = max(lo, first), min(hi, first + size)
            draws = trial_draws(n, k, self.root, self.words, block, z - first)[a - first :]
            sums = (table_sums if self.layout == "table" else shuffle_sums)(g.values, draws)
            statistic = trial_statistic(sums, g.base)
            counts += (statistic[:, None] >= g.thresholds[None, :]).sum(axis=0)
        return counts


assert BLOCK == 256  # the reference assumes the contract's block size
