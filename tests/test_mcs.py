"""The best set (``.paired.mcs``): the model confidence set of Hansen, Lunde and Nason
(2011), checked against ``arch``'s MCS (the same draws exactly, its own draws within Monte
Carlo error), against cases worked by hand and by exact enumeration, by properties of labels
and direction, and by a simulation of its coverage of the truly best system."""

import doctest
import io
import itertools
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from tests.data import unsorted_runs

import pairedstats
from pairedstats import cli
from pairedstats.core.mcs import model_confidence_set, system_confidence_set
from pairedstats.inputs import design_from_array
from pairedstats.methods._shared.registry import SPECS

REFERENCE = json.loads((Path(__file__).parent / "reference/mcs/reference.json").read_text())
COLUMNS = ["system", "mean", "in_set", "mcs_pvalue", "eliminated"]
STATISTICS = {"max": "max", "R": "range"}  # arch's names -> ours
#: |ours - arch| allowed with 100,000 resamples on each side. Measured over 10 seeds of
#: ours per case, the MCS p-values' standard deviation was at most 0.0024 (the binomial part
#: sqrt(p (1 - p) / B) <= 0.0016, the rest from the bootstrap standard errors the statistics
#: are divided by); the difference of two independent runs then has a standard deviation of
#: at most 0.0034, and 0.015 is 4.4 of them.
TOLERANCE = 0.015


@pytest.fixture(scope="module")
def runs():
    return unsorted_runs()


def _wide(scores, names=None) -> pd.DataFrame:
    scores = np.asarray(scores, dtype=float)
    names = names or [f"m{j}" for j in range(scores.shape[1])]
    return pd.DataFrame(scores, columns=names).rename_axis("item")


# ---------------------------------------------------------------- arch
@pytest.mark.parametrize("method", ["max", "R"])
def test_the_core_gives_arch_s_p_values_on_arch_s_own_draws(method):
    case = REFERENCE["same_draws"]
    losses = np.array(case["losses"])
    indices = np.array(case[method]["indices"])  # arch's resamples of the items
    mean = losses.mean(axis=0)
    star = losses[indices].mean(axis=1).T  # (p, B)
    found = model_confidence_set(mean[:, None] - mean, star[:, None] - star[None],
                                 STATISTICS[method])  # fmt: skip
    np.testing.assert_array_equal(found.pvalue, case[method]["pvalue"])


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=() if i == 0 else pytest.mark.slow)
     for i, n in enumerate(REFERENCE["monte_carlo"])],
)  # fmt: skip
@pytest.mark.parametrize("method", ["max", "R"])
def test_p_values_agree_with_arch_within_monte_carlo_error(name, method):
    case = REFERENCE["monte_carlo"][name]
    losses = np.array(case["losses"])
    got = _wide(losses).paired.mcs(statistic=STATISTICS[method], lower_is_better=True,
                                   n_resamples=case["reps"], rng=2024)  # fmt: skip
    np.testing.assert_allclose(got["mcs_pvalue"], case[method], atol=TOLERANCE, rtol=0)
    # the scores (higher is better) are the negated losses: the same numbers
    again = _wide(-losses).paired.mcs(statistic=STATISTICS[method], n_resamples=case["reps"],
                                      rng=2024)  # fmt: skip
    pd.testing.assert_frame_equal(again.drop(columns="mean"), got.drop(columns="mean"))


# ---------------------------------------------------------------- by hand
@pytest.mark.parametrize("statistic", ["max", "range"])
def test_two_systems_the_p_value_is_the_bootstraps_of_their_difference(statistic):
    """With two systems both statistics are |d| / se, and the null's |d* - d| / se: the MCS
    p-value of the worse one is the share of replicates with |d* - d| > |d|, read here from
    the bootstrap distribution of the same call."""
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(30, 2)) + np.array([0.0, 0.35])
    res = _wide(scores, ["hi", "lo"]).paired.mcs(statistic=statistic, n_resamples=5000,
                                                 rng=3, as_result=True)  # fmt: skip
    boot = res.comparisons[0]
    d, reps = float(boot.difference[0, 0]), boot.bootstrap_distribution[0, 0]
    expected = np.mean(np.abs(reps - d) > abs(d))
    worse = 0 if d > 0 else 1  # b - a = lo - hi: the lower mean is the worse
    assert res.mcs_pvalue[0, worse] == expected
    assert res.mcs_pvalue[0, 1 - worse] == 1.0
    # bitwise: the bootstrap's own replicates of this pair
    direct = SPECS["bootstrap"].compute(design_from_array(scores, systems=["hi", "lo"]),
                                        n_resamples=5000, rng=3, resampling="index")  # fmt: skip
    np.testing.assert_array_equal(direct.bootstrap_distribution, boot.bootstrap_distribution)


def test_two_systems_against_exact_enumeration_of_the_bootstrap():
    """Four items: the 4**4 equally likely resamples give the exact bootstrap p-value
    P(|mean(d*) - mean(d)| > |mean(d)|); 40,000 resamples come within 4 of their standard
    errors."""
    diff = np.array([-1.0, 2.0, 0.0, 3.0])  # per-item b - a
    scores = np.column_stack([np.zeros(4), diff])
    exact_null = [abs(np.mean(diff[list(i)]) - diff.mean())
                  for i in itertools.product(range(4), repeat=4)]  # fmt: skip
    exact = np.mean(np.array(exact_null) > abs(diff.mean()) + 1e-12)
    for statistic in ("max", "range"):
        res = _wide(scores).paired.mcs(statistic=statistic, n_resamples=40_000, rng=1,
                                       as_result=True)  # fmt: skip
        se = math.sqrt(exact * (1 - exact) / 40_000)
        assert abs(res.mcs_pvalue[0, 0] - exact) < 4 * se, (statistic, exact)
        assert res.mcs_pvalue[0, 1] == 1.0


# ---------------------------------------------------------------- properties
@pytest.mark.parametrize("statistic", ["max", "range"])
def test_relabelled_and_reordered_systems_keep_their_numbers(statistic):
    rng = np.random.default_rng(8)
    scores = rng.normal(size=(25, 5)) + np.array([0.3, 0.0, 0.5, 0.1, 0.45])
    names = ["zeta", "alpha", "mid", "omega", "beta"]
    first = _wide(scores, names).paired.mcs(statistic=statistic, n_resamples=999, rng=4)
    order = [3, 0, 4, 1, 2]
    renamed = {n: n.upper() for n in names}
    moved = _wide(scores[:, order], [renamed[names[j]] for j in order])
    second = moved.paired.mcs(statistic=statistic, n_resamples=999, rng=4)
    second["system"] = second["system"].map({v: k for k, v in renamed.items()})
    pd.testing.assert_frame_equal(second.set_index("system").loc[names].reset_index(), first)


@pytest.mark.parametrize("statistic", ["max", "range"])
def test_negated_scores_with_lower_is_better_give_the_same_set(statistic, runs):
    keys = dict(item="query", system="run", score="ndcg", by="collection", n_resamples=999,
                statistic=statistic, rng=6)  # fmt: skip
    high = runs.paired.mcs(**keys)
    low = runs.assign(ndcg=-runs.ndcg).paired.mcs(**keys, lower_is_better="ndcg")
    pd.testing.assert_frame_equal(low.drop(columns="mean"), high.drop(columns="mean"))
    np.testing.assert_array_equal(low["mean"], -high["mean"])


@pytest.mark.parametrize("statistic", ["max", "range"])
def test_a_system_far_worse_than_all_is_eliminated_first(statistic):
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(40, 4)) + np.array([0.0, 0.1, -3.0, 0.05])
    out = _wide(scores, ["b", "c", "bad", "a"]).paired.mcs(statistic=statistic,
                                                           n_resamples=999, rng=1)  # fmt: skip
    row = out.set_index("system").loc["bad"]
    assert row.eliminated == 1
    assert not row.in_set
    assert row.mcs_pvalue == 0.0
    assert out.mcs_pvalue.max() == 1.0


def test_identical_systems_tie_and_stay_together():
    rng = np.random.default_rng(3)
    base = rng.normal(size=30)
    scores = np.column_stack([base, base, base - 1.0 + 0.3 * rng.normal(size=30)])
    # (the bootstrap read is of every system against one: it warns of a point distribution
    # when that one is x or y, and the identical pair is among its comparisons)
    for statistic in ("max", "range"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pairedstats.PointDistributionWarning)
            out = _wide(scores, ["x", "y", "w"]).paired.mcs(statistic=statistic,
                                                            n_resamples=999, rng=2)  # fmt: skip
        assert out.in_set.tolist() == [True, True, False]
        assert out.mcs_pvalue.tolist()[:2] == [1.0, 1.0]
        assert out.eliminated.tolist()[:2] == [pd.NA, pd.NA]
    # all equal: none is eliminated
    with pytest.warns(pairedstats.PointDistributionWarning):
        same = _wide(np.column_stack([base, base, base])).paired.mcs(n_resamples=199, rng=1)
    assert same.in_set.all()
    assert (same.mcs_pvalue == 1.0).all()


def test_the_set_is_the_systems_whose_p_value_reaches_alpha(runs):
    keys = dict(item="query", system="run", score="ndcg", by="collection", n_resamples=999,
                rng=5)  # fmt: skip
    for level in (0.5, 0.75, 0.9, 0.99):
        out = runs.paired.mcs(**keys, confidence_level=level)
        np.testing.assert_array_equal(out.in_set, out.mcs_pvalue >= round(1 - level, 12))
        assert out.eliminated.isna().tolist() == out.in_set.tolist()
        assert out.groupby("collection").in_set.any().all()  # never empty


# ---------------------------------------------------------------- roads of the bootstrap
def test_by_groups_equal_groupby_apply(runs):
    keys = dict(item="query", system="run", score="ndcg", n_resamples=499, rng=9)
    whole = runs.paired.mcs(**keys, by="collection")
    each = runs.groupby("collection", sort=False)[list(runs.columns)].apply(
        lambda part: part.paired.mcs(**keys)
    )  # the group's key keys its streams, as in the by= call
    for key in runs.collection.unique():
        alone = each.loc[key].reset_index(drop=True)
        got = whole[whole.collection == key].drop(columns="collection").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, alone, check_dtype=False)


def test_clusters_strata_and_replicates_resample_as_the_bootstrap():
    rng = np.random.default_rng(11)
    n = 48
    cluster = np.repeat(np.arange(12), 4)
    shared = rng.normal(size=12)[cluster]  # items of a cluster move together
    scores = shared[:, None] + rng.normal(scale=0.5, size=(n, 3)) + [0.0, 0.25, 0.3]
    frame = _wide(scores, ["p", "q", "r"]).assign(cluster=cluster, stratum=cluster % 2)
    plain = frame.paired.mcs(n_resamples=2000, rng=1, as_result=True)
    clustered = frame.paired.mcs(cluster="cluster", n_resamples=2000, rng=1, as_result=True)
    assert clustered.metadata["cluster"]
    assert not plain.metadata["cluster"]
    assert clustered.comparisons[0].metadata["cluster"]
    assert not np.array_equal(clustered.mcs_pvalue, plain.mcs_pvalue)
    strata = frame.paired.mcs(strata="stratum", cluster="cluster", n_resamples=500, rng=1)
    assert strata.in_set.any()
    # repeated runs (seeds): items and replicates resampled crossed
    tidy = pd.DataFrame([(i, s, r, scores[i, j] + 0.1 * rng.normal())
                         for i in range(n) for j, s in enumerate("pqr") for r in range(3)],
                        columns=["item", "system", "seed", "score"])  # fmt: skip
    rep = tidy.paired.mcs(item="item", system="system", score="score", replicate="seed",
                          n_resamples=500, rng=1, as_result=True)  # fmt: skip
    assert rep.metadata["replicate"]
    # every system against one: 2 comparisons hold the 3 pairs
    assert rep.comparisons[0].bootstrap_distribution.shape == (1, 2, 500)


def test_xarray_path_equals_the_pandas_path(runs):
    keys = dict(n_resamples=499, rng=3, statistic="range")
    frame = runs[runs.collection == "msmarco"]
    expected = frame.paired.mcs(item="query", system="run", score="ndcg", **keys)
    wide = frame.pivot(index="query", columns="run", values="ndcg")[list(expected.system)]
    ds = xr.Dataset({"ndcg": (("item", "system"), wide.to_numpy())},
                    coords={"system": list(wide.columns)})  # fmt: skip
    got = ds.paired.mcs(**keys)
    np.testing.assert_array_equal(got["mcs_pvalue"].values, expected.mcs_pvalue)
    np.testing.assert_array_equal(got["in_set"].values, expected.in_set)
    assert got["eliminated"].dtype == np.float64


def test_dataset_of_several_scores_is_a_sweep():
    # mcs's `statistic` names the test (T_max, T_R), not the bootstrap's columns: several
    # score variables are a sweep over them (a `score` dimension), each its own set
    scores = np.random.default_rng(0).normal(size=(40, 3)) + np.array([0.0, 0.1, 1.5])
    dims = ("item", "system")
    ds = xr.Dataset({"acc": (dims, scores), "f1": (dims, scores[:, ::-1])},
                    coords={"system": ["a", "b", "c"]})  # fmt: skip
    got = ds.paired.mcs(n_resamples=300, rng=1)
    assert dict(got["in_set"].sizes) == {"score": 2, "system": 3}
    assert got["in_set"].sel(score="acc").values.tolist() == [False, False, True]
    assert got["in_set"].sel(score="f1").values.tolist() == [True, False, False]


# ---------------------------------------------------------------- result, errors, docs
def test_result_object_table_and_metadata(runs):
    res = runs.paired.mcs(item="query", system="run", score="ndcg", by="collection",
                          n_resamples=999, rng=7, as_result=True)  # fmt: skip
    frame = res.to_dataframe()
    assert list(frame.columns) == ["collection", *COLUMNS]
    assert str(frame.eliminated.dtype) == "Int64"
    assert res.metadata["method"] == "mcs"
    assert res.metadata["seed_entropy"] == 7
    assert res.metadata["statistic"] == "max"
    assert res.metadata["confidence_level"] == 0.9
    assert isinstance(res, pairedstats.MCSResult)
    assert repr(res).startswith("<MCSResult: 2 group(s) x 4 systems>")
    text = str(res)
    assert "Model confidence set of 4 systems at 0.9 (T_max" in text
    with pytest.raises(ValueError, match="read-only"):
        res.mcs_pvalue[0, 0] = 0.5


def test_errors():
    two = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [2.0, 2.5, 3.5]})
    with pytest.raises(ValueError, match="`statistic` must be one of 'max', 'range'"):
        two.paired.mcs(statistic="mean")
    with pytest.raises(ValueError, match="confidence_level"):
        two.paired.mcs(confidence_level=1.5)
    with pytest.raises(ValueError, match="at least 2 systems"):
        pd.DataFrame({"a": [1.0, 2.0, 3.0]}).paired.mcs(n_resamples=100)
    with pytest.raises(TypeError, match=r"mcs: .*'baseline'"):
        two.paired.mcs(baseline="a")
    with pytest.raises(ValueError, match="`lower_is_better`: 'yes' is not one of the metrics"):
        two.paired.mcs(lower_is_better="yes")


def test_accessor_docstrings_run():
    for method in (pd.DataFrame.paired.mcs, xr.Dataset.paired.mcs):
        assert "Hansen, Lunde and Nason" in method.__doc__
        parsed = doctest.DocTestParser().get_doctest(method.__doc__, {}, "mcs", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(parsed)
        assert runner.summarize(verbose=False).failed == 0


def test_command_line(tmp_path, capsys, runs):
    path = tmp_path / "runs.csv"
    runs.to_csv(path, index=False)
    common = [str(path), "--item", "query", "--system", "run", "--score", "ndcg",
              "--by", "collection", "--n-resamples", "999", "--rng", "3"]  # fmt: skip
    assert cli.main(["mcs", *common, "--format", "csv", "--statistic", "range"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out))
    expected = runs.paired.mcs(item="query", system="run", score="ndcg", by="collection",
                               n_resamples=999, rng=3, statistic="range")  # fmt: skip
    assert list(table.columns) == ["collection", *COLUMNS]
    np.testing.assert_array_equal(table.mcs_pvalue, expected.mcs_pvalue)
    assert cli.main(["mcs", *common, "--lower-is-better", "--confidence-level", "0.8"]) == 0
    assert "Model confidence set of 4 systems at 0.8" in capsys.readouterr().out


def test_report_marks_each_metrics_best_set(runs):
    keys = dict(item="query", system="run", by="collection", n_resamples=999)
    rep = runs.paired.report(**keys, score=["ndcg", "p10"], baseline="bm25", rng=12,
                             mcs=True, lower_is_better="p10")  # fmt: skip
    frame = rep.to_frame()
    for metric in ("ndcg", "p10"):
        alone = runs.paired.mcs(**keys, score=metric, rng=12, confidence_level=0.95,
                                lower_is_better=metric == "p10")  # fmt: skip
        alone = alone.set_index(["collection", "system"]).loc[frame.index]  # by label
        assert frame[(metric, "in_set")].tolist() == alone.in_set.tolist()
        assert frame[(metric, "mcs_pvalue")].tolist() == alone.mcs_pvalue.tolist()
    text = str(rep)
    assert "\u22c4: in the metric's 0.95 best set (model confidence set, T_max)" in text
    shown = pairedstats.methods.report.render.cells(rep, "text")
    for metric in ("ndcg", "p10"):  # each cell marked exactly when its system is in the set
        marked = shown[metric].str.contains("\u22c4")
        assert marked.tolist() == frame[(metric, "in_set")].tolist()
    assert "$\\diamond$: in the metric's" in rep.to_latex()
    plain = runs.paired.report(**keys, score=["ndcg"], baseline="bm25", rng=12)
    assert "in_set" not in plain.to_frame()["ndcg"].columns
    assert plain.mcs is None
    assert "\u22c4" not in str(plain)


def test_a_system_whose_mcs_pvalue_is_alpha_stays_in_the_set():
    # docs/mcs.md: elimination needs p < alpha, so p == alpha is in the set (arch's
    # MCS.included keeps only p > alpha); at 10 resamples the worse system's p-value is 1/10
    x = np.random.default_rng(12).normal(size=(12, 2))
    x[:, 1] += 0.5
    res = pd.DataFrame(x, columns=["a", "b"]).paired.mcs(rng=1, n_resamples=10)
    row = res.set_index("system").loc["a"]
    assert row["mcs_pvalue"] == 0.1
    assert bool(row["in_set"])
    assert pd.isna(row["eliminated"])


# ---------------------------------------------------------------- coverage
@pytest.mark.slow
@pytest.mark.parametrize("statistic", ["max", "range"])
@pytest.mark.parametrize(
    "means",
    [(0.4, 0.2, 0.1, 0.0, 0.0), (0.3, 0.3, 0.1, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0, 0.0)],
    ids=["one-best", "two-tied-best", "all-equal"],
)
def test_the_set_covers_the_truly_best_systems(means, statistic):
    """200 data sets of 5 systems on 50 items (item effects, unit noise), 499 resamples, at
    0.9: the set holds every truly best system in at least 0.9 - 3 standard errors of them
    (the set is asymptotically conservative when one system is best)."""
    level, n_sets = 0.9, 200
    mu = np.array(means)
    rng = np.random.default_rng(17)
    best = mu == mu.max()
    covered = 0
    for k in range(n_sets):
        scores = rng.normal(size=(50, 1)) + mu + rng.normal(size=(50, 5))
        design = design_from_array(scores, systems=["e", "c", "a", "d", "b"])
        res = SPECS["mcs"].compute(design, statistic=statistic, confidence_level=level,
                                   n_resamples=499, rng=k)  # fmt: skip
        covered += bool(res.in_set[0][best].all())
    share, se = covered / n_sets, math.sqrt(level * (1 - level) / n_sets)
    assert share >= level - 3 * se, share


def test_a_range_set_too_large_for_memory_is_refused_with_what_to_do():
    # 300 systems x 10,000 resamples: three (p, p, B) float64 arrays, about 20 GiB; "max"
    # holds (p, B) and is not refused
    wide = pd.DataFrame(np.random.default_rng(0).random((20, 300)),
                        columns=[f"s{i}" for i in range(300)])  # fmt: skip
    with pytest.raises(ValueError, match=r"300 systems x 10,000 resamples need about 20 GiB"):
        wide.paired.mcs(statistic="range", n_resamples=10_000)
    with pytest.raises(ValueError, match=r"statistic='max'.*df\.paired\.rank\(\)"):
        wide.paired.mcs(statistic="range", n_resamples=10_000)
    assert len(wide.paired.mcs(n_resamples=200, rng=1)) == 300


@pytest.mark.parametrize("statistic", ["max", "range"])
def test_per_system_input_equals_every_pair_and_ignores_the_order(statistic):
    # the set from each system's loss against one (p rows) is the set from every pair's
    # (p x p rows): the same eliminations and p-values, in any order of the systems
    gen = np.random.default_rng(12)
    loss = gen.normal(size=(40, 6)) + np.array([0.0, 0.05, 0.1, 0.4, 0.45, 1.0])
    draws = gen.integers(0, 40, size=(800, 40))
    mean, star = loss.mean(axis=0), loss[draws].mean(axis=1).T  # (p,), (p, B)
    dense = model_confidence_set(mean[:, None] - mean, star[:, None] - star[None], statistic)
    ref = 2
    rows = system_confidence_set(mean - mean[ref], star - star[ref], statistic)
    np.testing.assert_array_equal(rows.step, dense.step)
    np.testing.assert_allclose(rows.pvalue, dense.pvalue, atol=2.0 / 800)
    order = gen.permutation(6)
    moved = system_confidence_set((mean - mean[ref])[order], (star - star[ref])[order],
                                  statistic)  # fmt: skip
    np.testing.assert_array_equal(moved.pvalue, rows.pvalue[order])
    np.testing.assert_array_equal(moved.step, rows.step[order])


@pytest.mark.parametrize("statistic", ["max", "range"])
def test_units_and_exact_offsets_of_pass_fail_scores_change_no_set(statistic):
    # many resamples tie the observed statistic on 0/1 scores; counted by the tie rule, the
    # same outcomes as 0/100 or offset by 2**50 give the same MCS p-values and set (a strict
    # T* > T gave other p-values in 57 of these 80 tables and statistics, one system leaving)
    rng = np.random.default_rng(1)
    for _ in range(12):
        x = (rng.random((30, 5)) < rng.uniform(0.4, 0.8, 5)).astype(float)
        table = pd.DataFrame(x, columns=["zq", "zb", "zx", "za", "zm"])
        base = table.paired.mcs(n_resamples=500, rng=3, statistic=statistic)
        for moved in (100 * table, table + 2.0**50):
            other = moved.paired.mcs(n_resamples=500, rng=3, statistic=statistic)
            np.testing.assert_array_equal(other["mcs_pvalue"], base["mcs_pvalue"])
            np.testing.assert_array_equal(other["in_set"], base["in_set"])
