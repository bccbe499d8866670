"""Coverage of the Poisson bootstrap (the streaming road's resampling) next to the
multinomial bootstrap's, on the designs of ``validation/calibration.py``.

Run: ``python validation/calibration_poisson.py`` (the full study), ``--quick`` (200
simulations per cell) or ``--n-sims N``; ``--report`` prints the Markdown table of
``docs/dask.md`` from the CSV. Writes ``validation/results/poisson.csv`` and
``validation/results/poisson_info.csv``.

Each cell simulates ``n_sims`` data sets of ``n`` items x 2 systems of a metric kind of the
study (``normal``: normal differences; ``exponential``: skewed differences; ``bounded``:
scores clipped to [0, 1]), b - a of known population mean (``calibration.true_difference``),
with the study's seeds. On the same data:

* the multinomial bootstrap: ``pairedstats`` ``bootstrap_design`` (percentile, 95%), one
  group per data set;
* the Poisson bootstrap: each item's weight in each resample a Poisson(1) draw keyed by the
  item's label (:mod:`pairedstats.core.draws.poisson`), each system's resampled mean the
  ratio of its weighted sum to its weights' sum (:mod:`pairedstats.core.streaming`), the
  percentile interval of the resampled differences (:func:`pairedstats.core.intervals.
  percentile_interval`, the same rule).

The Poisson bootstrap resamples a random number of items (mean n, variance n), so its
interval is a little wider at small n and the two agree as n grows (Hanley and MacGibbon
2006; Chamandy et al. 2012): the table says how much, with Monte Carlo standard errors.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import calibration as cal  # noqa: E402

from pairedstats.core.draws.poisson import item_keys  # noqa: E402
from pairedstats.core.intervals import percentile_interval  # noqa: E402
from pairedstats.core.streaming import PoissonTallies, poisson_means  # noqa: E402
from pairedstats.inputs import design_from_array  # noqa: E402
from pairedstats.methods.bootstrap import bootstrap_design  # noqa: E402

RESULTS = HERE / "results" / "poisson.csv"
KINDS = ("normal", "exponential", "bounded")
ITEMS = (20, 60, 200)
N_SIMS = 4000
N_RESAMPLES = 2000
LEVEL = 0.95


def poisson_intervals(x: np.ndarray, n: int, n_sims: int, seed: int, n_resamples: int):
    """The Poisson bootstrap's percentile interval of b - a of each data set (rows
    ``g * n`` to ``(g + 1) * n`` of ``x``), its own stream per data set."""
    keys = item_keys(np.repeat(np.arange(n), 2))
    codes = np.tile([0, 1], n)
    low, high = np.empty(n_sims), np.empty(n_sims)
    for g in range(n_sims):
        tallies = PoissonTallies.empty(seed, ["poisson", (g,)], 2, n_resamples)
        tallies.add(keys, codes, x[g * n : (g + 1) * n].ravel())
        means, _ = poisson_means(tallies)
        low[g], high[g] = percentile_interval(means[:, 1] - means[:, 0], LEVEL)
    return low, high


def run_cell(kind: str, n: int, n_sims: int, *, n_resamples: int = N_RESAMPLES, key=()) -> dict:
    """One row: both bootstraps' coverage and mean width on the same ``n_sims`` data sets."""
    name = ("poisson", kind, n, *key)
    sim = cal.simulate_paired(kind, n, n_sims, cal._rng(*name))
    x, seed, truth = sim["scores"], cal.cell_seed(*name), cal.true_difference(kind)
    design = design_from_array(x, systems=["a", "b"], groups=sim["groups"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = bootstrap_design(design, n_resamples=n_resamples, method="percentile",
                               baseline="a", rng=seed)  # fmt: skip
    rows = {"multinomial": (res.ci_low[:, 0], res.ci_high[:, 0]),
            "poisson": poisson_intervals(x, n, n_sims, seed, n_resamples)}  # fmt: skip
    out = {"kind": kind, "n_items": n, "n_sims": n_sims, "n_resamples": n_resamples}
    for road, (low, high) in rows.items():
        covered = float(np.mean((low <= truth) & (truth <= high)))
        out[f"{road}_coverage"] = covered
        out[f"{road}_se"] = float(cal.binomial_se(covered, n_sims))
        out[f"{road}_width"] = float(np.mean(high - low))
    return out


def report(frame) -> str:
    """The Markdown table of docs/dask.md: coverage (Monte Carlo SE) and the width ratio."""
    lines = ["| scores | items | multinomial | Poisson | width, Poisson / multinomial |",
             "|---|---|---|---|---|"]  # fmt: skip
    for row in frame.itertuples():
        lines.append(
            f"| {row.kind} | {row.n_items} | {row.multinomial_coverage:.3f} "
            f"({row.multinomial_se:.3f}) | {row.poisson_coverage:.3f} ({row.poisson_se:.3f}) "
            f"| {row.poisson_width / row.multinomial_width:.3f} |"
        )
    return "\n".join(lines)


def main(argv=None) -> None:
    import pandas as pd

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 simulations per cell")
    parser.add_argument("--n-sims", type=int, default=None)
    parser.add_argument("--report", action="store_true", help="print the docs table")
    args = parser.parse_args(argv)
    if args.report:
        print(report(pd.read_csv(RESULTS)))
        return
    n_sims = 200 if args.quick else args.n_sims or N_SIMS
    start, rows = time.time(), []
    for kind in KINDS:
        for n in ITEMS:
            rows.append(run_cell(kind, n, n_sims))
            print(rows[-1], f"{time.time() - start:.0f} s", flush=True)
    pd.DataFrame(rows).to_csv(RESULTS, index=False)
    cal.write_info("poisson_info.csv", seconds=round(time.time() - start), n_sims=n_sims,
                   n_resamples=N_RESAMPLES, level=LEVEL)  # fmt: skip
    print(report(pd.DataFrame(rows)))


if __name__ == "__main__":
    main()
