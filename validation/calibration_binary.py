"""Calibration of pass/fail comparisons: Tango's interval, the percentile bootstrap and Wald's
interval, and the size of McNemar's tests, on paired 0/1 data.

Run: ``python validation/calibration_binary.py`` (the full study), ``--quick`` (200
simulations per cell) or ``--n-sims N``; ``--report`` prints the Markdown tables of
``docs/calibration.md`` from the CSVs. Writes ``validation/results/binary_*.csv`` and the plot
``docs/_static/calibration_binary.png``.

The conventions are those of ``validation/calibration.py`` (its seed and helpers are used):
every cell simulates ``n_sims`` data sets and runs each method on all of them in one call (one
``by=`` group per simulated data set, each group with its own random streams); a cell's data
come from a generator seeded by the study's seed and a CRC-32 of the cell's name (e.g.
``("binary", "clustered", 0.9, 200, 0.5)``), and its bootstrap seed is derived from the same
name (a name used twice is an error); the intervals of one cell analyse the same data sets.
Monte Carlo standard errors are binomial, ``sqrt(p (1 - p) / n_sims)``; distances from a target
are counted in standard errors at the target.

The model (b minus a throughout). Each item (``plain``) or cluster (``clustered``) has a
difficulty ``p ~ Beta(r k, (1 - r) k)`` with mean ``r`` and ``k = 5``; system a passes with
probability ``expit(logit p + u)`` and b with ``expit(logit p + shift + v)``:

* ``plain``: ``u = v = 0``; items are independent;
* ``clustered``: items come in clusters of 5 to 10 (uniform; the last one cut to make ``n``
  items) that share ``p`` and a system-by-cluster effect for each system, ``u, v ~ N(0,
  TAU^2)`` (as reading-comprehension questions about one passage, which a system reads well or
  badly). a and b are exchangeable at ``shift = 0``, so the true difference is 0 there.

``shift = 0`` (the null: the tests' size, and the intervals' coverage of 0) and ``shift =
0.5`` on the logit scale. The true rates and their difference come from quadrature over ``p``
(Gauss-Jacobi weights for the Beta density) and Gauss-Hermite over ``u`` and ``v``.

Intervals (95%): Tango's (``mcnemar``'s ``ci_low, ci_high``; with ``cluster=`` in the
clustered cells), the percentile bootstrap (``bootstrap(method="percentile")``, 999
resamples, resampling clusters in the clustered cells) and Wald's, computed here: ``d +- z
sqrt((b + c) / n - d^2) / sqrt(n)`` with ``b, c`` the discordant counts, and in clustered cells
``d +- z sqrt(sum_k (D_k - m_k d)^2) / n`` (``D_k`` the sum of b - a over cluster ``k``, ``m_k``
its size: the cluster-robust variance, without a small-sample factor). The clustered cells
also run each interval as if the items were independent ("naive"). Tests at alpha 0.05: the
exact, mid-p and asymptotic McNemar tests (plain cells), the clustered asymptotic test of
Durkalski et al. and the naive asymptotic test (clustered cells).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy import special, stats

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import calibration as cal  # noqa: E402  (the study's seed, streams and standard errors)

import pairedstats  # noqa: E402
from pairedstats.inputs import design_from_array  # noqa: E402
from pairedstats.methods.bootstrap import bootstrap_design  # noqa: E402
from pairedstats.methods.mcnemar import mcnemar_design  # noqa: E402

RESULTS = HERE / "results"
STATIC = HERE.parent / "docs" / "_static"
LEVEL = 0.95
ALPHA = 0.05
N_RESAMPLES = 999
RATES = (0.5, 0.7, 0.9, 0.95, 0.99)
N_ITEMS = (50, 200, 1000)
SHIFTS = (0.0, 0.5)
CONCENTRATION = 5.0  # k of Beta(r k, (1 - r) k)
TAU = 1.0  # SD of each system's cluster effect on the logit scale
CLUSTER_SIZES = (5, 10)  # uniform on 5..10 items
DESIGNS = ("plain", "clustered")


# --------------------------------------------------------------------------- the truth
def true_rates(rate: float, shift: float, design: str) -> tuple[float, float]:
    """The population pass rates of a and b: quadrature over the difficulty ``p`` (Gauss-
    Jacobi on the Beta density, which is singular at 1 when ``(1 - r) k < 1``) and, with
    clusters, Gauss-Hermite over each system's cluster effect."""
    a, b = rate * CONCENTRATION, (1 - rate) * CONCENTRATION
    # Beta(a, b) on (0, 1) is the Jacobi weight (1 - x)^(b - 1) (1 + x)^(a - 1) on (-1, 1)
    x, w = special.roots_jacobi(400, b - 1, a - 1)
    p = (x + 1) / 2
    w = w / w.sum()
    if design == "plain":
        z, wz = np.zeros(1), np.ones(1)
    else:
        z, wz = special.roots_hermitenorm(60)
        z, wz = z * TAU, wz / wz.sum()
    lp = special.logit(p)[:, None]
    rate_a = float(w @ (special.expit(lp + z) @ wz))
    rate_b = float(w @ (special.expit(lp + shift + z) @ wz))
    return rate_a, rate_b


def true_difference(rate: float, shift: float, design: str) -> float:
    rate_a, rate_b = true_rates(rate, shift, design)
    return rate_b - rate_a


def discordant_rate(rate: float) -> float:
    """The probability that a and b differ on an item of the plain model at ``shift = 0``,
    ``E[2 p (1 - p)]`` for ``p ~ Beta(r k, (1 - r) k)``, in closed form."""
    a, b = rate * CONCENTRATION, (1 - rate) * CONCENTRATION
    return 2 * a * b / ((a + b) * (a + b + 1))


def enumerated_size(rate: float, n: int, method: str) -> float:
    """The exact rejection rate at ``ALPHA`` of a McNemar test on the plain model at equal
    rates, by enumeration: ``N ~ Binomial(n, discordant_rate)`` discordant items and, given
    ``N``, ``only_b ~ Binomial(N, 1/2)`` (the simulation's target for the size of that test,
    below ``ALPHA`` where the test is conservative)."""
    from pairedstats.core.mcnemar import mcnemar_test

    p_n = stats.binom.pmf(np.arange(n + 1), n, discordant_rate(rate))
    total = 0.0
    for big_n in np.flatnonzero(p_n > 1e-13):
        k = np.arange(big_n // 2 + 1)  # the test is symmetric in only_a and only_b
        reject = [mcnemar_test(int(big_n - j), int(j), method=method).pvalue <= ALPHA for j in k]
        tail = np.sum(stats.binom.pmf(k, big_n, 0.5) * reject)
        middle = big_n % 2 == 0 and reject[-1]  # k = N / 2 is its own mirror
        total += p_n[big_n] * (2 * tail - middle * stats.binom.pmf(big_n // 2, big_n, 0.5))
    return float(total)


def add_enumerated_sizes(size):
    """``size`` (the size rows) with each plain test's enumerated size (NaN when clustered)."""
    size = size.copy()
    size["enumerated"] = [
        enumerated_size(r.rate, r.n_items, r.test) if r.design == "plain" else np.nan
        for r in size.itertuples()
    ]
    return size


# --------------------------------------------------------------------------- simulation
def cluster_codes(n: int, n_sims: int, rng: np.random.Generator) -> np.ndarray:
    """Each item's cluster (codes unique over the simulated data sets): clusters of 5 to 10
    items, uniform, the last of each data set cut to make ``n`` items."""
    lo, hi = CLUSTER_SIZES
    per = n // lo + 1  # enough clusters for n items
    sizes = rng.integers(lo, hi + 1, size=(n_sims, per))
    local = np.stack([np.repeat(np.arange(per), s)[:n] for s in sizes])
    return (local + per * np.arange(n_sims)[:, None]).ravel()


def simulate(design: str, rate: float, n: int, shift: float, n_sims: int, rng) -> dict:
    """``n_sims`` data sets of ``n`` items x 2 systems (0/1), stacked; groups and clusters."""
    size = n * n_sims
    out = {"groups": np.repeat(np.arange(n_sims), n)}
    if design == "plain":
        unit, n_units = np.arange(size), size
    else:
        unit = cluster_codes(n, n_sims, rng)
        n_units = int(unit.max()) + 1
        out["cluster"] = unit
    p = rng.beta(rate * CONCENTRATION, (1 - rate) * CONCENTRATION, size=n_units)
    eta = special.logit(p)[:, None] + [0.0, shift]
    if design == "clustered":
        eta = eta + rng.normal(0.0, TAU, size=(n_units, 2))
    probs = special.expit(eta)[unit]
    out["scores"] = (rng.random((size, 2)) < probs).astype(float)
    return out


# --------------------------------------------------------------------------- Wald
def wald(sim: dict, n: int, n_sims: int, *, cluster: bool) -> tuple[np.ndarray, np.ndarray]:
    """Wald's interval of every data set: ``d +- z se``, ``se^2 = ((b + c) / n - d^2) / n``,
    or with clusters the cluster-robust ``sum_k (D_k - m_k d)^2 / n^2``."""
    x, groups = sim["scores"], sim["groups"]
    d_i = x[:, 1] - x[:, 0]
    d = np.bincount(groups, weights=d_i, minlength=n_sims) / n
    if cluster:
        codes = sim["cluster"]
        sums = np.bincount(codes, weights=d_i)
        sizes = np.bincount(codes)
        owner = np.zeros(sums.size, dtype=np.int64)
        owner[codes] = groups
        dev = (sums - sizes * d[owner]) ** 2
        var = np.bincount(owner, weights=dev, minlength=n_sims) / n**2
    else:
        discordant = np.bincount(groups, weights=np.abs(d_i), minlength=n_sims) / n
        var = (discordant - d * d) / n
    half = stats.norm.ppf(0.5 + LEVEL / 2) * np.sqrt(np.maximum(var, 0.0))
    return d - half, d + half


# --------------------------------------------------------------------------- one cell
def _interval_row(cell: dict, interval: str, lo, hi, truth: float, n_sims: int, **extra):
    cover = (lo <= truth) & (truth <= hi)
    c = float(cover.mean())
    return {**cell, "interval": interval, "n_sims": n_sims, "coverage": c,
            "se": float(cal.binomial_se(c, n_sims)), "miss_low": float(np.mean(truth < lo)),
            "miss_high": float(np.mean(truth > hi)), "mean_width": float(np.mean(hi - lo)),
            "degenerate": float(np.mean(hi - lo <= 0)), **extra}  # fmt: skip


def _size_row(cell: dict, test: str, pvalue, n_sims: int) -> dict:
    r = float(np.mean(pvalue <= ALPHA))
    return {**cell, "test": test, "alpha": ALPHA, "n_sims": n_sims, "size": r,
            "se": float(cal.binomial_se(r, n_sims))}  # fmt: skip


def run_cell(
    design: str,
    rate: float,
    n: int,
    shift: float,
    n_sims: int,
    *,
    key=(),
    naive: bool = True,
    bootstrap: bool = True,
) -> tuple[list[dict], list[dict]]:
    """The coverage rows and (at ``shift = 0``) the size rows of one cell, named
    ``("binary", design, rate, n, shift, *key)``. ``naive`` (clustered cells): also the
    intervals and the test as if the items were independent; ``bootstrap=False`` leaves the
    bootstrap out (quick checks)."""
    name = ("binary", design, rate, n, shift, *key)
    sim = simulate(design, rate, n, shift, n_sims, cal._rng(*name))
    truth = true_difference(rate, shift, design)
    cell = {"design": design, "rate": rate, "n_items": n, "shift": shift, "truth": truth}
    clustered = design == "clustered"
    variants = [True, False] if clustered and naive else [clustered]
    cov, size = [], []
    for use_cluster in variants:
        tag = "" if use_cluster == clustered else " (naive)"
        dsg = design_from_array(sim["scores"], systems=["a", "b"], groups=sim["groups"],
                                cluster=sim["cluster"] if use_cluster else None)  # fmt: skip
        # the tests' size at shift 0; the interval does not depend on the test
        methods = ("exact", "mid-p", "asymptotic") if shift == 0 and not clustered else (
            "asymptotic",)  # fmt: skip
        for method in methods:
            res = mcnemar_design(dsg, method=method, confidence_level=LEVEL)
            if shift == 0:
                label = ("clustered asymptotic" if use_cluster else method) + tag
                size.append(_size_row(cell, label, res.pvalue[:, 0], n_sims))
        extra = {}
        if use_cluster:
            extra = {"mean_clusters": float(np.mean(res.n_clusters[:, 0])),
                     "mean_design_effect": float(np.mean(res.design_effect[:, 0]))}  # fmt: skip
        cov.append(_interval_row(cell, "tango" + tag, res.ci_low[:, 0], res.ci_high[:, 0],
                                 truth, n_sims, **extra))  # fmt: skip
        if bootstrap:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # point distributions: no discordant item
                boot = bootstrap_design(dsg, n_resamples=N_RESAMPLES, confidence_level=LEVEL,
                                        method="percentile",
                                        rng=cal.cell_seed(*name, use_cluster))  # fmt: skip
            cov.append(_interval_row(cell, "bootstrap" + tag, boot.ci_low[:, 0],
                                     boot.ci_high[:, 0], truth, n_sims))  # fmt: skip
        lo, hi = wald(sim, n, n_sims, cluster=use_cluster)
        cov.append(_interval_row(cell, "wald" + tag, lo, hi, truth, n_sims))
    return cov, size


def model_rows() -> list[dict]:
    """The true rates and difference of every model cell, and its discordant rate."""
    rows = []
    for design in DESIGNS:
        for rate in RATES:
            for shift in SHIFTS:
                ra, rb = true_rates(rate, shift, design)
                rows.append({"design": design, "rate": rate, "shift": shift, "rate_a": ra,
                             "rate_b": rb, "truth": rb - ra})  # fmt: skip
    return rows


# --------------------------------------------------------------------------- the report
def _mark(rate: float, target: float, n: int) -> str:
    z = (rate - target) / np.sqrt(target * (1 - target) / n)
    text = f"{rate:.3f}"
    return f"**{text}**" if abs(z) > 3 else text + (" †" if abs(z) > 2 else "")


def _size_cell(row) -> str:
    text = _mark(row["size"], ALPHA, row["n_sims"])
    return text if np.isnan(row["enumerated"]) else f"{text} ({row['enumerated']:.3f})"


def _table(head: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def report() -> None:
    """Print the Markdown tables of ``docs/calibration.md`` from the CSVs: the models, the
    coverage of the plain and the clustered cells, the size of the tests. A rate is bold
    beyond 3 Monte Carlo standard errors (at the target) from it, marked † between 2 and 3."""
    import pandas as pd

    cov = pd.read_csv(RESULTS / "binary_coverage.csv")
    size = pd.read_csv(RESULTS / "binary_size.csv")
    models = pd.read_csv(RESULTS / "binary_models.csv").set_index(["design", "rate", "shift"])
    cells = cov.set_index(["design", "rate", "n_items", "shift", "interval"])

    def rate(design, r, n, shift, interval):
        row = cells.loc[(design, r, n, shift, interval)]
        return _mark(row["coverage"], LEVEL, row["n_sims"])

    def share(design, r, n, shift, interval):
        return f"{cells.loc[(design, r, n, shift, interval), 'degenerate']:.0%}"

    top = SHIFTS[-1]
    print("Models: the true rates (a, b) and difference at each shift")
    _table(["rate r", "plain: a", "b (shift 0.5)", "b - a", "clustered: a", "b (shift 0.5)",
            "b - a"],
           [[str(r)] + [f"{models.loc[(d, r, top), c]:.4f}" for d in DESIGNS
                        for c in ("rate_a", "rate_b", "truth")] for r in RATES])  # fmt: skip
    names = ("tango", "bootstrap", "wald")
    print("\nPlain items: coverage of the difference (shift 0.5) and of 0 (shift 0)")
    _table(["rate r", "items", "Tango", "bootstrap", "Wald", "point intervals",
            "Tango at 0", "bootstrap at 0", "Wald at 0"],
           [[str(r), str(n), *(rate("plain", r, n, top, m) for m in names),
             share("plain", r, n, top, "wald"), *(rate("plain", r, n, 0.0, m) for m in names)]
            for r in RATES for n in N_ITEMS])  # fmt: skip
    for shift in (top, 0.0):
        print(f"\nClustered items, shift {shift}: clustered and naive intervals")
        rows = []
        for r in RATES:
            for n in N_ITEMS:
                row = cells.loc[("clustered", r, n, shift, "tango")]
                rows.append([str(r), f"{n} ({row['mean_clusters']:.0f})",
                             f"{row['mean_design_effect']:.2f}",
                             *(rate("clustered", r, n, shift, m) for m in names),
                             *(rate("clustered", r, n, shift, f"{m} (naive)") for m in names),
                             share("clustered", r, n, shift, "wald") + " / "
                             + share("clustered", r, n, shift, "wald (naive)")])  # fmt: skip
        _table(
            [
                "rate r",
                "items (clusters)",
                "design effect",
                "Tango",
                "bootstrap",
                "Wald",
                "naive Tango",
                "naive bootstrap",
                "naive Wald",
                "point intervals (clustered / naive)",
            ],
            rows,
        )
    print("\nSize at 0.05 (equal rates; in parentheses: the plain tests' enumerated size)")
    tests = {"plain": ("exact", "mid-p", "asymptotic"),
             "clustered": ("clustered asymptotic", "asymptotic (naive)")}  # fmt: skip
    by = size.set_index(["design", "rate", "n_items", "test"])
    _table(["rate r", "items", "exact", "mid-p", "asymptotic", "clustered: Durkalski",
            "clustered: naive asymptotic"],
           [[str(r), str(n), *(_size_cell(by.loc[(d, r, n, t)]) for d in DESIGNS
                               for t in tests[d])]
            for r in RATES for n in N_ITEMS])  # fmt: skip
    n_sims = int(cov["n_sims"].iloc[0])
    se95, se05 = (np.sqrt(p * (1 - p) / n_sims) for p in (LEVEL, ALPHA))
    print(f"\n{n_sims} simulations per cell; Monte Carlo s.e. at the targets: {se95:.4f} at "
          f"0.95, {se05:.4f} at 0.05")  # fmt: skip


# --------------------------------------------------------------------------- plot
def plot(cov) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    STATIC.mkdir(parents=True, exist_ok=True)
    sub = cov[cov["shift"] == SHIFTS[-1]]
    fig, axes = plt.subplots(2, len(N_ITEMS), figsize=(11, 6.5), sharey=True)
    for row, design in zip(axes, DESIGNS):
        for ax, n in zip(row, N_ITEMS):
            s = sub[(sub["design"] == design) & (sub["n_items"] == n)]
            names = list(dict.fromkeys(s["interval"]))
            for j, m in enumerate(names):
                t = s[s["interval"] == m]
                x = np.arange(len(t)) + (j - (len(names) - 1) / 2) * 0.1
                ax.errorbar(x, t["coverage"], yerr=1.96 * t["se"], marker="o", ms=3, capsize=2,
                            label=m, ls="--" if "naive" in m else "-")  # fmt: skip
                ax.set_xticks(np.arange(len(t)), [str(r) for r in t["rate"]])
            ax.axhline(LEVEL, color="k", lw=0.8, ls=":")
            ax.set_title(f"{design}, {n} items", fontsize=9)
            ax.set_xlabel("mean pass rate r")
        row[0].set_ylabel("coverage of the 95% interval")
        row[0].legend(loc="lower left", fontsize=7)
    fig.suptitle(f"Pass/fail: coverage of b - a (logit shift {SHIFTS[-1]}; bars: 95% Monte Carlo"
                 " intervals)")  # fmt: skip
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_binary.png", dpi=80)
    plt.close(fig)


# --------------------------------------------------------------------------- main
def main(n_sims: int, quick: bool) -> None:
    import pandas as pd
    import scipy

    RESULTS.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    cov, size = [], []
    for design in DESIGNS:
        for rate in RATES:
            for n in N_ITEMS:
                for shift in SHIFTS:
                    t0 = time.perf_counter()
                    c, s = run_cell(design, rate, n, shift, n_sims)
                    cov += c
                    size += s
                    print(f"  {design} r={rate} n={n} shift={shift}: "
                          f"{time.perf_counter() - t0:.1f} s", flush=True)  # fmt: skip
    seconds = time.perf_counter() - t_start
    t0 = time.perf_counter()
    cov, size = pd.DataFrame(cov), add_enumerated_sizes(pd.DataFrame(size))
    seconds_enumeration = time.perf_counter() - t0
    cov.to_csv(RESULTS / "binary_coverage.csv", index=False)
    size.to_csv(RESULTS / "binary_size.csv", index=False)
    pd.DataFrame(model_rows()).to_csv(RESULTS / "binary_models.csv", index=False)
    plot(cov)
    info = {"n_sims": n_sims, "n_resamples": N_RESAMPLES, "quick": quick, "seed": cal.SEED,
            "pairedstats": pairedstats.__version__, "numpy": np.__version__,
            "scipy": scipy.__version__, "python": platform.python_version(),
            "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"),
            "seconds_simulations": round(seconds, 1),
            "seconds_enumeration": round(seconds_enumeration, 1)}  # fmt: skip
    pd.DataFrame({"key": list(info), "value": list(info.values())}).to_csv(
        RESULTS / "binary_study_info.csv", index=False)  # fmt: skip
    report()
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sims", type=int, default=None, help="simulations per cell")
    parser.add_argument("--quick", action="store_true", help="200 simulations per cell")
    parser.add_argument("--report", action="store_true", help="print the tables from the CSVs")
    args = parser.parse_args()
    if args.report:
        report()
    else:
        n = args.n_sims if args.n_sims is not None else (200 if args.quick else 2000)
        main(n, args.quick)
