"""Minimal fused kernels: the floor the library's kernels are measured against.

Each does the least the job needs and nothing else, compiled by numba, parallel over
resamples or trials, with the cheapest random numbers that are fit for the purpose: one
SplitMix64 stream per resample or trial (Steele, Lea and Flood 2014), a 64-bit word cut into
two 32-bit draws, each mapped to ``[0, n)`` by Lemire's multiply-shift without rejection
(nearly uniform; the library's draws are exactly uniform, with rejection):

* :func:`bootstrap_floor`: per resample, draw ``n`` item indices and sum the drawn
  differences (no streams keyed by labels, no intervals);
* :func:`bootstrap_floor_sfc64`: the same with the library's generator, numpy's SFC64
  (``pairedstats.core.draws.jit.next64``, checked against numpy), still without rejection:
  what the choice of generator alone changes;
* :func:`tukey_floor`: per trial, shuffle each item's row of ``k`` scores (Fisher-Yates),
  sum the columns and keep the range of the means (no tie rule, no p-values).

``run_all.py`` reports the library's time over the floor's, measured in the same run.
"""

from __future__ import annotations

import numba
import numpy as np

from pairedstats.core.draws.jit import next64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW = np.uint64(0xFFFFFFFF)


@numba.njit(inline="always")
def _splitmix(state):  # pragma: no cover
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return state, z ^ (z >> np.uint64(31))


@numba.njit(parallel=True, cache=True)
def bootstrap_floor(d, n_resamples):  # pragma: no cover
    n = d.size
    bound = np.uint64(n)
    out = np.empty(n_resamples)
    for r in numba.prange(n_resamples):
        state = np.uint64(r) * np.uint64(0x2545F4914F6CDD1D)
        s = 0.0
        for _ in range(0, n - 1, 2):
            state, word = _splitmix(state)
            s += d[((word & _LOW) * bound) >> np.uint64(32)]
            s += d[((word >> np.uint64(32)) * bound) >> np.uint64(32)]
        if n % 2:
            state, word = _splitmix(state)
            s += d[((word & _LOW) * bound) >> np.uint64(32)]
        out[r] = s / n
    return out


@numba.njit(cache=True)
def _resample_sum_sfc64(d, r):  # pragma: no cover
    # one resample's sum; a function of its own (numba's parfors do not take tuple states)
    n = d.size
    bound = np.uint64(n)
    gen = np.uint64(r), np.uint64(r) * _GOLDEN, np.uint64(r) * _M1, np.uint64(1)
    s = 0.0
    for _ in range(0, n - 1, 2):
        word, gen = next64(gen)
        s += d[((word & _LOW) * bound) >> np.uint64(32)]
        s += d[((word >> np.uint64(32)) * bound) >> np.uint64(32)]
    if n % 2:
        word, gen = next64(gen)
        s += d[((word & _LOW) * bound) >> np.uint64(32)]
    return s


@numba.njit(parallel=True, cache=True)
def bootstrap_floor_sfc64(d, n_resamples):  # pragma: no cover
    out = np.empty(n_resamples)
    for r in numba.prange(n_resamples):
        out[r] = _resample_sum_sfc64(d, r) / d.size
    return out


@numba.njit(parallel=True, cache=True)
def tukey_floor(x, trials):  # pragma: no cover
    n, k = x.shape
    out = np.empty(trials)
    for t in numba.prange(trials):
        state = np.uint64(t) * np.uint64(0x2545F4914F6CDD1D)
        sums = np.zeros(k)
        row = np.empty(k)
        for i in range(n):
            for j in range(k):
                row[j] = x[i, j]
            for j in range(k - 1, 0, -1):
                state, word = _splitmix(state)
                m = ((word & _LOW) * np.uint64(j + 1)) >> np.uint64(32)
                row[j], row[m] = row[m], row[j]
            for j in range(k):
                sums[j] += row[j]
        out[t] = (sums.max() - sums.min()) / n
    return out


#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format):
#: the sizes ``add_cases`` reads, the headline figures, and no peer but the floors (the page
#: describes them under "Reading the table").
SIZES = {
    "quick": {"boot_floor": (5_000, 2_000), "tukey_floor": (200, 20, 2_000)},
    "full": {"boot_floor": (100_000, 10_000), "tukey_floor": (1000, 20, 100_000)},
}
HEADLINES = (
    ("pairedstats / minimal fused kernel", "floor_boot_ours", "floor_boot", 1.3, True),
    ("pairedstats / minimal fused kernel", "floor_tukey_ours", "floor_tukey", 1.3, True),
)
PEER = None


def add_cases(add, sizes: dict) -> None:
    """The floor cases and the library's matching cases, through ``run_all``'s ``add``."""
    n_items, n_res = sizes["boot_floor"]
    group = f"floor: bootstrap {n_items:,} items x {n_res:,} resamples"

    def boot_data():
        return np.random.default_rng(0).normal(size=(n_items, 2))

    def floor_boot():
        x = boot_data()
        d = x[:, 1] - x[:, 0]
        return lambda: bootstrap_floor(d, n_res)

    def ours_boot():
        from pairedstats import bootstrap

        x = boot_data()
        return lambda: bootstrap(x, n_resamples=n_res, rng=1)

    draws = n_items * n_res
    add("floor_boot", group, "minimal fused kernel (draw, sum)", lambda: (floor_boot(), draws),
        True, None)  # fmt: skip

    def floor_boot_sfc64():
        x = boot_data()
        d = x[:, 1] - x[:, 0]
        return lambda: bootstrap_floor_sfc64(d, n_res)

    add("floor_boot_sfc64", group, "the same with the library's SFC64, no rejection",
        lambda: (floor_boot_sfc64(), draws), True, "floor_boot")  # fmt: skip
    add("floor_boot_ours", group, "pairedstats percentile", lambda: (ours_boot(), draws), True,
        "floor_boot")  # fmt: skip

    n, k, trials = sizes["tukey_floor"]
    group = f"floor: Tukey HSD {n} items x {k} systems x {trials:,} trials"

    def tukey_data():
        return np.round(np.random.default_rng(1).random((n, k)), 2)

    def floor_tukey():
        x = tukey_data()
        return lambda: tukey_floor(x, trials)

    def ours_tukey():
        from pairedstats import tukey_hsd

        x = tukey_data()
        return lambda: tukey_hsd(x, n_resamples=trials, method="monte-carlo", rng=1)

    add("floor_tukey", group, "minimal fused kernel (shuffle rows, sum, range)",
        lambda: (floor_tukey(), n * trials), True, None)  # fmt: skip
    add("floor_tukey_ours", group, "pairedstats, all threads",
        lambda: (ours_tukey(), n * trials), True, "floor_tukey")  # fmt: skip
