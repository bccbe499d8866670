"""The bootstrap's p-values, one-sided intervals and effect sizes through the public API.

References: scipy.stats.bootstrap given the same replicates (its ``bootstrap_result``), the
contract ``pvalue < 1 - confidence_level`` exactly when the interval excludes 0, and scipy's
paired t statistic for ``d_z``.
"""

import types
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from tests.data import unsorted_runs

import pairedstats
from pairedstats import bootstrap


@pytest.fixture(scope="module")
def paired():
    gen = np.random.default_rng(2024)
    base = gen.gamma(2.0, 0.5, 120)
    a = base + gen.normal(0, 0.3, 120)
    b = base + 0.15 + gen.normal(0, 0.3, 120) + 0.3 * gen.exponential(1.0, 120)
    return np.column_stack([a, b])


def _diff(a, b, axis=-1):
    return np.mean(b, axis=axis) - np.mean(a, axis=axis)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_interval_ends_equal_scipy_on_the_same_replicates(paired, method, alternative, level):
    res = bootstrap(paired, n_resamples=4000, rng=1, method=method, alternative=alternative,
                    confidence_level=level)  # fmt: skip
    given = types.SimpleNamespace(bootstrap_distribution=res.bootstrap_distribution[0, 0])
    ref = stats.bootstrap(
        (paired[:, 0], paired[:, 1]), _diff, paired=True, vectorized=True, n_resamples=0,
        bootstrap_result=given, method=method, alternative=alternative, confidence_level=level,
    ).confidence_interval  # fmt: skip
    np.testing.assert_allclose([res.ci_low[0, 0], res.ci_high[0, 0]], [ref.low, ref.high],
                               rtol=0, atol=1e-12)  # fmt: skip


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_pvalues_decide_as_the_intervals(method):
    gen = np.random.default_rng(4)
    scores = gen.normal(size=(25, 5)) + np.array([0, 0.1, 0.3, 0.5, 0.8])
    for alternative in ("two-sided", "less", "greater"):
        for level in (0.8, 0.9, 0.95, 0.99):
            res = bootstrap(scores, n_resamples=999, rng=2, method=method,
                            alternative=alternative, confidence_level=level)  # fmt: skip
            np.testing.assert_array_equal(res.pvalue < 1 - level, res.significant())
            assert ((res.pvalue >= 0) & (res.pvalue <= 1)).all()


def test_one_and_two_sided_pvalues_agree():
    gen = np.random.default_rng(6)
    scores = gen.normal(size=(40, 3)) + np.array([0, 0.2, 0.4])
    kw = dict(n_resamples=2000, rng=5)
    two = bootstrap(scores, **kw).pvalue
    greater = bootstrap(scores, alternative="greater", **kw).pvalue
    less = bootstrap(scores, alternative="less", **kw).pvalue
    np.testing.assert_allclose(two, np.minimum(1, 2 * np.minimum(greater, less)), atol=1e-15)
    assert greater + less == pytest.approx(np.ones_like(greater), abs=2 / 2000)


def test_swapping_a_and_b_swaps_the_one_sided_results():
    gen = np.random.default_rng(7)
    scores = gen.normal(size=(30, 2)) + np.array([0, 0.3])
    kw = dict(n_resamples=999, rng=3, method="bca")
    ab = bootstrap(scores, systems=["a", "b"], alternative="greater", **kw)
    ba = bootstrap(scores[:, ::-1], systems=["b", "a"], alternative="less", **kw)
    assert ab.pvalue[0, 0] == ba.pvalue[0, 0]
    assert ab.ci_low[0, 0] == -ba.ci_high[0, 0]
    assert ab.ci_high[0, 0] == -ba.ci_low[0, 0] == np.inf


def test_pvalue_is_near_the_t_test_on_well_behaved_data():
    # first principles: for normal differences at 400 items the bootstrap percentile p-value
    # approximates the paired t-test's (differences of a few Monte Carlo errors)
    gen = np.random.default_rng(9)
    scores = gen.normal(size=(400, 2)) + np.array([0, 0.12])
    res = bootstrap(scores, n_resamples=20_000, rng=1)
    t = stats.ttest_rel(scores[:, 1], scores[:, 0])
    assert res.pvalue[0, 0] == pytest.approx(t.pvalue, abs=0.01)
    one = bootstrap(scores, n_resamples=20_000, rng=1, alternative="greater")
    assert one.pvalue[0, 0] == pytest.approx(t.pvalue / 2, abs=0.005)


def test_effect_sizes_through_the_accessor():
    runs = unsorted_runs()
    res = runs.paired.bootstrap(item="query", system="run", score="ndcg", baseline="bm25",
                                n_resamples=300, rng=1)  # fmt: skip
    wide = runs.pivot(index="query", columns="run", values="ndcg")
    for row in res.itertuples():
        d = wide[row.system_b] - wide[row.system_a]
        t = stats.ttest_rel(wide[row.system_b], wide[row.system_a]).statistic
        assert row.effect_size == pytest.approx(t / np.sqrt(len(d)), rel=1e-12)
        assert (row.wins, row.ties, row.losses) == ((d > 0).sum(), (d == 0).sum(), (d < 0).sum())
    assert res.attrs["alternative"] == "two-sided"


def test_effect_sizes_where_they_do_not_apply():
    gen = np.random.default_rng(2)
    scores = gen.normal(size=(20, 2))
    strata = np.repeat(["p", "q"], 10)
    weighted = bootstrap(scores, strata=strata, weights={"p": 1, "q": 3}, n_resamples=99, rng=1)
    assert weighted.effect_size is None
    assert weighted.wins is not None
    assert "effect_size" not in weighted.columns
    custom = bootstrap(scores, statistic=np.median, n_resamples=99, rng=1)
    assert all(getattr(custom, c) is None for c in ("effect_size", "wins", "ties", "losses"))
    clustered = bootstrap(scores, cluster=np.repeat(np.arange(10), 2), n_resamples=99, rng=1)
    d = scores[:, 1] - scores[:, 0]
    assert clustered.effect_size[0, 0] == pytest.approx(d.mean() / d.std(ddof=1))


def test_alternative_is_checked_and_read_case_insensitively(paired):
    with pytest.raises(ValueError, match="`alternative` must be one of 'two-sided', 'less'"):
        bootstrap(paired, alternative="bigger")
    res = bootstrap(paired, alternative="Greater", n_resamples=99, rng=1)
    assert res.metadata["alternative"] == "greater"
    frame = pd.DataFrame(paired, columns=["a", "b"]).paired.bootstrap(
        alternative="less", n_resamples=99, rng=1
    )
    assert np.isneginf(frame["ci_low"]).all()


# ------------------------------------------------------------------ adjust=
@pytest.fixture(scope="module")
def four():
    gen = np.random.default_rng(11)
    return gen.normal(size=(40, 4)) + np.array([0.0, 0.25, 0.1, 0.45])


def test_adjusted_pvalues_over_each_family(four):
    kw = dict(systems=list("abcd"), baseline="a", n_resamples=2000, rng=4)
    plain = bootstrap(four, **kw)
    bh = bootstrap(four, adjust="fdr_bh", **kw)
    np.testing.assert_array_equal(bh.pvalue, plain.pvalue)
    # the adjustments act on the add-one p-values (B p + 2) / (B + 1), B = 2000
    add_one = np.minimum(1, (2000 * plain.pvalue[0] + 2) / 2001)
    expected = stats.false_discovery_control(add_one)
    np.testing.assert_allclose(bh.pvalue_adjusted[0], expected, rtol=1e-12)
    by = bootstrap(four, adjust="fdr_by", **kw)
    expected = stats.false_discovery_control(add_one, method="by")
    np.testing.assert_allclose(by.pvalue_adjusted[0], expected, rtol=1e-12)
    np.testing.assert_array_equal(by.significant(), by.pvalue_adjusted < 0.05)
    # a 0 stands for < m c(m) / B: BY multiplies by at most m (1 + 1/2 + ... + 1/m)
    np.testing.assert_allclose(by.pvalue_bounds()["pvalue_adjusted"], 3 * (11 / 6) / 2000)
    holm = bootstrap(four, adjust="Holm", **kw)
    p = add_one
    order = np.argsort(p)
    # Holm by its definition: sorted p times (k - i), running maximum, capped at 1
    steps = np.minimum(1, np.maximum.accumulate((3 - np.arange(3)) * p[order]))
    np.testing.assert_allclose(holm.pvalue_adjusted[0][order], steps, rtol=1e-12)
    assert holm.metadata["adjust"] == "holm"
    assert holm.ci_low_adjusted is None
    np.testing.assert_array_equal(holm.significant(), holm.pvalue_adjusted < 0.05)


def test_bonferroni_intervals_are_the_method_at_the_bonferroni_level(four):
    for method in ("percentile", "bca"):
        kw = dict(systems=list("abcd"), n_resamples=2000, rng=4, method=method)
        adjusted = bootstrap(four, adjust="bonferroni", **kw)
        wide = bootstrap(four, confidence_level=1 - 0.05 / 6, **kw)
        np.testing.assert_array_equal(adjusted.ci_low_adjusted, wide.ci_low)
        np.testing.assert_array_equal(adjusted.ci_high_adjusted, wide.ci_high)
        add_one = np.minimum(1, (2000 * adjusted.pvalue + 2) / 2001)
        np.testing.assert_allclose(adjusted.pvalue_adjusted,
                                   np.minimum(1, 6 * add_one), rtol=1e-12)  # fmt: skip


def test_max_t_intervals_are_simultaneous_and_within_bonferroni(four):
    kw = dict(systems=list("abcd"), n_resamples=4000, rng=4)
    res = bootstrap(four, adjust="max-t", **kw)
    reps, est = res.bootstrap_distribution[0], res.difference[0]
    se = reps.std(axis=-1, ddof=1)
    # first principles: the critical value is the 95% quantile of the max |z| over resamples
    c = np.quantile(np.max(np.abs(reps - est[:, None]) / se[:, None], axis=0), 0.95)
    np.testing.assert_allclose(res.ci_low_adjusted[0], est - c * se, rtol=1e-12)
    np.testing.assert_allclose(res.ci_high_adjusted[0], est + c * se, rtol=1e-12)
    z = np.quantile(np.abs(reps - est[:, None]) / se[:, None], 0.95, axis=-1)
    assert (c >= z).all()
    assert c <= stats.norm.ppf(1 - 0.025 / 6) * 1.1
    # the step-down p-values reject at least what the single-step intervals exclude
    excluded = (res.ci_low_adjusted > 0) | (res.ci_high_adjusted < 0)
    assert (res.pvalue_adjusted[excluded] < 0.05).all()
    one = bootstrap(four, adjust="max-t", alternative="greater", **kw)
    assert np.isposinf(one.ci_high_adjusted).all()


def test_adjust_families_are_the_groups():
    gen = np.random.default_rng(3)
    frame = pd.DataFrame({
        "item": np.tile(np.arange(30), 6), "system": np.repeat(list("abcabc"), 30),
        "task": np.repeat(["x", "y"], 90), "score": gen.normal(size=180),
    })  # fmt: skip
    kw = dict(item="item", system="system", score="score", n_resamples=999, rng=1,
              adjust="max-t")  # fmt: skip
    both = frame.paired.bootstrap(by="task", **kw)
    alone = frame[frame.task == "y"].paired.bootstrap(by="task", **kw)
    np.testing.assert_array_equal(both[both.task == "y"]["pvalue_adjusted"],
                                  alone["pvalue_adjusted"])  # fmt: skip


def test_adjust_is_checked():
    scores = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="`adjust` must be one of 'holm', 'bonferroni'"):
        bootstrap(scores, adjust="sidak")
    with pytest.raises(ValueError, match="use resampling='index'"):
        bootstrap(scores, adjust="max-t", resampling="counts")
    one = bootstrap(scores[:, :2], adjust="max-t", resampling="counts", n_resamples=99, rng=1)
    assert one.pvalue_adjusted.shape == (1, 1)


def test_letters_from_an_adjusted_bootstrap():
    runs = unsorted_runs()
    res = runs.paired.bootstrap(item="query", system="run", score="p10", n_resamples=2000,
                                rng=1, adjust="holm", as_result=True)  # fmt: skip
    table = pairedstats.display.letters(res)
    assert set(table["system"]) == set(runs["run"])
    flags = res.significant().to_numpy()[0]
    for (a, b), flag in zip(zip(res.label_a, res.label_b), flags):
        la = set(table.set_index("system").loc[a, "letters"])
        lb = set(table.set_index("system").loc[b, "letters"])
        assert bool(la & lb) == (not flag)


# ------------------------------------------------------------------ method="studentized"
def _numpy_bootstrap_t(d, n_resamples, level, gen):
    """An independent bootstrap-t of the mean of ``d``: numpy draws, se = sd / sqrt(n)."""
    n = d.size
    idx = gen.integers(0, n, size=(n_resamples, n))
    x = d[idx]
    t = (x.mean(axis=1) - d.mean()) / (x.std(axis=1, ddof=1) / np.sqrt(n))
    se = d.std(ddof=1) / np.sqrt(n)
    a = (1 - level) / 2
    return d.mean() - se * np.quantile(t, 1 - a), d.mean() - se * np.quantile(t, a)


def test_studentized_agrees_with_an_independent_bootstrap_t(paired):
    d = paired[:, 1] - paired[:, 0]
    res = bootstrap(paired, n_resamples=40_000, rng=2, method="studentized")
    low, high = _numpy_bootstrap_t(d, 40_000, 0.95, np.random.default_rng(5))
    se = res.standard_error[0, 0]
    # two Monte Carlo estimates of a t quantile: a few hundredths of a standard error apart
    assert res.ci_low[0, 0] == pytest.approx(low, abs=0.1 * se)
    assert res.ci_high[0, 0] == pytest.approx(high, abs=0.1 * se)


def test_studentized_statistic_equals_the_mean_path():
    # the jackknife standard error of a mean of items is the analytic one, sd / sqrt(n):
    # same interval, same p-value
    gen = np.random.default_rng(12)
    scores = gen.normal(size=(25, 3)) + np.array([0, 0.4, 0.2])

    def mean(x, axis=-1):
        return np.mean(x, axis=axis)

    plain = bootstrap(scores, n_resamples=999, rng=1, method="studentized")
    custom = bootstrap(scores, n_resamples=999, rng=1, method="studentized", statistic=mean)
    for name in ("ci_low", "ci_high", "pvalue"):
        np.testing.assert_allclose(getattr(custom, name), getattr(plain, name),
                                   rtol=1e-9, atol=1e-12)  # fmt: skip
    # with strata the statistic is the pooled mean of the resample's items, whose jackknife
    # leaves an item out of the pool (its stratum's weight moves by 1 / n): close, not equal
    strata = np.arange(25) % 3
    plain = bootstrap(scores, n_resamples=999, rng=1, method="studentized", strata=strata)
    custom = bootstrap(scores, n_resamples=999, rng=1, method="studentized", strata=strata,
                       statistic=mean)  # fmt: skip
    np.testing.assert_allclose(custom.ci_low, plain.ci_low, rtol=0.02)


def test_studentized_pvalues_and_adjustments(four):
    for alternative in ("two-sided", "greater", "less"):
        res = bootstrap(
            four, systems=list("abcd"), n_resamples=999, rng=3, method="studentized",
            alternative=alternative, adjust="bonferroni",
        )  # fmt: skip
        excludes = (res.ci_low > 0) | (res.ci_high < 0)
        np.testing.assert_array_equal(res.pvalue < 0.05, excludes)
        wide = bootstrap(four, systems=list("abcd"), n_resamples=999, rng=3,
                         method="studentized", alternative=alternative,
                         confidence_level=1 - 0.05 / 6)  # fmt: skip
        np.testing.assert_array_equal(res.ci_low_adjusted, wide.ci_low)
    clustered = bootstrap(four, cluster=np.arange(40) // 4, n_resamples=499, rng=1,
                          method="studentized")  # fmt: skip
    assert np.isfinite(clustered.ci_low).all()


def test_studentized_refuses_the_counts_path(paired):
    with pytest.raises(ValueError, match="use resampling='index'"):
        bootstrap(paired, method="studentized", resampling="counts")


def test_displays_say_when_several_comparisons_are_unadjusted(four):
    kw = dict(systems=list("abcd"), baseline="a", n_resamples=200, rng=1)
    plain = bootstrap(four, **kw)
    assert "unadjusted: each interval and p-value holds for its comparison alone (3" in str(plain)
    # LaTeX explains a mark where one appears (none does here), with the same caveat
    assert "excludes 0" not in plain.to_latex()
    marked = bootstrap(four + np.array([0.0, 0.0, 0.0, 3.0]), **kw)
    assert "95\\% interval excludes 0, unadjusted for 3 comparisons" in marked.to_latex()
    assert "unadjusted" in plain._repr_html_()
    adjusted = bootstrap(four, adjust="holm", **kw)
    assert "unadjusted" not in str(adjusted)
    assert "adjust=holm" in str(adjusted)
    single = bootstrap(four[:, :2], n_resamples=200, rng=1)
    assert "unadjusted" not in str(single)


def test_displays_say_what_mean_a_holds_with_a_statistic():
    scores = np.random.default_rng(0).integers(0, 5, (20, 2)).astype(float)

    def trimmed(x, axis=-1):
        return np.mean(np.sort(x, axis=axis)[..., 2:-2], axis=axis)

    res = bootstrap(scores, statistic=trimmed, n_resamples=99, rng=1)
    assert "mean_a, mean_b: trimmed of each system (statistic=), not means" in str(res)
    assert res.metadata["statistic"] == "trimmed"


def test_messages_show_plain_values():
    for method in (pairedstats.bootstrap, pairedstats.tukey_hsd):
        with pytest.raises(ValueError, match=r"systems \[0, 1\]; got 3\.$"):
            method(np.zeros((5, 2)), systems=[0, 1], baseline=np.int64(3))


def test_keyword_messages_show_plain_values():
    x = np.zeros((5, 2))
    with pytest.raises(TypeError, match=r"`n_resamples` must be a positive integer; got 2\.5\."):
        bootstrap(x, n_resamples=np.float64(2.5))
    with pytest.raises(ValueError, match=r"'studentized'; got 'bc'\.$"):
        bootstrap(x, method=np.str_("bc"))
    with pytest.raises(TypeError, match=r"or None; got 1\.5\.$"):
        bootstrap(x, workers=np.float64(1.5))


def _equal_systems(k=25, n=60, seed=7):
    gen = np.random.default_rng(seed)
    return gen.normal(size=(n, 1)) + gen.normal(size=(n, k))


def test_holm_does_not_reject_on_a_monte_carlo_zero():
    # 25 systems of equal means, all 300 pairs, 60 items, 999 resamples: some pairs have no
    # resample across 0 (pvalue 0, "below about 1/999"). Holm on the raw p-values declared
    # them different (0 < 0.05 / 300); on the add-one p-values nothing passes, and the call
    # says that it needs 12,000 resamples to resolve alpha / m.
    x = _equal_systems()
    with pytest.warns(pairedstats.ResolutionWarning, match=r"n_resamples=12000 at least") as w:
        res = bootstrap(x, adjust="holm", n_resamples=999, rng=2)
    assert "alpha / m = 0.000167" in str(w[0].message)
    assert "method='studentized' with adjust='holm'" in str(w[0].message)  # recommended
    zeros = res.pvalue[0] == 0
    assert zeros.any()
    from pairedstats.core.adjust import adjust_pvalues

    assert (adjust_pvalues(res.pvalue, "holm")[0][zeros] < 0.05).all()  # the old decision
    assert not res.significant().to_numpy().any()
    assert res.pvalue_adjusted.min() == pytest.approx(300 * 2 / 1000, rel=1e-12)


@pytest.mark.parametrize(
    ("adjust", "alternative", "needed"),
    [("holm", "two-sided", 1800), ("fdr_bh", "greater", 900), ("fdr_by", "two-sided", 7910),
     ("bonferroni", "less", 900)],
)  # fmt: skip
def test_too_few_resamples_for_the_family_warn_with_the_number_needed(adjust, alternative, needed):
    # 10 systems, 45 pairs: B + 1 > 2 x 45 / 0.05 (one-sided 45 / 0.05); BY times c(45) = 4.39
    x = _equal_systems(k=10, n=30)
    with pytest.warns(pairedstats.ResolutionWarning, match=f"n_resamples={needed} at least"):
        bootstrap(x, adjust=adjust, alternative=alternative, n_resamples=needed - 1, rng=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bootstrap(x, adjust=adjust, alternative=alternative, n_resamples=needed, rng=1)
        bootstrap(x, adjust="max-t", n_resamples=999, rng=1)  # max-t compares with alpha
