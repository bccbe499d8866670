"""Calibration study: do the intervals cover and do the tests hold their level?

Run: ``python validation/calibration.py`` (the full study, about 15 minutes on the 2-core
development machine), ``--quick`` (200 simulations per cell, about 2 minutes) or
``--n-sims N``. Writes ``validation/results/*.csv`` and the plots
``docs/_static/calibration_*.png``; ``docs/calibration.md`` summarises them.

Every cell simulates ``n_sims`` independent data sets and runs the method on all of them in
one call (one group per simulated data set: each group has its own random streams, keyed by
the seed and the group key, so the simulations are independent). Monte Carlo standard errors
are binomial, ``sqrt(p (1 - p) / n_sims)``.

Simulation models (b minus a throughout):

* paired scores share a per-item difficulty ``u_i``; each system adds its own noise;
* ``normal``: ``a = u + e_a``, ``b = u + 0.2 + e_b``, ``u ~ N(0, 1)``, ``e ~ N(0, 1)``;
* ``bounded``: skewed scores clipped to [0, 1] (like nDCG or reciprocal rank on hard
  queries): ``u ~ Beta(0.7, 3)``, ``a = clip(u + e_a)``, ``b = clip(u + 0.05 + e_b)``,
  ``e ~ N(0, 0.15)``; the true difference is computed by quadrature;
* ``binary``: 0/1 accuracy, ``p_i ~ Beta(4, 1)``, ``a ~ Bernoulli(p_i)``,
  ``b ~ Bernoulli(expit(logit(p_i) + 0.3))``; true difference by quadrature;
* ``cluster``: items in clusters of 5; a cluster shares a difficulty and a
  system-by-cluster effect ``v_c ~ N(0, 0.7)`` added to b (so differences are correlated
  within clusters);
* ``strata``: three strata sampled equally (n/3 items each) but weighted 0.5/0.3/0.2 in the
  population, with mean differences 0, 0.4, 1.0 and difference SDs 1, 1.5, 2.
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
from scipy import integrate, special, stats

import pairedstats
from pairedstats.bootstrap import bootstrap_design
from pairedstats.core.design import TwoSampleDesign
from pairedstats.inputs import design_from_array
from pairedstats.ranksum import ranksum_design
from pairedstats.tukey import tukey_hsd_design

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
STATIC = HERE.parent / "docs" / "_static"
LEVEL = 0.95
SEED = 20240601


def binomial_se(p, n):
    """Monte Carlo standard error of a proportion ``p`` estimated from ``n`` simulations."""
    p = np.asarray(p, dtype=float)
    return np.sqrt(p * (1 - p) / n)


def _rng(*key: int) -> np.random.Generator:
    return np.random.default_rng([SEED, *key])


# --------------------------------------------------------------------------- true values
def _clip_mean(m, s):
    """E[clip(X, 0, 1)] for X ~ N(m, s^2): s * (G(m/s) - G((m-1)/s)), G(x) = x Phi + phi."""

    def g(x):
        return x * special.ndtr(x) + np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi)

    return s * (g(m / s) - g((m - 1) / s))


BOUNDED = {"alpha": 0.7, "beta": 3.0, "shift": 0.05, "noise": 0.15}
BINARY = {"alpha": 4.0, "beta": 1.0, "logit_shift": 0.3}


def true_difference(kind: str) -> float:
    """Population mean of b - a for a metric kind (quadrature for the non-normal ones)."""
    if kind in ("normal", "cluster"):
        return 0.2
    if kind == "strata":
        return float(np.dot(STRATA["weights"], STRATA["delta"]))
    if kind == "bounded":
        p = BOUNDED
        dens = stats.beta(p["alpha"], p["beta"]).pdf

        def f(u):
            return dens(u) * (_clip_mean(u + p["shift"], p["noise"]) - _clip_mean(u, p["noise"]))

        return float(integrate.quad(f, 0, 1, epsabs=1e-12, limit=200)[0])
    if kind == "binary":
        p = BINARY
        dens = stats.beta(p["alpha"], p["beta"]).pdf

        def f(u):
            return dens(u) * (special.expit(special.logit(u) + p["logit_shift"]) - u)

        return float(integrate.quad(f, 0, 1, epsabs=1e-12, limit=200)[0])
    raise ValueError(kind)


STRATA = {
    "labels": ("easy", "medium", "hard"),
    "weights": np.array([0.5, 0.3, 0.2]),
    "delta": np.array([0.0, 0.4, 1.0]),
    "sd": np.array([1.0, 1.5, 2.0]),
}


# --------------------------------------------------------------------------- simulators
def simulate_paired(
    kind: str, n: int, n_sims: int, rng: np.random.Generator, *, cluster_size: int = 5
) -> dict:
    """``n_sims`` data sets of ``n`` items x 2 systems, stacked; group codes, clusters, strata.

    ``cluster_size`` (kind ``"cluster"``): items per cluster (``n`` must be a multiple).
    """
    size = n * n_sims
    out = {"groups": np.repeat(np.arange(n_sims), n)}
    if kind == "normal":
        u = rng.normal(size=(size, 1))
        x = u + rng.normal(size=(size, 2)) + [0.0, 0.2]
    elif kind == "bounded":
        p = BOUNDED
        u = rng.beta(p["alpha"], p["beta"], size=(size, 1))
        shift = np.array([0.0, p["shift"]])
        x = np.clip(u + shift + rng.normal(0, p["noise"], (size, 2)), 0, 1)
    elif kind == "binary":
        p = BINARY
        q = rng.beta(p["alpha"], p["beta"], size=size)
        probs = np.column_stack([q, special.expit(special.logit(q) + p["logit_shift"])])
        x = (rng.random((size, 2)) < probs).astype(float)
    elif kind == "cluster":
        per = cluster_size
        n_cl = size // per
        cl = np.repeat(np.arange(n_cl), per)  # globally unique cluster codes
        w = rng.normal(size=n_cl)[cl]  # cluster difficulty, shared by both systems
        v = rng.normal(0, 0.7, size=n_cl)[cl]  # system-by-cluster effect on b
        u = rng.normal(size=size)
        x = (u + w)[:, None] + rng.normal(size=(size, 2))
        x[:, 1] += 0.2 + v
        out["cluster"] = cl
    elif kind == "strata":
        s = STRATA
        alloc = np.full(3, n // 3)
        alloc[: n - alloc.sum()] += 1
        h = np.repeat(np.arange(3), alloc)
        hh = np.tile(h, n_sims)
        u = rng.normal(size=size) + np.array([1.0, 0.0, -1.0])[hh]  # strata differ in level
        noise = rng.normal(size=(size, 2)) * (s["sd"][hh] / np.sqrt(2))[:, None]
        x = u[:, None] + noise
        x[:, 1] += s["delta"][hh]
        out["strata"] = np.asarray(s["labels"], dtype=object)[hh]
    else:
        raise ValueError(kind)
    out["scores"] = x
    return out


def _design(sim: dict, *, cluster=True, strata=True):
    return design_from_array(
        sim["scores"],
        systems=["a", "b"],
        groups=sim["groups"],
        cluster=sim.get("cluster") if cluster else None,
        strata=sim.get("strata") if strata else None,
    )


def run_bootstrap(
    kind, n, n_sims, *, methods, n_resamples, key, variants=("design",), cluster_size=5
):
    """Coverage rows for one (kind, n) cell: one row per (variant, method)."""
    truth = true_difference(kind)
    sim = simulate_paired(kind, n, n_sims, _rng(1, *key), cluster_size=cluster_size)
    rows = []
    for variant in variants:
        if variant == "design":
            design = _design(sim)
            weights = dict(zip(STRATA["labels"], STRATA["weights"])) if kind == "strata" else None
        else:  # ignore the clusters / strata: the plain item bootstrap
            design, weights = _design(sim, cluster=False, strata=False), None
        for m, method in enumerate(methods):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # degenerate BCa on a few 0/1 data sets
                res = bootstrap_design(
                    design,
                    weights=weights,
                    n_resamples=n_resamples,
                    confidence_level=LEVEL,
                    method=method,
                    rng=SEED + m,
                )
            lo, hi = res.ci_low[:, 0], res.ci_high[:, 0]
            cover = (lo <= truth) & (truth <= hi)
            c = float(cover.mean())
            rows.append(
                {
                    "design": kind if variant == "design" else f"{kind} (ignored)",
                    "n_items": n,
                    "n_units": n // cluster_size
                    if kind == "cluster" and variant == "design"
                    else n,
                    "method": method,
                    "n_sims": n_sims,
                    "coverage": c,
                    "se": float(binomial_se(c, n_sims)),
                    "miss_low": float(np.mean(truth < lo)),
                    "miss_high": float(np.mean(truth > hi)),
                    "mean_width": float(np.mean(hi - lo)),
                    "truth": truth,
                }
            )
    return rows


# --------------------------------------------------------------------------- Tukey HSD
def simulate_null_systems(kind: str, n: int, k: int, n_sims: int, rng) -> np.ndarray:
    """Scores of k exchangeable systems (same distribution within each item)."""
    size = n * n_sims
    if kind == "normal":
        x = rng.normal(size=(size, 1)) + rng.normal(size=(size, k))
    elif kind == "binary":
        p = rng.beta(2, 2, size=(size, 1))
        x = (rng.random((size, k)) < p).astype(float)
    elif kind == "grid0.1":
        u = rng.beta(2, 2, size=(size, 1))
        x = np.round(np.clip(u + rng.normal(0, 0.2, (size, k)), 0, 1), 1)
    else:
        raise ValueError(kind)
    return x


def run_tukey(kind, n, k, n_sims, *, n_resamples, key, naive=False):
    x = simulate_null_systems(kind, n, k, n_sims, _rng(2, *key))
    groups = np.repeat(np.arange(n_sims), n)
    design = design_from_array(x, groups=groups)
    res = tukey_hsd_design(design, n_resamples=n_resamples, method="monte-carlo", rng=SEED)
    pmin = res.pvalue.min(axis=1)
    rows = []
    for alpha in (0.05, 0.01):
        e = float(np.mean(pmin <= alpha))
        rows.append(
            {
                "scores": kind,
                "n_items": n,
                "systems": k,
                "implementation": "pairedstats",
                "alpha": alpha,
                "n_sims": n_sims,
                "type1_fwer": e,
                "se": float(binomial_se(e, n_sims)),
            }
        )
    if naive:  # the floating-point comparison the tie fix replaces (benchmark/bench_tukey.py)
        sys.path.insert(0, str(HERE.parent / "benchmark"))
        from bench_tukey import numpy_tukey

        gen = _rng(3, *key)
        pmin_naive = np.array(
            [
                numpy_tukey(x[s * n : (s + 1) * n], n_resamples, gen, batch=n_resamples).min()
                for s in range(n_sims)
            ]
        )
        for alpha in (0.05, 0.01):
            e = float(np.mean(pmin_naive <= alpha))
            rows.append(
                {
                    "scores": kind,
                    "n_items": n,
                    "systems": k,
                    "implementation": "naive float >=",
                    "alpha": alpha,
                    "n_sims": n_sims,
                    "type1_fwer": e,
                    "se": float(binomial_se(e, n_sims)),
                }
            )
    return rows


# --------------------------------------------------------------------------- rank-sum
def _two_sample(a, b, n_sims):
    na, nb = a.size // n_sims, b.size // n_sims
    return TwoSampleDesign(
        a=a,
        b=b,
        a_offsets=np.arange(n_sims + 1, dtype=np.int64) * na,
        b_offsets=np.arange(n_sims + 1, dtype=np.int64) * nb,
        group_names=("sim",),
        group_keys=tuple((s,) for s in range(n_sims)),
        dropped=(0,) * n_sims,
    )


def simulate_two_sample(kind, na, nb, n_sims, rng, shift=0.0):
    if kind == "normal":
        a, b = rng.normal(size=na * n_sims), rng.normal(size=nb * n_sims)
    elif kind == "exponential":
        a, b = rng.exponential(size=na * n_sims), rng.exponential(size=nb * n_sims)
    elif kind == "tied":  # 4 levels, skewed: heavy ties
        levels, probs = np.arange(4.0), [0.4, 0.3, 0.2, 0.1]
        a = rng.choice(levels, size=na * n_sims, p=probs)
        b = rng.choice(levels, size=nb * n_sims, p=probs)
    else:
        raise ValueError(kind)
    return a, b + shift


def run_ranksum_null(kind, na, nb, n_sims, *, methods, key):
    a, b = simulate_two_sample(kind, na, nb, n_sims, _rng(4, *key))
    design = _two_sample(a, b, n_sims)
    rows = []
    for method in methods:
        res = ranksum_design(design, method=method)
        p = res.pvalue[:, 0]
        used = ",".join(sorted(set(res.method[:, 0].tolist())))
        for alpha in (0.05, 0.01):
            e = float(np.mean(p <= alpha))
            rows.append(
                {
                    "data": kind,
                    "n_a": na,
                    "n_b": nb,
                    "method": method,
                    "used": used,
                    "alpha": alpha,
                    "n_sims": n_sims,
                    "type1": e,
                    "se": float(binomial_se(e, n_sims)),
                }
            )
    return rows


def run_hl_coverage(kind, na, nb, n_sims, *, key, shift=0.5):
    a, b = simulate_two_sample(kind, na, nb, n_sims, _rng(5, *key), shift=shift)
    res = ranksum_design(_two_sample(a, b, n_sims))
    lo, hi = res.ci_low[:, 0], res.ci_high[:, 0]
    c = float(np.mean((lo <= shift) & (shift <= hi)))
    return [
        {
            "data": kind,
            "n_a": na,
            "n_b": nb,
            "used": ",".join(sorted(set(res.method[:, 0].tolist()))),
            "n_sims": n_sims,
            "coverage": c,
            "se": float(binomial_se(c, n_sims)),
            "guaranteed": float(np.mean(res.ci_coverage[:, 0])),
            "mean_width": float(np.mean(hi - lo)),
            "shift_bias": float(np.mean(res.shift[:, 0]) - shift),
        }
    ]


# --------------------------------------------------------------------------- power
def run_power(setting, effects, n_sims, *, n_resamples, key):
    rows = []
    for e_i, effect in enumerate(effects):
        rng = _rng(6, *key, e_i)
        if setting == "normal, n=30":
            n = 30
            u = rng.normal(size=(n * n_sims, 1))
            x = u + rng.normal(0, np.sqrt(0.5), (n * n_sims, 2)) + [0.0, effect]
            true = effect  # in SDs of the per-item difference
        else:  # "binary, n=100": accuracy, logit shift
            n = 100
            q = rng.beta(4, 1.5, size=n * n_sims)
            probs = np.column_stack([q, special.expit(special.logit(q) + effect)])
            x = (rng.random((n * n_sims, 2)) < probs).astype(float)
            true = effect
        groups = np.repeat(np.arange(n_sims), n)
        design = design_from_array(x, systems=["a", "b"], groups=groups)
        boot = bootstrap_design(design, n_resamples=n_resamples, rng=SEED)
        rej_boot = (boot.ci_low[:, 0] > 0) | (boot.ci_high[:, 0] < 0)
        tk = tukey_hsd_design(design, n_resamples=n_resamples, method="monte-carlo", rng=SEED)
        rej_tk = tk.pvalue[:, 0] <= 0.05
        xs = x.reshape(n_sims, n, 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # constant differences in a few 0/1 data sets
            t = stats.ttest_rel(xs[:, :, 1], xs[:, :, 0], axis=1)
        rej_t = np.nan_to_num(t.pvalue, nan=1.0) <= 0.05
        for name, rej in (
            ("bootstrap percentile excludes 0", rej_boot),
            ("randomized Tukey HSD (2 systems)", rej_tk),
            ("paired t-test", rej_t),
        ):
            p = float(np.mean(rej))
            rows.append(
                {
                    "setting": setting,
                    "effect": true,
                    "method": name,
                    "n_sims": n_sims,
                    "power": p,
                    "se": float(binomial_se(p, n_sims)),
                }
            )
    return rows


# --------------------------------------------------------------------------- plots
def _plots(boot, tukey, rs_null, hl, power):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    STATIC.mkdir(parents=True, exist_ok=True)
    designs = list(dict.fromkeys(boot["design"]))
    fig, axes = plt.subplots(2, (len(designs) + 1) // 2, figsize=(13, 7), sharey=True)
    for ax, d in zip(axes.flat, designs):
        sub = boot[boot["design"] == d]
        for j, m in enumerate(dict.fromkeys(sub["method"])):
            s = sub[sub["method"] == m]
            ax.errorbar(
                np.arange(len(s)) + (j - 1) * 0.08,
                s["coverage"],
                yerr=1.96 * s["se"],
                marker="o",
                capsize=3,
                label=m,
            )
            ax.set_xticks(np.arange(len(s)), [str(v) for v in s["n_items"]])
        ax.axhline(LEVEL, color="k", lw=0.8, ls="--")
        ax.set_title(d)
        ax.set_xlabel("items")
    for ax in axes.flat[len(designs) :]:
        ax.axis("off")
    axes.flat[0].set_ylabel("coverage of the 95% interval")
    axes.flat[0].legend(loc="lower right", fontsize=8)
    fig.suptitle("Paired bootstrap coverage (bars: 95% Monte Carlo intervals)")
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_bootstrap.png", dpi=90)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, alpha in zip(axes, (0.05, 0.01)):
        sub = tukey[tukey["alpha"] == alpha].reset_index(drop=True)
        labels = [
            f"{r.scores}\nk={r.systems} n={r.n_items}"
            + ("\nnaive" if r.implementation != "pairedstats" else "")
            for r in sub.itertuples()
        ]
        colors = ["C0" if i == "pairedstats" else "C3" for i in sub["implementation"]]
        ax.bar(range(len(sub)), sub["type1_fwer"], yerr=1.96 * sub["se"], color=colors)
        ax.axhline(alpha, color="k", ls="--", lw=0.8)
        ax.set_xticks(range(len(sub)), labels, fontsize=6, rotation=90)
        ax.set_title(f"Tukey HSD family-wise type-I error, alpha = {alpha}")
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_tukey.png", dpi=90)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    sub = rs_null[rs_null["alpha"] == 0.05].reset_index(drop=True)
    labels = [f"{r.data} {r.n_a}x{r.n_b}\n{r.method}" for r in sub.itertuples()]
    axes[0].bar(range(len(sub)), sub["type1"], yerr=1.96 * sub["se"])
    axes[0].axhline(0.05, color="k", ls="--", lw=0.8)
    axes[0].set_xticks(range(len(sub)), labels, fontsize=6, rotation=90)
    axes[0].set_title("rank-sum type-I error, alpha = 0.05")
    labels = [f"{r.data} {r.n_a}x{r.n_b}\n{r.used}" for r in hl.itertuples()]
    axes[1].errorbar(range(len(hl)), hl["coverage"], yerr=1.96 * hl["se"], fmt="o", capsize=3)
    axes[1].plot(range(len(hl)), hl["guaranteed"], "k_", ms=14, label="guaranteed coverage")
    axes[1].axhline(LEVEL, color="k", ls="--", lw=0.8)
    axes[1].set_xticks(range(len(hl)), labels, fontsize=7, rotation=90)
    axes[1].set_title("Hodges-Lehmann 95% interval coverage (shift 0.5)")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_ranksum.png", dpi=90)
    plt.close(fig)

    settings = list(dict.fromkeys(power["setting"]))
    fig, axes = plt.subplots(1, len(settings), figsize=(11, 4), sharey=True)
    for ax, s in zip(np.atleast_1d(axes), settings):
        sub = power[power["setting"] == s]
        for m in dict.fromkeys(sub["method"]):
            r = sub[sub["method"] == m]
            ax.errorbar(r["effect"], r["power"], yerr=1.96 * r["se"], marker="o", ms=3,
                        capsize=2, label=m)  # fmt: skip
        ax.axhline(0.05, color="k", ls=":", lw=0.8)
        ax.set_title(s)
        ax.set_xlabel(
            "effect (SDs of the difference)" if s.startswith("normal") else "logit shift of b"
        )
    np.atleast_1d(axes)[0].set_ylabel("rejection rate at 0.05")
    np.atleast_1d(axes)[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(STATIC / "calibration_power.png", dpi=90)
    plt.close(fig)


# --------------------------------------------------------------------------- main
def main(n_sims: int, quick: bool) -> None:
    import pandas as pd

    RESULTS.mkdir(parents=True, exist_ok=True)
    n_resamples = 999
    t_start = time.perf_counter()
    timings = {}

    def stamp(name, t0):
        timings[name] = time.perf_counter() - t0
        print(f"[{name}] {timings[name]:.1f} s", flush=True)

    t0 = time.perf_counter()
    rows = []
    methods = ("percentile", "basic", "bca")
    for d_i, kind in enumerate(("normal", "bounded", "binary", "cluster", "strata")):
        variants = ("design", "ignored") if kind in ("cluster", "strata") else ("design",)
        for n in (20, 60, 200):
            rows += run_bootstrap(kind, n, n_sims, methods=methods, n_resamples=n_resamples,
                                  key=(d_i, n), variants=variants)  # fmt: skip
            print(f"  bootstrap {kind} n={n}", flush=True)
    boot = pd.DataFrame(rows)
    # the "ignored" variants: only the percentile interval is of interest
    boot = boot[~boot["design"].str.endswith("(ignored)") | (boot["method"] == "percentile")]
    boot.to_csv(RESULTS / "bootstrap_coverage.csv", index=False)
    stamp("bootstrap", t0)

    t0 = time.perf_counter()
    rows = []
    for s_i, kind in enumerate(("normal", "binary", "grid0.1")):
        for k in (3, 5):
            for n in (20, 60):
                rows += run_tukey(kind, n, k, n_sims, n_resamples=n_resamples, key=(s_i, k, n),
                                  naive=kind == "grid0.1")  # fmt: skip
                print(f"  tukey {kind} k={k} n={n}", flush=True)
    tukey = pd.DataFrame(rows)
    tukey.to_csv(RESULTS / "tukey_type1.csv", index=False)
    stamp("tukey", t0)

    t0 = time.perf_counter()
    rows = []
    for s_i, kind in enumerate(("normal", "tied")):
        for na, nb in ((8, 12), (30, 30), (100, 100)):
            methods = ("exact", "asymptotic", "auto") if na < 100 else ("asymptotic", "auto")
            rows += run_ranksum_null(kind, na, nb, n_sims, methods=methods, key=(s_i, na, nb))
            print(f"  ranksum null {kind} {na}x{nb}", flush=True)
    rs_null = pd.DataFrame(rows)
    rs_null.to_csv(RESULTS / "ranksum_type1.csv", index=False)
    rows = []
    for s_i, kind in enumerate(("normal", "exponential")):
        for na, nb in ((8, 12), (30, 30), (100, 100)):
            rows += run_hl_coverage(kind, na, nb, n_sims, key=(s_i, na, nb))
    hl = pd.DataFrame(rows)
    hl.to_csv(RESULTS / "ranksum_hl_coverage.csv", index=False)
    stamp("ranksum", t0)

    t0 = time.perf_counter()
    power_sims = max(100, n_sims // 2)
    rows = run_power("normal, n=30", np.round(np.arange(0, 0.81, 0.1), 2), power_sims,
                     n_resamples=n_resamples, key=(0,))  # fmt: skip
    rows += run_power("binary, n=100", np.round(np.arange(0, 1.21, 0.15), 2), power_sims,
                      n_resamples=n_resamples, key=(1,))  # fmt: skip
    power = pd.DataFrame(rows)
    power.to_csv(RESULTS / "power.csv", index=False)
    stamp("power", t0)

    _plots(boot, tukey, rs_null, hl, power)
    info = pd.DataFrame(
        [
            {"key": "n_sims", "value": n_sims},
            {"key": "n_sims_power", "value": power_sims},
            {"key": "n_resamples", "value": n_resamples},
            {"key": "quick", "value": quick},
            {"key": "seed", "value": SEED},
            {"key": "pairedstats", "value": pairedstats.__version__},
            {"key": "numpy", "value": np.__version__},
            {"key": "python", "value": platform.python_version()},
            {"key": "cpus", "value": os.cpu_count()},
            {"key": "date", "value": time.strftime("%Y-%m-%d")},
            {"key": "seconds_total", "value": round(time.perf_counter() - t_start, 1)},
            *({"key": f"seconds_{k}", "value": round(v, 1)} for k, v in timings.items()),
        ]
    )
    info.to_csv(RESULTS / "study_info.csv", index=False)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        for name, df in (("bootstrap", boot), ("tukey", tukey), ("ranksum null", rs_null),
                         ("HL coverage", hl), ("power", power)):  # fmt: skip
            print(f"\n== {name}\n{df.round(4).to_string(index=False)}")
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sims", type=int, default=None, help="simulations per cell")
    parser.add_argument("--quick", action="store_true", help="200 simulations per cell")
    args = parser.parse_args()
    n = args.n_sims if args.n_sims is not None else (200 if args.quick else 2000)
    main(n, args.quick)
