"""The functional bootstrap API: keyword checks, scipy agreement, the contract's invariances."""

from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pairedstats
from pairedstats.core import bootstrap_design as bootstrap_design_core
from pairedstats.core.design import PairedDesign
from pairedstats.inputs import design_from_array
from pairedstats.methods.bootstrap import (
    BootstrapResult,
    DegenerateBootstrapWarning,
    MissingStratumWarning,
    NaNReplicatesWarning,
    PointDistributionWarning,
    SingleUnitWarning,
    bootstrap,
    bootstrap_design,
)
from pairedstats.methods.bootstrap.spec import SPEC


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
        with pytest.raises(ValueError, match="`design`: a comparison needs at least 2 systems"):
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
            ValueError,
            match="`method` must be one of 'percentile', 'basic', 'bca', 'studentized'; got 'bc'",
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

    def test_bounds(self):
        # the replicates are held in memory: 10**8 of them are 800 MB per comparison
        x = np.zeros((5, 2))
        with pytest.raises(
            ValueError,
            match=r"`n_resamples` must be at most 10000000; got 100000000\. Such a run would "
            r"take hours or exhaust memory",
        ):
            bootstrap(x, n_resamples=10**8)
        with pytest.raises(ValueError, match=r"`n_resamples` must be at most 10000000; got"):
            bootstrap(x, n_resamples=10**7 + 1)
        with pytest.raises(
            ValueError, match=r"`workers` must be a positive integer or None; got 0"
        ):
            bootstrap(x, workers=0)
        for bad in ("x", 1.5, True):
            with pytest.raises(
                TypeError, match=r"`workers` must be a positive integer or None; got"
            ):
                bootstrap(x, workers=bad)
        # the bound itself passes (the next check, of `confidence_level`, is what refuses)
        with pytest.raises(ValueError, match="`confidence_level` must be strictly between"):
            bootstrap(x, n_resamples=10**7, confidence_level=1.5)

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
        with pytest.raises(ValueError, match=r"at least 2 items in group \{'g': 'x'\}; got 0"):
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
        "standard_error", "pvalue", "n_items", "effect_size", "wins", "ties", "losses",
        "n_dropped",
    ]  # fmt: skip
    assert res.bootstrap_distribution.shape == (1, 1, 300)
    assert frame.attrs["seed_entropy"] == 1
    assert frame.attrs["method_requested"] == "percentile"
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
    # all pairs: each system's sums are centred on one system, chosen by the scores, and a
    # comparison is the difference of two systems' sums: another system can move its
    # replicates by rounding only (the same resamples)
    np.testing.assert_allclose(three.bootstrap_distribution[0, 0],
                               two.bootstrap_distribution[0, 0], rtol=0, atol=1e-14)  # fmt: skip
    # against a baseline, the comparisons are the baseline's differences: the same bits
    based = bootstrap(scores, systems=["a", "b", "c"], baseline="a", n_resamples=500, rng=11)
    based_two = bootstrap(scores[:, :2], systems=["a", "b"], baseline="a", n_resamples=500,
                          rng=11)  # fmt: skip
    np.testing.assert_array_equal(based.bootstrap_distribution[0, 0],
                                  based_two.bootstrap_distribution[0, 0])  # fmt: skip
    np.testing.assert_array_equal(based.ci_low[0, :1], two.ci_low[0, :1])
    # groups: one group alone gives its numbers in a call with another group
    groups = np.repeat(["g1", "g2"], 30)
    both = bootstrap_design(design_from_array(scores, groups=groups), n_resamples=500, rng=11)
    alone = bootstrap_design(
        design_from_array(scores[30:], groups=groups[30:]), n_resamples=500, rng=11
    )
    np.testing.assert_array_equal(both.bootstrap_distribution[1], alone.bootstrap_distribution[0])
    assert (both.bootstrap_distribution[0] != both.bootstrap_distribution[1]).any()


def test_stratified_means_do_not_depend_on_the_other_systems():
    # proportional weights 3/7 and 4/7: a matrix product over all systems' stratum means
    # rounded a column differently with 2 and with 6 columns
    gen = np.random.default_rng(0)
    strata = np.array([0, 1, 1, 1, 0, 0, 1])
    kw = dict(strata=strata, n_resamples=20, rng=1, baseline="s0")
    for _ in range(20):
        x = np.round(gen.normal(size=(7, 6)), 1)
        six = bootstrap(x, systems=[f"s{i}" for i in range(6)], **kw)
        two = bootstrap(x[:, :2], systems=["s0", "s1"], **kw)
        for name in ["mean_a", "mean_b", "difference", "ci_low", "ci_high"]:
            assert getattr(six, name)[0, 0] == getattr(two, name)[0, 0], name


def test_counts_path_comparison_is_independent_of_other_systems():
    rng = np.random.default_rng(10)
    acc = (rng.random((500, 3)) < [0.6, 0.65, 0.7]).astype(float)
    kw = dict(n_resamples=400, rng=2, resampling="counts")
    three = bootstrap(acc, systems=["a", "b", "c"], **kw)
    two = bootstrap(acc[:, [0, 2]], systems=["a", "c"], **kw)
    assert three.counts_path.all()
    assert two.counts_path.all()
    for name in ["ci_low", "ci_high", "standard_error"]:
        assert getattr(three, name)[0, 1] == getattr(two, name)[0, 0]
    # per-comparison draws are not a joint distribution: not returned with 2+ comparisons
    assert three.bootstrap_distribution is None
    assert two.bootstrap_distribution.shape == (1, 1, 400)
    assert not bootstrap(acc, n_resamples=400, rng=2).counts_path.any()  # auto: index path


def _mirrored(res, other, order):
    """``other`` has every comparison of ``res`` reversed, in position ``order``."""
    assert other.label_a == tuple(res.label_b[i] for i in order)
    for name, sign, swap in [("difference", -1, None), ("mean_a", 1, "mean_b"),
                             ("standard_error", 1, None), ("ci_low", -1, "ci_high")]:  # fmt: skip
        np.testing.assert_array_equal(
            getattr(other, name), sign * getattr(res, swap or name)[:, order], err_msg=name
        )
        if swap:
            np.testing.assert_array_equal(
                getattr(other, swap), sign * getattr(res, name)[:, order], err_msg=swap
            )
    if res.bootstrap_distribution is not None:
        np.testing.assert_array_equal(
            other.bootstrap_distribution, -res.bootstrap_distribution[:, order]
        )
    if res.acceleration is not None:
        np.testing.assert_array_equal(other.acceleration, -res.acceleration[:, order])
        np.testing.assert_array_equal(other.bias_correction, -res.bias_correction[:, order])


def _scores(kind, n=240, k=3, seed=3):
    gen = np.random.default_rng(seed)
    if kind == "binary":
        return (gen.random((n, k)) < np.linspace(0.55, 0.7, k)).astype(float)
    if kind == "grades":
        return gen.integers(0, 4, size=(n, k)).astype(float)
    return gen.gamma(2.0, 0.5, size=(n, k)) + np.linspace(0, 0.2, k)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("resampling", ["auto", "index", "counts"])
@pytest.mark.parametrize("kind", ["binary", "grades", "continuous"])
def test_swapping_a_and_b_mirrors_every_number_exactly(kind, resampling, method):
    x = _scores(kind)
    kw = dict(n_resamples=999, rng=5, method=method, resampling=resampling)
    # all pairs, systems in reverse order: (p, q), (p, r), (q, r) -> (r, q), (r, p), (q, p)
    res = bootstrap(x, systems=["p", "q", "r"], **kw)
    rev = bootstrap(x[:, ::-1], systems=["r", "q", "p"], **kw)
    _mirrored(res, rev, [2, 1, 0])
    # the baseline on the other side, one comparison at a time
    for other in ["q", "r"]:
        cols = [0, "pqr".index(other)]
        ab = bootstrap(x[:, cols], systems=["p", other], baseline="p", **kw)
        ba = bootstrap(x[:, cols], systems=["p", other], baseline=other, **kw)
        _mirrored(ab, ba, [0])
    assert res.counts_path.all() == (resampling == "counts")


@pytest.mark.parametrize("resampling", ["index", "counts"])
def test_swapping_a_and_b_mirrors_clusters_and_strata(resampling):
    x = _scores("grades", n=120, k=2)
    design = dict(cluster=np.repeat(np.arange(40), 3), strata=np.repeat(["u", "v"], [45, 75]),
                  weights={"u": 0.3, "v": 0.7})  # fmt: skip
    kw = dict(n_resamples=700, rng=8, method="bca", resampling=resampling, **design)
    _mirrored(
        bootstrap(x, systems=["p", "q"], **kw),
        bootstrap(x[:, ::-1], systems=["q", "p"], **kw),
        [0],
    )


def test_index_path_replicates_are_one_joint_distribution():
    x = _scores("binary", k=3)  # few distinct values: "auto" once took the counts path here
    for resampling in ["auto", "index"]:
        res = bootstrap(x, n_resamples=2000, rng=4, resampling=resampling)
        d01, d02, d12 = res.bootstrap_distribution[0]
        np.testing.assert_allclose(d02, d01 + d12, rtol=0, atol=1e-14)


def test_degenerate_differences():
    a = np.arange(10) / 4
    scores = np.column_stack([a, a + 0.5])
    for method in ["percentile", "basic", "bca"]:
        with pytest.warns(PointDistributionWarning, match=r"single point: for 1 - 0\. Every"):
            res = bootstrap(scores, n_resamples=300, rng=1, method=method)
        assert res.ci_low[0, 0] == res.ci_high[0, 0] == 0.5
        assert res.standard_error[0, 0] == 0


def test_a_point_on_pass_fail_scores_points_to_mcnemar():
    # 0/1 scores with no discordant item: every resample the same; McNemar's test (and
    # Tango's interval) say more, and the warning says so
    a = np.array([1.0, 0, 1, 1, 0, 1, 0, 1, 1, 1])
    runs = pd.DataFrame({"old": a, "new": a, "other": a[::-1]})
    with pytest.warns(PointDistributionWarning) as caught:
        res = runs.paired.bootstrap(baseline="old", n_resamples=300, rng=1)
    (message,) = [str(w.message) for w in caught]
    assert message.startswith("The bootstrap distribution is a single point: for 'new' - 'old'.")
    assert message.endswith(
        "The scores of 'new' - 'old' are all 0 or 1 (pass/fail): df.paired.mcnemar(...) tests "
        "such a comparison exactly, and its Tango interval of the difference of the pass rates "
        "stays informative where the bootstrap's is a point."
    )
    assert res["ci_low"].iloc[0] == res["ci_high"].iloc[0] == 0
    # scores that are not 0/1, or a statistic other than the mean: no pointer
    for scores, keywords in ((np.column_stack([a + 0.5, a + 1]), {}),
                             (np.column_stack([a, a]), {"statistic": np.median})):  # fmt: skip
        with pytest.warns(PointDistributionWarning) as caught:
            bootstrap(scores, n_resamples=300, rng=1, **keywords)
        assert "mcnemar" not in str(caught[0].message)


def test_workers_do_not_change_the_numbers_and_are_checked():
    x = np.random.default_rng(12).normal(size=(300, 3))
    one = pairedstats.bootstrap(x, n_resamples=1500, rng=4, workers=1)
    two = pairedstats.bootstrap(x, n_resamples=1500, rng=4, workers=2)
    np.testing.assert_array_equal(one.bootstrap_distribution, two.bootstrap_distribution)
    with pytest.raises(ValueError, match="`workers` must be a positive integer or None; got 0"):
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
    from pairedstats.core import bootstrap as mod

    df = _sweep_frame()
    kw = dict(item="item", system="system", score="score", by="g", baseline="a",
              n_resamples=700, method=method, rng=5, as_result=True)  # fmt: skip
    calls = []
    real = mod._many

    def spy(values, keys, **kw):
        calls.append(len(values))
        return real(values, keys, **kw)

    monkeypatch.setattr(mod, "_many", spy)
    point = pytest.warns(PointDistributionWarning, match="in 1 of 4 groups, e.g. group g='w'")
    with point:
        fast = df.paired.bootstrap(**kw)
    # one kernel call for the four groups (group "w" has constant differences)
    assert calls == [4]
    monkeypatch.setattr(bootstrap_design_core, "batched", lambda *a, **k: False)
    with point:
        slow = df.paired.bootstrap(**kw)
    for name in ["difference", "ci_low", "ci_high", "standard_error", "mean_a", "mean_b",
                 "bootstrap_distribution"]:  # fmt: skip
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    assert (fast.ci_low[3] == 0).all()
    assert (fast.ci_high[3] == 0).all()


def test_batched_group_numbers_do_not_depend_on_the_other_groups(monkeypatch):
    from pairedstats.core import bootstrap as mod

    df = _sweep_frame()
    kw = dict(item="item", system="system", score="score", by="g", baseline="a",
              n_resamples=600, rng=9)  # fmt: skip
    monkeypatch.setattr(mod, "GROUP_BATCH", 3)  # two kernel calls, groups split 3 + 1
    with pytest.warns(PointDistributionWarning):  # group "w"
        whole = df.paired.bootstrap(**kw).set_index(["g", "system_b"]).sort_index()
    with pytest.warns(PointDistributionWarning):
        parts = [df[df.g.isin(keep)].paired.bootstrap(**kw) for keep in (["z"], ["w", "x", "y"])]
    import pandas as pd

    joined = pd.concat(parts).set_index(["g", "system_b"]).sort_index()
    np.testing.assert_array_equal(whole[["ci_low", "ci_high"]].to_numpy(),
                                  joined[["ci_low", "ci_high"]].to_numpy())  # fmt: skip


def test_tables_do_not_keep_the_distribution():
    df = _sweep_frame()
    kw = dict(item="item", system="system", score="score", by="g", baseline="a",
              n_resamples=400, rng=2)  # fmt: skip
    with pytest.warns(PointDistributionWarning):  # group "w"
        kept = df.paired.bootstrap(as_result=True, **kw)
    assert kept.bootstrap_distribution.shape == (4, 2, 400)
    design = pairedstats.inputs.design_from_frame(
        df, item="item", system="system", score="score", by="g"
    )
    with pytest.warns(PointDistributionWarning):
        dropped = SPEC.compute(design, keep=False, baseline="a", n_resamples=400, rng=2)
    assert dropped.bootstrap_distribution is None
    with pytest.warns(PointDistributionWarning):
        pd_table = df.paired.bootstrap(**kw)
    np.testing.assert_array_equal(pd_table["standard_error"].to_numpy(),
                                  kept.standard_error.reshape(-1))  # fmt: skip
    np.testing.assert_array_equal(dropped.ci_low, kept.ci_low)


# ------------------------------------------------------------- degenerate designs
def _caught(fn):
    """Run ``fn`` recording warnings; returns (result, list of warnings)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, caught


def test_single_units_are_warned_once_per_call():
    gen = np.random.default_rng(6)
    x = gen.normal(size=(33, 2))
    groups = np.repeat(["x", "y", "z"], 11)
    # groups x and z: stratum "v" has one item; y has two
    strata = np.tile(["u"] * 10 + ["v"], 3)
    strata[11 + 9] = "v"
    design = design_from_array(x, systems=["a", "b"], groups=groups, strata=strata)
    res, caught = _caught(lambda: bootstrap_design(design, n_resamples=300, rng=1))
    assert [w.category for w in caught] == [SingleUnitWarning]
    text = str(caught[0].message)
    assert (
        "One resampled unit in 2 of 3 groups, e.g. group group='x': stratum 'v' has one item"
        in text
    )
    assert "ignores its variability" in text
    assert caught[0].filename == __file__  # the user's line
    # one cluster in a stratum, one cluster in the group
    cl = np.repeat(np.arange(11), 3)
    with pytest.warns(SingleUnitWarning, match="stratum 'v' has one cluster"):
        bootstrap(x, cluster=cl, strata=np.repeat(["u", "v"], [30, 3]), n_resamples=300, rng=1)
    with (
        pytest.warns(SingleUnitWarning, match="the group has one cluster"),
        pytest.warns(PointDistributionWarning),
    ):
        res = bootstrap(x, cluster=np.zeros(33), n_resamples=300, rng=1)
    assert res.ci_low[0, 0] == res.ci_high[0, 0] == res.difference[0, 0]


def test_weighted_strata_missing_from_a_group_are_warned():
    gen = np.random.default_rng(7)
    x = gen.normal(size=(24, 2))
    groups = np.repeat(["x", "y"], 12)
    strata = np.array(["u", "v"] * 6 + ["u"] * 12)  # group y has no "v" items
    design = design_from_array(x, systems=["a", "b"], groups=groups, strata=strata)
    kw = dict(weights={"u": 0.2, "v": 0.8}, n_resamples=300, rng=1)
    with pytest.warns(
        MissingStratumWarning,
        match=r"in 1 of 2 groups, e.g. group group='y': no items in strata \['v'\]\. The "
        "estimate combines the strata present",
    ):
        res = bootstrap_design(design, **kw)
    d = x[:, 1] - x[:, 0]
    assert res.difference[1, 0] == pytest.approx(d[12:].mean(), rel=1e-12)  # renormalised
    u, v = d[:12:2].mean(), d[1:12:2].mean()
    assert res.difference[0, 0] == pytest.approx(0.2 * u + 0.8 * v, rel=1e-12)


def _precision(hit, predicted, axis=-1):
    with np.errstate(invalid="ignore"):
        return np.sum(hit, axis=axis) / np.sum(predicted, axis=axis)


def test_nan_replicates_are_counted_per_comparison():
    # 20 items, one predicted positive per system: a resample without it has 0/0 precision
    predicted = np.zeros((20, 2))
    predicted[3, 0] = predicted[8, 1] = 1
    scores = np.stack([predicted, predicted], axis=-1)  # hits = predictions
    res, caught = _caught(
        lambda: bootstrap(scores, systems=["a", "b"], statistic=_precision, n_resamples=500, rng=2)
    )
    assert [w.category for w in caught] == [NaNReplicatesWarning]
    n_nan = int(np.isnan(res.bootstrap_distribution[0, 0]).sum())
    assert 100 < n_nan < 400  # about 1 - (1 - 0.95**20)**2 of the resamples
    assert f"for 'b' - 'a' ({n_nan} of 500 resamples)" in str(caught[0].message)
    assert np.isnan(res.ci_low[0, 0])


def test_bca_fallbacks_are_warned():
    # the number of distinct values: no resample of 12 items exceeds the sample's 12, and
    # here none reaches it: the estimate lies outside the replicates
    x = np.column_stack([np.zeros(12), np.arange(12.0)])
    distinct = lambda v: float(np.unique(v).size)
    res, caught = _caught(
        lambda: bootstrap(x, statistic=distinct, method="bca", n_resamples=200, rng=3)
    )
    assert [w.category for w in caught] == [DegenerateBootstrapWarning] * 2
    assert str(caught[0].message) == (
        "BCa: the estimate lies outside the bootstrap distribution: for 1 - 0. The bias "
        "correction is infinite; the percentile interval was used instead."
    )
    assert "influence values are all zero" in str(caught[1].message)  # 11 distinct each
    assert np.isinf(res.bias_correction[0, 0])
    pct = bootstrap(x, statistic=distinct, n_resamples=200, rng=3)
    assert (res.ci_low[0, 0], res.ci_high[0, 0]) == (pct.ci_low[0, 0], pct.ci_high[0, 0])
    # the maximum, tied: every leave-one-out keeps it, the influence values are all zero
    x = np.column_stack([np.zeros(5), [1.0, 2.0, 3.0, 5.0, 5.0]])
    mx = lambda v, axis: np.max(v, axis=axis)
    with pytest.warns(DegenerateBootstrapWarning, match="influence values are all zero"):
        res = bootstrap(x, statistic=mx, method="bca", n_resamples=200, rng=3)
    assert np.isnan(res.acceleration[0, 0])


def _exact_bias_correction(replicates, estimate: Fraction, denominator: int) -> float:
    """z0 from replicates snapped to the fractions with denominators up to ``denominator``
    that they stand for, ties counted one half (scipy's rule), in exact arithmetic."""
    exact = [Fraction(float(r)).limit_denominator(denominator) for r in replicates]
    twice = sum(v < estimate for v in exact) + sum(v <= estimate for v in exact)
    return NormalDist().inv_cdf(twice / (2 * len(exact)))


@pytest.mark.parametrize("scale", [1.0, 1e-3, 1e-10])
def test_bca_counts_the_ties_of_float32_scores_as_those_of_their_decimals(scale):
    # a = 0.01, 0.15 and six zeros (two in one cluster), b = 0. The estimate -0.16 / 8 and a
    # resample drawing 0.01 three times, 0.15 once and the two-zero cluster twice, -0.18 / 9,
    # are equal in decimals; from float32 scores they differ by 2e-9 relative, and a tie
    # tolerance of 1e-12 split them (z0 moved, ci_low by 0.4% in a case of the property suite)
    a = np.array([0.01, 0.15, 0, 0, 0, 0, 0, 0]) * scale
    x = np.column_stack([a, np.zeros(8)])
    kw = dict(cluster=[0, 1, 2, 3, 4, 5, 6, 6], method="bca", n_resamples=2000, rng=0)
    f64 = bootstrap(x, **kw)
    f32 = bootstrap(x.astype(np.float32), **kw)
    reps, est = f32.bootstrap_distribution[0, 0] / scale, f32.difference[0, 0] / scale
    split = (reps != est) & (np.abs(reps - est) < 1e-8)
    assert split.any()  # ties of the decimals that float32 rounding separates
    # replicates are (hundredths) / (7 to 14 items): exact as fractions of denominator <= 1400
    z0 = _exact_bias_correction(reps, Fraction(-16, 800), 1400)
    assert f32.bias_correction[0, 0] == pytest.approx(z0, rel=1e-12)
    assert f64.bias_correction[0, 0] == pytest.approx(z0, rel=1e-12)
    np.testing.assert_allclose(f32.ci_low, f64.ci_low, rtol=1e-6)
    np.testing.assert_allclose(f32.ci_high, f64.ci_high, rtol=1e-6)


@pytest.mark.parametrize("offset", [1e12, 2.0**50, 2.0**53 - 16, -(2.0**52)])
@pytest.mark.parametrize("method", ["percentile", "basic", "bca", "studentized"])
def test_an_exact_offset_changes_no_interval_or_pvalue(offset, method):
    # integer scores offset by 2**50 are the same differences: every interval and p-value
    # is the unshifted data's (the tie error followed the size of the scores, 2 * 16 * 2**-53
    # * 2**50 = 4, and snapped every replicate to 0: (0, 0) with p = 1)
    x = np.random.default_rng(3).integers(0, 5, size=(15, 3)).astype(float)
    kw = dict(n_resamples=2000, rng=1, method=method, cluster=np.arange(15) // 2)
    base, moved = bootstrap(x, **kw), bootstrap(x + offset, **kw)
    assert (base.ci_low < base.ci_high).all()
    for column in ("difference", "ci_low", "ci_high", "pvalue", "standard_error",
                   "effect_size", "wins", "ties", "losses"):  # fmt: skip
        np.testing.assert_array_equal(getattr(moved, column), getattr(base, column), column)
    np.testing.assert_array_equal(moved.bootstrap_distribution, base.bootstrap_distribution)


def test_wins_ties_and_losses_follow_the_tie_rule():
    # 0.1 + 0.2 and 0.3 are one number given in two roundings: a tie of b and a, the
    # signed-rank test's zero
    x = np.array([[0.1 + 0.2, 0.3], [0.2, 0.5], [0.4, 0.1], [0.7, 0.7]])
    res = bootstrap(x, n_resamples=200, rng=1)
    assert (int(res.wins[0, 0]), int(res.ties[0, 0]), int(res.losses[0, 0])) == (1, 2, 1)
    with pytest.warns(pairedstats.SignrankConfidenceWarning):
        assert int(pairedstats.signrank(x).n_zeros[0, 0]) == 2


# ------------------------------------------------------------- the statistic contract
def test_a_statistic_ignoring_axis_is_refused():
    x = np.random.default_rng(1).normal(size=(30, 2))
    with pytest.raises(
        ValueError,
        match=r"`statistic` must return one value per resample along the last axis: on the "
        r"resamples of system 0, given columns of shape \(256, 30\), it returned shape \(\); "
        r"expected \(256,\)",
    ):
        bootstrap(x, statistic=lambda v, axis=-1: np.mean(v), n_resamples=1000, rng=1)
    with pytest.raises(
        ValueError, match=r"the sample of system 0, .* returned shape \(1,\); expected \(\)"
    ):
        bootstrap(x, statistic=lambda v, axis=-1: np.mean(v, axis=axis, keepdims=True), rng=1)
    with pytest.raises(ValueError, match=r"must return one number; got an array of shape \(2,\)"):
        bootstrap(x, statistic=lambda v: v[:2], n_resamples=10, rng=1)


def test_a_statistic_raising_on_the_sample_is_named():
    x = np.zeros((5, 2))
    with pytest.raises(ValueError, match=r"`statistic` raised AttributeError on the sample of "
                       r"system 'p': 'numpy.ndarray' object has no attribute 'nope'"):  # fmt: skip
        bootstrap(x, systems=["p", "q"], statistic=lambda v: v.nope)
    with pytest.raises(TypeError, match="`statistic`: cannot read the signature of"):
        bootstrap(x, statistic=max)


def _inf_without_minimum(v, axis=-1):  # infinite on the resamples that lack the 0.05
    return np.where(np.min(v, axis=axis) > 0.1, np.inf, np.mean(v, axis=axis))


@pytest.mark.parametrize(
    ("statistic", "error", "message"),
    [
        (
            lambda v: None,
            TypeError,
            r"`statistic` returned None on the sample of system 'p'; it must return a real number",
        ),
        (lambda v, axis=-1: None, TypeError, r"`statistic` returned None on the sample"),
        (
            lambda v: np.max(v) + 1j,
            TypeError,
            r"`statistic` returned complex values on the sample of system 'p' "
            r"\(e.g. \(0\.5\+1j\)\)",
        ),
        (
            lambda v, axis=-1: np.max(v, axis=axis) + 0j,
            TypeError,
            r"`statistic` returned complex values on the sample of system 'p' \(e.g. \(0\.5\+0j\)",
        ),
        (
            lambda v: -np.inf,
            ValueError,
            r"`statistic` returned an infinite value \(-inf\) on the sample of system 'p'",
        ),
        (
            _inf_without_minimum,
            ValueError,
            r"`statistic` returned an infinite value \(inf\) on the resamples of system 'p';"
            r".*or NaN where the metric is undefined",
        ),
        (
            lambda v: "high",
            TypeError,
            r"`statistic` must return real numbers; on the sample of system 'p' it returned "
            r"'high' \(a str\)",
        ),
    ],
    ids=[
        "none",
        "none-vectorized",
        "complex",
        "complex-vectorized",
        "inf",
        "inf-on-resamples",
        "text",
    ],
)
def test_a_statistic_returning_none_complex_or_inf_is_named(statistic, error, message):
    # not read as NaN (None), cut to the real part (complex) or carried into the replicates
    # as inf - inf = NaN (inf): the message says what was returned
    x = np.full((6, 2), 0.5)
    x[0] = 0.05  # each system's minimum: only the resamples without item 0 lack it
    with pytest.raises(error, match=message):
        bootstrap(x, systems=["p", "q"], statistic=statistic, n_resamples=200, rng=1)


@pytest.mark.parametrize("design", ["items", "clusters_strata"])
def test_a_statistic_without_axis_equals_its_vectorized_twin(design):
    gen = np.random.default_rng(12)
    n = 60
    truth = gen.poisson(3.0, n) + 1
    tp = gen.binomial(truth[:, None], [0.6, 0.7])
    fp = gen.poisson(1.0, (n, 2))
    scores = np.stack([tp, fp, truth[:, None] - tp], axis=-1).astype(float)
    kw = dict(n_resamples=600, rng=2, method="bca")
    if design == "clusters_strata":
        kw.update(cluster=np.repeat(np.arange(20), 3), strata=np.repeat([0, 1], [24, 36]))

    def f1(tp, fp, fn):  # no axis: called once per resample
        return 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())

    def f1_kwargs(tp, fp, fn, **kwargs):  # **kwargs: vectorized, receives axis
        return _pooled_f1(tp, fp, fn, axis=kwargs["axis"])

    ref = bootstrap(scores, statistic=_pooled_f1, **kw)
    for statistic in (f1, f1_kwargs):
        res = bootstrap(scores, statistic=statistic, **kw)
        np.testing.assert_allclose(res.bootstrap_distribution, ref.bootstrap_distribution,
                                   rtol=1e-13, atol=1e-15)  # fmt: skip
        for name in ["difference", "ci_low", "ci_high", "standard_error", "acceleration"]:
            np.testing.assert_allclose(getattr(res, name), getattr(ref, name), rtol=1e-12,
                                       atol=1e-15, err_msg=name)  # fmt: skip
    assert res.metadata["statistic"] == "f1_kwargs"


def test_items_dropped_by_missing_complete_are_counted_per_group():
    table = pd.DataFrame({
        "g": ["u"] * 8 + ["v"] * 8, "item": list(range(4)) * 4,
        "system": (["a"] * 4 + ["b"] * 4) * 2,
        "score": [1, 2, 3, 4, 2, np.nan, 3, 5, 1, 2, 3, 4, 2, 3, 3, 5.0],
    })  # fmt: skip
    with pytest.warns(pairedstats.DroppedDataWarning, match="1"):
        res = table.paired.bootstrap(
            item="item", system="system", score="score", by="g", missing="complete",
            n_resamples=200, rng=1,
        )  # fmt: skip
    assert res["n_dropped"].tolist() == [1, 0]
    assert res["n_items"].tolist() == [3, 4]
    # the complete items alone give the same numbers as the table with the item dropped
    kept = table[~((table.g == "u") & (table.item == 1))]
    again = kept.paired.bootstrap(item="item", system="system", score="score", by="g",
                                  n_resamples=200, rng=1)  # fmt: skip
    assert res["ci_low"].tolist() == again["ci_low"].tolist()
