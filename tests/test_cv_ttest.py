"""The corrected resampled t-test of cross-validation folds (``cv_ttest``): the corrected t
worked by hand from Nadeau and Bengio's formula, the uncorrected columns held to scipy's
``ttest_rel``, the Bayesian correlated t-test's probabilities to baycomp's ``two_on_single``
(committed values, tests/reference/cv_ttest/), the same numbers on every road, and the size
of the corrected and uncorrected tests under the Nadeau-Bengio model of correlated folds."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

from pairedstats import cli, cv_ttest
from pairedstats.core.margins import margin_names
from pairedstats.methods.cv_ttest.run import corrected_t, t_pvalues

ALTERNATIVES = ("two-sided", "greater", "less")
#: Systems in an order that is not sorted.
SYSTEMS = ["tuned", "base", "distilled"]
REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "cv_ttest" / "baycomp.json").read_text()
)
COLUMNS = ("difference", "t", "pvalue", "ci_low", "ci_high", "t_uncorrected",
           "pvalue_uncorrected", "prob_a_better", "prob_equivalent", "prob_b_better")  # fmt: skip


def _folds(seed: int, n: int = 10) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.round(0.8 + 0.02 * rng.standard_normal((n, 3)) + [0.01, 0.0, -0.005], 4)


def _by_hand(a, b, fraction: float, alternative: str, level: float, rope: float) -> dict:
    """One comparison from the formulas, term by term (plain Python sums)."""
    d = [float(y) - float(x) for x, y in zip(a, b)]
    n = len(d)
    m = sum(d) / n
    s2 = sum((x - m) ** 2 for x in d) / (n - 1)
    var = (1 / n + fraction / (1 - fraction)) * s2
    t, t0 = m / math.sqrt(var), m / math.sqrt(s2 / n)
    dist = stats.t(n - 1)
    p = {"greater": dist.sf(t), "less": dist.cdf(t), "two-sided": 2 * dist.sf(abs(t))}
    p0 = {"greater": dist.sf(t0), "less": dist.cdf(t0), "two-sided": 2 * dist.sf(abs(t0))}
    tail = (1 - level) / 2 if alternative == "two-sided" else 1 - level
    half = dist.ppf(1 - tail) * math.sqrt(var)
    low = -math.inf if alternative == "less" else m - half
    high = math.inf if alternative == "greater" else m + half
    post = stats.t(n - 1, loc=m, scale=math.sqrt(var))
    pa, pb = post.cdf(-rope), post.sf(rope)
    return {"difference": m, "t": t, "pvalue": p[alternative], "ci_low": low,
            "ci_high": high, "t_uncorrected": t0, "pvalue_uncorrected": p0[alternative],
            "prob_a_better": pa, "prob_equivalent": 1 - pa - pb, "prob_b_better": pb}  # fmt: skip


def _assert_row(row, expected: dict, rtol: float = 1e-12) -> None:
    for name, value in expected.items():
        np.testing.assert_allclose(float(row[name]), value, rtol=rtol, atol=1e-15, err_msg=name)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_t_by_hand(seed, alternative):
    scores = _folds(seed)
    fraction, level, rope = (0.1, 0.2, 1 / 3, 0.25)[seed], (0.95, 0.9, 0.99, 0.8)[seed], 0.005
    res = cv_ttest(scores, systems=SYSTEMS, test_fraction=fraction, rope=rope,
                   alternative=alternative, confidence_level=level).to_dataframe()  # fmt: skip
    assert list(zip(res["system_a"], res["system_b"])) == [
        ("tuned", "base"), ("tuned", "distilled"), ("base", "distilled")]  # fmt: skip
    for c, (a, b) in enumerate([(0, 1), (0, 2), (1, 2)]):
        row = res.iloc[c]
        assert row["n_folds"] == 10
        assert row["df"] == 9
        _assert_row(row, _by_hand(scores[:, a], scores[:, b], fraction, alternative, level, rope),
                    rtol=1e-10)  # fmt: skip


def test_a_worked_example():
    """Five folds of 5-fold cross-validation: d = (.03, .01, .03, .03, 0), m = .02,
    s^2 = .0008 / 4 = .0002, corrected variance (1/5 + 1/4) .0002 = 9e-5, t = .02 /
    sqrt(9e-5) = 2.10819 (uncorrected: .02 / sqrt(.0002 / 5) = 3.16228)."""
    scores = np.array([[0.84, 0.81], [0.80, 0.79], [0.86, 0.83], [0.83, 0.80], [0.82, 0.82]])
    row = cv_ttest(scores, systems=["svm", "logreg"], test_fraction=0.2,
                   baseline="logreg").to_dataframe().iloc[0]  # fmt: skip
    assert (row["system_a"], row["system_b"]) == ("logreg", "svm")
    assert row["difference"] == pytest.approx(0.02, abs=1e-15)
    assert row["t"] == pytest.approx(0.02 / math.sqrt(9e-5), rel=1e-12)
    assert row["t_uncorrected"] == pytest.approx(0.02 / math.sqrt(4e-5), rel=1e-12)
    assert row["pvalue"] == pytest.approx(2 * stats.t.sf(0.02 / math.sqrt(9e-5), 4), rel=1e-12)
    assert round(row["pvalue"], 4) == 0.1027


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_uncorrected_columns_equal_scipy(alternative):
    scores = _folds(7, n=15)
    res = cv_ttest(scores, systems=SYSTEMS, test_fraction=0.1, alternative=alternative)
    for c, (a, b) in enumerate([(0, 1), (0, 2), (1, 2)]):
        rel = stats.ttest_rel(scores[:, b], scores[:, a], alternative=alternative)
        one = stats.ttest_1samp(scores[:, b] - scores[:, a], 0.0, alternative=alternative)
        assert res.t_uncorrected[0, c] == pytest.approx(rel.statistic, rel=1e-12)
        assert res.pvalue_uncorrected[0, c] == pytest.approx(rel.pvalue, rel=1e-12)
        assert res.pvalue_uncorrected[0, c] == pytest.approx(one.pvalue, rel=1e-12)
        # the corrected interval is the uncorrected one widened by sqrt(1 + n rho)
        low = rel.confidence_interval(0.95).low
        widen = math.sqrt(1 + 15 * 0.1 / 0.9)
        if alternative != "less":
            mean = res.difference[0, c]
            assert mean - res.ci_low[0, c] == pytest.approx((mean - low) * widen, rel=1e-10)


@pytest.mark.parametrize("case", range(len(REFERENCE["cases"])))
def test_equals_baycomp_two_on_single(case):
    """baycomp 1.0.3 (tests/reference/cv_ttest/make_reference.py): k-fold with ``runs``
    repetitions is ``test_fraction = 1/k``; closed form, to 1e-12."""
    ref = REFERENCE["cases"][case]
    scores = np.column_stack([ref["y"], ref["x"]])  # b (y) before a (x): not sorted
    repeat = [f"run{i // ref['folds']}" for i in range(len(ref["y"]))]  # run-major cells
    res = cv_ttest(scores, systems=["y", "x"], baseline="x", test_fraction=1 / ref["folds"],
                   repeat=repeat, rope=ref["rope"]).to_dataframe().iloc[0]  # fmt: skip
    assert (res["system_a"], res["system_b"]) == ("x", "y")
    assert res["n_repeats"] == ref["runs"]
    assert res["df"] == ref["df"]
    assert res["difference"] == pytest.approx(ref["mean"], rel=1e-12)
    assert res["t"] == pytest.approx(ref["mean"] / math.sqrt(ref["var"]), rel=1e-12)
    for ours, theirs in (("prob_a_better", "p_left"), ("prob_equivalent", "p_rope"),
                         ("prob_b_better", "p_right")):  # fmt: skip
        assert abs(res[ours] - ref[theirs]) <= 1e-12, ours
    assert res["prob_a_better"] + res["prob_equivalent"] + res["prob_b_better"] == (
        pytest.approx(1.0, abs=1e-15))  # fmt: skip


def test_constant_differences_are_a_point_mass_as_baycomp():
    ref = REFERENCE["constant"]
    scores = np.column_stack([ref["x"], ref["y"]])
    row = cv_ttest(scores, test_fraction=0.2, rope=ref["rope"]).to_dataframe().iloc[0]
    assert (row["prob_a_better"], row["prob_equivalent"], row["prob_b_better"]) == (
        ref["p_left"], ref["p_rope"], ref["p_right"]) == (0.0, 0.0, 1.0)  # fmt: skip
    assert row["t"] == math.inf
    assert row["pvalue"] == 0.0
    assert row["ci_low"] == row["ci_high"] == pytest.approx(0.02, abs=1e-15)
    inside = cv_ttest(scores, test_fraction=0.2, rope=0.05).to_dataframe().iloc[0]
    assert inside["prob_equivalent"] == 1.0
    zero = cv_ttest(np.column_stack([ref["x"], ref["x"]]), test_fraction=0.2).to_dataframe()
    assert math.isnan(zero["t"].iloc[0])
    assert zero["pvalue"].iloc[0] == 1.0
    assert t_pvalues(np.array([-math.inf]), np.array([4]), "greater").tolist() == [1.0]


def _tidy(scores, site: str, repeats: int = 1) -> pd.DataFrame:
    """One row per (repetition, fold, model); the repetitions are labelled out of order."""
    n = scores.shape[0]
    k = n // repeats
    return pd.DataFrame({
        "site": site, "rep": np.repeat([f"rep{(7 * (i // k)) % 10}" for i in range(n)], 3),
        "fold": np.repeat([i % k for i in range(n)], 3),
        "model": np.tile(SYSTEMS, n), "acc": scores.ravel(),
    })  # fmt: skip


KW = {"test_fraction": 0.2, "rope": 0.01, "baseline": "base", "alternative": "greater"}


def _array(scores, **kw):
    return cv_ttest(scores, systems=SYSTEMS, **{**KW, **kw}).to_dataframe()


def test_every_road_equals_the_array_function(tmp_path, capsys):
    north, south = _folds(10, n=10), _folds(11, n=15)
    tidy = pd.concat([_tidy(north, "north", 2), _tidy(south, "south", 3)])
    tidy = tidy.sample(frac=1.0, random_state=3)
    out = tidy.paired.cv_ttest(item="fold", repeat="rep", system="model", score="acc",
                               by="site", **KW)  # fmt: skip
    assert len(out) == 4
    assert out.groupby("site")["n_repeats"].first().to_dict() == {"north": 2, "south": 3}
    for site, scores in (("north", north), ("south", south)):
        want = _array(scores).set_index("system_b")
        got = out[out["site"] == site].set_index("system_b")
        for other in ("tuned", "distilled"):
            _assert_row(got.loc[other], {c: want.loc[other, c] for c in COLUMNS})
    wide = pd.DataFrame(north, columns=SYSTEMS)
    got = wide.paired.cv_ttest(**KW).set_index("system_b")
    want = _array(north).set_index("system_b")
    _assert_row(got.loc["distilled"], {c: want.loc["distilled", c] for c in COLUMNS})
    da = xr.DataArray(
        np.stack([north, north[::-1] + 0.01]),
        dims=("dataset", "item", "system"),
        coords={"dataset": ["wine", "iris"], "system": SYSTEMS},
        name="acc",
    )
    for res in (da.to_dataset().paired.cv_ttest(**KW), da.paired.cv_ttest(**KW)):
        for d, scores in enumerate((north, north[::-1] + 0.01)):
            want = _array(scores).set_index("system_b")
            cell = res.isel(dataset=d).sel(system_b="tuned")
            _assert_row({c: cell[c].item() for c in COLUMNS},
                        {c: want.loc["tuned", c] for c in COLUMNS})  # fmt: skip
    path = tmp_path / "folds.csv"
    _tidy(north, "x").to_csv(path, index=False)
    code = cli.main(["cv-ttest", str(path), "--item", "fold", "--repeat", "rep", "--system",
                     "model", "--score", "acc", "--baseline", "base", "--test-fraction", "0.2",
                     "--rope", "0.01", "--alternative", "greater", "--format", "csv"])  # fmt: skip
    assert code == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out)).set_index("system_b")
    _assert_row(got.loc["tuned"], {c: want.loc["tuned", c] for c in COLUMNS}, rtol=1e-6)


@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh", "fdr_by"])
def test_adjust_equals_statsmodels(method):
    scores = _folds(12, n=20) + np.array([0.0, 0.004, 0.008])
    res = cv_ttest(scores, systems=SYSTEMS, test_fraction=0.1, adjust=method)
    want = multipletests(res.pvalue[0], method=method)[1]
    np.testing.assert_allclose(res.pvalue_adjusted[0], want, rtol=1e-12)


def test_repeat_names_the_repetitions_on_every_road():
    """r x k cells named by (repetition, fold) on a table, a Dataset sweep and an array give
    the numbers of the same cells labelled one by one; ``n_repeats`` counts r."""
    scores = _folds(13, n=12)  # 3 repetitions x 4 folds, repetition-major
    labels = [f"r{i // 4}f{i % 4}" for i in range(12)]
    one_by_one = pd.DataFrame(scores, columns=SYSTEMS, index=labels).paired.cv_ttest(**KW)
    assert "n_repeats" not in one_by_one
    tidy = _tidy(scores, "x", 3).sample(frac=1.0, random_state=5)
    got = tidy.paired.cv_ttest(item="fold", repeat="rep", system="model", score="acc", **KW)
    assert got["n_repeats"].tolist() == [3, 3]
    assert got["n_folds"].tolist() == [12, 12]
    for c in COLUMNS:
        np.testing.assert_allclose(got[c], one_by_one[c], rtol=1e-12, err_msg=c)
    wide = tidy.pivot_table(index=["rep", "fold"], columns="model", values="acc").reset_index()
    got = wide.paired.cv_ttest(item="fold", repeat="rep", **KW).set_index("system_b")
    want = one_by_one.set_index("system_b")  # pivot_table sorted the systems: by label
    np.testing.assert_allclose(got.loc[want.index, "t"], want["t"], rtol=1e-12)
    sweep = xr.DataArray(  # (dataset, repeat, fold, model): each data set its own test
        np.stack([scores.reshape(3, 4, 3), scores[::-1].reshape(3, 4, 3)]),
        dims=("dataset", "repeat", "fold", "model"),
        coords={"dataset": ["wine", "iris"], "model": SYSTEMS}, name="acc",
    )  # fmt: skip
    res = sweep.paired.cv_ttest(item="fold", repeat="repeat", system="model", **KW)
    assert res["n_repeats"].values.tolist() == [[3, 3], [3, 3]]
    flipped = pd.DataFrame(scores[::-1], columns=SYSTEMS).paired.cv_ttest(**KW)
    for d, want in enumerate((one_by_one, flipped)):
        np.testing.assert_allclose(res["t"].isel(dataset=d), want["t"], rtol=1e-12)
    arr = cv_ttest(scores, systems=SYSTEMS, repeat=[i // 4 for i in range(12)], **KW)
    assert arr.n_repeats.tolist() == [[3, 3]]
    np.testing.assert_allclose(arr.t[0], one_by_one["t"], rtol=1e-12)


def test_repeat_refuses_unbalanced_repetitions_and_bad_labels():
    tidy = _tidy(_folds(14, n=12), "x", 3)
    ragged = tidy[~((tidy["rep"] == "rep7") & (tidy["fold"] == 2))]
    with pytest.raises(ValueError, match=r"same number of folds.*'rep0': 4, 'rep4': 4, 'rep7': 3"):
        ragged.paired.cv_ttest(item="fold", repeat="rep", system="model", score="acc", **KW)
    with pytest.raises(ValueError, match=r"`repeat`: no column 'run'"):
        tidy.paired.cv_ttest(item="fold", repeat="run", system="model", score="acc", **KW)
    with pytest.raises(ValueError, match=r"`repeat`: 1 repetition label\(s\) are missing"):
        tidy.assign(rep=tidy["rep"].where(tidy.index != 4)).paired.cv_ttest(
            item="fold", repeat="rep", system="model", score="acc", **KW
        )
    with pytest.raises(ValueError, match=r"`repeat` must have one entry per item \(12\)"):
        cv_ttest(_folds(14, n=12), systems=SYSTEMS, repeat=[0, 1], **KW)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({}, TypeError, r"test_fraction"),
        ({"test_fraction": 1.0}, ValueError, r"`test_fraction` must be in \(0, 1\)"),
        ({"test_fraction": 0}, ValueError, r"`test_fraction` must be in \(0, 1\)"),
        ({"test_fraction": "a fifth"}, ValueError, r"`test_fraction` must be in \(0, 1\)"),
        ({"test_fraction": 0.2, "rope": -0.01}, ValueError, r"`rope` must be a positive"),
        ({"test_fraction": 0.2, "repeat": "rep"}, ValueError, r"`repeat`.*no `item=`"),
        ({"test_fraction": 0.2, "adjust": "sidak"}, ValueError, r"`adjust` must be one of"),
        ({"test_fraction": 0.2, "alternative": "bigger"}, ValueError, r"`alternative` must"),
        ({"test_fraction": 0.2, "replicate": "seed"}, TypeError, r"cv_ttest does not take"),
    ],
)
def test_bad_keywords_are_refused(kwargs, error, match):
    frame = pd.DataFrame(np.arange(12.0).reshape(4, 3) ** 1.5, columns=SYSTEMS)
    with pytest.raises(error, match=match):
        frame.paired.cv_ttest(**kwargs)


def _null_sizes(n: int, rho: float, sims: int, seed: int) -> tuple[float, float]:
    """Rejection rates at 5% (two-sided) of the corrected and uncorrected tests on ``sims``
    draws of n fold differences with mean 0, unit variance and correlation ``rho`` between
    any two folds (Nadeau and Bengio's model, ``rho = n_test / n_total``)."""
    rng = np.random.default_rng(seed)
    d = math.sqrt(rho) * rng.standard_normal(sims) + math.sqrt(1 - rho) * rng.standard_normal(
        (n, sims))  # fmt: skip
    st = corrected_t(d, rho / (1 - rho))
    df = np.full(sims, n - 1)
    size = t_pvalues(st["mean"] / np.sqrt(st["variance"]), df, "two-sided") < 0.05
    naive = t_pvalues(st["mean"] / np.sqrt(st["plain"]), df, "two-sided") < 0.05
    return float(size.mean()), float(naive.mean())


#: (folds n, correlation rho, size of the corrected test, of the plain t-test) at 5%, 40,000
#: draws each: the table of docs/cv_ttest.md (10-fold, 10 x 10-fold, 5-fold, 10 x 5-fold).
SIZES = [(10, 0.1, 0.05045, 0.153725), (100, 0.1, 0.050825, 0.566475),
         (5, 0.2, 0.04955, 0.135975), (50, 0.2, 0.048675, 0.585875)]  # fmt: skip


@pytest.mark.parametrize(("n", "rho", "corrected", "plain"), SIZES)
def test_size_under_correlated_folds(n, rho, corrected, plain):
    """The corrected test holds its level (exactly, under this model: its t is Student's on
    n - 1 degrees of freedom); the plain t-test does not."""
    size, naive = _null_sizes(n, rho, 40_000, seed=n)
    assert (size, naive) == pytest.approx((corrected, plain), abs=1e-12)
    assert abs(size - 0.05) < 4 * math.sqrt(0.05 * 0.95 / 40_000)
    assert naive > 0.13


# ------------------------------------------------------------------ margin
@pytest.mark.parametrize("seed", range(5))
def test_margin_equals_statsmodels_ttost_without_correction(seed):
    """With a vanishing test share the corrected t is the plain paired t, and the margin's
    tests are statsmodels' ``ttost_paired`` (two one-sided paired t-tests): equivalence is
    its p-value, non-inferiority its lower test's, the other direction its upper test's."""
    from statsmodels.stats.weightstats import ttost_paired

    rng = np.random.default_rng(seed)
    a = 0.8 + 0.02 * rng.standard_normal(12)
    b = a + 0.004 + 0.01 * rng.standard_normal(12)
    margin = 0.01 * (1 + seed)
    p, lower, upper = ttost_paired(b, a, -margin, margin)
    scores = np.column_stack([b, a])
    for alternative, want in (("two-sided", p), ("greater", lower[1]), ("less", upper[1])):
        res = cv_ttest(scores, systems=["new", "old"], baseline="old", test_fraction=1e-15,
                       margin=margin, alternative=alternative).to_dataframe().iloc[0]  # fmt: skip
        decision, name = margin_names(alternative)
        assert res[name] == pytest.approx(want, rel=1e-9)
        assert bool(res[decision]) == (want < 0.05)


@given(
    seed=st.integers(0, 10_000),
    margin=st.floats(0.001, 0.05),
    level=st.sampled_from([0.9, 0.95, 0.99]),
    fraction=st.sampled_from([0.1, 0.2, 1 / 3]),
)
@settings(max_examples=60, deadline=None)
def test_margin_decisions_are_the_intervals(seed, margin, level, fraction):
    """Equivalent exactly when the ``1 - 2 alpha`` corrected interval lies inside the
    margins; non-inferior exactly when the one-sided interval's end clears the margin; the
    equivalence p-value does not change when a and b swap, non-inferiority mirrors."""
    scores = _folds(seed, n=10)[:, :2] + [0.0, 0.01 * (seed % 3)]
    kw = dict(systems=["zeta", "alpha"], baseline="zeta", test_fraction=fraction)
    alpha = 1 - level
    tost = cv_ttest(scores, margin=margin, confidence_level=level, **kw)
    inner = cv_ttest(scores, confidence_level=1 - 2 * alpha, **kw)
    inside = (-margin < inner.ci_low[0, 0]) and (inner.ci_high[0, 0] < margin)
    assert bool(tost.equivalent[0, 0]) == inside
    up = cv_ttest(scores, margin=margin, confidence_level=level, alternative="greater", **kw)
    assert bool(up.noninferior[0, 0]) == (up.ci_low[0, 0] > -margin)
    kw["baseline"] = "alpha"
    swapped = cv_ttest(scores, margin=margin, confidence_level=level, **kw)
    assert swapped.pvalue_equivalence[0, 0] == pytest.approx(tost.pvalue_equivalence[0, 0],
                                                             rel=1e-12)  # fmt: skip
    down = cv_ttest(scores, margin=margin, confidence_level=level, alternative="less", **kw)
    assert down.pvalue_noninferiority[0, 0] == pytest.approx(up.pvalue_noninferiority[0, 0],
                                                             rel=1e-12)  # fmt: skip


def test_margin_adjusted_and_on_the_table():
    scores = _folds(21, n=20) + np.array([0.0, 0.002, 0.004])
    res = cv_ttest(scores, systems=SYSTEMS, test_fraction=0.1, margin=0.02, adjust="holm")
    want = multipletests(res.pvalue_equivalence[0], method="holm")[1]
    np.testing.assert_allclose(res.pvalue_equivalence_adjusted[0], want, rtol=1e-12)
    np.testing.assert_array_equal(res.equivalent[0], want < 0.05)
    table = res.to_dataframe()
    assert table["equivalent"].dtype == bool
    assert res.noninferior is None
    assert "noninferior" not in table
    assert res.metadata["margin"] == 0.02
    assert "margin" in str(res)


@pytest.mark.parametrize(("margin", "error", "match"), [
    (0, ValueError, r"`margin` must be finite and > 0; got 0.0"),
    (-0.01, ValueError, r"`margin` must be finite and > 0; got -0.01"),
    ("1pt", TypeError, r"`margin` must be a real number; got '1pt'"),
])  # fmt: skip
def test_margin_refuses_what_is_not_a_margin(margin, error, match):
    with pytest.raises(error, match=match):
        cv_ttest(_folds(22), test_fraction=0.1, margin=margin)
