"""The sign test over every pair of many systems, for ``run_all.py`` (and standalone).

``p`` systems x ``n`` items of integer ratings 1-5 (ties are common) in a wide table, the
systems named in no sorted order; every pair of systems, b - a with a before b in the
table's order.

* pairedstats: ``df.paired.signtest()`` (all pairs, the exact binomial test of the signs,
  the Clopper-Pearson 95% interval of each win rate, zeros counted);
* peer: what a user would write with scipy, a loop over the pairs counting each pair's
  signs with numpy and calling ``scipy.stats.binomtest(wins, wins + losses)`` for its
  ``pvalue`` and ``proportion_ci(method="exact")``, labelled by the systems' names;
* floor: the least the job needs, from the same wide table: the signs of all pairs counted
  at once (each system's ratings a contiguous row, one difference per pair and item), the
  p-values from one vectorized ``scipy.stats.binom`` call per tail and the interval ends from
  one ``scipy.stats.beta.ppf`` call each (no labels, no checks, no tie rule, no empty pair).

Run standalone: ``python benchmark/signtest_cases.py [--quick]`` times the calls in turn
(warm, interleaved) and prints the median of each one's turns and of the turns' ratios.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np

#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format);
#: the pairedstats / floor figure is reported, with no goal.
SIZES = {"quick": {"signtest": (10_000, 20)}, "full": {"signtest": (10_000, 20)}}
HEADLINES = (
    ("scipy binomtest loop / pairedstats (timed in turn)", "signtest_scipy",
     "signtest_ours_loop", 3.0, False),
    ("pairedstats / vectorized floor (sign counts, binom and beta calls)", "signtest_ours",
     "floor_signtest", None, True),
)  # fmt: skip
PEER = (
    "scipy's `binomtest` (its p-value and `proportion_ci(method=\"exact\")`) of each pair's "
    "signs in a loop over the pairs"
)


def ratings(n_items: int, n_systems: int) -> np.ndarray:
    """Ratings 1-5 of systems of close quality sharing the items' difficulty."""
    gen = np.random.default_rng(8)
    difficulty = gen.normal(size=(n_items, 1))
    skill = gen.permutation(np.linspace(-0.05, 0.05, n_systems))
    latent = 3.0 + difficulty + skill + gen.normal(size=(n_items, n_systems))
    return np.clip(np.round(latent), 1, 5).astype(np.int64)


def wide(n_items: int, n_systems: int):
    """The ratings as a wide table of integers, systems named in no sorted order."""
    import pandas as pd

    names = [f"m{i:03d}" for i in np.random.default_rng(9).permutation(n_systems)]
    return pd.DataFrame(ratings(n_items, n_systems), columns=names)


def ours_call(table):
    """pairedstats on the wide table, every pair, as a zero-argument call."""
    import pairedstats  # noqa: F401  (the accessor)

    return lambda: table.paired.signtest()


def scipy_call(table):
    """scipy's exact binomial test and Clopper-Pearson interval of every pair, one pair at a
    time, the signs counted with numpy, each row labelled by the pair's names."""
    from scipy import stats

    def call():
        x, names, rows = table.to_numpy(), table.columns, []
        for i, j in itertools.combinations(range(x.shape[1]), 2):
            d = x[:, j] - x[:, i]
            wins, losses = int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))
            test = stats.binomtest(wins, wins + losses)
            ci = test.proportion_ci(method="exact")
            rows.append((names[i], names[j], wins, losses, test.pvalue, ci.low, ci.high))
        return rows

    return call


def floor_call(table):
    """The signs of all pairs at once, p-values and interval ends by vectorized calls."""
    from scipy import stats

    def call():
        x = np.ascontiguousarray(table.to_numpy().T)
        a, b = np.triu_indices(x.shape[0], 1)
        d = x[b] - x[a]
        wins = np.count_nonzero(d > 0, axis=1)
        n = wins + np.count_nonzero(d < 0, axis=1)
        tails = np.minimum(stats.binom.cdf(wins, n, 0.5), stats.binom.sf(wins - 1, n, 0.5))
        low = stats.beta.ppf(0.025, wins, n - wins + 1)
        high = stats.beta.ppf(0.975, wins + 1, n - wins)
        return np.minimum(1.0, 2.0 * tails), low, high

    return call


def add_cases(add, sizes: dict) -> None:
    """The sign test's cases, through ``run_all``'s ``add``."""
    n_items, n_systems = sizes["signtest"]
    group = (f"sign test, all {n_systems * (n_systems - 1) // 2} pairs of {n_systems} systems x "
             f"{n_items:,} items of ratings 1-5")  # fmt: skip
    cases = {
        "floor_signtest": ("floor: vectorized sign counts + binom, beta calls", floor_call,
                           None),
        "signtest_scipy": ('scipy binomtest + proportion_ci("exact") per pair', scipy_call,
                           None),
        "signtest_ours": ("pairedstats signtest() (p-values + Clopper-Pearson intervals)",
                          ours_call, "floor_signtest"),
        "signtest_ours_loop": ("pairedstats signtest(), timed in turn with the loop",
                               ours_call, "signtest_scipy"),
    }  # fmt: skip
    for name, (label, make, peer) in cases.items():
        add(name, group, label, lambda make=make: (make(wide(n_items, n_systems)), None),
            True, peer)  # fmt: skip


def main(quick: bool) -> None:
    from timing import interleaved

    n_items, n_systems = SIZES["quick" if quick else "full"]["signtest"]
    table = wide(n_items, n_systems)
    title = f"sign test, every pair of {n_systems} systems x {n_items:,} items of ratings 1-5"
    calls = {
        "scipy binomtest loop": scipy_call(table),
        "floor (vectorized counts, binom, beta)": floor_call(table),
        "pairedstats, wide table": ours_call(table),
    }
    turns = interleaved(title, calls, 5 if quick else 9)
    loop, floor, ours = (np.array(seconds) for seconds in turns.values())
    print("  medians of the turns:")
    for name, seconds in turns.items():
        print(f"    {name:<40} {np.median(seconds) * 1e3:9.2f} ms")
    print("  medians of the turns' ratios:")
    print(f"    scipy loop / pairedstats {np.median(loop / ours):9.2f}x")
    print(f"    pairedstats / floor      {np.median(ours / floor):9.2f}x")


if __name__ == "__main__":
    main("--quick" in sys.argv)
