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
import math
from pathlib import Path

import numpy as np
from best_set import LEVEL, N_SETS, SETS, B

from pairedstats.inputs import design_from_array

OUT = Path(__file__).parent / "results" / "best_set_equal.json"
N_SYSTEMS, N_ITEMS = 10, 30


def main() -> None:
    rng = np.random.default_rng(20251)
    systems = [f"s{j}" for j in range(N_SYSTEMS)]
    covered = {name: 0 for name in SETS}
    size = {name: 0 for name in SETS}
    for k in range(N_SETS):
        scores = rng.normal(size=(N_ITEMS, 1)) + rng.normal(size=(N_ITEMS, N_SYSTEMS))
        design = design_from_array(scores, systems=systems)
        for name, members in SETS.items():
            found = np.asarray(members(design, k))
            covered[name] += bool(found.all())
            size[name] += int(found.sum())
    results = {}
    for name in SETS:
        share = covered[name] / N_SETS
        results[name] = dict(coverage=share, coverage_se=math.sqrt(share * (1 - share) / N_SETS),
                             mean_size=size[name] / N_SETS)  # fmt: skip
    OUT.write_text(json.dumps(dict(level=LEVEL, n_sets=N_SETS, n_items=N_ITEMS,
                                   n_systems=N_SYSTEMS, n_resamples=B, results=results),
                              indent=1) + "\n")  # fmt: skip
    for name, r in results.items():
        print(f"| all equal, 10 systems, 30 items | {name} | {r['coverage']:.3f} ± "
              f"{r['coverage_se']:.3f} | {r['mean_size']:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
