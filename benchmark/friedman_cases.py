"""Friedman cases for ``run_all.py``: many data sets, a dozen to fifty systems.

``pairedstats.friedman`` (the Friedman test, the Iman-Davenport F and a post-hoc test of
every pair) is timed against its peers on the same scores:

* autorank's ``autorank(df, alpha=0.05, force_mode="nonparametric")``: Shapiro-Wilk of each
  system and Levene's test (reported, not used to choose: the mode is forced), the Friedman
  test, the Nemenyi critical difference (no p-value per pair), and a table of mean ranks,
  medians, their confidence intervals and Akinshin's gamma against the best system;
* scikit-posthocs' ``posthoc_wilcoxon(melted, p_adjust="holm", correction=True)`` (scipy's
  signed-rank test of every pair, Holm's step-down: the same post-hoc as ours, without the
  Friedman test), ``posthoc_nemenyi_friedman`` and ``posthoc_conover_friedman(p_adjust=
  "holm")`` (the post-hoc p-values of the mean ranks, without the Friedman test).

Run standalone (``python benchmark/friedman_cases.py [--quick]``) it times each pair of
cases in turn in one process (ours, peer, ours, ...) and prints the ratio of the fastest
turns and the median of the turns' ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import io

import numpy as np


def scores(n_datasets: int, n_systems: int) -> np.ndarray:
    """Accuracies of systems of close quality on data sets of varied difficulty."""
    gen = np.random.default_rng(0)
    difficulty = gen.beta(5, 2, size=(n_datasets, 1))
    x = difficulty + gen.normal(0, 0.03, size=(n_datasets, n_systems))
    return np.clip(x + np.linspace(0.0, 0.02, n_systems), 0.0, 1.0)


def _names(n_systems: int) -> list[str]:
    return [f"m{i:02d}" for i in range(n_systems)]


def ours(n_datasets: int, n_systems: int, posthoc: str = "wilcoxon-holm"):
    """``pairedstats.friedman`` on the scores, as a zero-argument call."""
    from pairedstats import friedman

    x, names = scores(n_datasets, n_systems), _names(n_systems)
    return lambda: friedman(x, systems=names, posthoc=posthoc)


def autorank_call(n_datasets: int, n_systems: int):
    """autorank's forced non-parametric ranking (its notice on stdout swallowed)."""
    import pandas as pd
    from autorank import autorank

    df = pd.DataFrame(scores(n_datasets, n_systems), columns=_names(n_systems))

    def call():
        with contextlib.redirect_stdout(io.StringIO()):
            return autorank(df, alpha=0.05, force_mode="nonparametric")

    return call


def posthocs_call(n_datasets: int, n_systems: int, posthoc: str):
    """scikit-posthocs' post-hoc of every pair (``wilcoxon``: on the melted table)."""
    import pandas as pd
    import scikit_posthocs as sp

    x = scores(n_datasets, n_systems)
    if posthoc == "nemenyi":
        return lambda: sp.posthoc_nemenyi_friedman(x)
    if posthoc == "conover":
        return lambda: sp.posthoc_conover_friedman(x, p_adjust="holm")
    melted = pd.DataFrame(x, columns=_names(n_systems)).melt(var_name="system",
                                                             value_name="score")  # fmt: skip
    return lambda: sp.posthoc_wilcoxon(melted, val_col="score", group_col="system",
                                       correction=True, p_adjust="holm")  # fmt: skip


#: What ``run_all.py`` reads of this module (``run_all._case_modules`` tells the format).
SIZES = {
    "quick": {"friedman": (300, 12), "friedman_large": (300, 50)},
    "full": {"friedman": (1_000, 12), "friedman_large": (1_000, 50)},
}
HEADLINES = (
    ("pairedstats (Wilcoxon-Holm) / autorank (timed in turn)", "friedman_wh_ours",
     "friedman_autorank", 1.0, True),
    ("pairedstats (Wilcoxon-Holm), seconds", "friedman_large_wh_ours", None, 2.0, True),
)  # fmt: skip
PEER = (
    "for Friedman's test, autorank's `autorank(force_mode=\"nonparametric\")` and "
    "scikit-posthocs' post-hoc tests"
)


def add_cases(add, sizes: dict) -> None:
    """The Friedman cases, through ``run_all``'s ``add``."""
    n, k = sizes["friedman"]
    group = f"Friedman test and post-hoc tests: {n:,} data sets x {k} systems"
    rows = (
        ("friedman_autorank", 'autorank(force_mode="nonparametric"): Friedman, Nemenyi CD',
         lambda: autorank_call(n, k), None),
        ("friedman_wh_sp", 'scikit-posthocs posthoc_wilcoxon(p_adjust="holm")',
         lambda: posthocs_call(n, k, "wilcoxon"), None),
        ("friedman_wh_ours", "pairedstats friedman (Wilcoxon-Holm)", lambda: ours(n, k),
         "friedman_autorank"),
        ("friedman_nemenyi_sp", "scikit-posthocs posthoc_nemenyi_friedman",
         lambda: posthocs_call(n, k, "nemenyi"), None),
        ("friedman_nemenyi_ours", 'pairedstats friedman(posthoc="nemenyi")',
         lambda: ours(n, k, "nemenyi"), "friedman_nemenyi_sp"),
        ("friedman_conover_sp", 'scikit-posthocs posthoc_conover_friedman(p_adjust="holm")',
         lambda: posthocs_call(n, k, "conover"), None),
        ("friedman_conover_ours", 'pairedstats friedman(posthoc="conover")',
         lambda: ours(n, k, "conover"), "friedman_conover_sp"),
    )  # fmt: skip
    for name, label, call, peer in rows:
        add(name, group, label, lambda call=call: (call(), None), True, peer)
    large_n, large_k = sizes["friedman_large"]
    group = f"Friedman test and post-hoc tests: {large_n:,} data sets x {large_k} systems"
    add("friedman_large_wh_ours", group, "pairedstats friedman (Wilcoxon-Holm)",
        lambda: (ours(large_n, large_k), None), True, None)  # fmt: skip


def main() -> None:
    from timing import interleaved

    parser = argparse.ArgumentParser(description="friedman against autorank, scikit-posthocs")
    parser.add_argument("--quick", action="store_true", help="300 data sets")
    parser.add_argument("--turns", type=int, default=7, help="turns of each pair")
    args = parser.parse_args()
    n = 300 if args.quick else 1_000
    rows = [
        (f"{n} x 12, Wilcoxon-Holm", autorank_call(n, 12), "autorank", ours(n, 12)),
        (f"{n} x 12, Wilcoxon-Holm", posthocs_call(n, 12, "wilcoxon"), "scikit-posthocs",
         ours(n, 12)),
        (f"{n} x 12, Nemenyi", posthocs_call(n, 12, "nemenyi"), "scikit-posthocs",
         ours(n, 12, "nemenyi")),
        (f"{n} x 12, Conover", posthocs_call(n, 12, "conover"), "scikit-posthocs",
         ours(n, 12, "conover")),
        (f"{n} x 50, Wilcoxon-Holm", autorank_call(n, 50), "autorank", ours(n, 50)),
    ]  # fmt: skip
    for title, peer, name, call in rows:
        interleaved(title, {name: peer, "pairedstats": call}, args.turns)


if __name__ == "__main__":
    main()
