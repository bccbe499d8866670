"""The best set side by side: the model confidence set (``mcs``, T_max and T_R) and the
systems that may be best by their simultaneous rank sets (``rank``'s ``may_be_best``), on
the same simulated data sets. Writes ``results/best_set.json`` and prints the table of
``docs/mcs.md`` (``python validation/best_set.py``, about a minute).

Each data set: 5 systems on 50 items, the score of system j on item i
``item_i + mu_j + noise_ij`` (item effects and noise standard normal), higher is better.
Per configuration of the true means ``mu``, 500 data sets, 499 resamples, level 0.9:

* coverage: the share of data sets whose set holds every truly best system (all systems
  whose ``mu`` is the largest), with its Monte Carlo standard error;
* size: the mean number of systems in the set.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from pairedstats.inputs import design_from_array
from pairedstats.methods._shared.registry import SPECS

OUT = Path(__file__).parent / "results" / "best_set.json"
LEVEL, N_SETS, N_ITEMS, B = 0.9, 500, 50, 499
SYSTEMS = ["e", "c", "a", "d", "b"]  # not in sorted order
CONFIGURATIONS = {
    "one clearly best (0.8, 0.2, 0.1, 0, 0)": (0.8, 0.2, 0.1, 0.0, 0.0),
    "one best by a little (0.4, 0.2, 0.1, 0, 0)": (0.4, 0.2, 0.1, 0.0, 0.0),
    "two tied best (0.3, 0.3, 0.1, 0, 0)": (0.3, 0.3, 0.1, 0.0, 0.0),
    "all equal (0, 0, 0, 0, 0)": (0.0, 0.0, 0.0, 0.0, 0.0),
}
SETS = {
    "mcs T_max": lambda d, k: SPECS["mcs"].compute(d, statistic="max", confidence_level=LEVEL,
                                                   n_resamples=B, rng=k).in_set[0],
    "mcs T_R": lambda d, k: SPECS["mcs"].compute(d, statistic="range", confidence_level=LEVEL,
                                                 n_resamples=B, rng=k).in_set[0],
    "rank may_be_best": lambda d, k: SPECS["rank"].compute(d, confidence_level=LEVEL,
                                                           n_resamples=B, rng=k).may_be_best[0],
}  # fmt: skip


def simulate(mu, *, n_items: int = N_ITEMS, systems=SYSTEMS, seed: int = 20250) -> dict:
    """Coverage and mean size of each set over ``N_SETS`` data sets with true means ``mu``."""
    mu = np.asarray(mu, dtype=float)
    best = mu == mu.max()
    rng = np.random.default_rng(seed)
    covered = {name: 0 for name in SETS}
    size = {name: 0 for name in SETS}
    for k in range(N_SETS):
        scores = rng.normal(size=(n_items, 1)) + mu + rng.normal(size=(n_items, len(mu)))
        design = design_from_array(scores, systems=list(systems))
        for name, members in SETS.items():
            found = np.asarray(members(design, k))
            covered[name] += bool(found[best].all())
            size[name] += int(found.sum())
    out = {}
    for name in SETS:
        share = covered[name] / N_SETS
        out[name] = dict(coverage=share, coverage_se=math.sqrt(share * (1 - share) / N_SETS),
                         mean_size=size[name] / N_SETS)  # fmt: skip
    return out


def main() -> None:
    results = {label: simulate(mu) for label, mu in CONFIGURATIONS.items()}
    OUT.write_text(json.dumps(dict(level=LEVEL, n_sets=N_SETS, n_items=N_ITEMS, n_resamples=B,
                                   results=results), indent=1) + "\n")  # fmt: skip
    print("| true means | set | coverage (± s.e.) | mean size |")
    print("|---|---|---:|---:|")
    for label, found in results.items():
        for name, r in found.items():
            print(f"| {label} | {name} | {r['coverage']:.3f} ± {r['coverage_se']:.3f} | "
                  f"{r['mean_size']:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
