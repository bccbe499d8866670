"""Timings and peak memory of the paired bootstrap against scipy.stats.bootstrap.

Run: ``python benchmark/bench_bootstrap.py`` (add ``--quick`` to skip the scipy runs at the
largest sizes). Prints one table; memory is the tracemalloc peak beyond the data, which
counts numpy's buffers. Each pairedstats timing is the best of 3 after a warm-up call.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import tracemalloc

import numpy as np
from scipy import stats

from pairedstats.core.design import PairedDesign
from pairedstats.methods.bootstrap import bootstrap


def _measure(fn, repeat=1):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak / 2**20


def _diff(a, b, axis=-1):
    return np.mean(b, axis=axis) - np.mean(a, axis=axis)


def _scipy(x):
    def run():
        stats.bootstrap(
            (x[:, 0], x[:, 1]), _diff, paired=True, vectorized=True, n_resamples=10_000,
            rng=np.random.default_rng(1),
        )  # fmt: skip

    return run


def _ours(x, **kw):
    return lambda: bootstrap(x, n_resamples=10_000, rng=1, **kw)


def _groups_design(n_groups, n_items, rng):
    scores = rng.normal(size=(n_groups * n_items, 2, 1))
    return PairedDesign(
        scores=scores,
        systems=("a", "b"),
        offsets=np.arange(0, n_groups * n_items + 1, n_items),
        group_names=("g",),
        group_keys=tuple((g,) for g in range(n_groups)),
        items=np.arange(n_groups * n_items),
    )


def first_call_seconds() -> float:
    code = (
        "import time; t0 = time.perf_counter(); import numpy as np; "
        "from pairedstats.methods.bootstrap import bootstrap; "
        "bootstrap(np.random.default_rng(0).normal(size=(500, 2)), n_resamples=1000, rng=1); "
        "print(time.perf_counter() - t0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main(quick: bool) -> None:
    from pairedstats.methods.bootstrap import bootstrap_design

    rng = np.random.default_rng(0)
    rows = []

    def add(case, name, fn, ref=None, repeat=3):
        fn()  # warm-up (JIT cache load, thread pool)
        t, mem = _measure(fn, repeat)
        ratio = "" if ref is None else f"{ref / t:.1f}x"
        rows.append((case, name, t, mem, ratio))
        print(f"  {case:38s} {name:34s} {t:8.3f} s {mem:9.1f} MB {ratio:>8s}", flush=True)
        return t

    print(f"cpus: {os.cpu_count()}  numpy {np.__version__}")
    print(
        f"  {'case':38s} {'implementation':34s} {'time':>10s} {'peak mem':>12s} {'vs scipy':>8s}"
    )
    # 1. continuous scores, 10k items
    x = rng.normal(size=(10_000, 2)) + rng.normal(size=(10_000, 1))
    case = "10k items x 10k resamples, continuous"
    t_sp, m_sp = _measure(_scipy(x))
    rows.append((case, "scipy.stats.bootstrap(paired)", t_sp, m_sp, "1.0x"))
    print(f"  {case:38s} {'scipy.stats.bootstrap(paired)':34s} {t_sp:8.3f} s {m_sp:9.1f} MB")
    add(case, "pairedstats percentile", _ours(x), t_sp)
    add(case, "pairedstats bca", _ours(x, method="bca"), t_sp)

    # 2. 0/1 accuracies, 10k items
    acc = (rng.random((10_000, 2)) < [0.7, 0.72]).astype(float)
    case = "10k items x 10k resamples, 0/1 scores"
    t_sp2, m_sp2 = _measure(_scipy(acc))
    rows.append((case, "scipy.stats.bootstrap(paired)", t_sp2, m_sp2, "1.0x"))
    print(f"  {case:38s} {'scipy.stats.bootstrap(paired)':34s} {t_sp2:8.3f} s {m_sp2:9.1f} MB")
    add(case, "pairedstats counts path (opt-in)", _ours(acc, resampling="counts"), t_sp2)
    add(case, "pairedstats index path", _ours(acc, resampling="index"), t_sp2)

    # 3. 100k items: scipy extrapolated linearly from the 10k run (it holds all resamples)
    x = rng.normal(size=(100_000, 2))
    case = "100k items x 10k resamples, continuous"
    add(case, "pairedstats percentile", _ours(x), 10 * t_sp, repeat=1)
    rows.append((case, "scipy (10 x the 10k run, not run)", 10 * t_sp, 10 * m_sp, "1.0x"))
    print(
        f"  {case:38s} {'scipy (10 x 10k run, not run)':34s} {10 * t_sp:8.3f} s "
        f"{10 * m_sp:9.1f} MB"
    )

    # 4. several systems: 5 systems, all 10 pairs, 10k items
    x = rng.normal(size=(10_000, 5))
    case = "10k items x 10k resamples, 10 pairs"
    add(case, "pairedstats percentile", _ours(x), None, repeat=1)

    # 5. many groups: 1000 groups of 100 items
    design = _groups_design(1000, 100, rng)
    case = "1000 groups x 100 items x 10k resamples"

    def grouped():
        return bootstrap_design(design, n_resamples=10_000, rng=1)

    add(case, "pairedstats percentile", grouped, None, repeat=1)

    # 6. clusters: 10k items in 1000 clusters
    x = rng.normal(size=(10_000, 2))
    cl = np.sort(rng.integers(0, 1000, 10_000))
    case = "10k items in 1k clusters x 10k resamples"
    add(case, "pairedstats percentile", _ours(x, cluster=cl), None, repeat=1)

    # 7. pooled F1 statistic (general statistic path), 2k items
    tp = rng.poisson(3, (2000, 2)).astype(float)
    fp, fn = rng.poisson(1, (2000, 2)).astype(float), rng.poisson(1, (2000, 2)).astype(float)
    scores = np.stack([tp, fp, fn], axis=2)

    def f1(t, p, n, axis=-1):
        t, p, n = (v.sum(axis=axis) for v in (t, p, n))
        return 2 * t / (2 * t + p + n)

    def f1_diff(ta, pa, na, tb, pb, nb, axis=-1):
        return f1(tb, pb, nb, axis=axis) - f1(ta, pa, na, axis=axis)

    case = "pooled F1, 2k items x 10k resamples"
    t_sp3, m_sp3 = _measure(
        lambda: stats.bootstrap(
            (tp[:, 0], fp[:, 0], fn[:, 0], tp[:, 1], fp[:, 1], fn[:, 1]),
            f1_diff,
            paired=True,
            vectorized=True,
            n_resamples=10_000,
            rng=np.random.default_rng(1),
        )
    )
    rows.append((case, "scipy.stats.bootstrap(paired)", t_sp3, m_sp3, "1.0x"))
    print(f"  {case:38s} {'scipy.stats.bootstrap(paired)':34s} {t_sp3:8.3f} s {m_sp3:9.1f} MB")
    add(case, "pairedstats statistic=f1", lambda: bootstrap(scores, statistic=f1,
        n_resamples=10_000, rng=1), t_sp3, repeat=1)  # fmt: skip

    print(f"first call in a fresh process (import + JIT cache load + 500 items): "
          f"{first_call_seconds():.2f} s")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    main(parser.parse_args().quick)
