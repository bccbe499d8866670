"""Calibration of the false discovery rate of the bootstrap's ``adjust="fdr_bh"`` and
``adjust="fdr_by"``: five systems, all pairs (10 comparisons), percentile p-values.

Run: ``python validation/calibration_fdr.py`` (the full study), ``--quick`` (200 simulations
per cell) or ``--n-sims N``; ``--report`` prints the Markdown table of ``docs/calibration.md``
from the CSV. Writes ``validation/results/fdr.csv`` and ``validation/results/fdr_info.csv``.

The conventions are those of ``validation/calibration.py`` (its seed and helpers are used):
every cell simulates ``n_sims`` data sets and runs the bootstrap on all of them in one call
(one group per simulated data set, each with its own resampling streams); a cell's data come
from a generator seeded by the study's seed and a CRC-32 of the cell's name (e.g. ``("fdr",
"skewed", "partial null", 20)``), and its ``rng=`` seed is derived from the same name. The two
adjustments of a cell analyse the same data sets with the same resamples (the same raw
p-values).

Model (``validation/calibration_families.py``): ``k = 5`` systems on ``n`` items,
``x[i, s] = u_i + mean_s + noise``, ``u_i ~ N(0, 1)`` a shared item difficulty;

* ``normal``: ``noise = e_is ~ N(0, 1)``;
* ``skewed``: ``noise = lambda_s w_i + 0.5 e_is`` with ``w_i ~ Exp(1) - 1`` (a skewed item
  effect to which the systems respond with loadings ``lambda = 0, 0.5, 1, 1.5, 2``), so
  that the per-item differences ``b - a`` of every pair are skewed (skewness 0.38 for loadings
  0.5 apart, up to 1.68 for A against E) with mean ``mean_b - mean_a``.

Means: ``complete null`` (all equal) and ``partial null`` (``0, 0, 0, 1, 1``: 4 true nulls,
A-B, A-C, B-C and D-E, and 6 false ones). A comparison is a false discovery when it is
rejected (``pvalue_adjusted <= 0.05``) and its true difference is 0.

Per cell and procedure: ``fdr``, the mean over data sets of the false discovery proportion
``V / max(R, 1)`` (``V`` false rejections, ``R`` all rejections), with standard error
``sd(V / max(R, 1)) / sqrt(n_sims)``; ``fwer``, the share of data sets with a false rejection;
``any_rejection``, the share with any rejection (binomial standard errors); ``power``, the
mean share of the false nulls rejected. Under the complete null every rejection is false, and
FDR, FWER and the share with any rejection are one number.
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
import calibration_families as fam  # noqa: E402

from pairedstats.inputs import design_from_array  # noqa: E402
from pairedstats.methods.bootstrap import bootstrap_design  # noqa: E402

ALPHA = fam.ALPHA
K = 5
SCENARIOS = ("complete null", "partial null")  # the means of fam.SCENARIOS
KINDS = ("normal", "skewed")
ITEMS = (20, 60, 200)
PROCEDURES = ("unadjusted", "fdr_bh", "fdr_by")
LOADINGS = (0.0, 0.5, 1.0, 1.5, 2.0)  # of the skewed item effect, systems A..E
N_SIMS = 4000
N_RESAMPLES = 2000


def simulate(kind: str, means, n: int, n_sims: int, rng) -> np.ndarray:
    """Scores ``(n * n_sims, 5)`` of the model (module docstring)."""
    if kind == "normal":
        return fam.simulate_systems(means, (1,) * K, n, n_sims, rng)
    if kind == "skewed":
        size = n * n_sims
        u = rng.normal(size=(size, 1))
        w = rng.exponential(size=(size, 1)) - 1.0
        e = rng.normal(0.0, 0.5, size=(size, K))
        return u + np.asarray(means, float) + w * np.asarray(LOADINGS) + e
    raise ValueError(kind)


def skewness(loading_gap: float, noise: float = 0.5) -> float:
    """Skewness of ``b - a`` in the skewed model for loadings ``loading_gap`` apart: the
    third cumulant ``2 gap^3`` of the centred exponential over ``(gap^2 + 2 noise^2)^1.5``."""
    return 2 * loading_gap**3 / (loading_gap**2 + 2 * noise**2) ** 1.5


def rows_of(pvalues: np.ndarray, truth: np.ndarray, procedure: str, cell: dict) -> dict:
    """One row: FDR, FWER, the share with any rejection and power of ``pvalues``
    ``(n_sims, comparisons)`` at ALPHA, with Monte Carlo standard errors."""
    n_sims = pvalues.shape[0]
    reject = np.nan_to_num(pvalues, nan=1.0) <= ALPHA
    null = truth == 0
    false = reject[:, null].sum(axis=1)
    total = reject.sum(axis=1)
    fdp = false / np.maximum(total, 1)
    fwer, anyr = float(np.mean(false > 0)), float(np.mean(total > 0))
    power = float(np.mean(reject[:, ~null])) if (~null).any() else np.nan
    return {**cell, "procedure": procedure, "n_sims": n_sims,
            "fdr": float(fdp.mean()), "fdr_se": float(fdp.std(ddof=1) / np.sqrt(n_sims)),
            "fwer": fwer, "fwer_se": float(cal.binomial_se(fwer, n_sims)),
            "any_rejection": anyr, "any_rejection_se": float(cal.binomial_se(anyr, n_sims)),
            "power": power, "mean_rejections": float(total.mean())}  # fmt: skip


def run_cell(kind: str, scenario: str, n: int, n_sims: int, *, n_resamples=N_RESAMPLES,
             key=(), procedures=PROCEDURES) -> list[dict]:  # fmt: skip
    """The rows of the cell ``("fdr", kind, scenario, n, *key)``: the bootstrap (percentile,
    all pairs) with each adjustment on the same data sets and resamples."""
    name = ("fdr", kind, scenario, n, *key)
    means = fam.SCENARIOS[scenario][0]
    x = simulate(kind, means, n, n_sims, cal._rng(*name))
    design = design_from_array(
        x, systems=list(fam.SYSTEMS[:K]), groups=np.repeat(np.arange(n_sims), n)
    )
    seed = cal.cell_seed(*name)
    cell = {"scores": kind, "scenario": scenario, "n_items": n, "systems": K,
            "comparisons": K * (K - 1) // 2, "n_resamples": n_resamples}  # fmt: skip
    rows, raw = [], None
    for adjust in [p for p in procedures if p != "unadjusted"] or ["fdr_bh"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = bootstrap_design(design, n_resamples=n_resamples, method="percentile",
                                   adjust=adjust, rng=seed)  # fmt: skip
        truth = fam._truth(res, np.asarray(means, float))
        if raw is None:
            raw = res.pvalue
            if "unadjusted" in procedures:
                rows.append(rows_of(raw, truth, "unadjusted", cell))
        assert np.array_equal(raw, res.pvalue, equal_nan=True)  # the same resamples
        if adjust in procedures:
            rows.append(rows_of(res.pvalue_adjusted, truth, adjust, cell))
    return rows


# --------------------------------------------------------------------------- report
def mark(rate: float, se: float, target: float = ALPHA) -> str:
    """``rate`` with its standard error; bold beyond 3 standard errors above ``target``, †
    between 2 and 3 (an FDR below its target is what control promises)."""
    z = (rate - target) / se if se > 0 else 0.0
    text = f"{rate:.3f} ({se:.3f})"
    return f"**{text}**" if z > 3 else f"{text} †" if z > 2 else text


def report() -> None:
    """The Markdown table of docs/calibration.md from validation/results/fdr.csv: one row
    per cell, the FDR (s.e.) of each procedure and, under the partial null, their power."""
    import pandas as pd

    df = pd.read_csv(cal.RESULTS / "fdr.csv")
    print("| scores | means | items | unadjusted | `fdr_bh` | `fdr_by` | power: unadjusted, "
          "`fdr_bh`, `fdr_by` |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---|")
    for (kind, scenario, n), cell in df.groupby(["scores", "scenario", "n_items"], sort=False):
        by = cell.set_index("procedure")
        rates = [mark(by.loc[p, "fdr"], by.loc[p, "fdr_se"]) for p in PROCEDURES]
        power = ", ".join(f"{by.loc[p, 'power']:.2f}" for p in PROCEDURES)
        print(f"| {kind} | {scenario} | {n} | {' | '.join(rates)} | "
              f"{'' if scenario == 'complete null' else power} |")  # fmt: skip


def main(n_sims: int, quick: bool) -> None:
    import pandas as pd

    t_start = time.perf_counter()
    rows = []
    for kind in KINDS:
        for scenario in SCENARIOS:
            for n in ITEMS:
                t0 = time.perf_counter()
                rows += run_cell(kind, scenario, n, n_sims)
                print(f"  {kind} {scenario} n={n}: {time.perf_counter() - t0:.1f} s",
                      flush=True)  # fmt: skip
    seconds = time.perf_counter() - t_start
    if quick:
        print(pd.DataFrame(rows).to_string())
        return
    pd.DataFrame(rows).to_csv(cal.RESULTS / "fdr.csv", index=False)
    cal.write_info("fdr_info.csv", n_sims=n_sims, n_resamples=N_RESAMPLES, seconds=round(seconds))
    print(f"\ntotal {seconds:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sims", type=int, default=None, help="simulations per cell")
    parser.add_argument("--quick", action="store_true", help="200 simulations per cell")
    parser.add_argument("--report", action="store_true", help="print the table from the CSV")
    args = parser.parse_args()
    if args.report:
        report()
    else:
        main(args.n_sims or (200 if args.quick else N_SIMS), args.quick)
