"""The functional bootstrap API: keyword checks, scipy agreement, the contract's invariances."""

import sys

import numpy as np
import pytest
from scipy import stats

import pairedstats
from pairedstats._inputs import design_from_array
from pairedstats.bootstrap import (
    BootstrapResult,
    DegenerateBootstrapWarning,
    bootstrap,
    bootstrap_design,
)
from pairedstats.core.design import PairedDesign


@pytest.fixture
def paired():
    rng = np.random.default_rng(2024)
    n = 120
    base = rng.gamma(2.0, 0.5, n)
    a = base + rng.normal(0, 0.3, n)
    b = base + 0.15 + rng.normal(0, 0.3, n) + 0.3 * rng.exponential(1.0, n)
    return np.column_stack([a, b])


def _diff(a, b, axis=-1):
    return np.mean(b, axis=axis) - np.mean(a, axis=axis)


# -------------------------------------------------------------- input validation
class TestBootstrapIV:
    def test_scores_and_statistic(self):
        x = np.zeros((5, 2))
        with pytest.raises(TypeError, match="`statistic` must be callable or None; got 3"):
            bootstrap(x, statistic=3)
        with pytest.raises(ValueError, match=r"several score columns need `statistic`.*got 2"):
            bootstrap(np.zeros((5, 2, 2)))
        one = PairedDesign(
            scores=np.zeros((3, 1, 1)), systems=("a",), offsets=np.array([0, 3]),
            items=np.arange(3),
        )  # fmt: skip
        with pytest.raises(ValueError, match="compares systems: need at least 2; got 1"):
            bootstrap_design(one)
        with pytest.raises(TypeError, match="`design` must be a PairedDesign; got ndarray"):
            bootstrap_design(x)

    def test_baseline(self):
        with pytest.raises(
            ValueError, match=r"`baseline` must be one of the systems \['a', 'b'\]; got 'c'"
        ):
            bootstrap(np.zeros((5, 2)), systems=["a", "b"], baseline="c")

    def test_numbers(self):
        x = np.zeros((5, 2))
        with pytest.raises(ValueError, match=r"`n_resamples` must be at least 2 .*; got 1"):
            bootstrap(x, n_resamples=1)
        with pytest.raises(TypeError, match=r"`n_resamples` must be a positive integer; got 2.5"):
            bootstrap(x, n_resamples=2.5)
        with pytest.raises(
            ValueError, match=r"`confidence_level` must be strictly between 0 and 1; got 1.5"
        ):
            bootstrap(x, confidence_level=1.5)
        with pytest.raises(
            ValueError, match="`method` must be one of 'percentile', 'basic', 'bca'; got 'bc'"
        ):
            bootstrap(x, method="bc")
        with pytest.raises(
            ValueError, match="`resampling` must be one of 'auto', 'index', 'counts'; got 'x'"
        ):
            bootstrap(x, resampling="x")
        with pytest.raises(ValueError, match="`resampling='counts'` works for the mean only"):
            bootstrap(x, resampling="counts", statistic=np.mean)
        with pytest.raises(TypeError, match="`rng` must be"):
            bootstrap(x, rng="seed")

    def test_weights(self):
        x = np.zeros((6, 2))
        s = ["u", "u", "v", "v", "w", "w"]
        with pytest.raises(ValueError, match="`weights` needs `strata`"):
            bootstrap(x, weights={"u": 1})
        with pytest.raises(ValueError, match="`weights` apply to the default mean only"):
            bootstrap(x, strata=s, weights={"u": 1, "v": 1, "w": 1}, statistic=np.mean)
        with pytest.raises(TypeError, match=r"`weights` must be a mapping .*; got list"):
            bootstrap(x, strata=s, weights=[1, 2, 3])
        with pytest.raises(
            ValueError, match=r"`weights`: no stratum named \['z'\]; the strata are"
        ):
            bootstrap(x, strata=s, weights={"u": 1, "v": 1, "w": 1, "z": 1})
        with pytest.raises(
            ValueError, match=r"`weights` must give a weight for every stratum; missing \['w'\]"
        ):
            bootstrap(x, strata=s, weights={"u": 1, "v": 1})
        with pytest.raises(TypeError, match="the weight of 'v' must be a number; got 'a'"):
            bootstrap(x, strata=s, weights={"u": 1, "v": "a", "w": 1})
        with pytest.raises(
            ValueError, match="the weight of 'w' must be finite and positive; got 0"
        ):
            bootstrap(x, strata=s, weights={"u": 1, "v": 1, "w": 0})

    def test_design(self):
        x = np.zeros((4, 2))
        with pytest.raises(ValueError, match="`cluster` must be nested in `strata`: cluster 'c1'"):
            bootstrap(x, cluster=["c1", "c1", "c2", "c2"], strata=[0, 1, 1, 1])
        empty = PairedDesign(
            scores=np.zeros((2, 2, 1)),
            systems=("a", "b"),
            offsets=np.array([0, 0, 2]),
            group_names=("g",),
            group_keys=(("x",), ("y",)),
            items=np.arange(2),
        )
        with pytest.raises(ValueError, match="every group needs at least one item"):
            bootstrap_design(empty)


# ---------------------------------------------------------------- the estimates
def test_tutorial_five_cases():
    losses = np.array([[9, 4], [4, 9], [16, 9], [1, 4], [9, 1.0]])
    res = bootstrap(losses, systems=["A", "B"], n_resamples=100, rng=0)
    assert res.mean_a[0, 0] == pytest.approx(7.8)
    assert res.mean_b[0, 0] == pytest.approx(5.4)
    # the tutorial's D = L_A - L_B = 2.4; we read b minus a
    assert res.difference[0, 0] == pytest.approx(-2.4)


def test_result_layout(paired):
    res = bootstrap(paired, systems=["x", "y"], n_resamples=300, rng=1)
    assert isinstance(res, BootstrapResult)
    frame = res.to_dataframe()
    assert list(frame.columns) == [
        "system_a", "system_b", "mean_a", "mean_b", "difference", "ci_low", "ci_high",
        "standard_error", "n_items",
    ]  # fmt: skip
    assert res.bootstrap_distribution.shape == (1, 1, 300)
    assert frame.attrs["seed_entropy"] == 1
    assert frame.attrs["interval"] == "percentile"
    ds = res.to_dataset()
    assert "bootstrap_distribution" not in ds
    # re-run from the recorded seed entropy
    again = bootstrap(paired, systems=["x", "y"], n_resamples=300, rng=frame.attrs["seed_entropy"])
    np.testing.assert_array_equal(again.bootstrap_distribution, res.bootstrap_distribution)
    gen_res = bootstrap(paired, n_resamples=50, rng=np.random.default_rng(5))
    rerun = bootstrap(paired, n_resamples=50, rng=gen_res.metadata["seed_entropy"])
    np.testing.assert_array_equal(rerun.ci_low, gen_res.ci_low)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_agrees_with_scipy(paired, method):
    B = 20_000
    res = bootstrap(paired, n_resamples=B, method=method, rng=7, resampling="index")
    ref = stats.bootstrap(
        (paired[:, 0], paired[:, 1]), _diff, paired=True, vectorized=True,
        n_resamples=B, method=method, rng=np.random.default_rng(8),
    )  # fmt: skip
    se = ref.standard_error
    # two independent Monte Carlo estimates of a 2.5% quantile differ by about 0.04 se
    assert res.ci_low[0, 0] == pytest.approx(ref.confidence_interval.low, abs=0.2 * se)
    assert res.ci_high[0, 0] == pytest.approx(ref.confidence_interval.high, abs=0.2 * se)
    assert res.standard_error[0, 0] == pytest.approx(se, rel=5 * np.sqrt(2 / B))


def test_standard_error_matches_the_exact_bootstrap_variance(paired):
    B = 20_000
    d = paired[:, 1] - paired[:, 0]
    res = bootstrap(paired, n_resamples=B, rng=3)
    exact = np.sqrt(np.var(d) / d.size)
    assert res.standard_error[0, 0] == pytest.approx(exact, rel=5 * np.sqrt(0.5 / B))
    assert res.difference[0, 0] == pytest.approx(d.mean(), rel=1e-13)


def _pooled_f1(tp, fp, fn, axis=-1):
    tp, fp, fn = (np.sum(v, axis=axis) for v in (tp, fp, fn))
    return 2 * tp / (2 * tp + fp + fn)


def test_pooled_f1_against_scipy():
    rng = np.random.default_rng(12)
    n = 150
    truth = rng.poisson(3.0, n) + 1
    tp_a = rng.binomial(truth, 0.6)
    tp_b = rng.binomial(truth, 0.7)
    fp_a, fp_b = rng.poisson(1.2, n), rng.poisson(1.0, n)
    scores = np.stack(
        [np.column_stack([tp_a, fp_a, truth - tp_a]), np.column_stack([tp_b, fp_b, truth - tp_b])],
        axis=1,
    ).astype(float)  # (items, systems, columns)
    B = 10_000
    res = bootstrap(scores, systems=["a", "b"], statistic=_pooled_f1, n_resamples=B, rng=2)
    f1a = _pooled_f1(tp_a, fp_a, truth - tp_a)
    f1b = _pooled_f1(tp_b, fp_b, truth - tp_b)
    assert res.mean_a[0, 0] == pytest.approx(f1a)
    assert res.difference[0, 0] == pytest.approx(f1b - f1a)

    def diff(ta, pa, na, tb, pb, nb, axis=-1):
        return _pooled_f1(tb, pb, nb, axis=axis) - _pooled_f1(ta, pa, na, axis=axis)

    data = (tp_a, fp_a, truth - tp_a, tp_b, fp_b, truth - tp_b)
    ref = stats.bootstrap(data, diff, paired=True, vectorized=True, n_resamples=B,
                          rng=np.random.default_rng(3))  # fmt: skip
    se = ref.standard_error
    assert res.standard_error[0, 0] == pytest.approx(se, rel=5 * np.sqrt(2 / B))
    assert res.ci_low[0, 0] == pytest.approx(ref.confidence_interval.low, abs=0.25 * se)
    assert res.ci_high[0, 0] == pytest.approx(ref.confidence_interval.high, abs=0.25 * se)
    # BCa through the leave-one-out loop, against scipy's BCa
    res = bootstrap(scores, statistic=_pooled_f1, n_resamples=B, rng=2, method="bca")
    ref = stats.bootstrap(data, diff, paired=True, vectorized=True, n_resamples=B,
                          rng=np.random.default_rng(3), method="bca")  # fmt: skip
    assert res.ci_low[0, 0] == pytest.approx(ref.confidence_interval.low, abs=0.25 * se)
    assert res.ci_high[0, 0] == pytest.approx(ref.confidence_interval.high, abs=0.25 * se)


def test_statistic_with_clusters_and_strata_runs_on_resampled_items():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(40, 2))
    cluster = np.repeat(np.arange(10), 4)
    strata = np.repeat([0, 1], 20)
    mean = lambda x, axis=-1: np.mean(x, axis=axis)
    a = bootstrap(scores, cluster=cluster, strata=strata, statistic=mean, n_resamples=300,
                  rng=4, method="bca")  # fmt: skip
    b = bootstrap(scores, cluster=cluster, strata=strata, n_resamples=300, rng=4,
                  resampling="index", method="bca")  # fmt: skip
    # equal-size clusters and proportional strata: the resample mean is the ratio estimator
    np.testing.assert_allclose(a.bootstrap_distribution, b.bootstrap_distribution, atol=1e-13)
    assert a.n_clusters[0, 0] == 10


# ------------------------------------------------------------ clusters and strata
def test_cluster_estimate_is_the_item_mean():
    scores = np.array([[0, 1.0], [0, 1], [0, 1], [0, 4]])
    res = bootstrap(scores, cluster=["x", "x", "x", "y"], n_resamples=200, rng=1)
    assert res.difference[0, 0] == pytest.approx(7 / 4)  # not (1 + 4) / 2
    assert res.n_clusters[0, 0] == 2
    assert "n_clusters" in res.to_dataframe().columns


def test_strata_weights_are_normalised():
    scores = np.array([[0, 1.0], [0, 3], [0, 10], [0, 14]])
    res = bootstrap(scores, strata=["p", "p", "q", "q"], weights={"p": 3, "q": 1},
                    n_resamples=200, rng=1)  # fmt: skip
    assert res.difference[0, 0] == pytest.approx(0.75 * 2 + 0.25 * 12)
    default = bootstrap(scores, strata=["p", "p", "q", "q"], n_resamples=200, rng=1)
    assert default.difference[0, 0] == pytest.approx(7.0)


def test_stratified_interval_is_narrower_when_strata_explain_the_spread():
    rng = np.random.default_rng(5)
    level = np.repeat([0.0, 5.0], 50)
    d = level + rng.normal(0, 0.3, 100)
    scores = np.column_stack([np.zeros(100), d])
    plain = bootstrap(scores, n_resamples=4000, rng=1)
    strat = bootstrap(scores, strata=np.repeat([0, 1], 50), n_resamples=4000, rng=1)
    assert strat.standard_error[0, 0] < 0.2 * plain.standard_error[0, 0]


# ------------------------------------------------------------------ the contract
def test_comparisons_and_groups_do_not_change_each_other():
    rng = np.random.default_rng(9)
    scores = rng.normal(size=(60, 3))
    three = bootstrap(scores, systems=["a", "b", "c"], n_resamples=500, rng=11)
    two = bootstrap(scores[:, :2], systems=["a", "b"], n_resamples=500, rng=11)
    np.testing.assert_array_equal(
        three.bootstrap_distribution[0, 0], two.bootstrap_distribution[0, 0]
    )
    based = bootstrap(scores, systems=["a", "b", "c"], baseline="a", n_resamples=500, rng=11)
    np.testing.assert_array_equal(based.ci_low[0, :2], three.ci_low[0, :2])
    # groups: one group alone gives its numbers in a call with another group
    groups = np.repeat(["g1", "g2"], 30)
    both = bootstrap_design(design_from_array(scores, groups=groups), n_resamples=500, rng=11)
    alone = bootstrap_design(
        design_from_array(scores[30:], groups=groups[30:]), n_resamples=500, rng=11
    )
    np.testing.assert_array_equal(both.bootstrap_distribution[1], alone.bootstrap_distribution[0])
    assert (both.bootstrap_distribution[0] != both.bootstrap_distribution[1]).any()


def test_counts_path_comparison_is_independent_of_other_systems():
    rng = np.random.default_rng(10)
    acc = (rng.random((500, 3)) < [0.6, 0.65, 0.7]).astype(float)
    three = bootstrap(acc, n_resamples=400, rng=2)
    two = bootstrap(acc[:, [0, 2]], n_resamples=400, rng=2)
    assert three.counts_path.all()
    np.testing.assert_array_equal(
        three.bootstrap_distribution[0, 1], two.bootstrap_distribution[0, 0]
    )


def test_degenerate_differences():
    a = np.arange(10) / 4
    scores = np.column_stack([a, a + 0.5])
    res = bootstrap(scores, n_resamples=300, rng=1)
    assert res.ci_low[0, 0] == res.ci_high[0, 0] == 0.5
    assert res.standard_error[0, 0] == 0
    with pytest.warns(DegenerateBootstrapWarning, match="single point"):
        res = bootstrap(scores, n_resamples=300, rng=1, method="bca")
    assert res.ci_low[0, 0] == res.ci_high[0, 0] == 0.5
    assert np.isfinite(res.ci_low).all()


def test_workers_do_not_change_the_numbers_and_are_checked():
    x = np.random.default_rng(12).normal(size=(300, 3))
    one = pairedstats.bootstrap(x, n_resamples=1500, rng=4, workers=1)
    two = pairedstats.bootstrap(x, n_resamples=1500, rng=4, workers=2)
    np.testing.assert_array_equal(one.bootstrap_distribution, two.bootstrap_distribution)
    with pytest.raises(ValueError, match="`workers` must be a positive integer; got 0"):
        pairedstats.bootstrap(x, workers=0)


def _sweep_frame():
    import pandas as pd

    gen = np.random.default_rng(8)
    rows = []
    for g, n in [("x", 40), ("y", 7), ("z", 25), ("w", 12)]:
        for i in range(n):
            base = gen.random()
            for s, shift in [("a", 0.0), ("b", 0.05), ("c", 0.1)]:
                score = 0.5 if g == "w" else base + shift + gen.normal(0, 0.1)
                rows.append((g, i, s, score))
    return pd.DataFrame(rows, columns=["g", "item", "system", "score"])


@pytest.mark.parametrize("method", ["percentile", "basic"])
def test_batched_groups_equal_the_per_group_path(monkeypatch, method):
    mod = sys.modules["pairedstats.bootstrap"]  # the package exports the function

    df = _sweep_frame()
    kw = dict(item="item", system="system", score="score", by="g", baseline="a",
              n_resamples=700, method=method, rng=5, as_result=True)  # fmt: skip
    calls = []
    real = mod._core.mean_replicates_many

    def spy(diffs, keys, **kw):
        calls.append(len(diffs))
        return real(diffs, keys, **kw)

    monkeypatch.setattr(mod._core, "mean_replicates_many", spy)
    fast = df.paired.bootstrap(**kw)
    # one kernel call for the four groups (group "w" has constant differences)
    assert calls == [4]
    monkeypatch.setattr(mod, "_batched_groups", lambda *a: {})
    slow = df.paired.bootstrap(**kw)
    for name in ["difference", "ci_low", "ci_high", "standard_error", "mean_a", "mean_b",
                 "bootstrap_distribution"]:  # fmt: skip
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    assert (fast.ci_low[3] == 0).all()
    assert (fast.ci_high[3] == 0).all()


def test_batched_group_numbers_do_not_depend_on_the_other_groups(monkeypatch):
    mod = sys.modules["pairedstats.bootstrap"]  # the package exports the function

    df = _sweep_frame()
    kw = dict(item="item", system="system", score="score", by="g", baseline="a",
              n_resamples=600, rng=9)  # fmt: skip
    monkeypatch.setattr(mod, "_GROUP_BATCH", 3)  # two kernel calls, groups split 3 + 1
    whole = df.paired.bootstrap(**kw).set_index(["g", "system_b"]).sort_index()
    parts = [df[df.g.isin(keep)].paired.bootstrap(**kw) for keep in (["z"], ["w", "x", "y"])]
    import pandas as pd

    joined = pd.concat(parts).set_index(["g", "system_b"]).sort_index()
    np.testing.assert_array_equal(whole[["ci_low", "ci_high"]].to_numpy(),
                                  joined[["ci_low", "ci_high"]].to_numpy())  # fmt: skip


def test_tables_do_not_keep_the_distribution():
    df = _sweep_frame()
    kw = dict(item="item", system="system", score="score", by="g", baseline="a",
              n_resamples=400, rng=2)  # fmt: skip
    kept = df.paired.bootstrap(as_result=True, **kw)
    assert kept.bootstrap_distribution.shape == (4, 2, 400)
    design = pairedstats._inputs.design_from_frame(
        df, item="item", system="system", score="score", by="g"
    )
    dropped = bootstrap_design(design, baseline="a", n_resamples=400, rng=2,
                               keep_distribution=False)  # fmt: skip
    assert dropped.bootstrap_distribution is None
    pd_table = df.paired.bootstrap(**kw)
    np.testing.assert_array_equal(pd_table["standard_error"].to_numpy(),
                                  kept.standard_error.reshape(-1))  # fmt: skip
    np.testing.assert_array_equal(dropped.ci_low, kept.ci_low)
