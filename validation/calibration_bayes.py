"""Frequentist behaviour of the Bayesian signed-rank test's decisions
(``df.paired.bayes_signrank``): how often "probably b is better" and "probably practically
equivalent" are said when they are false.

Run: ``python validation/calibration_bayes.py`` (the full study), ``--quick`` (200
simulations per cell) or ``--n-sims N``; ``--report`` prints the Markdown table of
``docs/bayes_signrank.md`` from the CSV. Writes ``validation/results/bayes_signrank.csv`` and
``validation/results/bayes_signrank_info.csv``.

Conventions of ``validation/calibration.py``: a cell's data come from a generator seeded by
the study's seed and a CRC-32 of the cell's name, its ``rng=`` from the same name; every
cell runs the test on all its simulated data sets in one call (an xarray sweep, one group per
simulated data set, each with its own label-keyed draws).

Model: ``n`` data sets (the items), two systems, per-data-set differences ``b - a = delta +
e`` with ``e`` symmetric about 0: standard normal, or Student t with 3 degrees of freedom
scaled to unit variance (heavy tails). The decision rule is the usual one of Benavoli et al.
(2017): a probability above 0.95.

* ``b better, no rope``: ``delta = 0``, ``rope = 0``; the rate of ``prob_b_better > 0.95``
  is a false claim "b is better". Beside it, on the same data, the rate of the one-sided
  Wilcoxon signed-rank test (scipy, exact) at 0.05, the frequentist test it mirrors.
* ``b better, rope edge``: ``delta = rope = 0.5`` (half a standard deviation); "b is better
  by more than the rope" is false at the edge; rate of ``prob_b_better > 0.95``.
* ``equivalent, rope edge``: ``delta = rope = 0.5``; "practically equivalent" is false at
  the edge; rate of ``prob_equivalent > 0.95``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import calibration as cal  # noqa: E402

import pairedstats  # noqa: E402, F401  (the accessor)

RESULTS = HERE / "results" / "bayes_signrank.csv"
CLAIMS = ("b better, no rope", "b better, rope edge", "equivalent, rope edge")
NOISES = ("normal", "t3")
ITEMS = (10, 20, 50)
N_SIMS = {10: 4000, 20: 4000, 50: 1000}
N_SAMPLES = 2000
ROPE = 0.5
THRESHOLD = 0.95


def noise(kind: str, size, rng) -> np.ndarray:
    """Symmetric noise with unit variance."""
    if kind == "normal":
        return rng.standard_normal(size)
    if kind == "t3":
        return rng.standard_t(3, size) / np.sqrt(3.0)
    raise ValueError(kind)


def run_cell(claim: str, kind: str, n: int, n_sims: int, key=()) -> dict:
    """One row: the rate of the false claim ``claim`` over ``n_sims`` simulated data sets of
    ``n`` items (and the Wilcoxon test's on the same data for ``"b better, no rope"``)."""
    import xarray as xr
    from scipy import stats

    name = ("bayes_signrank", claim, kind, n, *key)
    rng = cal._rng(*name)
    rope = 0.0 if claim == "b better, no rope" else ROPE
    delta = 0.0 if claim == "b better, no rope" else ROPE
    a = rng.standard_normal((n_sims, n))
    b = a + delta + noise(kind, (n_sims, n), rng)
    ds = xr.Dataset(
        {"score": (("sim", "item", "system"), np.stack([b, a], axis=-1))},
        coords={"sim": np.arange(n_sims), "system": ["treated", "control"]},
    )
    res = ds.paired.bayes_signrank(baseline="control", rope=rope, n_samples=N_SAMPLES,
                                   rng=cal.cell_seed(*name))  # fmt: skip
    column = "prob_equivalent" if claim.startswith("equivalent") else "prob_b_better"
    rate = float((res[column].values[:, 0] > THRESHOLD).mean())
    row = {"claim": claim, "noise": kind, "n_items": n, "delta": delta, "rope": rope,
           "n_sims": n_sims, "n_samples": N_SAMPLES, "rate": rate,
           "rate_se": float(cal.binomial_se(rate, n_sims))}  # fmt: skip
    if claim == "b better, no rope":
        p = stats.wilcoxon(b - a, alternative="greater", method="exact", axis=1).pvalue
        wilcoxon = float((p < 1 - THRESHOLD).mean())
        row.update(wilcoxon=wilcoxon, wilcoxon_se=float(cal.binomial_se(wilcoxon, n_sims)))
    return row


def report(frame) -> str:
    """The Markdown table of docs/bayes_signrank.md: rate (Monte Carlo SE) per cell."""
    lines = ["| claim (false in truth) | noise | " + " | ".join(f"n = {n}" for n in ITEMS) + " |",
             "|---|---|" + "---|" * len(ITEMS)]  # fmt: skip
    for claim in CLAIMS:
        for kind in NOISES:
            cells = []
            for n in ITEMS:
                row = frame[(frame["claim"] == claim) & (frame["noise"] == kind)
                            & (frame["n_items"] == n)].iloc[0]  # fmt: skip
                text = f"{row['rate']:.3f} ({row['rate_se']:.3f})"
                if claim == "b better, no rope":
                    text += f"; Wilcoxon {row['wilcoxon']:.3f}"
                cells.append(text)
            lines.append(f"| {claim} | {kind} | " + " | ".join(cells) + " |")
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
    start, rows = time.time(), []
    for claim in CLAIMS:
        for kind in NOISES:
            for n in ITEMS:
                n_sims = 200 if args.quick else args.n_sims or N_SIMS[n]
                rows.append(run_cell(claim, kind, n, n_sims))
                print(rows[-1], f"{time.time() - start:.0f} s", flush=True)
    pd.DataFrame(rows).to_csv(RESULTS, index=False)
    cal.write_info("bayes_signrank_info.csv", seconds=round(time.time() - start),
                   n_samples=N_SAMPLES, rope=ROPE, threshold=THRESHOLD)  # fmt: skip
    print(report(pd.DataFrame(rows)))


if __name__ == "__main__":
    main()
