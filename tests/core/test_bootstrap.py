"""The bootstrap core: sampler, replicates, jackknife, intervals, against references.

References: exact enumeration of small bootstrap distributions, the tutorial's worked
numbers, and R (the boot package for influence values, brute-force leave-one-out and exact
enumeration of stratified resamples for the acceleration) on pairedstats' own resample
matrices (tests/reference/bootstrap, made by export_inputs.py and make_reference.R).
"""

import itertools
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairedstats.core import bootstrap as cb

from . import reference_engine as engine
from .groups import design_keywords
from .groups import group as _group
from .groups import replicates as _reps

REF = Path(__file__).parent.parent / "reference" / "bootstrap"
ROOT = 20240607


# ------------------------------------------------------------------------- sampler
# the draws themselves: tests/core/test_draws.py and test_kernels.py (reference engine)
def test_mean_replicates_are_means_of_the_reference_resamples():
    scores = np.random.default_rng(8).normal(size=(37, 3))
    group = _group(scores, [(0, 1), (0, 2)])
    got = _reps(group, 600, root=5, resampling="index").replicates
    idx = engine.resample_indices(5, ["bootstrap", ()], 37, 600)
    d = scores[:, [1, 2]] - scores[:, [0, 0]]
    np.testing.assert_array_equal(got, (engine.draw_order_sums(d, idx) / 37.0).T)


def test_batch_size_and_threads_do_not_change_numbers():
    gen = np.random.default_rng(3)
    scores = gen.normal(size=(300, 4))
    pairs = [(0, 1), (0, 2), (0, 3), (1, 2)]
    group = _group(scores, pairs)
    base = _reps(group, 700, workers=1, resampling="index").replicates
    other = _reps(group, 700, workers=2, resampling="index")
    np.testing.assert_array_equal(other.replicates, base)
    # statistic path too
    mean = lambda x, axis: x.mean(axis=axis)
    s1 = _reps(group, 300, statistic=mean).replicates
    s2 = _reps(group, 300, statistic=mean, batch_rows=11).replicates
    np.testing.assert_array_equal(s1, s2)
    # and it draws the same resamples as the mean path
    np.testing.assert_allclose(s1, base[:, :300], rtol=1e-12, atol=1e-13)


def test_a_comparison_does_not_depend_on_the_other_comparisons():
    # every comparison is the difference of its two systems' resampled sums, centred on
    # one system: the same bits against a baseline and on scores whose sums are exact
    # (integers), the same to rounding otherwise
    gen = np.random.default_rng(4)
    for scores, exact in ((gen.normal(size=(50, 3)), False),
                          (gen.integers(0, 9, size=(50, 3)).astype(float), True)):  # fmt: skip
        alone = _reps(_group(scores, [(0, 2)]), 600, resampling="index").replicates
        based = _reps(_group(scores, [(0, 1), (0, 2)]), 600, resampling="index").replicates
        np.testing.assert_array_equal(based[1], alone[0])
        many = _reps(_group(scores, [(0, 1), (1, 2), (0, 2)]), 600, resampling="index")
        if exact:
            np.testing.assert_array_equal(many.replicates[2], alone[0])
        else:
            np.testing.assert_allclose(many.replicates[2], alone[0], rtol=0, atol=1e-15)
        # shared draws: (0,2) = (0,1) + (1,2) resample by resample
        r = many.replicates
        np.testing.assert_allclose(r[0] + r[1], r[2], atol=1e-13)


@pytest.mark.parametrize("design", ["items", "clusters", "strata", "clusters-strata"])
def test_influence_and_acceleration_do_not_depend_on_the_other_comparisons(design):
    # a comparison's BCa inputs are computed from its own column by the same operations:
    # stratum totals summed down the columns of (n, k) sums added in another order with one
    # column (pairwise) than with several (row by row), moving `a` and ci_high by an ulp
    gen = np.random.default_rng(15)
    n = 40
    kw = design_keywords(design, n, cluster_size=2, first_stratum=12)
    for i in range(20):
        # integer scores: sums exact, the same bits; others the same to rounding
        scores = gen.normal(size=(n, 3)) if i % 2 else gen.integers(-5, 5, (n, 3)) * 1.0
        alone = _reps(_group(scores, [(0, 2)], **kw), 50, influence=True)
        many = _reps(_group(scores, [(0, 1), (1, 2), (0, 2)], **kw), 50, influence=True)
        based = _reps(_group(scores, [(0, 1), (0, 2)], **kw), 50, influence=True)
        np.testing.assert_array_equal(based.influence[1], alone.influence[0])
        assert based.acceleration[1] == alone.acceleration[0]
        if i % 2:
            np.testing.assert_allclose(many.influence[2], alone.influence[0], atol=1e-13)
            assert many.acceleration[2] == pytest.approx(alone.acceleration[0], abs=1e-12)
        else:
            np.testing.assert_array_equal(many.influence[2], alone.influence[0])
            assert many.acceleration[2] == alone.acceleration[0]


# --------------------------------------------------------------------- tutorial
def test_tutorial_percentile_interval():
    reps = np.array([-3, -2, -1, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 10.0])
    low, high = cb.percentile_interval(reps, 0.90)
    assert low == pytest.approx(-2.05, abs=1e-12)
    assert high == pytest.approx(8.10, abs=1e-12)
    rng = np.random.default_rng(0)
    low2, high2 = cb.percentile_interval(rng.permutation(reps), 0.90)  # order irrelevant
    assert (low2, high2) == (low, high)


def test_tutorial_replicate_means():
    d = np.array([5, -5, 7, -3, 8.0])
    idx = np.array([[1, 2, 2, 5, 4], [3, 3, 1, 5, 5]]) - 1
    np.testing.assert_array_equal(engine.draw_order_sums(d[:, None], idx)[:, 0] / 5, [0.0, 7.0])
    counts = engine.counts_from_indices(idx, 5)
    np.testing.assert_array_equal(counts @ d / 5, [0.0, 7.0])
    # classification example: 0 and 0.75
    d8 = np.array([1, 0, -1, 0, 1, 0, -1, 0.0])
    idx8 = np.array([[1, 2, 3, 5, 6, 6, 7, 8], [1, 1, 1, 4, 5, 5, 5, 8]]) - 1
    np.testing.assert_array_equal(engine.draw_order_sums(d8[:, None], idx8)[:, 0] / 8, [0.0, 0.75])


# ------------------------------------------------------------- exact enumeration
def _exact_quantile_bracket(values, probs, p, eps):
    """Quantiles of a discrete distribution at p - eps and p + eps (inverse CDF)."""
    order = np.argsort(values)
    v, cdf = values[order], np.cumsum(probs[order])
    return v[np.searchsorted(cdf, p - eps)], v[np.searchsorted(cdf, p + eps)]


def _check_against_exact(reps, values, probs, B):
    mean = probs @ values
    var = probs @ (values - mean) ** 2
    assert abs(reps.mean() - mean) < 5 * np.sqrt(var / B)
    # variance estimate: se ~ sqrt((m4 - var^2) / B)
    m4 = probs @ (values - mean) ** 4
    assert abs(reps.var() - var) < 5 * np.sqrt((m4 - var**2) / B)
    for p in (0.025, 0.5, 0.975):
        lo, hi = _exact_quantile_bracket(values, probs, p, 0.01)
        q = np.quantile(reps, p)
        assert lo - 1e-12 <= q <= hi + 1e-12
    return mean, var


@pytest.mark.parametrize("resampling", ["index", "counts"])
def test_items_against_all_4_to_the_4_resamples(resampling):
    a = np.array([0.2, 0.5, 0.9, 0.4])
    b = np.array([0.6, 0.5, 1.0, 0.0])
    d = b - a
    tuples = np.array(list(itertools.product(range(4), repeat=4)))
    values = d[tuples].mean(axis=1)
    probs = np.full(values.size, 1 / values.size)
    B = 40_000
    reps = _reps(_group(np.column_stack([a, b])), B, resampling=resampling).replicates[0]
    mean, var = _check_against_exact(reps, values, probs, B)
    assert var == pytest.approx(np.var(d) / 4, rel=1e-12)  # the closed form
    assert mean == pytest.approx(d.mean(), rel=1e-12)


def test_counts_path_is_exact_for_indicators():
    # 0/1 accuracies: three distinct differences; counts path vs exact moments
    rng = np.random.default_rng(8)
    acc = (rng.random((400, 2)) < [0.7, 0.76]).astype(float)
    d = acc[:, 1] - acc[:, 0]
    B = 20_000
    out = _reps(_group(acc), B, resampling="counts")
    assert out.counts_path.all()
    reps = out.replicates[0]
    var = np.var(d) / d.size
    assert abs(reps.mean() - d.mean()) < 5 * np.sqrt(var / B)
    assert abs(reps.var() / var - 1) < 5 * np.sqrt(2 / B)
    for resampling in ["index", "auto"]:  # "auto" is the index path, whatever the values
        idx = _reps(_group(acc), B, resampling=resampling)
        assert not idx.counts_path.any()
        assert abs(idx.replicates[0].var() / var - 1) < 5 * np.sqrt(2 / B)
    np.testing.assert_array_equal(
        _reps(_group(acc), 300, resampling="auto").replicates,
        _reps(_group(acc), 300, resampling="index").replicates,
    )


def test_clusters_against_exact_enumeration_of_the_ratio_estimator():
    # 3 clusters of sizes 1, 2, 3: 27 equally likely cluster tuples
    d = np.array([1.0, 0.0, 2.0, -1.0, 4.0, 0.5])
    cluster = np.array([0, 1, 1, 2, 2, 2])
    sums = np.array([1.0, 2.0, 3.5])
    sizes = np.array([1.0, 2.0, 3.0])
    tuples = np.array(list(itertools.product(range(3), repeat=3)))
    values = sums[tuples].sum(axis=1) / sizes[tuples].sum(axis=1)
    probs = np.full(values.size, 1 / 27)
    B = 40_000
    scores = np.column_stack([np.zeros(6), d])
    for resampling in ["index", "counts"]:
        out = _reps(_group(scores, cluster=cluster), B, resampling=resampling)
        assert out.estimate[0] == pytest.approx(d.sum() / 6)  # not the mean of cluster means
        assert out.estimate[0] != pytest.approx((sums / sizes).mean())
        _check_against_exact(out.replicates[0], values, probs, B)


def test_strata_against_exact_enumeration():
    # strata of 2 and 3 items, population weights 0.7 / 0.3: 4 * 27 combinations
    d = np.array([0.0, 1.0, 2.0, -2.0, 3.0])
    strata = np.array([0, 0, 1, 1, 1])
    t0 = np.array(list(itertools.product(range(2), repeat=2)))
    t1 = np.array(list(itertools.product(range(3), repeat=3)))
    m0 = d[:2][t0].mean(axis=1)
    m1 = d[2:][t1].mean(axis=1)
    values = (0.7 * m0[:, None] + 0.3 * m1[None, :]).ravel()
    probs = np.full(values.size, 1 / values.size)
    B = 40_000
    scores = np.column_stack([np.zeros(5), d])
    group = _group(scores, strata=strata, strata_labels=("s0", "s1"), weights={0: 7, 1: 3})
    out = _reps(group, B, resampling="index")
    assert out.estimate[0] == pytest.approx(0.7 * 0.5 + 0.3 * 1.0)
    _check_against_exact(out.replicates[0], values, probs, B)


# ------------------------------------------------------------------- R reference
def _r_reference():
    ref = {}
    for line in (REF / "reference.csv").read_text().splitlines()[1:]:
        case, quantity, value = line.split(",")
        ref[case.strip('"'), quantity.strip('"')] = float(value)
    return ref


def _data():
    """Scores, strata, clusters, and the clusters' strata (equal and unequal numbers)."""
    arr = np.loadtxt(REF / "data.csv", delimiter=",", skiprows=1)
    return (arr[:, :2], *arr[:, 2:].astype(int).T)


def test_exported_resamples_are_still_drawn():
    # the R reference was computed from these matrices; the streams must not drift
    def read(name):
        return np.loadtxt(REF / name, delimiter=",", dtype=np.int64)

    np.testing.assert_array_equal(
        read("idx_items.csv"), cb.resample_indices(ROOT, ["bootstrap", ()], 30, 2000)
    )
    for h, n in enumerate([8, 10, 12]):
        np.testing.assert_array_equal(
            read(f"idx_stratum{h}.csv"), cb.resample_indices(ROOT, ["bootstrap", (), h], n, 2000)
        )
    np.testing.assert_array_equal(
        read("idx_clusters.csv"), cb.resample_indices(ROOT, ["bootstrap", ()], 12, 2000)
    )
    for prefix, sizes in [("idx_clstratum", [4, 4, 4]), ("idx_unequal", [3, 4, 5])]:
        for h, n in enumerate(sizes):
            np.testing.assert_array_equal(
                read(f"{prefix}{h}.csv"), cb.resample_indices(ROOT, ["bootstrap", (), h], n, 2000)
            )


def _rms(x, axis=-1):
    return np.sqrt(np.mean(x**2, axis=axis))


CASES = ["items", "strata", "clusters", "cluster_strata", "cluster_strata_unequal",
         "stat_strata", "stat_cluster_strata"]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_against_r_boot(case):
    ref = _r_reference()
    scores, strata, cluster, cl_strata, cl_unequal = _data()
    kw = {}
    if "strata" in case:
        if "cluster" in case:
            strata = cl_unequal if case.endswith(("unequal", "stat_cluster_strata")) else cl_strata
        kw = dict(strata_labels=(0, 1, 2), strata=strata)
        if not case.startswith("stat"):
            kw["weights"] = {0: 0.5, 1: 0.3, 2: 0.2}
    if "cluster" in case:
        kw["cluster"] = cluster
    group = _group(scores, **kw)
    out = cb.group_replicates(
        group, group_key=(), root=ROOT, n_resamples=2000, resampling="index", influence=True,
        statistic=_rms if case.startswith("stat") else None,
    )  # fmt: skip
    reps, est, a = out.replicates[0], out.estimate[0], out.acceleration[0]
    tol = dict(rel=1e-10, abs=1e-13)
    assert est == pytest.approx(ref[case, "estimate"], **tol)
    assert reps.mean() == pytest.approx(ref[case, "mean_t"], **tol)
    assert reps.std(ddof=1) == pytest.approx(ref[case, "se"], **tol)
    low, high = cb.percentile_interval(reps, 0.95)
    assert (low, high) == pytest.approx(
        (ref[case, "percentile_low"], ref[case, "percentile_high"]), **tol
    )
    low, high = cb.basic_interval(reps, est, 0.95)
    assert (low, high) == pytest.approx((ref[case, "basic_low"], ref[case, "basic_high"]), **tol)
    # the acceleration: stratified formula on brute-force (or boot's) influence values
    assert a == pytest.approx(ref[case, "acceleration"], **tol)
    low, high, z0 = cb.bca_interval(reps, est, a, 0.95)
    assert z0 == pytest.approx(ref[case, "z0"], **tol)
    assert (low, high) == pytest.approx((ref[case, "bca_low"], ref[case, "bca_high"]), **tol)
    # unequal strata: the unstratified formula (boot's) is another number
    if case in ("strata", "cluster_strata_unequal", "stat_strata", "stat_cluster_strata"):
        assert a != pytest.approx(ref[case, "acceleration_boot_unstratified"], rel=0.05)


def _exact_cases():
    rows = np.genfromtxt(REF / "exact_strata.csv", delimiter=",", names=True, dtype=None,
                         encoding="utf-8")  # fmt: skip
    return {str(c).strip('"'): rows[rows["case"] == c] for c in np.unique(rows["case"])}


@pytest.mark.parametrize("case", ["exact_2_5", "exact_3_6"])
def test_acceleration_is_the_exact_skewness_over_6(case):
    # strata of 2 and 5 (3 and 6) items, population weights: R enumerated every
    # within-stratum resample with its multinomial probability (make_reference.R); for the
    # linear stratified mean, a = skewness of that exact distribution / 6
    ref = _r_reference()
    rows = _exact_cases()[case]
    strata = rows["stratum"].astype(int)
    weights = {int(h): float(rows["weight"][strata == h][0]) for h in np.unique(strata)}
    group = _group(np.column_stack([rows["a"], rows["b"]]), strata=strata,
                   strata_labels=(0, 1), weights=weights)  # fmt: skip
    out = _reps(group, 10, influence=True)
    assert out.estimate[0] == pytest.approx(ref[case, "estimate"], rel=1e-12)
    assert out.acceleration[0] == pytest.approx(ref[case, "acceleration"], rel=1e-10)
    # the unstratified formula is far off on these unequal strata
    L = out.influence[0]
    assert (L**3).sum() / (6 * (L**2).sum() ** 1.5) != pytest.approx(
        ref[case, "acceleration"], rel=0.5
    )


@pytest.mark.parametrize("weights", [None, {0: 0.5, 1: 0.5}])
def test_acceleration_of_strata_of_10_and_90_is_the_exact_bootstrap_skewness(weights):
    # first principles: the mean of n_h draws from stratum h's values has variance
    # var_h / n_h and third cumulant mu3_h / n_h**2 (cumulants of a sum of iid draws), so the
    # stratified mean sum w_h mean_h has skewness
    # sum w_h**3 mu3_h / n_h**2 / (sum w_h**2 var_h / n_h) ** 1.5, and a = skewness / 6
    gen = np.random.default_rng(10)
    strata = np.repeat([0, 1], [10, 90])
    d = gen.exponential(1.0, 100) * np.where(strata == 0, 3.0, 1.0)
    group = _group(np.column_stack([np.zeros(100), d]), strata=strata, strata_labels=(0, 1),
                   weights=weights)  # fmt: skip
    w = group.weights
    k2 = k3 = 0.0
    for h in (0, 1):
        y = d[strata == h]
        n, c = y.size, y - y.mean()
        k2 += w[h] ** 2 * np.mean(c**2) / n
        k3 += w[h] ** 3 * np.mean(c**3) / n**2
    exact = k3 / k2**1.5 / 6
    a = _reps(group, 10, influence=True).acceleration[0]
    assert a == pytest.approx(exact, rel=1e-12)


# --------------------------------------------------------------------- jackknife
@pytest.mark.parametrize("design", ["items", "clusters"])
def test_closed_form_jackknife_equals_leave_one_out_loop(design):
    # (with strata the two differ by design: a general statistic is computed on the items
    # left, the stratified mean re-weights the strata)
    scores, _, cluster, _, _ = _data()
    kw = {"cluster": cluster} if design == "clusters" else {}
    group = _group(scores, **kw)
    closed = cb.mean_influence(group, group.unit_sums(group.differences()))
    loop = cb.statistic_influence(group, lambda x, axis: x.mean(axis=axis))
    np.testing.assert_allclose(closed, loop, rtol=1e-10, atol=1e-12)
    if design == "items":
        d = group.differences()[:, 0]
        np.testing.assert_allclose(closed[0], d - d.mean(), atol=1e-12)


# ---------------------------------------------------------------------- degenerate
def test_all_differences_equal_give_a_point():
    a = np.arange(9) / 8
    scores = np.column_stack([a, a + 0.125])  # exactly equal differences
    out = _reps(_group(scores), 500, influence=True)
    reps = out.replicates[0]
    assert (reps == out.estimate[0]).all()
    assert reps.std(ddof=1) == 0
    assert cb.percentile_interval(reps, 0.95) == (out.estimate[0], out.estimate[0])
    assert np.isnan(out.acceleration[0])  # all influence values zero
    low, high, z0 = cb.bca_interval(out.replicates, out.estimate, out.acceleration, 0.95)
    assert low[0] == high[0] == out.estimate[0]
    assert z0[0] == 0


def test_bca_falls_back_when_the_estimate_is_outside_the_replicates():
    reps = np.array([[1.0, 2.0, 3.0, 4.0]])
    low, high, z0 = cb.bca_interval(reps, [0.0], [0.3], 0.5)
    assert np.isinf(z0[0])
    assert (low[0], high[0]) == cb.percentile_interval(reps[0], 0.5)
    # an undefined acceleration is taken as 0
    np.testing.assert_array_equal(
        cb.bca_interval(reps, [2.2], [np.nan], 0.5), cb.bca_interval(reps, [2.2], [0.0], 0.5)
    )


def test_bca_past_the_pole_keeps_the_level_it_reaches_there():
    # 1 - a (z0 + z) < 0 at 99.9% with a = -0.28: the raw formula's lower level jumps to 1
    # (low = 1 > high); the level stays at its limit 0 instead, as the p-value assumes
    reps = np.array([0.0, 0.0, 1.0])
    low, high, z0 = cb.bca_interval(reps, 0.0, -0.28125, 0.999)
    z_lo = NormalDist().inv_cdf(0.0005)
    assert 1 + 0.28125 * (float(z0) + z_lo) < 0
    assert low == 0.0  # the smallest replicate: level 0
    assert high == pytest.approx(cb.bca_interval(reps, 0.0, -0.28125, 0.998)[1], abs=0.03)
    # mirrored: the upper end's level stays at 1 - 0
    m_low, m_high, _ = cb.bca_interval(-reps, 0.0, 0.28125, 0.999)
    assert (m_low, m_high) == (-high, -low)


@settings(max_examples=300, deadline=None)
@given(
    reps=st.lists(st.integers(-3, 3).map(float), min_size=2, max_size=12),
    est=st.integers(-3, 3).map(float),
    a=st.floats(-0.4, 0.4),
    levels=st.lists(st.floats(0.01, 0.9999), min_size=2, max_size=2),
)
def test_bca_intervals_widen_with_the_level(reps, est, a, levels):
    narrow, wide = sorted(levels)
    low_n, high_n, _ = cb.bca_interval(reps, est, a, narrow)
    low_w, high_w, _ = cb.bca_interval(reps, est, a, wide)
    assert low_w <= low_n
    assert high_n <= high_w
    assert low_w <= high_w


def test_tie_tolerance_is_the_float64_rule_or_the_error_of_the_differences():
    # within 1e-12 relative: a tie whatever the scores' precision (the float64 rule)
    reps = np.array([1.0 - 5e-13, 1.0 + 5e-13, 0.5, 1.5])
    assert cb.bias_correction(reps, 1.0) == 0.0  # F = (1 + 3) / 8
    # 1e-9 apart: below the estimate, unless the scores' rounding can explain it
    reps = np.array([1.0 - 1e-9, 1.0 + 1e-9, 0.5, 1.5])
    assert cb.bias_correction(reps, 1.0) == 0.0  # F = (2 + 2) / 8 either way
    reps = np.array([1.0 - 1e-9, 0.5, 0.7, 1.5])
    assert cb.bias_correction(reps, 1.0) == pytest.approx(NormalDist().inv_cdf(6 / 8))
    assert cb.bias_correction(reps, 1.0, 2e-9) == pytest.approx(NormalDist().inv_cdf(5 / 8))
    # a b - a of float32 scores up to 0.7 in size errs by 2 * 2 * 2**-24 * 0.7 (the tie rule
    # of core.ties: each score by 2 units of roundoff of its own size); a weighted mean of
    # such differences minus another by twice that
    x = np.array([[0.2, -0.7], [0.1, 0.0]])
    assert cb.tie_error(x, 2.0**-24) == 2 * 4 * 2.0**-24 * 0.7
    assert cb.tie_error(x) == 2 * 4 * 2.0**-53 * 0.7
    # integers are exact, at any offset float64 holds; binary fractions are read by their size
    assert cb.tie_error(np.array([[1.0, -3.0], [2.0, 0.0]]) + 2.0**50) == 0.0
    assert cb.tie_error(np.array([[0.25, -0.5], [0.125, 0.0]]), 2.0**-24) == 8 * 2.0**-24 * 0.5
    # per comparison in a group (with BCa or without): its own two systems; with a
    # statistic, its two values
    scores = np.array([[0.5, -4.0, 0.25], [0.0, 1.0, 0.125], [0.25, 2.0, 0.0]])
    group = _group(scores, [(0, 2), (0, 1)], precision=2.0**-24)
    for influence in (True, False):
        out = _reps(group, 20, influence=influence)
        # largest score in size of systems 0 and 2: 0.5; of systems 0 and 1: 4
        np.testing.assert_array_equal(out.tie_error, [8 * 2.0**-24 * 0.5, 8 * 2.0**-24 * 4.0])
        out = _reps(group, 20, influence=influence, statistic=lambda v, axis: np.max(v, axis=axis))
        np.testing.assert_array_equal(out.tie_error, [8 * 2.0**-24 * 0.5, 8 * 2.0**-24 * 2.0])


# -------------------------------------------------------------------------- mirror
def test_negated_replicates_mirror_every_interval_exactly():
    gen = np.random.default_rng(3)
    reps = gen.gamma(0.7, 1.0, size=(5, 999)) + np.array([[0], [1e-3], [1], [1e3], [-7.0]])
    est = np.median(reps, axis=-1) * 1.01
    a = np.array([0.1, -0.05, 0.0, 0.2, 0.01])
    for level in (0.9, 0.95, 0.99):
        low, high = cb.percentile_interval(reps, level)
        mlow, mhigh = cb.percentile_interval(-reps, level)
        np.testing.assert_array_equal(mlow, -high)
        np.testing.assert_array_equal(mhigh, -low)
        np.testing.assert_allclose(high, np.quantile(reps, 1 - (1 - level) / 2, axis=-1),
                                   rtol=1e-14)  # fmt: skip
        low, high = cb.basic_interval(reps, est, level)
        mlow, mhigh = cb.basic_interval(-reps, -est, level)
        np.testing.assert_array_equal((mlow, mhigh), (-high, -low))
        low, high, z0 = cb.bca_interval(reps, est, a, level)
        mlow, mhigh, mz0 = cb.bca_interval(-reps, -est, -a, level)
        np.testing.assert_array_equal((mlow, mhigh, mz0), (-high, -low, -z0))
    np.testing.assert_array_equal(cb.acceleration(-reps), -cb.acceleration(reps))


def test_counts_path_draws_a_comparison_the_same_way_in_both_orientations():
    # 0/1 scores: distinct differences -1, 0, 1 are sorted, so without a canonical
    # orientation (a, b) and (b, a) would draw different counts
    gen = np.random.default_rng(4)
    acc = (gen.random((300, 2)) < [0.6, 0.7]).astype(float)
    for systems in (["x", "y"], ["y", "x"], [2, 1]):
        ab = _reps(_group(acc, systems=systems), 700, resampling="counts").replicates
        ba = _reps(_group(acc, [(1, 0)], systems=systems), 700, resampling="counts")
        np.testing.assert_array_equal(ba.replicates, -ab)
        assert ba.counts_path.all()
    assert cb.canonical_sign("x", "y") == -cb.canonical_sign("y", "x")


def test_standard_error_does_not_depend_on_the_memory_layout():
    gen = np.random.default_rng(12)
    reps = gen.normal(size=(7, 3, 1001))
    se = cb.standard_error(reps)
    for other in (np.asfortranarray(reps), reps.transpose(2, 0, 1).copy().transpose(1, 2, 0)):
        np.testing.assert_array_equal(cb.standard_error(other), se)
    np.testing.assert_array_equal(cb.standard_error(reps[2:3, 1:2]), se[2:3, 1:2])
    # against the textbook formula, in exact rational arithmetic
    from fractions import Fraction

    row = [Fraction(x) for x in reps[0, 0].tolist()]
    mean = sum(row) / len(row)
    var = sum((x - mean) ** 2 for x in row) / (len(row) - 1)
    assert se[0, 0] == pytest.approx(float(var) ** 0.5, rel=1e-13)
