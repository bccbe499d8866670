"""Size of the bootstrap's tests against a margin at the null's boundary, by simulation.

Equivalence by two one-sided tests (``alternative="two-sided"``) is falsely declared when
the true difference is ``m`` (the boundary of ``H0: |b - a| >= m``); non-inferiority
(``alternative="greater"``) when it is ``-m`` (the boundary of ``H0: b - a <= -m``). At
``alpha = 0.05`` both rates should be at most about 0.05; the percentile interval is known
to be too narrow on few items, which makes both liberal there.

Each data set: ``n`` items, per-item differences ``b - a`` normal with standard deviation 1
(``a`` standard normal, ``b = a + d``), margin ``m = 0.5``; 2,000 data sets (one ``by``
group each) x 2,000 resamples, ``method`` percentile and BCa. The Monte Carlo standard
error of a rate near 0.05 over 2,000 data sets is about 0.005.

Run from the repository root (about 5 minutes of CPU)::

    nice -n 10 python tests/reference/bootstrap/margin_calibration.py

It writes ``margin_calibration.json`` next to itself; ``docs/bootstrap.md`` shows the
table, and ``tests/test_bootstrap_margin.py`` checks the two agree.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pairedstats  # noqa: F401  (registers the .paired accessor)

MARGIN = 0.5
SIZES = (20, 50, 200)
N_DATASETS = 2000
N_RESAMPLES = 2000
METHODS = ("percentile", "bca")
CASES = {"equivalence": ("two-sided", MARGIN, "equivalent"),
         "noninferiority": ("greater", -MARGIN, "noninferior")}  # fmt: skip


def frame(n: int, shift: float, seed: int) -> pd.DataFrame:
    """``N_DATASETS`` data sets of ``n`` items, the true difference ``shift``."""
    gen = np.random.default_rng(seed)
    a = gen.standard_normal((N_DATASETS, n))
    b = a + shift + gen.standard_normal((N_DATASETS, n))
    rows = pd.DataFrame({
        "dataset": np.repeat(np.arange(N_DATASETS), n),
        "item": np.tile(np.arange(n), N_DATASETS),
        "zeta": a.ravel(), "alpha": b.ravel(),
    })  # fmt: skip
    return rows.melt(["dataset", "item"], var_name="system", value_name="score")


def main() -> None:
    out = {"margin": MARGIN, "n_datasets": N_DATASETS, "n_resamples": N_RESAMPLES,
           "alpha": 0.05, "rates": {}}  # fmt: skip
    start = time.process_time()
    for c, (case, (alternative, shift, column)) in enumerate(CASES.items()):
        for i, n in enumerate(SIZES):
            data = frame(n, shift, seed=1000 * c + i)
            for method in METHODS:
                res = data.paired.bootstrap(
                    item="item", system="system", score="score", by="dataset",
                    baseline="zeta", margin=MARGIN, alternative=alternative,
                    method=method, n_resamples=N_RESAMPLES, rng=7 + i,
                )  # fmt: skip
                rate = float(res[column].mean())
                out["rates"].setdefault(case, {}).setdefault(method, {})[str(n)] = rate
                print(case, method, n, rate, flush=True)
    out["cpu_seconds"] = round(time.process_time() - start)
    path = Path(__file__).with_name("margin_calibration.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
