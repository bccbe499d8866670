"""Benchmark of the randomized Tukey HSD Monte Carlo, against a plain numpy version.

Run: ``python benchmark/bench_tukey.py [--quick]``. Prints, per design, the time of
pairedstats (1 thread and all threads), of a straightforward vectorized numpy
implementation (batches of trials through ``Generator.permuted`` on a (batch, items,
systems) array), the ratios, the physical limit (the time to draw ``items * trials``
random 64-bit words with the fastest numpy call, a lower bound for any method drawing one
number per item and trial) and the peak traced memory of each.
"""

import sys
import time
import tracemalloc

import numpy as np

from pairedstats.methods.tukey_hsd import tukey_hsd


def numpy_tukey(x, trials, rng, batch=1000):
    n, k = x.shape
    means = x.mean(axis=0)
    obs = np.array([abs(means[j] - means[i]) for i in range(k) for j in range(i + 1, k)])
    counts = np.zeros(len(obs), dtype=np.int64)
    tile = np.broadcast_to(x, (batch, n, k))
    for start in range(0, trials, batch):
        m = min(batch, trials - start)
        shuffled = rng.permuted(tile[:m], axis=-1)
        mu = shuffled.mean(axis=1)
        ranges = mu.max(axis=1) - mu.min(axis=1)
        counts += (ranges[:, None] >= obs[None, :]).sum(axis=0)
    return counts / trials


def timed(fn, repeat):
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak


def main(quick=False):
    designs = [(50, 5, 100_000), (1000, 20, 10_000)]
    if quick:
        designs = [(50, 5, 20_000), (200, 20, 2_000)]
    warm = np.round(np.random.default_rng(0).random((10, 5)), 2)
    tukey_hsd(warm, n_resamples=300, method="monte-carlo", rng=0)  # load the compiled kernels
    tukey_hsd(np.random.default_rng(0).random((10, 20)), n_resamples=300, rng=0)
    rows = []
    for n, k, trials in designs:
        x = np.round(np.random.default_rng(1).random((n, k)), 2)  # a 0.01 grid: exact ties
        gen = np.random.default_rng(2)
        t_np, m_np = timed(lambda x=x, t=trials, g=gen: numpy_tukey(x, t, g), 2)
        t_1, m_1 = timed(lambda x=x, t=trials: tukey_hsd(x, n_resamples=t, rng=1, workers=1), 3)
        t_2, m_2 = timed(lambda x=x, t=trials: tukey_hsd(x, n_resamples=t, rng=1), 3)
        bits = np.random.default_rng(3).bit_generator
        t_raw, _ = timed(lambda n=n, t=trials, b=bits: b.random_raw(n * t), 2)
        rows.append((n, k, trials, t_np, t_1, t_2, t_raw, m_np, m_1, m_2))
    head = (
        f"{'items':>6} {'sys':>4} {'trials':>8} | {'numpy s':>8} {'ours 1t':>8} {'ours all':>8}"
        f" | {'x 1t':>6} {'x all':>6} | {'raw s':>7} | {'MB np':>6} {'MB 1t':>6} {'MB all':>6}"
    )
    print(head)
    print("-" * len(head))
    for n, k, trials, t_np, t_1, t_2, t_raw, m_np, m_1, m_2 in rows:
        print(
            f"{n:>6} {k:>4} {trials:>8} | {t_np:8.3f} {t_1:8.3f} {t_2:8.3f} | "
            f"{t_np / t_1:6.1f} {t_np / t_2:6.1f} | {t_raw:7.3f} | "
            f"{m_np / 1e6:6.1f} {m_1 / 1e6:6.1f} {m_2 / 1e6:6.1f}"
        )
    # memory does not grow with the trials
    x = np.round(np.random.default_rng(1).random((50, 5)), 2)
    peaks = [
        timed(lambda t=t: tukey_hsd(x, n_resamples=t, rng=1), 1)[1] for t in (10_000, 100_000)
    ]
    print(
        f"peak MB at 10,000 and 100,000 trials (50 x 5): "
        f"{peaks[0] / 1e6:.2f}, {peaks[1] / 1e6:.2f}"
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
