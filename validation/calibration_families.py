"""Calibration of the many-comparison procedures: family-wise type-I error of the randomized
Tukey HSD over all pairs of exchangeable systems (:func:`run_tukey_null`, on continuous,
0/1 and gridded scores), family-wise error of the bootstrap's
``adjust="max-t"`` and ``"holm"`` and of ``tukey_hsd(baseline=...)``, and the randomized
Tukey HSD when the systems have equal means but unequal spreads.

Model: ``k`` systems on ``n`` items, ``x[i, s] = u_i + mean_s + spread_s * e_is`` with
``u_i, e_is ~ N(0, 1)`` (a shared item difficulty). A comparison (a, b) is a *true null*
when ``mean_a == mean_b``. The family-wise error (FWER) of a procedure is the share of
simulated data sets with at least one false rejection (``p <= 0.05`` on a true null); false
nulls are never counted. ``power`` is the mean share of the false nulls rejected.

Imported by ``validation/calibration.py`` (which writes the CSVs) and by
``tests/test_calibration.py``.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

from pairedstats.inputs import design_from_array
from pairedstats.methods.bootstrap import bootstrap_design
from pairedstats.methods.tukey_hsd import tukey_hsd_design

ALPHA = 0.05
SYSTEMS = "ABCDEFGH"

# (name, means, spreads) of k = 5 systems; the baseline is always the first, "A"
SCENARIOS = {
    "complete null": ((0, 0, 0, 0, 0), (1, 1, 1, 1, 1)),
    "partial null": ((0, 0, 0, 1, 1), (1, 1, 1, 1, 1)),
}
# equal means, unequal spreads (the randomized test's null is exchangeability)
SPREADS = {"spreads 1,1,3": (1, 1, 3), "spreads 1,1,1,1,4": (1, 1, 1, 1, 4)}


def simulate_systems(means, spreads, n, n_sims, rng) -> np.ndarray:
    """Scores ``(n * n_sims, k)``: ``u_i + mean_s + spread_s * e_is``."""
    size = n * n_sims
    means, spreads = np.asarray(means, float), np.asarray(spreads, float)
    return rng.normal(size=(size, 1)) + means + spreads * rng.normal(size=(size, means.size))


def _truth(res, means):
    """True differences b - a of the result's comparisons (label_a, label_b)."""
    pos = {s: i for i, s in enumerate(SYSTEMS)}
    return np.array([means[pos[b]] - means[pos[a]] for a, b in zip(res.label_a, res.label_b)])


def _row(pvalues, truth, name, n_sims, **extra):
    """FWER at ALPHA over the true nulls, power over the false ones."""
    null = truth == 0
    reject = np.nan_to_num(pvalues, nan=1.0) <= ALPHA
    fwer = float(np.mean(reject[:, null].any(axis=1)))
    power = float(np.mean(reject[:, ~null])) if (~null).any() else np.nan
    return {"procedure": name, "n_sims": n_sims, "fwer": fwer,
            "se": float(np.sqrt(fwer * (1 - fwer) / n_sims)), "power": power,
            "joint_coverage": np.nan, **extra}  # fmt: skip


def _joint(low, high, truth):
    """Share of data sets in which every interval of the family covers its truth."""
    return float(np.mean(((low <= truth) & (truth <= high)).all(axis=1)))


def family_rows(x, means, n, n_sims, *, baseline, seed, n_resamples=999, tukey=True,
                procedures=("unadjusted", "holm", "max-t", "studentized")):  # fmt: skip
    """Rows of one cell: the bootstrap (unadjusted percentile p-values, Holm, max-t, and
    Holm on the studentized p-values) and the randomized Tukey HSD on the same data sets,
    with the same resampling stream ``seed`` for every bootstrap call."""
    k = x.shape[1]
    design = design_from_array(
        x, systems=list(SYSTEMS[:k]), groups=np.repeat(np.arange(n_sims), n)
    )
    rows = []

    def boot(method, adjust):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return bootstrap_design(design, baseline=baseline, n_resamples=n_resamples,
                                    method=method, adjust=adjust, rng=seed)  # fmt: skip

    if {"unadjusted", "max-t"} & set(procedures):
        res = boot("percentile", "max-t")
        truth = _truth(res, means)
        if "unadjusted" in procedures:
            rows.append(
                _row(
                    res.pvalue,
                    truth,
                    "bootstrap, unadjusted",
                    n_sims,
                    joint_coverage=_joint(res.ci_low, res.ci_high, truth),
                )
            )
        if "max-t" in procedures:
            rows.append(_row(res.pvalue_adjusted, truth, "bootstrap, max-t", n_sims,
                             joint_coverage=_joint(res.ci_low_adjusted, res.ci_high_adjusted,
                                                   truth)))  # fmt: skip
    if "holm" in procedures:
        res = boot("percentile", "holm")
        rows.append(_row(res.pvalue_adjusted, _truth(res, means), "bootstrap, holm", n_sims))
    if "studentized" in procedures:
        res = boot("studentized", "holm")
        truth = _truth(res, means)
        rows.append(
            _row(
                res.pvalue,
                truth,
                "bootstrap-t, unadjusted",
                n_sims,
                joint_coverage=_joint(res.ci_low, res.ci_high, truth),
            )
        )
        rows.append(_row(res.pvalue_adjusted, truth, "bootstrap-t, holm", n_sims))
    if tukey:
        res = tukey_hsd_design(design, baseline=baseline, n_resamples=n_resamples,
                               method="monte-carlo", rng=seed)  # fmt: skip
        rows.append(_row(res.pvalue, _truth(res, means), "randomized Tukey HSD", n_sims))
    return rows


def run_family(scenario, family, n, n_sims, *, rng, seed, n_resamples=999, **kw):
    """One cell of the family-wise study: ``family`` is ``"baseline"`` (A against the
    others) or ``"all pairs"``; ``scenario`` a key of SCENARIOS or SPREADS."""
    means, spreads = SCENARIOS.get(scenario) or ((0,) * len(SPREADS[scenario]), SPREADS[scenario])
    x = simulate_systems(means, spreads, n, n_sims, rng)
    baseline = "A" if family == "baseline" else None
    k = len(means)
    m = k - 1 if baseline else k * (k - 1) // 2
    rows = family_rows(x, np.asarray(means, float), n, n_sims, baseline=baseline, seed=seed,
                       n_resamples=n_resamples, **kw)  # fmt: skip
    cell = {"scenario": scenario, "family": family, "n_items": n, "systems": k,
            "comparisons": m}  # fmt: skip
    return [{**cell, **r} for r in rows]


# ----------------------------------------------- all pairs, exchangeable systems
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


def rejection_rows(pvalues, key: dict, column: str) -> list[dict]:
    """One row per level (0.05, 0.01): ``key``, the level, the number of simulations, the
    share of ``pvalues`` at or below the level (``column``) and its binomial s.e."""
    rows = []
    for alpha in (0.05, 0.01):
        e = float(np.mean(pvalues <= alpha))
        rows.append({**key, "alpha": alpha, "n_sims": len(pvalues), column: e,
                     "se": float(np.sqrt(e * (1 - e) / len(pvalues)))})  # fmt: skip
    return rows


def run_tukey_null(kind, n, k, n_sims, *, rng, seed, n_resamples=999, naive=None):
    """Family-wise type-I error (all pairs) of the randomized Tukey HSD on ``k``
    exchangeable systems; ``naive`` (a seed): also the floating-point ``>=`` comparison of
    ``benchmark/bench_tukey.py``, its trials drawn from ``np.random.default_rng(naive)``
    (a seed of its own)."""
    x = simulate_null_systems(kind, n, k, n_sims, rng)
    groups = np.repeat(np.arange(n_sims), n)
    design = design_from_array(x, groups=groups)
    res = tukey_hsd_design(design, n_resamples=n_resamples, method="monte-carlo",
                           rng=seed)  # fmt: skip
    pmin = res.pvalue.min(axis=1)
    key = {"scores": kind, "n_items": n, "systems": k}
    rows = rejection_rows(pmin, {**key, "implementation": "pairedstats"}, "type1_fwer")
    if (
        naive is not None
    ):  # the floating-point comparison the tie fix replaces (benchmark/bench_tukey.py)
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmark"))
        from bench_tukey import numpy_tukey

        gen = np.random.default_rng(naive)
        pmin_naive = np.array(
            [
                numpy_tukey(x[s * n : (s + 1) * n], n_resamples, gen, batch=n_resamples).min()
                for s in range(n_sims)
            ]
        )
        rows += rejection_rows(pmin_naive, {**key, "implementation": "naive float >="},
                               "type1_fwer")  # fmt: skip
    return rows
