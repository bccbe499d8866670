"""CI-sized calibration checks (the full study: ``validation/calibration.py``).

Each check simulates a few hundred data sets with fixed seeds and asserts the method's
long-run property within 3 binomial Monte Carlo standard errors: coverage of the 95%
percentile bootstrap interval at 60 items (plain and clustered), of the studentized interval
on skewed differences at 25 items, the family-wise error of max-t and of the Tukey HSD
against a baseline under the complete null, the joint under-coverage of unadjusted
intervals, the family-wise type-I error of the randomized Tukey HSD on gridded (heavily
tied) scores, and the type-I error of the rank-sum test. The simulators are the study's,
imported from the scripts. Every check names its own cell, so no two share random draws.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

#: Simulations of coverage and error rates: `pytest -m "not slow"` leaves them out.
pytestmark = pytest.mark.slow

_DIR = Path(__file__).resolve().parents[1] / "validation"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, _DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


cal = _load("calibration")
fam = _load("calibration_families")

N_SIMS = 400
N_RESAMPLES = 999


def test_binomial_se():
    assert cal.binomial_se(0.95, 400) == pytest.approx(np.sqrt(0.95 * 0.05 / 400))
    assert cal.binomial_se(0.0, 10) == 0.0


def test_cells_have_their_own_streams():
    assert cal.cell_seed("bootstrap", "normal", 20) != cal.cell_seed("bootstrap", "normal", 60)
    cal._rng("test", "streams")
    with pytest.raises(ValueError, match="used twice"):
        cal._rng("test", "streams")


def test_skewed_model_is_skewed():
    # exponential noise: the per-item differences have skewness 2 (the docs' table)
    m = cal.difference_moments("exponential", n_items=300_000)
    assert m["skewness"] == pytest.approx(2.0, abs=0.15)
    assert m["truth"] == 0.2


def test_true_differences_match_large_simulations():
    # the quadrature truths against a 400,000-item simulation of the same model
    for kind in ("bounded", "binary"):
        sim = cal.simulate_paired(kind, 400_000, 1, np.random.default_rng(11))
        d = sim["scores"][:, 1] - sim["scores"][:, 0]
        se = d.std() / np.sqrt(d.size)
        assert abs(d.mean() - cal.true_difference(kind)) < 4 * se


@pytest.mark.parametrize("kind", ["normal", "cluster"])
def test_bootstrap_percentile_coverage_n60(kind):
    # 60 items; clustered: 30 clusters of 2. With G resampled units the percentile interval
    # is expected to cover about 0.94 (G = 60) and 0.935 (G = 30): its spread is
    # sqrt((G - 1) / G) too small and it uses normal rather than t quantiles. The full study
    # shows the under-coverage with 12 clusters of 5 (docs/calibration.md).
    (row,) = cal.run_bootstrap(
        kind, 60, N_SIMS, methods=("percentile",), n_resamples=N_RESAMPLES, key=(90, 60),
        cluster_size=2,
    )  # fmt: skip
    nominal = cal.LEVEL
    se = np.sqrt(nominal * (1 - nominal) / N_SIMS)
    assert row["coverage"] >= nominal - 3 * se
    assert row["coverage"] <= nominal + 3 * se  # not trivially wide either


def test_studentized_coverage_skewed_n25():
    # exponential differences (skewness 2), 25 items: the bootstrap-t interval is within
    # 3 s.e. of 0.95 (the full study: 0.94-0.95 at 15 items) and covers more often than the
    # percentile interval on the same data sets and resamples (about 0.91 here)
    n_sims = 1000
    rows = cal.run_bootstrap("exponential", 25, n_sims, methods=("studentized", "percentile"),
                             n_resamples=N_RESAMPLES, key=("test", 94))  # fmt: skip
    stud, perc = (r["coverage"] for r in rows)
    se = np.sqrt(0.95 * 0.05 / n_sims)
    assert abs(stud - 0.95) <= 3 * se
    assert stud > perc + 0.01


def _family(family, n, n_sims, key, **kw):
    name = ("test", family, n, *key)
    return fam.run_family("complete null", family, n, n_sims, rng=cal._rng(*name),
                          seed=cal.cell_seed(*name), **kw)  # fmt: skip


def test_maxt_familywise_error_complete_null():
    # five equal systems, 200 items, the four comparisons with a baseline: max-t's FWER is
    # at most 0.05 + 3 s.e. (max-t holds in large samples; at 20 items it does not, see
    # docs/calibration.md); unadjusted intervals miss jointly far more often than 5%
    n_sims = 500
    rows = _family("baseline", 200, n_sims, (95,), procedures=("unadjusted", "max-t"),
                   tukey=False)  # fmt: skip
    rates = {r["procedure"]: r for r in rows}
    se = np.sqrt(0.05 * 0.95 / n_sims)
    assert rates["bootstrap, max-t"]["fwer"] <= 0.05 + 3 * se
    assert rates["bootstrap, max-t"]["joint_coverage"] >= 0.95 - 3 * se
    assert rates["bootstrap, unadjusted"]["fwer"] > 0.05 + 3 * se


def test_unadjusted_intervals_undercover_jointly():
    # a family of 4 unadjusted 95% intervals (5 systems against a baseline, 60 items): all
    # four cover together in about 83% of the data sets, far below 95%
    n_sims = 400
    (row,) = _family("baseline", 60, n_sims, (96,), procedures=("unadjusted",), tukey=False)
    se = np.sqrt(0.95 * 0.05 / n_sims)
    assert row["joint_coverage"] < 0.95 - 3 * se


def test_tukey_baseline_familywise_error_complete_null():
    # tukey_hsd(baseline="A"): five exchangeable systems, 20 items, four comparisons
    n_sims = 400
    rows = _family("baseline", 20, n_sims, (97,), procedures=(), tukey=True)
    (row,) = rows
    assert row["procedure"] == "randomized Tukey HSD"
    se = np.sqrt(0.05 * 0.95 / n_sims)
    assert row["fwer"] <= 0.05 + 3 * se


def test_item_bootstrap_of_clustered_data_undercovers():
    # the reason for cluster=: ignoring clusters gives intervals that are too narrow
    rows = cal.run_bootstrap(
        "cluster", 60, N_SIMS, methods=("percentile",), n_resamples=N_RESAMPLES,
        key=(91, 60), variants=("design", "ignored"),
    )  # fmt: skip
    clustered, ignored = (r["coverage"] for r in rows)
    se = np.sqrt(0.95 * 0.05 / N_SIMS)
    assert ignored < 0.95 - 3 * se
    assert clustered > ignored


@pytest.mark.parametrize("kind", ["binary", "grid0.1"])
def test_tukey_familywise_type1_gridded(kind):
    rows = cal.run_tukey(kind, 20, 3, N_SIMS, n_resamples=N_RESAMPLES, key=(92, 3, 20))
    for row in rows:
        alpha = row["alpha"]
        se = np.sqrt(alpha * (1 - alpha) / N_SIMS)
        assert row["type1_fwer"] <= alpha + 3 * se


@pytest.mark.parametrize("kind", ["normal", "tied"])
def test_ranksum_type1(kind):
    rows = cal.run_ranksum_null(kind, 15, 20, N_SIMS, methods=("auto", "asymptotic"), key=(93,))
    for row in rows:
        alpha = row["alpha"]
        se = np.sqrt(alpha * (1 - alpha) / N_SIMS)
        assert row["type1"] <= alpha + 3 * se
