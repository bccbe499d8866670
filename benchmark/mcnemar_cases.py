"""McNemar's test over every pair of many systems, for ``run_all.py`` (and standalone).

``p`` systems x ``n`` items of pass/fail outcomes in a wide table; every pair of systems.

* pairedstats: ``df.paired.mcnemar()`` (all pairs, the exact test, Tango's 95% interval of
  each difference), and the same on the table in tidy form (one row per item and system);
* peer: a loop over the pairs calling ``statsmodels.stats.contingency_tables.mcnemar(table,
  exact=True)`` on each pair's 2 x 2 table, its four cells counted with numpy from the
  table's outcomes taken once as a bool matrix: p-values only, no interval (the standalone
  run also times a tuned loop: contiguous rows, three ``count_nonzero`` per pair);
* floor: the least the job needs, from the same wide table: its values as float32, the
  counts of every pair from one product ``X^T X``, and the exact p-values of all pairs in
  one vectorized call of ``scipy.stats.binom.cdf`` (no labels, no checks, no interval).

Run standalone: ``python benchmark/mcnemar_cases.py [--quick]`` times the calls in turn
(warm, interleaved, ratio of the minima).
"""

from __future__ import annotations

import itertools
import sys

import numpy as np


def outcomes(n_items: int, n_systems: int) -> np.ndarray:
    """Pass/fail outcomes of systems of close quality sharing the items' difficulty."""
    gen = np.random.default_rng(5)
    difficulty = gen.normal(size=(n_items, 1))
    skill = gen.permutation(np.linspace(0.3, 1.0, n_systems))
    return difficulty + gen.normal(size=(n_items, n_systems)) < skill


def wide(n_items: int, n_systems: int):
    """The outcomes as a wide table of 0/1 integers, systems named in no sorted order."""
    import pandas as pd

    names = [f"m{i:03d}" for i in np.random.default_rng(6).permutation(n_systems)]
    return pd.DataFrame(outcomes(n_items, n_systems).astype(np.int64), columns=names)


def ours_call(table):
    """pairedstats on the wide table, every pair, as a zero-argument call."""
    import pairedstats  # noqa: F401  (the accessor)

    return lambda: table.paired.mcnemar()


def tidy_call(table):
    """pairedstats on the same outcomes in tidy form (item, system, correct)."""
    import pairedstats  # noqa: F401

    long = (
        table.rename_axis("item")
        .reset_index()
        .melt(id_vars="item", var_name="system", value_name="correct")
    )
    return lambda: long.paired.mcnemar(item="item", system="system", score="correct")


def statsmodels_call(table, contiguous: bool = False):
    """statsmodels' exact test of every pair, one 2 x 2 table at a time: the outcomes as a
    bool matrix once, each pair's four cells counted with numpy. ``contiguous``: each
    system's outcomes in a contiguous row and three ``count_nonzero`` per pair (the fourth
    cell by difference), a loop tuned as far as it goes without leaving the pairs."""
    from statsmodels.stats.contingency_tables import mcnemar

    def plain():
        x = table.to_numpy(dtype=bool)
        out = []
        for i, j in itertools.combinations(range(x.shape[1]), 2):
            a, b = x[:, i], x[:, j]
            counts = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
            out.append(mcnemar(counts, exact=True).pvalue)
        return out

    def tuned():
        x = table.to_numpy(dtype=bool).T.copy()
        n, out = x.shape[1], []
        for i, j in itertools.combinations(range(x.shape[0]), 2):
            a, b = x[i], x[j]
            both, only_a = np.count_nonzero(a & b), np.count_nonzero(a & ~b)
            only_b = np.count_nonzero(~a & b)
            counts = [[both, only_a], [only_b, n - both - only_a - only_b]]
            out.append(mcnemar(counts, exact=True).pvalue)
        return out

    return tuned if contiguous else plain


def floor_call(table):
    """Counts of every pair by one matrix product, exact p-values in one vectorized call."""
    from scipy import stats

    def call():
        x = table.to_numpy(dtype=np.float32)
        gram = x.T @ x
        a, b = np.triu_indices(x.shape[1], 1)
        ones = np.diagonal(gram)
        only_a, only_b = ones[a] - gram[a, b], ones[b] - gram[a, b]
        low = np.minimum(only_a, only_b)
        return np.minimum(1.0, 2.0 * stats.binom.cdf(low, only_a + only_b, 0.5))

    return call


#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format);
#: the size of the issue in both runs (under a second a case).
SIZES = {"quick": {"mcnemar": (100_000, 20)}, "full": {"mcnemar": (100_000, 20)}}
HEADLINES = (
    ("pairedstats / X^T X floor", "mcnemar_ours", "floor_mcnemar", 5.0, True),
    ("statsmodels loop / pairedstats (timed in turn)", "mcnemar_statsmodels",
     "mcnemar_ours_loop", 3.0, False),
)  # fmt: skip
PEER = "statsmodels' exact `mcnemar` of each pair's 2 x 2 table in a loop over the pairs"


def add_cases(add, sizes: dict) -> None:
    """The McNemar cases, through ``run_all``'s ``add``."""
    n_items, n_systems = sizes["mcnemar"]
    group = (f"McNemar, all {n_systems * (n_systems - 1) // 2} pairs of {n_systems} systems x "
             f"{n_items:,} items")  # fmt: skip
    cases = {
        "floor_mcnemar": ("floor: X^T X counts + vectorized binomial p-values", floor_call,
                          None),
        "mcnemar_statsmodels": ("statsmodels mcnemar(exact=True) per pair (p-values only)",
                                statsmodels_call, None),
        "mcnemar_ours": ("pairedstats mcnemar() (p-values + Tango intervals)", ours_call,
                         "floor_mcnemar"),
        "mcnemar_ours_loop": ("pairedstats mcnemar(), timed in turn with the loop", ours_call,
                              "mcnemar_statsmodels"),
        "mcnemar_ours_tidy": ("pairedstats mcnemar(), tidy table", tidy_call,
                              "mcnemar_statsmodels"),
    }  # fmt: skip
    for name, (label, make, peer) in cases.items():
        add(name, group, label, lambda make=make: (make(wide(n_items, n_systems)), None),
            True, peer)  # fmt: skip


def main(quick: bool) -> None:
    from timing import interleaved

    n_items, n_systems = (20_000, 10) if quick else (100_000, 20)
    table = wide(n_items, n_systems)
    title = f"McNemar, every pair of {n_systems} systems x {n_items:,} items"
    calls = {
        "statsmodels loop (p-values only)": statsmodels_call(table),
        "statsmodels loop, tuned counts": statsmodels_call(table, contiguous=True),
        "floor (X^T X, vectorized p-values)": floor_call(table),
        "pairedstats, tidy table": tidy_call(table),
        "pairedstats, wide table": ours_call(table),
    }
    best = {name: min(seconds) for name, seconds in interleaved(title, calls, 9).items()}
    ours = best["pairedstats, wide table"]
    for name in ("statsmodels loop (p-values only)", "statsmodels loop, tuned counts"):
        print(f"  {name} / pairedstats: {best[name] / ours:.1f}x")
    print(f"  pairedstats / floor: {ours / best['floor (X^T X, vectorized p-values)']:.1f}x")


if __name__ == "__main__":
    main("--quick" in sys.argv)
