"""The best set when every system is best: 10 equal systems on 30 items, the hardest case
for coverage (the set must keep all ten). Writes ``results/best_set_equal.json``
(``python validation/best_set_equal.py``, a few minutes).

Each data set: the score of system j on item i is ``item_i + noise_ij`` (both standard
normal), 500 data sets, 499 resamples, level 0.9, the same sets as ``best_set.py`` (``mcs``
with T_max and T_R, ``rank``'s ``may_be_best``). Coverage: the share of data sets whose set
holds all ten systems, with its Monte Carlo standard error ``sqrt(c (1 - c) / 500)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from best_set import LEVEL, N_SETS, B, simulate

OUT = Path(__file__).parent / "results" / "best_set_equal.json"
N_SYSTEMS, N_ITEMS = 10, 30


def main() -> None:
    systems = [f"s{j}" for j in range(N_SYSTEMS)]  # every one is best: all must be kept
    results = simulate(np.zeros(N_SYSTEMS), n_items=N_ITEMS, systems=systems, seed=20251)
    OUT.write_text(json.dumps(dict(level=LEVEL, n_sets=N_SETS, n_items=N_ITEMS,
                                   n_systems=N_SYSTEMS, n_resamples=B, results=results),
                              indent=1) + "\n")  # fmt: skip
    for name, r in results.items():
        print(f"| all equal, 10 systems, 30 items | {name} | {r['coverage']:.3f} ± "
              f"{r['coverage_se']:.3f} | {r['mean_size']:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
