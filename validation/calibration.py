"""Calibration study: do the intervals cover and do the tests hold their level?

Run: ``python validation/calibration.py`` (the full study), ``--quick`` (200 simulations per
cell) or ``--n-sims N``. Writes ``validation/results/*.csv`` and the plots
``docs/_static/calibration_*.png``; ``docs/calibration.md`` summarises them
(``validation/calibration_report.py`` prints its tables from the CSVs). The family-wise
error study is in ``validation/calibration_families.py``.

Every cell simulates ``n_sims`` independent data sets and runs the method on all of them in
one call (one group per simulated data set: each group has its own random streams, keyed by
the ``rng`` seed and the group key, so the simulations are independent). Every cell has its
own streams: its data come from a generator seeded by the study's seed and a CRC-32 of the
cell's name (e.g. ``("bootstrap", "normal", 20, 5)``), and its ``rng=`` seed is derived from
the same name; a name used twice in one run is an error. The methods of one row analyse the
same data sets with the same resamples. Monte Carlo standard errors are binomial,
``sqrt(p (1 - p) / n_sims)``; distances from a target are in standard errors at the target.

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
  population, with mean differences 0, 0.4, 1.0 and difference SDs 1, 1.5, 2;
* ``exponential``, ``lognormal``, ``t3``: ``a = u``, ``b = u + 0.2 + noise`` with noise
  ``Exp(1) - 1``, ``LogNormal(0, 1) - exp(1/2)`` or Student's t with 3 df: the per-item
  differences are the noise shifted by 0.2 (skewness 2, 6.2, undefined).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
import zlib
from pathlib import Path

import numpy as np
from scipy import integrate, special, stats

import pairedstats
from pairedstats.core.design import TwoSampleDesign
from pairedstats.inputs import design_from_array
from pairedstats.methods.bootstrap import bootstrap_design
from pairedstats.methods.ranksum import ranksum_design
from pairedstats.methods.tukey_hsd import tukey_hsd_design

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
LEVEL = 0.95
SEED = 20240601


def write_info(filename: str, **fields) -> None:
    """``RESULTS / filename``: the run's ``fields``, the seed, the versions, the machine and
    the date, one ``key, value`` row each."""
    import pandas as pd
    import scipy

    info = {**fields, "seed": SEED, "pairedstats": pairedstats.__version__,
            "numpy": np.__version__, "scipy": scipy.__version__,
            "python": platform.python_version(), "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d")}  # fmt: skip
    pd.DataFrame({"key": list(info), "value": list(info.values())}).to_csv(
        RESULTS / filename, index=False
    )


def binomial_se(p, n):
    """Monte Carlo standard error of a proportion ``p`` estimated from ``n`` simulations."""
    p = np.asarray(p, dtype=float)
    return np.sqrt(p * (1 - p) / n)


def _entropy(*key) -> list[int]:
    """Seed entropy of a cell named by ``key`` (ints and strings): the study's seed and a
    CRC-32 of the name, so every distinct name has its own streams."""
    return [SEED, zlib.crc32(repr(tuple(key)).encode())]


_USED: set = set()  # the entropies handed out in this process


def _rng(*key) -> np.random.Generator:
    """The generator of the simulated data of the cell named ``key``; a name (or entropy)
    used twice in one process is an error, as two cells would share their draws."""
    entropy = tuple(_entropy("data", *key))
    if entropy in _USED:
        raise ValueError(f"cell {key!r} used twice: its random streams would be shared")
    _USED.add(entropy)
    return np.random.default_rng(list(entropy))


def cell_seed(*key) -> int:
    """The ``rng=`` (resampling or trial streams) of the cell named ``key``: distinct from
    its data stream and from every other cell's."""
    ss = np.random.SeedSequence(_entropy("method", *key))
    return int(ss.generate_state(1, np.uint32)[0])


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
    if kind in ("normal", "cluster", *SKEWED):
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


# b - a = 0.2 + noise of mean 0 (a = u, b = u + 0.2 + noise, u ~ N(0, 1)): the per-item
# differences have the noise's shape. Theoretical skewness: exponential 2, lognormal(0, 1)
# (e + 2) sqrt(e - 1) = 6.18, t with 3 df undefined (its fourth moment is infinite).
SKEWED = {
    "exponential": lambda rng, size: rng.exponential(size=size) - 1.0,
    "lognormal": lambda rng, size: rng.lognormal(0.0, 1.0, size=size) - np.exp(0.5),
    "t3": lambda rng, size: rng.standard_t(3, size=size),
}

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
    elif kind in SKEWED:
        u = rng.normal(size=size)
        x = np.column_stack([u, u + 0.2 + SKEWED[kind](rng, size)])
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


def difference_moments(kind: str, n_items: int = 1_000_000) -> dict:
    """Sample skewness and excess kurtosis of the per-item difference b - a of a model,
    measured on ``n_items`` simulated items (one data set; clusters and strata as in the
    study's largest cell)."""
    n = n_items - n_items % 15
    sim = simulate_paired(kind, n, 1, _rng("moments", kind))
    d = sim["scores"][:, 1] - sim["scores"][:, 0]
    return {
        "model": kind,
        "truth": true_difference(kind),
        "sd_difference": float(d.std()),
        "skewness": float(stats.skew(d)),
        "excess_kurtosis": float(stats.kurtosis(d)),
    }


def _design(sim: dict, *, cluster=True, strata=True):
    return design_from_array(
        sim["scores"],
        systems=["a", "b"],
        groups=sim["groups"],
        cluster=sim.get("cluster") if cluster else None,
        strata=sim.get("strata") if strata else None,
    )


def run_bootstrap(
    kind, n, n_sims, *, methods, n_resamples, key=(), variants=("design",), cluster_size=5
):
    """Coverage rows for one (kind, n) cell: one row per (variant, method).

    The cell's name ``("bootstrap", kind, n, cluster_size, *key)`` keys its streams: the
    data, and per variant one resampling stream that all ``methods`` share (the methods of
    a row analyse the same data sets with the same resamples)."""
    truth = true_difference(kind)
    name = ("bootstrap", kind, n, cluster_size, *key)
    sim = simulate_paired(kind, n, n_sims, _rng(*name), cluster_size=cluster_size)
    rows = []
    for variant in variants:
        if variant == "design":
            design = _design(sim)
            weights = dict(zip(STRATA["labels"], STRATA["weights"])) if kind == "strata" else None
        else:  # ignore the clusters / strata: the plain item bootstrap
            design, weights = _design(sim, cluster=False, strata=False), None
        for method in methods:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # degenerate BCa on a few 0/1 data sets
                res = bootstrap_design(
                    design,
                    weights=weights,
                    n_resamples=n_resamples,
                    confidence_level=LEVEL,
                    method=method,
                    rng=cell_seed(*name, variant),
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
def run_tukey(kind, n, k, n_sims, *, n_resamples, key=(), naive=False):
    """Family-wise type-I error rows of one cell of exchangeable systems (see
    :func:`calibration_families.run_tukey_null`), the cell ``("tukey", kind, n, k, *key)``."""
    from calibration_families import run_tukey_null

    name = ("tukey", kind, n, k, *key)
    naive_seed = cell_seed(*name, "naive") if naive else None
    return run_tukey_null(kind, n, k, n_sims, rng=_rng(*name), seed=cell_seed(*name),
                          n_resamples=n_resamples, naive=naive_seed)  # fmt: skip


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


def run_ranksum_null(kind, na, nb, n_sims, *, methods, key=()):
    from calibration_families import rejection_rows

    a, b = simulate_two_sample(kind, na, nb, n_sims, _rng("ranksum", kind, na, nb, *key))
    design = _two_sample(a, b, n_sims)
    rows = []
    for method in methods:
        res = ranksum_design(design, method=method)
        p = res.pvalue[:, 0]
        used = ",".join(sorted(set(res.method[:, 0].tolist())))
        cell = {"data": kind, "n_a": na, "n_b": nb, "method": method, "used": used}
        rows += rejection_rows(p, cell, "type1")
    return rows


def run_hl_coverage(kind, na, nb, n_sims, *, key=(), shift=0.5):
    a, b = simulate_two_sample(kind, na, nb, n_sims, _rng("hl", kind, na, nb, *key), shift=shift)
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
def run_power(setting, effects, n_sims, *, n_resamples, key=()):
    rows = []
    for effect in effects:
        name = ("power", setting, float(effect), *key)
        rng = _rng(*name)
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
        boot = bootstrap_design(design, n_resamples=n_resamples, rng=cell_seed(*name, "boot"))
        rej_boot = (boot.ci_low[:, 0] > 0) | (boot.ci_high[:, 0] < 0)
        tk = tukey_hsd_design(design, n_resamples=n_resamples, method="monte-carlo",
                              rng=cell_seed(*name, "tukey"))  # fmt: skip
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


# --------------------------------------------------------------------------- sections
METHODS = ("percentile", "basic", "bca", "studentized")
BOOT_CELLS = (
    *(("normal", n) for n in (15, 20, 60, 200)),
    *((kind, n) for kind in ("bounded", "binary", "cluster", "strata") for n in (20, 60, 200)),
    *((kind, n) for kind in SKEWED for n in (15, 60, 200)),
)


def section_bootstrap(n_sims, n_resamples):
    import pandas as pd

    models = pd.DataFrame([difference_moments(k) for k in dict.fromkeys(c[0] for c in BOOT_CELLS)])
    rows = []
    for kind, n in BOOT_CELLS:
        variants = ("design", "ignored") if kind in ("cluster", "strata") else ("design",)
        rows += run_bootstrap(kind, n, n_sims, methods=METHODS, n_resamples=n_resamples,
                              variants=variants)  # fmt: skip
        print(f"  bootstrap {kind} n={n}", flush=True)
    boot = pd.DataFrame(rows)
    # the "ignored" variants: only the percentile interval is of interest
    boot = boot[~boot["design"].str.endswith("(ignored)") | (boot["method"] == "percentile")]
    return models, boot


def section_tukey(n_sims, n_resamples):
    import pandas as pd

    rows = []
    for kind in ("normal", "binary", "grid0.1"):
        for k in (3, 5):
            for n in (20, 60):
                rows += run_tukey(kind, n, k, n_sims, n_resamples=n_resamples,
                                  naive=kind == "grid0.1")  # fmt: skip
                print(f"  tukey {kind} k={k} n={n}", flush=True)
    return pd.DataFrame(rows)


def section_families(n_sims, n_resamples):
    import pandas as pd
    from calibration_families import run_family

    cells = [("complete null", n) for n in (20, 60, 200)] + [("partial null", n) for n in (20, 60)]
    cells += [(sc, n) for sc in ("spreads 1,1,3", "spreads 1,1,1,1,4") for n in (20, 60)]
    rows = []
    for scenario, n in cells:
        for family in ("baseline", "all pairs"):
            name = ("family", scenario, family, n)
            rows += run_family(scenario, family, n, n_sims, rng=_rng(*name),
                               seed=cell_seed(*name), n_resamples=n_resamples)  # fmt: skip
            print(f"  family {scenario} {family} n={n}", flush=True)
    return pd.DataFrame(rows)


def section_ranksum(n_sims):
    import pandas as pd

    rows = []
    for kind in ("normal", "tied"):
        for na, nb in ((8, 12), (30, 30), (100, 100)):
            methods = ("exact", "asymptotic", "auto") if na < 100 else ("asymptotic", "auto")
            rows += run_ranksum_null(kind, na, nb, n_sims, methods=methods)
            print(f"  ranksum null {kind} {na}x{nb}", flush=True)
    rs_null = pd.DataFrame(rows)
    rows = []
    for kind in ("normal", "exponential"):
        for na, nb in ((8, 12), (30, 30), (100, 100)):
            rows += run_hl_coverage(kind, na, nb, n_sims)
    return rs_null, pd.DataFrame(rows)


def section_power(power_sims, n_resamples):
    import pandas as pd

    rows = run_power("normal, n=30", np.round(np.arange(0, 0.81, 0.1), 2), power_sims,
                     n_resamples=n_resamples)  # fmt: skip
    rows += run_power("binary, n=100", np.round(np.arange(0, 1.21, 0.15), 2), power_sims,
                      n_resamples=n_resamples)  # fmt: skip
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- main
def main(n_sims: int, quick: bool) -> None:
    import calibration_plots as plots
    import calibration_report as report
    import pandas as pd

    RESULTS.mkdir(parents=True, exist_ok=True)
    n_resamples = 999
    t_start = time.perf_counter()
    timings, tables = {}, {}

    def timed(name, fn, *args):
        t0 = time.perf_counter()
        out = fn(*args)
        timings[name] = time.perf_counter() - t0
        print(f"[{name}] {timings[name]:.1f} s", flush=True)
        return out

    power_sims = max(100, n_sims // 2)
    models, boot = timed("bootstrap", section_bootstrap, n_sims, n_resamples)
    tukey = timed("tukey", section_tukey, n_sims, n_resamples)
    fam = timed("families", section_families, n_sims, n_resamples)
    rs_null, hl = timed("ranksum", section_ranksum, n_sims)
    power = timed("power", section_power, power_sims, n_resamples)
    dev = report.all_deviations(boot, tukey, fam, rs_null, hl, LEVEL)
    tables = {"models": models, "bootstrap_coverage": boot, "tukey_type1": tukey,
              "families": fam, "ranksum_type1": rs_null, "ranksum_hl_coverage": hl,
              "power": power, "deviations": dev}  # fmt: skip
    for name, df in tables.items():
        df.to_csv(RESULTS / f"{name}.csv", index=False)
    plots.plot_bootstrap(boot)
    plots.plot_tukey(tukey)
    plots.plot_families(fam)
    plots.plot_ranksum_power(rs_null, hl, power)
    import scipy

    versions = {"pairedstats": pairedstats.__version__, "numpy": np.__version__,
                "scipy": scipy.__version__, "python": platform.python_version()}  # fmt: skip
    info = {"n_sims": n_sims, "n_sims_power": power_sims, "n_resamples": n_resamples,
            "quick": quick, "seed": SEED, **versions, "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d"),
            "seconds_total": round(time.perf_counter() - t_start, 1),
            **{f"seconds_{k}": round(v, 1) for k, v in timings.items()}}  # fmt: skip
    info = pd.DataFrame({"key": list(info), "value": list(info.values())})
    info.to_csv(RESULTS / "study_info.csv", index=False)
    with pd.option_context("display.width", 220, "display.max_rows", 1000):
        for name, df in tables.items():
            print(f"\n== {name}\n{df.round(4).to_string(index=False)}")
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sims", type=int, default=None, help="simulations per cell")
    parser.add_argument("--quick", action="store_true", help="200 simulations per cell")
    args = parser.parse_args()
    n = args.n_sims if args.n_sims is not None else (200 if args.quick else 2000)
    main(n, args.quick)
