"""Rank-sum benchmark: the shift, the whole test and the exact nulls, against peers.

Run: ``python benchmark/bench_ranksum.py`` (about a minute on one core). Prints, for each
case, the median wall time of a few repeats, the ratio to the peer measured in the same run
(peer time / our time) and the peak traced memory (tracemalloc) of one call.

``--before FILE`` also times another version of the array core, loaded from its file (it
imports numpy and scipy only), e.g. the last release's::

    git show main:src/pairedstats/core/ranksum.py > /tmp/ranksum_before.py
    python benchmark/bench_ranksum.py --before /tmp/ranksum_before.py

and prints ``before / ours``; with ``--slow`` that includes the 300 x 300 exact test with ties
(minutes for an array version). The first call is timed in fresh processes with an empty
numba cache (``cold``) and again with the cache it left (``cached``).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np
from scipy import stats

from pairedstats.core import ranksum as CORE
from pairedstats.core.ranksum import hodges_lehmann

FIRST_CALL = """
import time, numpy as np
import pairedstats  # the package's import, the same for both versions, is not timed
{load}
t0 = time.perf_counter()
a, b = np.arange(40.0) % 7, np.arange(35.0) % 5 + 0.5
for method in ("auto", "asymptotic"):
    core.ranksum_1d(a, b, alternative="two-sided", confidence_level=0.95, method=method,
                    correction=True)
print(time.perf_counter() - t0)
"""


def timed(fn, repeat, memory=True):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    peak = 0.0
    if memory:
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return float(np.median(times)), peak


def load_before(path):
    spec = importlib.util.spec_from_file_location("ranksum_before", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def whole(core, a, b, method):
    """The whole test's numbers as a dict, from this core (a dataclass) or an older file
    given with --before (which may return the dict itself)."""
    out = core.ranksum_1d(a, b, alternative="two-sided", confidence_level=0.95,
                          method=method, correction=True)  # fmt: skip
    return out if isinstance(out, dict) else dataclasses.asdict(out)


def row(label, ours, peer=None, before=None):
    (t1, m1), text = ours, ""
    if peer is not None:
        text += f" {peer[0]:9.4f} {peer[1]:8.1f} {peer[0] / t1:8.1f}"
    else:
        text += f" {'':>9} {'':>8} {'':>8}"
    if before is not None:
        text += f" {before:9.4f} {before / t1:8.1f}"
    print(f"{label:>34} {t1:9.4f} {m1:7.1f}{text}", flush=True)


def header(peer):
    print(f"{'case':>34} {'ours s':>9} {'MiB':>7} {peer:>9} {'MiB':>8} {'ratio':>8}"
          f" {'before s':>9} {'ratio':>8}")  # fmt: skip


def shift_cases(rng):
    print("Hodges-Lehmann shift (median of all b_j - a_i); both samples pre-drawn")
    header("outer s")
    for n in (2_000, 10_000):
        a, b = rng.normal(size=n), rng.normal(size=n) + 0.1

        def ours(a=a, b=b):
            return hodges_lehmann(np.sort(a), np.sort(b))

        def naive(a=a, b=b):
            return np.median(np.subtract.outer(b, a))

        assert ours() == naive()
        row(f"{n} x {n}", timed(ours, 5), timed(naive, 3 if n <= 2_000 else 1))


def test_cases(rng, before, slow):
    print("\nWhole test (ranks, p-value, shift, 95% interval) vs scipy.stats.mannwhitneyu")
    header("scipy s")
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
        repeat = 2 if n_a >= 1_000_000 else 5
        out = whole(CORE, a, b, method)
        res = stats.mannwhitneyu(b, a, method=method)
        assert out["u_a"] == n_a * n_b - res.statistic
        if not ties:  # scipy's "exact" ignores ties; ours conditions on them
            np.testing.assert_allclose(out["pvalue"], res.pvalue, rtol=1e-9)
        ours = timed(lambda a=a, b=b, m=method: whole(CORE, a, b, m), repeat)
        peer = timed(lambda a=a, b=b, m=method: stats.mannwhitneyu(b, a, method=m), repeat)
        t_before = None
        if before is not None:
            assert whole(before, a, b, method) == out  # the same numbers
            t_before = timed(lambda a=a, b=b, m=method: whole(before, a, b, m), 1, False)[0]
        row(label, ours, peer, t_before)

    print("\n5k x 5k: whole test vs mannwhitneyu + np.median(np.subtract.outer(b, a))")
    header("peer s")
    a, b = rng.normal(size=5_000), rng.normal(size=5_000) + 0.1
    out = whole(CORE, a, b, "asymptotic")
    assert out["shift"] == np.median(np.subtract.outer(b, a))

    def peer():
        return stats.mannwhitneyu(b, a), np.median(np.subtract.outer(b, a))

    t_before = None
    if before is not None:
        assert whole(before, a, b, "asymptotic") == out
        t_before = timed(lambda: whole(before, a, b, "asymptotic"), 3, False)[0]
    row("5,000 x 5,000 asymptotic", timed(lambda: whole(CORE, a, b, "asymptotic"), 7),
        timed(peer, 3), t_before)  # fmt: skip

    print("\nExact conditional test with ties (whole test)")
    header("-")
    a = rng.integers(0, 6, 300).astype(float)
    b = rng.integers(0, 6, 300).astype(float)
    out = whole(CORE, a, b, "exact")
    assert out["method"] == "exact-conditional"
    t_before = None
    if before is not None and slow:
        t0 = time.perf_counter()
        assert whole(before, a, b, "exact") == out
        t_before = time.perf_counter() - t0
    row("300 x 300, 6 levels, exact", timed(lambda: whole(CORE, a, b, "exact"), 2),
        None, t_before)  # fmt: skip


def first_calls(before):
    print(
        "\nFirst two calls in a fresh process (after the imports), empty numba cache, then cached"
    )
    versions = [("ours", "from pairedstats.core import ranksum as core")]
    if before is not None:
        load = (f"import importlib.util as u; s = u.spec_from_file_location('b', {before!r}); "
                "core = u.module_from_spec(s); s.loader.exec_module(core)")  # fmt: skip
        versions.append(("before", load))
    for name, load in versions:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            times = []
            for _ in range(2):
                code = FIRST_CALL.format(load=load)
                run = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                     capture_output=True, text=True)  # fmt: skip
                times.append(float(run.stdout))
        print(f"{name:>8}: cold {times[0]:.2f} s, cached {times[1]:.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="another version's core/ranksum.py, timed too")
    parser.add_argument("--slow", action="store_true", help="with --before: 300 x 300 ties")
    args = parser.parse_args()
    before = load_before(args.before) if args.before else None
    rng = np.random.default_rng(20240519)
    whole(CORE, np.arange(3.0), np.arange(4.0), "exact")  # compile (or load) the kernels
    whole(CORE, np.arange(3.0) % 2, np.arange(4.0), "exact")
    shift_cases(rng)
    test_cases(rng, before, args.slow)
    first_calls(args.before)
    print("\n(ratio = peer or before time / our time; ours also computes the shift and its")
    print(" interval, scipy does not)")


if __name__ == "__main__":
    main()
