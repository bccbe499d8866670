"""The model-sweeps guide (docs/model_sweeps.md) against scikit-learn's gallery example
"Statistical comparison of models using grid search": on the bundled scores
(``pairedstats.datasets.load_grid_search``), ``cv_ttest`` gives the example's corrected t,
p-values, posterior probabilities, credible intervals and pairwise table, as the example
computes them by hand with scipy (``tests/reference/cv_ttest/grid_search.py`` wrote the
scores and ``grid_search.json``; scikit-learn is not needed here). The guide's tables are the
package's numbers."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import pairedstats
from pairedstats.datasets import load_grid_search, load_model_sweep

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "tests/reference/cv_ttest/grid_search.json").read_text())
GUIDE = (ROOT / "docs" / "model_sweeps.md").read_text(encoding="utf-8")
RANKED = EXAMPLE["ranked"]  # best first: rbf, linear, 3_poly, 2_poly
KEYS = dict(item="fold", repeat="repeat", system="model", score="score", test_fraction=0.1)


def _pair(a, b, **keywords):
    res = load_grid_search().paired.cv_ttest(**KEYS, systems=[a, b], **keywords)
    assert len(res) == 1
    return res.iloc[0]


def test_the_bundled_scores_are_the_examples():
    scores = load_grid_search()
    assert scores.columns.tolist() == ["model", "repeat", "fold", "score"]
    assert scores["model"].unique().tolist() == EXAMPLE["models"] == [
        "linear", "2_poly", "3_poly", "rbf"]  # fmt: skip
    assert scores.groupby("model").size().eq(100).all()
    assert sorted(set(zip(scores["repeat"], scores["fold"]))) == [
        (r, f) for r in range(10) for f in range(10)]  # fmt: skip
    means = scores.groupby("model")["score"].mean()
    np.testing.assert_allclose(means[RANKED], EXAMPLE["mean_test_score"], rtol=1e-12)
    # the example's test fraction: 10 of 100 points in each test fold
    assert EXAMPLE["n_test"] / (EXAMPLE["n_train"] + EXAMPLE["n_test"]) == 0.1


def test_the_examples_printed_numbers_as_on_its_page():
    """The rounded numbers the example prints and states in its text."""
    first = EXAMPLE["printed"]["first"]
    assert first == {
        "t": 0.75, "pvalue": 0.227, "t_uncorrected": 2.611, "pvalue_uncorrected": 0.005,
        "better_prob": 0.773, "rope_prob": 0.432,
    }  # fmt: skip
    intervals = EXAMPLE["first"]["credible_intervals"]
    assert [round(v, 6) for v in intervals["0.5"]] == [0.000977, 0.019023]
    assert [round(v, 6) for v in intervals["0.75"]] == [-0.005422, 0.025422]
    assert [round(v, 6) for v in intervals["0.95"]] == [-0.016445, 0.036445]
    rows = {(r["model_1"], r["model_2"]): r for r in EXAMPLE["pairwise"]}
    # "approximately a 6.8% chance of being worse than linear, and a 1.8% chance ... 3_poly";
    # "43% probability of being practically equivalent", "10% chance"
    assert round(rows["rbf", "linear"]["worse_prob"], 3) == 0.068
    assert round(rows["rbf", "3_poly"]["worse_prob"], 3) == 0.018
    assert round(rows["rbf", "linear"]["rope_prob"], 2) == 0.43
    assert round(rows["rbf", "3_poly"]["rope_prob"], 2) == 0.10


def test_one_pair_gives_the_examples_t_pvalues_and_probabilities():
    ex = EXAMPLE["first"]
    assert (ex["model_1"], ex["model_2"]) == ("rbf", "linear")
    row = _pair("linear", "rbf", alternative="greater", rope=0.01)  # b - a = rbf - linear
    assert row["n_folds"] == 100
    assert row["n_repeats"] == 10
    for ours, theirs in (("difference", "mean_difference"), ("t", "t"), ("pvalue", "pvalue"),
                         ("t_uncorrected", "t_uncorrected"),
                         ("pvalue_uncorrected", "pvalue_uncorrected")):  # fmt: skip
        assert row[ours] == pytest.approx(ex[theirs], rel=1e-10, abs=1e-14), ours
    # P(rbf better), no rope: the flat-prior posterior is the t-test's distribution
    assert 1 - row["pvalue"] == pytest.approx(ex["better_prob"], rel=1e-10)
    assert row["prob_equivalent"] == pytest.approx(ex["rope_prob"], rel=1e-10)
    # the credible intervals are the corrected (two-sided) confidence intervals
    for level, (low, high) in ex["credible_intervals"].items():
        ci = _pair("linear", "rbf", confidence_level=float(level))
        assert ci["ci_low"] == pytest.approx(low, rel=1e-10)
        assert ci["ci_high"] == pytest.approx(high, rel=1e-10)


def _pairwise():
    return load_grid_search().paired.cv_ttest(
        **KEYS, systems=RANKED[::-1], alternative="greater", adjust="bonferroni", rope=0.01
    )


def test_all_pairs_give_the_examples_pairwise_table():
    ours = _pairwise().set_index(["system_b", "system_a"])
    assert len(ours) == len(EXAMPLE["pairwise"]) == 6
    for row in EXAMPLE["pairwise"]:  # model_1 ranked above model_2: our b and a
        got = ours.loc[(row["model_1"], row["model_2"])]
        for column, theirs in (("t", "t_stat"), ("pvalue_adjusted", "p_val"),
                               ("prob_a_better", "worse_prob"), ("prob_b_better", "better_prob"),
                               ("prob_equivalent", "rope_prob")):  # fmt: skip
            assert got[column] == pytest.approx(row[theirs], rel=1e-10, abs=1e-12), (row, column)


def _guide_table(header: str):
    """The rows of the guide's Markdown table whose header line starts with ``header``."""
    lines = GUIDE[GUIDE.index(header) :].split("\n\n", 1)[0].splitlines()[2:]
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines]


def test_the_guides_tables_are_the_packages_numbers():
    res = _pairwise()
    columns = ["difference", "t", "pvalue_adjusted", "prob_a_better", "prob_equivalent",
               "prob_b_better"]  # fmt: skip
    rows = _guide_table("| system_a | system_b | difference |")
    assert [r[:2] for r in rows] == res[["system_a", "system_b"]].values.tolist()
    np.testing.assert_allclose([[float(x) for x in r[2:]] for r in rows],
                               res[columns].round(3).to_numpy(), atol=1e-12)  # fmt: skip
    sweep = load_model_sweep()
    per = sweep.paired.cv_ttest(item="fold", repeat="repeat", system="model", score="accuracy",
                                baseline="logreg", test_fraction=0.1, rope=0.01)  # fmt: skip
    frame = per.to_dataframe().reset_index()
    rows = _guide_table("| dataset | system_b | prob_a_better |")
    assert [r[:2] for r in rows] == frame[["dataset", "system_b"]].values.tolist()
    probs = frame[["prob_a_better", "prob_equivalent", "prob_b_better"]].round(3).to_numpy()
    np.testing.assert_allclose([[float(x) for x in r[2:]] for r in rows], probs, atol=1e-12)


def test_the_sweep_per_data_set_is_the_tidy_call_by_data_set():
    sweep = load_model_sweep()
    keys = dict(item="fold", repeat="repeat", system="model", score="accuracy",
                baseline="logreg", test_fraction=0.1, rope=0.01)  # fmt: skip
    per = sweep.paired.cv_ttest(**keys).to_dataframe().reset_index()
    tidy = sweep.to_dataframe().reset_index().paired.cv_ttest(**keys, by="dataset")
    for column in ("difference", "t", "pvalue", "t_uncorrected", "prob_equivalent"):
        np.testing.assert_allclose(per[column], tidy[column], rtol=1e-12)
    assert (per["n_repeats"] == 10).all()
    assert (per["n_folds"] == 100).all()
    # one data set by hand: the corrected t of forest - logreg on breast cancer
    acc = sweep["accuracy"].sel(dataset="breast_cancer")
    d = (acc.sel(model="forest") - acc.sel(model="logreg")).values.ravel()
    t = d.mean() / np.sqrt((1 / 100 + 1 / 9) * d.var(ddof=1))
    row = per[(per["dataset"] == "breast_cancer") & (per["system_b"] == "forest")]
    assert float(row["t"].iloc[0]) == pytest.approx(t, rel=1e-12)


def test_over_the_data_sets_friedman_is_scipys_on_the_means():
    means = load_model_sweep().mean(["repeat", "fold"])
    fried = means.paired.friedman(item="dataset", system="model", score="accuracy")
    x = means["accuracy"].transpose("dataset", "model").values
    scipy = stats.friedmanchisquare(*x.T)
    assert float(fried["friedman"][0]) == pytest.approx(scipy.statistic, rel=1e-12)
    assert float(fried["pvalue_friedman"][0]) == pytest.approx(scipy.pvalue, rel=1e-12)
    across = means.paired.bayes_signrank(item="dataset", system="model", score="accuracy",
                                         rope=0.01, rng=1, as_result=True)  # fmt: skip
    assert across.posterior.shape == (1, 3, 50_000, 3)
    # the guide's numbers
    text = re.sub(r"\s+", " ", GUIDE)
    frame = across.to_dataframe()
    for p in frame["prob_equivalent"]:
        assert f"{p:.3f}" in text
    assert pairedstats.datasets.load_model_sweep().sizes["dataset"] == 4
