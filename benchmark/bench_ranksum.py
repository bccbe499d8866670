"""Rank-sum benchmark: Hodges-Lehmann selection vs the naive outer median, test vs scipy.

Run: ``python benchmark/bench_ranksum.py`` (about a minute on one core). Prints, for each
size, the median wall time of a few repeats, the ratio to the peer measured in the same run,
and the peak traced memory (tracemalloc) of one call.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
from scipy import stats

from pairedstats.core.ranksum import hodges_lehmann, ranksum_1d


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return float(np.median(times)), peak / 2**20


def main():
    rng = np.random.default_rng(20240519)
    print("Hodges-Lehmann shift (median of all b_j - a_i); both samples pre-drawn")
    print(f"{'n_a x n_b':>16} {'ours s':>9} {'MiB':>7} {'outer s':>9} {'MiB':>8} {'ratio':>7}")
    for n in (2_000, 10_000):
        a, b = rng.normal(size=n), rng.normal(size=n) + 0.1

        def ours(a=a, b=b):
            return hodges_lehmann(np.sort(a), np.sort(b))

        def naive(a=a, b=b):
            return np.median(np.subtract.outer(b, a))

        assert ours() == naive()
        t1, m1 = timed(ours, 3)
        t2, m2 = timed(naive, 3 if n <= 2_000 else 1)
        print(f"{n:>7} x {n:<7} {t1:9.3f} {m1:7.1f} {t2:9.3f} {m2:8.1f} {t2 / t1:7.1f}")

    print("\nWhole test (ranks, p-value, shift, 95% interval) vs scipy.stats.mannwhitneyu")
    print(f"{'case':>28} {'ours s':>9} {'MiB':>7} {'scipy s':>9} {'MiB':>7} {'ratio':>7}")
    cases = [
        ("30 x 30 exact", 30, 30, "exact", False),
        ("80 x 80 exact", 80, 80, "exact", False),
        ("40 x 40 ties exact-cond.", 40, 40, "exact", True),
        ("10^4 x 10^4 asymptotic", 10_000, 10_000, "asymptotic", False),
        ("10^6 x 10^6 asymptotic", 1_000_000, 1_000_000, "asymptotic", False),
    ]
    for label, n_a, n_b, method, ties in cases:
        if ties:
            a = rng.integers(0, 6, n_a).astype(float)
            b = rng.integers(0, 6, n_b).astype(float)
        else:
            a, b = rng.normal(size=n_a), rng.normal(size=n_b) + 0.1
        repeat = 1 if n_a >= 1_000_000 else 3

        def ours(a=a, b=b, method=method):
            return ranksum_1d(
                a,
                b,
                alternative="two-sided",
                confidence_level=0.95,
                method=method,
                correction=True,
            )

        def peer(a=a, b=b, method=method):
            return stats.mannwhitneyu(b, a, method=method)

        out = ours()
        res = peer()
        assert out["u_a"] == n_a * n_b - res.statistic
        if not ties:  # scipy's "exact" ignores ties; ours conditions on them
            np.testing.assert_allclose(out["pvalue"], res.pvalue, rtol=1e-9)
        t1, m1 = timed(ours, repeat)
        t2, m2 = timed(peer, repeat)
        print(f"{label:>28} {t1:9.3f} {m1:7.1f} {t2:9.3f} {m2:7.1f} {t2 / t1:7.2f}")
    print("\n(ratio = peer time / our time; ours also computes the shift and its interval)")


if __name__ == "__main__":
    main()
