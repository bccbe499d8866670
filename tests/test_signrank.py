"""The signed-rank method: R's wilcox.test(b, a, paired=TRUE, conf.int=TRUE) reproduced,
validation messages, pairs and groups, zeros, warnings, the accessors and a swap property."""

import csv
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from pairedstats import (
    SignrankConfidenceWarning,
    SignrankPassFailWarning,
    SignrankResult,
    cli,
    signrank,
    signrank_design,
)
from pairedstats.inputs import design_from_array
from pairedstats.methods._shared.margins import MARGIN_COLUMNS

REF = Path(__file__).parent / "reference" / "signrank"


def _read(name):
    with open(REF / name, newline="") as fh:
        return list(csv.DictReader(fh))


DATASETS = {
    r["dataset"]: (np.array(r["a"].split(), float), np.array(r["b"].split(), float))
    for r in _read("datasets.csv")
}
CASES = _read("reference.csv")
_ALT = {"two.sided": "two-sided", "less": "less", "greater": "greater"}
_METHOD = {"auto": "auto", "FALSE": "asymptotic", "TRUE": "exact"}


def _call(row):
    a, b = DATASETS[row["dataset"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SignrankConfidenceWarning)
        return signrank(
            np.column_stack([a, b]),
            systems=["a", "b"],
            alternative=_ALT[row["alternative"]],
            confidence_level=float(row["conf_level"]),
            method=_METHOD[row["exact"]],
            correction=row["correct"] == "TRUE",
        )


def _case_id(row):
    return "-".join(row[k] for k in ("dataset", "alternative", "exact", "correct", "conf_level"))


def test_reference_covers_what_it_should():
    assert len(DATASETS) >= 12
    assert len(CASES) >= 250
    methods = {r["method"] for r in CASES}
    assert {"Wilcoxon signed rank exact test", "Wilcoxon signed rank test",
            "Wilcoxon signed rank test with continuity correction"} == methods  # fmt: skip
    assert any(int(r["n_zeros"]) > 0 for r in CASES)


@pytest.mark.parametrize("row", CASES, ids=_case_id)
def test_matches_r(row):
    res = _call(row)
    exact = "exact" in row["method"]
    assert res.method[0, 0] == ("exact" if exact else "asymptotic")
    assert res.statistic[0, 0] == float(row["V"])
    assert res.n_zeros[0, 0] == int(row["n_zeros"])
    np.testing.assert_allclose(res.pvalue[0, 0], float(row["p_value"]), rtol=1e-12)
    # the shift: the median of the Walsh averages (R's estimate on its exact path)
    np.testing.assert_allclose(res.shift[0, 0], float(row["walsh_median"]), rtol=1e-12)
    if exact:
        assert row["estimate"] == row["walsh_median"]
    else:  # R's root of the normal score: between the two middle Walsh averages
        a, b = DATASETS[row["dataset"]]
        x = (b - a)[b != a]
        i, j = np.triu_indices(x.size)
        w = np.sort((x[i] + x[j]) / 2)
        middle = w[(w.size - 1) // 2], w[w.size // 2]
        assert middle[0] - 1e-4 <= float(row["estimate"]) <= middle[1] + 1e-4
    if row["not_achievable"] == "TRUE" and not exact:
        return  # R widens alpha there; pairedstats warns (tested below)
    for end in ("ci_low", "ci_high"):
        got = getattr(res, end)[0, 0]
        np.testing.assert_allclose(got, float(row[f"{end}_walsh"]), rtol=1e-12)
        if math.isfinite(got):  # R's uniroot end, to its tolerance
            assert abs(got - float(row[end])) <= 2e-4
        else:
            assert got == float(row[end])


@pytest.mark.filterwarnings("ignore::pairedstats.SignrankConfidenceWarning")
@pytest.mark.parametrize("name", sorted(DATASETS))
def test_pvalues_match_scipy(name):
    a, b = DATASETS[name]
    d = b - a
    x = d[d != 0]
    no_ties = np.unique(np.abs(x)).size == x.size
    for alternative in ("two-sided", "less", "greater"):
        for correction in (True, False):
            res = signrank(np.column_stack([a, b]), alternative=alternative,
                           method="asymptotic", correction=correction)  # fmt: skip
            ref = stats.wilcoxon(d, zero_method="wilcox", correction=correction,
                                 alternative=alternative, method="approx")  # fmt: skip
            np.testing.assert_allclose(res.pvalue[0, 0], ref.pvalue, rtol=1e-12)
        if no_ties and x.size <= 60:
            res = signrank(np.column_stack([a, b]), alternative=alternative, method="exact")
            ref = stats.wilcoxon(d, zero_method="wilcox", alternative=alternative,
                                 method="exact")  # fmt: skip
            np.testing.assert_allclose(res.pvalue[0, 0], ref.pvalue, rtol=1e-12)


GOOD = {"alternative": "two-sided", "confidence_level": 0.95, "method": "auto",
        "correction": True}  # fmt: skip
SCORES = np.array([[1.0, 2.0], [2.0, 3.5], [0.5, 0.25], [3.0, 4.0], [2.0, 2.5]])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"alternative": "bigger"}, ValueError, r"`alternative` must be one of"),
        ({"method": "permutation"}, ValueError, r"`method` must be one of 'auto', 'exact'"),
        ({"confidence_level": 1.5}, ValueError, r"strictly between 0 and 1; got 1.5"),
        ({"confidence_level": "95%"}, TypeError, r"`confidence_level` must be a"),
        ({"correction": 1}, TypeError, r"`correction` must be True or False; got 1"),
        ({"baseline": "z"}, ValueError, r"`baseline` must be one of the systems \[0, 1\]"),
    ],
)
def test_invalid_keywords_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        signrank(SCORES, **kwargs)


def test_invalid_designs_are_refused():
    with pytest.raises(TypeError, match=r"`design` must be a PairedDesign; got dict"):
        signrank_design({})
    with pytest.raises(ValueError, match=r"one score column for signrank; got 2 columns"):
        signrank(np.zeros((4, 2, 2)) + np.arange(8).reshape(4, 2, 1))
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"`method='exact'` would take .* n=3000 non-zero"):
        signrank(rng.normal(size=(3000, 2)), method="exact")


def test_result_shape_columns_and_metadata():
    a, b = DATASETS["n20"]
    res = signrank(np.column_stack([a, b]), systems=["x", "y"], alternative="greater",
                   confidence_level=0.9)  # fmt: skip
    assert isinstance(res, SignrankResult)
    for name in SignrankResult._columns:  # the margin's columns only with a margin
        value = getattr(res, name)
        assert value is None if name in MARGIN_COLUMNS else value.shape == (1, 1)
    frame = res.to_dataframe()
    assert list(frame.columns[:2]) == ["system_a", "system_b"]
    assert {"n_items", "n_zeros", "statistic", "pvalue", "shift", "ci_low",
            "ci_high"} <= set(frame.columns)  # fmt: skip
    assert frame.loc[0, "method"] == "exact"
    assert frame.attrs["method"] == "signrank"
    assert (frame.attrs["method_requested"], frame.attrs["alternative"]) == ("auto", "greater")
    assert frame.attrs["confidence_level"] == 0.9
    assert frame.attrs["correction"] is True
    assert res.ci_high[0, 0] == math.inf
    assert 0.9 <= res.ci_coverage[0, 0] < 0.91
    assert "Wilcoxon signed-rank" in str(res)
    assert float(res.to_dataset()["pvalue"][0]) == res.pvalue[0, 0]


def _tidy(seed=3, n=40):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=n)
    rows = []
    for j, name in enumerate(["bm25", "dense", "hybrid"]):
        score = np.round(base + 0.2 * j + rng.normal(scale=0.5, size=n), 1)
        rows.append(
            pd.DataFrame(
                {
                    "query": np.arange(n),
                    "run": name,
                    "score": score,
                    "collection": np.where(np.arange(n) < 25, "x", "y"),
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def test_pairs_baseline_and_groups_equal_single_calls():
    df = _tidy()
    kw = dict(item="query", system="run", score="score")
    res = df.paired.signrank(**kw, by="collection", as_result=True)
    assert res.pvalue.shape == (2, 3)
    assert res.label_a == ("bm25", "bm25", "dense")
    assert res.label_b == ("dense", "hybrid", "hybrid")
    wide = df.pivot(index="query", columns="run", values="score")
    coll = df.groupby("query")["collection"].first()
    for g, key in enumerate(["x", "y"]):
        part = wide[coll == key]
        for c, (a, b) in enumerate(zip(res.label_a, res.label_b)):
            single = signrank(part[[a, b]].to_numpy())
            for name in single.columns:
                assert getattr(res, name)[g, c] == getattr(single, name)[0, 0], name
    base = df.paired.signrank(**kw, baseline="hybrid")
    assert list(zip(base["system_a"], base["system_b"])) == [("hybrid", "bm25"),
                                                             ("hybrid", "dense")]  # fmt: skip
    swapped = signrank(wide[["hybrid", "bm25"]].to_numpy())
    assert base["pvalue"][0] == swapped.pvalue[0, 0]
    applied = df.groupby("collection").apply(
        lambda g: g.paired.signrank(**kw), include_groups=False
    )
    np.testing.assert_array_equal(applied["pvalue"].to_numpy(), res.pvalue.ravel())


def test_sweep_dataset_indexes_the_comparisons():
    rng = np.random.default_rng(9)
    scores = rng.normal(size=(2, 30, 3)) + np.array([0.0, 0.3, 0.6])
    ds = xr.Dataset({"ndcg": (("seed", "item", "system"), scores)},
                    coords={"seed": [1, 2], "system": ["a", "b", "c"]})  # fmt: skip
    res = ds.paired.signrank()
    assert dict(res["pvalue"].sizes) == {"seed": 2, "comparison": 3}
    one = res.sel(system_a="a", system_b="c")["shift"].sel(seed=2)
    expected = signrank(scores[1][:, [0, 2]])
    assert float(one) == expected.shift[0, 0]


def test_zeros_are_dropped_and_counted():
    a = np.array([1, 2, 3, 1, 5, 2, 0, 4, 6, 2, 7, 3, 5, 1], float)
    b = np.array([1, 4, 3, 2, 9, 1, 3, 4, 8, 2, 4, 6, 8, 6], float)
    res = signrank(np.column_stack([a, b]))
    assert res.n_items[0, 0] == 14
    assert res.n_zeros[0, 0] == 4
    assert res.method[0, 0] == "asymptotic"  # R: no exact p-value with zeros
    keep = a != b
    alone = signrank(np.column_stack([a[keep], b[keep]]), method="asymptotic")
    for name in ("statistic", "pvalue", "shift", "ci_low", "ci_high"):
        assert getattr(alone, name)[0, 0] == getattr(res, name)[0, 0], name
    every = signrank(np.array([[1.0, 1.0], [2.0, 2.0]]))
    assert (every.n_zeros[0, 0], every.pvalue[0, 0]) == (2, 1.0)
    assert math.isnan(every.shift[0, 0])


def test_unreachable_level_warns():
    a, b = DATASETS["n3"]
    scores = np.column_stack([a, b])
    with pytest.warns(SignrankConfidenceWarning, match=r"confidence_level=0.95 cannot be "
                      r"reached with 3 non-zero differences for 1 - 0"):  # fmt: skip
        res = signrank(scores)
    # R: wilcox.test(b, a, paired = TRUE, conf.int = TRUE) warns too, widest interval
    d = b - a
    assert (res.ci_low[0, 0], res.ci_high[0, 0]) == (d.min(), d.max())
    assert res.ci_coverage[0, 0] == 0.75
    design = design_from_array(scores)
    grouped = type(design)(**{**design.__dict__, "group_names": ("site",),
                              "group_keys": (("s0",),)})  # fmt: skip
    with pytest.warns(SignrankConfidenceWarning, match=r"in group site='s0'"):
        signrank_design(grouped)


def test_unreachable_level_warns_once_per_call():
    # every comparison of two of three groups is out of reach: one warning for the call
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(3 + 3 + 30, 3))
    groups = np.repeat([0, 1, 2], [3, 3, 30])
    frame = pd.DataFrame(scores, columns=["x", "y", "z"]).assign(site=groups)
    with pytest.warns(SignrankConfidenceWarning) as caught:
        frame.paired.signrank(by="site")
    assert len(caught) == 1
    assert str(caught[0].message) == (
        "Confidence level out of reach in 2 of 3 groups, e.g. group site=0: "
        "confidence_level=0.95 cannot be reached with 3 non-zero differences for 'y' - 'x', "
        "3 non-zero differences for 'z' - 'x', 3 non-zero differences for 'z' - 'y'. The "
        "widest interval of the Walsh averages is reported there (see `ci_coverage`)."
    )


def _pass_fail_frame():
    # 0/1 scores of three systems in two groups (the discordant items differ by group)
    rng = np.random.default_rng(11)
    rates = {"new": 0.8, "old": 0.7, "mid": 0.75}
    frame = pd.DataFrame({s: (rng.random(120) < r).astype(float) for s, r in rates.items()})
    return frame.assign(site=np.repeat(["s1", "s0"], 60))


def test_pass_fail_scores_warn_once_and_point_to_mcnemar():
    # on 0/1 scores the zeros (concordant items) are dropped and every other difference has
    # size 1: the sign test of the discordant items, McNemar's test without its interval
    frame = _pass_fail_frame()
    with pytest.warns(SignrankPassFailWarning) as caught:
        res = frame.paired.signrank(baseline="old", by="site")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith(
        "Scores all 0 or 1 (pass/fail) in 2 of 2 groups, e.g. group site='s1': for "
        "'new' - 'old', 'mid' - 'old'. The items both systems pass or both fail are zero "
        "differences, dropped"
    )
    assert "df.paired.mcnemar(...)" in message
    assert set(res["shift"]) <= {-1.0, -0.5, 0.0, 0.5, 1.0}
    # the same p-value as McNemar's asymptotic test (no continuity correction)
    mc = frame.paired.mcnemar(baseline="old", by="site", method="asymptotic")
    with pytest.warns(SignrankPassFailWarning):
        sr = frame.paired.signrank(baseline="old", by="site", correction=False)
    np.testing.assert_allclose(sr["pvalue"], mc["pvalue"], rtol=1e-12)
    # only the 0/1 comparisons are named, on arrays too
    scores = frame[["old", "new"]].to_numpy()
    scores = np.column_stack([scores, scores[:, 0] + np.linspace(0.1, 0.9, 120)])
    with pytest.warns(SignrankPassFailWarning, match=r"for 1 - 0\. The items") as caught:
        signrank(scores)
    assert len(caught) == 1


@pytest.mark.parametrize("transform", [
    lambda x: x * 0.5 + 0.25 * np.roll(x, 1),             # graded: 0, 0.25, 0.5, 0.75
    lambda x: np.where(x == 1, 1.0, 0.5 * np.roll(x, 3)),  # 0, 0.5, 1
    lambda x: x + np.random.default_rng(2).normal(0, 0.1, x.shape),  # continuous
])  # fmt: skip
def test_graded_and_continuous_scores_do_not_warn_pass_fail(transform):
    frame = _pass_fail_frame()
    scores = transform(frame[["old", "new", "mid"]].to_numpy())
    assert not np.isin(scores, (0.0, 1.0)).all(axis=0).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        signrank(scores, systems=["old", "new", "mid"], baseline="old")


def test_cli_subcommand(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    _tidy().to_csv(path, index=False)
    cli.main(["signrank", str(path), "--item", "query", "--system", "run",
                          "--score", "score", "--baseline", "bm25"])  # fmt: skip
    out = capsys.readouterr().out
    assert "hybrid" in out
    assert "Wilcoxon signed-rank" in out


_DIFFS = st.lists(st.integers(-6, 6), min_size=2, max_size=30)


@settings(max_examples=60, deadline=None)
@given(_DIFFS, st.sampled_from(["auto", "exact", "asymptotic"]), st.booleans())
def test_swapping_a_and_b_mirrors(diffs, method, correction):
    a = np.arange(len(diffs), dtype=float)
    b = a + np.array(diffs) / 4
    kw = dict(method=method, correction=correction)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SignrankConfidenceWarning)
        warnings.simplefilter("ignore", SignrankPassFailWarning)  # scores 0, 1 when n = 2
        res = {alt: (signrank(np.column_stack([a, b]), alternative=alt, **kw),
                     signrank(np.column_stack([b, a]), alternative=alt, **kw))
               for alt in ("two-sided", "less", "greater")}  # fmt: skip
    fwd, back = (r[0, 0] for r in (res["two-sided"][0].statistic, res["two-sided"][1].statistic))
    n = len(diffs) - diffs.count(0)
    assert fwd + back == n * (n + 1) / 2
    f, r = res["two-sided"]
    assert f.pvalue[0, 0] == r.pvalue[0, 0]
    np.testing.assert_array_equal(f.shift, -r.shift)
    np.testing.assert_array_equal(f.ci_low, -r.ci_high)
    np.testing.assert_array_equal(f.ci_high, -r.ci_low)
    assert res["less"][0].pvalue[0, 0] == res["greater"][1].pvalue[0, 0]
    assert res["greater"][0].pvalue[0, 0] == res["less"][1].pvalue[0, 0]


# ------------------------------------------------------------------------ ties
#: Integer scores of two systems: differences 2, 2, 2, 1, 1, -1, 4, 0, 7, 1 (ties and a zero).
INTEGERS = np.array([[1, 3], [2, 4], [7, 9], [3, 4], [5, 6], [8, 7], [4, 8], [6, 6], [2, 9],
                     [1, 2]], dtype=float)  # fmt: skip


@pytest.mark.parametrize("factor", [0.1, 0.3, 0.7, 1e-10, 3.7])
@pytest.mark.parametrize("method", ["asymptotic", "exact"])
def test_scaled_scores_keep_their_ties(factor, method):
    # factor * x splits differences equal in exact arithmetic by an ulp (0.1 * 3 - 0.1 * 1
    # is not 0.1 * 4 - 0.1 * 2); read within the tie error of the differences they stay
    # tied: the test of the integers, by scipy (exact integer ties) and by signrank itself
    a, b = INTEGERS[:, 0], INTEGERS[:, 1]
    d = b - a
    split = np.unique(np.abs(factor * b - factor * a)).size
    assert split > np.unique(np.abs(d)).size  # the floats alone have fewer ties
    got = signrank(factor * INTEGERS, method=method)
    base = signrank(INTEGERS, method=method)
    for column in ("statistic", "n_zeros", "null_variance", "z", "pvalue", "method"):
        np.testing.assert_array_equal(getattr(got, column), getattr(base, column))
    np.testing.assert_allclose(got.shift, factor * base.shift, rtol=1e-12)
    np.testing.assert_allclose(got.ci_low, factor * base.ci_low, rtol=1e-12)
    np.testing.assert_allclose(got.ci_high, factor * base.ci_high, rtol=1e-12)
    nonzero = d[d != 0]
    ranks = stats.rankdata(np.abs(nonzero))
    assert got.statistic[0, 0] == ranks[nonzero > 0].sum()
    if method == "asymptotic":
        ref = stats.wilcoxon(d, zero_method="wilcox", correction=True, method="approx")
        assert got.pvalue[0, 0] == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("offset", [1e12, 2.0**50, 2.0**53 - 16, -(2.0**52)])
def test_an_exact_offset_changes_nothing(offset):
    base = signrank(INTEGERS)
    moved = signrank(INTEGERS + offset)
    for column in base._columns:
        np.testing.assert_array_equal(getattr(moved, column), getattr(base, column))


def test_scores_on_a_decimal_grid_are_ranked_as_their_decimals():
    # p10 of the runs dataset is on the 0.1 grid: the differences of the tenths (exact
    # integers for scipy) give the p-values, not their binary roundings (0.3 - 0.2 is not
    # 0.2 - 0.1), which split ties and moved a p-value from 0.94 to 0.76
    import pairedstats

    runs = pairedstats.datasets.load_runs()
    res = runs.paired.signrank(item="query", system="run", score="p10", by="collection",
                               baseline="bm25")  # fmt: skip
    assert len(res) == 6
    for row in res.itertuples():
        table = runs[runs["collection"] == row.collection].pivot(index="query", columns="run",
                                                                 values="p10")  # fmt: skip
        a, b = table["bm25"].to_numpy(), table[row.system_b].to_numpy()
        tenths = np.rint(10 * b) - np.rint(10 * a)
        ref = stats.wilcoxon(tenths, zero_method="wilcox", correction=True, method="approx")
        assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        assert row.n_zeros == (tenths == 0).sum()


def test_a_zero_without_ties_takes_r_s_asymptotic_path_and_keeps_the_level():
    # validation/results/signrank_r_level.txt (R 4.2): 1, 2, 3, 4, 5, 0 -> continuity-
    # corrected normal test, p = 0.05905823, interval [2, 4] at a conf.level lowered to 0.8;
    # pairedstats keeps 0.95: the widest interval [1, 5], with the warning
    d = np.array([1.0, 2, 3, 4, 5, 0])
    with pytest.warns(SignrankConfidenceWarning):
        res = signrank(np.c_[np.zeros_like(d), d])
    assert res.method[0, 0] == "asymptotic"
    assert float(res.pvalue[0, 0]) == pytest.approx(0.05905823, rel=1e-6)
    assert (float(res.ci_low[0, 0]), float(res.ci_high[0, 0])) == (1.0, 5.0)
    d = np.array([1.5, 2, 3, 4, 5, 6, 0])  # R: [2, 5] at 0.9; here 0.95 is reached
    res = signrank(np.c_[np.zeros_like(d), d])
    assert float(res.pvalue[0, 0]) == pytest.approx(0.03603169, rel=1e-6)
    assert (float(res.ci_low[0, 0]), float(res.ci_high[0, 0])) == (1.5, 6.0)
    assert float(res.ci_coverage[0, 0]) == 0.95
