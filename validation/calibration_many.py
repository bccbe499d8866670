"""Calibration of many comparisons: the family-wise error (FWER) and false discovery rate
(FDR) of the bootstrap's adjustments over all pairs of 5, 10 and 25 systems (m = 10, 45 and
300 comparisons) on 60, 200 and 1,000 items, complete and partial null.

Run: ``python validation/calibration_many.py`` (the full study, about 30-60 minutes on one
core), ``--quick`` (20 simulations per cell, no CSV) or ``--n-sims N`` (every cell);
``--report`` prints the Markdown tables of ``docs/calibration.md`` from the CSV. Writes
``validation/results/many.csv`` (one row per cell and procedure, appended cell by cell, so
that an interrupted run keeps its finished cells) and ``validation/results/many_info.csv``.

The conventions are those of ``validation/calibration.py`` and
``validation/calibration_fdr.py`` (their seeds, helpers and rates are used): a cell's data
come from a generator seeded by the study's seed and a CRC-32 of the cell's name (e.g.
``("many", "complete null", 25, 200)``), its ``rng=`` seed is derived from the same name,
and every simulated data set is one group of a call (its own resampling streams, keyed by
the group).

Model (``validation/calibration_families.py``): ``k`` systems on ``n`` items,
``x[i, s] = u_i + mean_s + e_is``, ``u_i, e_is ~ N(0, 1)``. ``complete null``: all means
equal. ``partial null``: the first ``ceil(0.6 k)`` systems at 0, the others at 0.5 (5
systems: 3 and 2; 10: 6 and 4; 25: 15 and 10), so that the true nulls are the pairs within a
block (4, 21 and 150 of 10, 45 and 300) and the other pairs differ by 0.5 (a standardized
paired difference of 0.35).

Procedures, all on the same data sets and resamples of a cell: one percentile bootstrap
with ``adjust="max-t"`` gives the raw ``pvalue`` and max-t's ``pvalue_adjusted``; Holm,
BH and BY are then applied to the raw p-values exactly as ``bootstrap(adjust=...)`` applies
them (:func:`pairedstats.core.adjust.add_one_pvalues` then
:func:`~pairedstats.core.adjust.adjust_pvalues`; ``tests/test_calibration.py`` checks that
the two give the same numbers), and Holm also on the raw p-values (``holm, raw p``: the
adjustment before add-one p-values). In the key cells a second call with
``method="studentized"`` gives Holm on the bootstrap-t p-values (``bootstrap-t holm``).
The resamples of a family of ``m`` are ``N_RESAMPLES[m]``, enough for Holm and BH to
resolve ``alpha / m`` (:func:`pairedstats.core.adjust.resamples_to_resolve`; BY too for
``m = 10`` and 45, not for 300, which needs 75,400). The ``before`` cell repeats 25 equal
systems on 60 items at 999 resamples, the setting in which Holm on the raw p-values was
found to reject in about 45% of data sets.

Per cell and procedure (``calibration_fdr.rows_of``, at ALPHA = 0.05): ``fwer``, the share
of data sets with a false rejection; ``fdr``, the mean false discovery proportion; their
Monte Carlo standard errors (binomial for the FWER, ``sd / sqrt(n_sims)`` for the FDR);
``power``, the mean share of false nulls rejected.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import calibration as cal  # noqa: E402
import calibration_families as fam  # noqa: E402
import calibration_fdr as fdr  # noqa: E402

from pairedstats.core.adjust import add_one_pvalues, adjust_pvalues  # noqa: E402
from pairedstats.inputs import design_from_array  # noqa: E402
from pairedstats.methods.bootstrap.spec import SPEC  # noqa: E402

ALPHA = fam.ALPHA
SYSTEMS = (5, 10, 25)
ITEMS = (60, 200, 1000)
SCENARIOS = ("complete null", "partial null")
SHIFT = 0.5
#: resamples per family size: Holm and BH resolve alpha / m (B + 1 > 2 m / alpha)
N_RESAMPLES = {10: 2000, 45: 8000, 300: 12000}
#: data sets per cell: the key cells (25 systems, 200 items) most, cheap cells many
N_SIMS = {5: 400, 10: 300, 25: 300}
KEY_SIMS = 500
PROCEDURES = ("holm, raw p", "holm", "fdr_bh", "fdr_by", "max-t", "bootstrap-t holm")
#: cells with the studentized call (bootstrap-t Holm): 25 systems on 60 and 200 items
STUDENTIZED = {(25, 60), (25, 200)}
CSV = cal.RESULTS / "many.csv"


def means_of(scenario: str, k: int) -> np.ndarray:
    """The systems' means (module docstring)."""
    if scenario == "complete null":
        return np.zeros(k)
    return np.where(np.arange(k) < math.ceil(0.6 * k), 0.0, SHIFT)


def names(k: int) -> list[str]:
    return [f"S{s:02d}" for s in range(k)]


def truth_of(res, means: np.ndarray) -> np.ndarray:
    """True differences b - a of the result's comparisons."""
    pos = {s: i for i, s in enumerate(names(len(means)))}
    return np.array([means[pos[b]] - means[pos[a]] for a, b in zip(res.label_a, res.label_b)])


def bootstrap_cell(x, k, n, n_sims, *, seed, n_resamples, method="percentile",
                   adjust="max-t", chunk=50):  # fmt: skip
    """The bootstrap of every simulated data set (one group each), ``chunk`` groups a call
    (the groups keep their keys, hence their streams); returns ``(pvalue,
    pvalue_adjusted, truth-ready result)``."""
    pvalue, adjusted, res = [], [], None
    for lo in range(0, n_sims, chunk):
        hi = min(lo + chunk, n_sims)
        design = design_from_array(x[lo * n : hi * n], systems=names(k),
                                   groups=np.repeat(np.arange(lo, hi), n))  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = SPEC.compute(design, keep=False, n_resamples=n_resamples, method=method,
                               adjust=adjust, rng=seed)  # fmt: skip
        pvalue.append(res.pvalue)
        adjusted.append(res.pvalue_adjusted)
    return np.concatenate(pvalue), None if adjust is None else np.concatenate(adjusted), res


def adjusted(raw: np.ndarray, method: str, n_resamples: int) -> np.ndarray:
    """``method`` on the raw bootstrap p-values as ``bootstrap(adjust=method)`` does it."""
    return adjust_pvalues(add_one_pvalues(raw, n_resamples), method)


def run_cell(scenario: str, k: int, n: int, n_sims: int, *, n_resamples=None, key=(),
             procedures=PROCEDURES, studentized=None) -> list[dict]:  # fmt: skip
    """The rows of the cell ``("many", scenario, k, n, *key)``."""
    name = ("many", scenario, k, n, *key)
    m = k * (k - 1) // 2
    n_resamples = n_resamples or N_RESAMPLES[m]
    means = means_of(scenario, k)
    x = fam.simulate_systems(means, np.ones(k), n, n_sims, cal._rng(*name))
    seed = cal.cell_seed(*name)
    raw, maxt, res = bootstrap_cell(x, k, n, n_sims, seed=seed, n_resamples=n_resamples)
    truth = truth_of(res, means)
    cell = {"scenario": scenario, "systems": k, "comparisons": m, "n_items": n,
            "n_resamples": n_resamples, "true_nulls": int((truth == 0).sum())}  # fmt: skip
    found = {"holm, raw p": adjust_pvalues(raw, "holm"), "max-t": maxt}
    for method in ("holm", "fdr_bh", "fdr_by"):
        found[method] = adjusted(raw, method, n_resamples)
    if studentized is None:
        studentized = (k, n) in STUDENTIZED
    if studentized and "bootstrap-t holm" in procedures:
        t_raw, _, _ = bootstrap_cell(x, k, n, n_sims, seed=seed, n_resamples=n_resamples,
                                     method="studentized", adjust=None)  # fmt: skip
        found["bootstrap-t holm"] = adjusted(t_raw, "holm", n_resamples)
    rows = []
    for procedure in procedures:
        if procedure in found:
            row = fdr.rows_of(found[procedure], truth, procedure, cell)
            row["p_zero"] = float(np.mean(raw[:, truth == 0] == 0))
            rows.append(row)
    return rows


def cells(n_sims=None):
    """Every cell of the study, in the order run: ``(scenario, k, n, n_sims, keywords)``;
    the ``before`` cell first."""
    out = [("complete null", 25, 60, n_sims or 400,
            {"n_resamples": 999, "key": ("before",), "studentized": False})]  # fmt: skip
    for k in SYSTEMS:
        for n in ITEMS:
            for scenario in SCENARIOS:
                sims = n_sims or (KEY_SIMS if (k, n) == (25, 200) else N_SIMS[k])
                out.append((scenario, k, n, sims, {}))
    return out


# --------------------------------------------------------------------------- report
def report() -> None:
    """The Markdown tables of docs/calibration.md from validation/results/many.csv: FWER
    (s.e.) per procedure and cell, the FDR of BH and BY, and the power under the partial
    null."""
    import pandas as pd

    df = pd.read_csv(CSV)
    shown = [p for p in PROCEDURES if p in set(df["procedure"])]
    head = " | ".join(f"`{p}`" if p in ("holm", "fdr_bh", "fdr_by", "max-t") else p
                      for p in shown)  # fmt: skip
    for measure in ("fwer", "fdr"):
        print(f"\n{measure.upper()} (Monte Carlo s.e.); bold: more than 3 s.e. above 0.05, "
              "†: 2-3 s.e.\n")  # fmt: skip
        print(f"| means | systems (pairs) | items | B | data sets | {head} |")
        print("|---|---|---:|---:|---:|" + "---:|" * len(shown))
        keys = ["scenario", "systems", "n_items", "n_resamples"]
        for (scenario, k, n, b), cell in df.groupby(keys, sort=False):
            by = cell.set_index("procedure")
            rates = [fdr.mark(by.loc[p, measure], by.loc[p, f"{measure}_se"])
                     if p in by.index else "" for p in shown]  # fmt: skip
            sims = int(cell["n_sims"].iloc[0])
            print(f"| {scenario} | {k} ({k * (k - 1) // 2}) | {n} | {b:,} | {sims} | "
                  f"{' | '.join(rates)} |")  # fmt: skip
    print("\nPower (mean share of the false nulls rejected), partial null\n")
    print(f"| systems | items | {head} |")
    print("|---|---:|" + "---:|" * len(shown))
    part = df[df["scenario"] == "partial null"]
    for (k, n), cell in part.groupby(["systems", "n_items"], sort=False):
        by = cell.set_index("procedure")
        power = [f"{by.loc[p, 'power']:.2f}" if p in by.index else "" for p in shown]
        print(f"| {k} | {n} | {' | '.join(power)} |")


def main(n_sims, quick: bool) -> None:
    import pandas as pd

    t_start = time.perf_counter()
    if not quick and CSV.exists():
        CSV.unlink()
    rows = []
    for scenario, k, n, sims, kw in cells(n_sims):
        t0 = time.perf_counter()
        new = run_cell(scenario, k, n, sims, **kw)
        rows += new
        if not quick:
            pd.DataFrame(rows).to_csv(CSV, index=False)
        rates = ", ".join(f"{r['procedure']} {r['fwer']:.3f}" for r in new)
        print(f"  {scenario} k={k} n={n} B={new[0]['n_resamples']} sims={sims}: "
              f"{time.perf_counter() - t0:.0f} s; FWER {rates}", flush=True)  # fmt: skip
    seconds = time.perf_counter() - t_start
    if quick:
        print(pd.DataFrame(rows).to_string())
        return
    cal.write_info(
        "many_info.csv",
        n_sims=f"{N_SIMS} (25 systems x 200 items: {KEY_SIMS})",
        n_resamples=str(N_RESAMPLES),
        seconds=round(seconds),
    )
    print(f"\ntotal {seconds:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sims", type=int, default=None, help="simulations per cell")
    parser.add_argument("--quick", action="store_true", help="20 simulations per cell")
    parser.add_argument("--report", action="store_true", help="print the tables from the CSV")
    args = parser.parse_args()
    if args.report:
        report()
    else:
        main(args.n_sims or (20 if args.quick else None), args.quick)
