"""The rank-sum core against R (stats, coin), scipy and brute-force enumeration.

Reference values: tests/reference/ranksum/*.csv, written by make_reference.R in the same
folder (R's wilcox.test(x = a, y = b): it reports x - y = a - b, we report b - a).
"""

import csv
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from pairedstats.core import ranksum as core
from pairedstats.core.kernels import ranksum as kernel

from . import ranksum_reference as ref
from .boundscheck import run_with_boundscheck

REF = Path(__file__).parent.parent / "reference" / "ranksum"
# R's alternative about x - y = a - b, ours about b - a
ALT_FROM_R = {"two.sided": "two-sided", "less": "greater", "greater": "less"}


def _read(name):
    with open(REF / name, newline="") as fh:
        return list(csv.DictReader(fh))


DATASETS = {
    row["dataset"]: (np.array(row["a"].split(), float), np.array(row["b"].split(), float))
    for row in _read("datasets.csv")
}
CASES = _read("cases.csv")


def _run(a, b, alternative="two-sided", level=0.95, method="auto", correction=True):
    return core.ranksum_1d(
        a,
        b,
        alternative=alternative,
        confidence_level=level,
        method=method,
        correction=correction,
    )


def _case_id(row):
    kind = "exact" if row["exact"] == "TRUE" else "asym"
    corr = "corr" if row["correct"] == "TRUE" else "nocorr"
    return f"{row['dataset']}-{row['alternative']}-{kind}-{corr}-{row['conf_level']}"


# ------------------------------------------------------------------ R: wilcox.test
@pytest.mark.parametrize("row", CASES, ids=_case_id)
def test_matches_r_wilcox_test(row):
    a, b = DATASETS[row["dataset"]]
    exact = row["exact"] == "TRUE"
    out = _run(
        a,
        b,
        alternative=ALT_FROM_R[row["alternative"]],
        level=float(row["conf_level"]),
        method="exact" if exact else "asymptotic",
        correction=row["correct"] == "TRUE",
    )
    assert out.method == ("exact" if exact else "asymptotic")
    assert out.u_a == float(row["W"])
    np.testing.assert_allclose(out.pvalue, float(row["p_value"]), rtol=1e-10, atol=1e-300)
    # R's interval of a - b, negated and mirrored
    r_low, r_high = -float(row["ci_high"]), -float(row["ci_low"])
    diffs = np.subtract.outer(b, a).ravel()
    for ours, theirs in ((out.ci_low, r_low), (out.ci_high, r_high)):
        if math.isinf(theirs):
            assert ours == theirs
        elif exact:
            assert ours == theirs  # both are the same order statistic
        else:
            # R finds the crossing with uniroot(tol = 1e-4); ours is the difference itself
            assert abs(ours - theirs) <= 1.1e-4
            # ... and it is the difference R's root sits next to (differences of grid data
            # may differ in the last bits: 1.389 and 1.3890000000000002)
            nearest = diffs[np.argmin(np.abs(diffs - theirs))]
            assert abs(ours - nearest) <= 1e-12 * max(1.0, abs(nearest))
    if exact:
        assert out.shift == -float(row["estimate"])
        # R warns only when the miss is > 1.5 alpha; we flag every unreached level
        if row["not_achievable"] == "TRUE":
            assert not out.level_reached
        if out.level_reached:
            assert out.ci_coverage >= float(row["conf_level"])
    else:
        # R's asymptotic estimate is a root of the normal statistic: a middle difference
        d = np.sort(diffs)
        mid_lo, mid_hi = d[(d.size - 1) // 2], d[d.size // 2]
        r_est = -float(row["estimate"])
        assert mid_lo - 1.1e-4 <= r_est <= mid_hi + 1.1e-4
        assert mid_lo <= out.shift <= mid_hi


def test_reference_covers_the_paths():
    kinds = {(r["exact"], r["correct"], r["alternative"]) for r in CASES}
    assert len(kinds) == 9  # exact (correct irrelevant) and asymptotic +- correction, x 3
    tied = [r for r in CASES if r["dataset"].startswith("t")]
    assert len(tied) >= 60
    assert any(r["not_achievable"] == "TRUE" for r in CASES)
    assert len({(r["n_a"], r["n_b"]) for r in CASES}) >= 12


def test_null_pmf_matches_r_dwilcox():
    rows = _read("dwilcox.csv")
    by_size = {}
    for r in rows:
        by_size.setdefault((int(r["m"]), int(r["n"])), []).append(float(r["dwilcox"]))
    for (m, n), expected in by_size.items():
        np.testing.assert_allclose(core.null_pmf_no_ties(m, n), expected, rtol=1e-12, atol=0)
        np.testing.assert_allclose(core.null_pmf_no_ties(n, m), expected, rtol=1e-12, atol=0)


def test_null_pmf_matches_exact_integer_gaussian_binomial():
    # counts of u = coefficients of [m + n choose m]_q, in exact integer arithmetic
    m, n = 40, 35
    c = [1] + [0] * (m * n)
    for i in range(1, m + 1):
        for k in range(i, i * n + 1):  # divide by (1 - q^i)
            c[k] += c[k - i]
        for k in range(i * n, n + i - 1, -1):  # multiply by (1 - q^(n + i))
            c[k] -= c[k - n - i]
    total = math.comb(m + n, m)
    assert sum(c) == total
    expected = np.array([x / total for x in c])
    np.testing.assert_allclose(core.null_pmf_no_ties(m, n), expected, rtol=1e-13, atol=0)


# ------------------------------------------------ exact conditional null with ties
def test_exact_conditional_matches_coin():
    for row in _read("coin.csv"):
        a, b = DATASETS[row["dataset"]]
        out = _run(a, b, alternative=ALT_FROM_R[row["alternative"]], method="exact")
        np.testing.assert_allclose(out.pvalue, float(row["p_value"]), rtol=1e-10)


def test_exact_nulls_in_two_threads_give_the_same_results(monkeypatch):
    # both nulls above the threshold run through run_parts; every number is unchanged
    rng = np.random.default_rng(21)
    a, b = rng.integers(0, 4, 23) * 1.0, rng.integers(0, 4, 31) * 1.0
    sequential = [_run(a, b, alternative=alt, method="exact") for alt in ALT_FROM_R.values()]
    calls, threads = [], core.run_parts

    def recording(parts):
        calls.append(len(parts))
        return threads(parts)

    monkeypatch.setattr(core, "default_workers", lambda workers: 2)
    monkeypatch.setattr(core, "run_parts", recording)
    monkeypatch.setattr(core, "_THREADED_OPS", 0)
    threaded = [_run(a, b, alternative=alt, method="exact") for alt in ALT_FROM_R.values()]
    assert calls == [2, 2, 2]
    assert threaded == sequential


def _enumerate_pvalues(a, b):
    """Brute force: every split of the pooled ranks into sizes n_a, n_b."""
    pooled = np.concatenate([a, b])
    ranks = stats.rankdata(pooled)
    n_a = a.size
    w_obs = ranks[:n_a].sum()
    mu = n_a * (pooled.size + 1) / 2
    splits = itertools.combinations(range(pooled.size), n_a)
    sums = np.array([ranks[list(c)].sum() for c in splits])
    tol = 1e-9
    return {
        "greater": np.mean(sums <= w_obs + tol),
        "less": np.mean(sums >= w_obs - tol),
        "two-sided": np.mean(np.abs(sums - mu) >= abs(w_obs - mu) - tol),
    }


@pytest.mark.parametrize("seed", range(6))
def test_exact_conditional_matches_enumeration(seed):
    rng = np.random.default_rng(seed)
    n_a, n_b = rng.integers(1, 9, size=2)
    levels = rng.integers(2, 6)
    a = rng.integers(0, levels, n_a).astype(float)
    b = rng.integers(0, levels, n_b).astype(float) + rng.integers(0, 2)
    expected = _enumerate_pvalues(a, b)
    for alternative, p in expected.items():
        out = _run(a, b, alternative=alternative, method="exact")
        np.testing.assert_allclose(out.pvalue, p, rtol=1e-12)


def test_no_ties_exact_matches_enumeration_and_subset_recursion():
    rng = np.random.default_rng(11)
    a, b = rng.normal(size=6), rng.normal(size=7) + 0.8
    expected = _enumerate_pvalues(a, b)
    for alternative, p in expected.items():
        out = _run(a, b, alternative=alternative, method="exact")
        assert out.method == "exact"
        np.testing.assert_allclose(out.pvalue, p, rtol=1e-12)
    for m, n in [(1, 1), (3, 8), (9, 4), (15, 22)]:
        values, pmf = core.null_pmf_ties(2 * np.arange(1, m + n + 1), m)
        np.testing.assert_array_equal(values // 2 - m * (m + 1) // 2, np.arange(m * n + 1))
        np.testing.assert_allclose(pmf, core.null_pmf_no_ties(m, n), rtol=1e-12)


def test_null_pmf_large_sizes_match_scipy_exact():
    # scipy's exact Mann-Whitney distribution is computed by a different algorithm
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=120), rng.normal(size=100) + 0.15
    for alternative in ("two-sided", "less", "greater"):
        ours = _run(a, b, alternative=alternative, method="exact").pvalue
        theirs = stats.mannwhitneyu(b, a, alternative=alternative, method="exact").pvalue
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)


# ------------------------------------------------------------- scipy mannwhitneyu
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("correction", [True, False])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_asymptotic_matches_scipy(ties, correction, alternative):
    rng = np.random.default_rng(3)
    for n_a, n_b in [(5, 9), (40, 33), (200, 170)]:
        if ties:
            a, b = rng.integers(0, 6, n_a) * 1.0, rng.integers(0, 7, n_b) * 1.0
        else:
            a, b = rng.normal(size=n_a), rng.normal(size=n_b) + 0.2
        out = _run(a, b, alternative=alternative, method="asymptotic", correction=correction)
        res = stats.mannwhitneyu(
            b, a, alternative=alternative, method="asymptotic", use_continuity=correction
        )
        # scipy's U1 of (b, a) is u_b = n_a n_b - u_a
        assert out.u_a == n_a * n_b - res.statistic
        np.testing.assert_allclose(out.pvalue, res.pvalue, rtol=1e-10)


def test_exact_no_ties_matches_scipy_small():
    rng = np.random.default_rng(8)
    for n_a, n_b in [(1, 1), (1, 6), (7, 3), (12, 20)]:
        a, b = rng.normal(size=n_a), rng.normal(size=n_b) + 0.5
        for alternative in ("two-sided", "less", "greater"):
            out = _run(a, b, alternative=alternative, method="exact")
            res = stats.mannwhitneyu(b, a, alternative=alternative, method="exact")
            np.testing.assert_allclose(out.pvalue, res.pvalue, rtol=1e-12)


# -------------------------------------------------------------- statistics, signs
def test_rank_statistics_and_effect_sizes_by_definition():
    rng = np.random.default_rng(21)
    a = rng.integers(0, 5, 13).astype(float)
    b = rng.integers(1, 6, 17).astype(float)
    out = _run(a, b)
    greater = np.mean(b[:, None] > a[None, :])
    equal = np.mean(b[:, None] == a[None, :])
    np.testing.assert_allclose(out.common_language, greater + equal / 2, rtol=1e-14)
    np.testing.assert_allclose(out.rank_biserial, 2 * (greater + equal / 2) - 1, rtol=1e-14)
    ranks = stats.rankdata(np.concatenate([a, b]))
    assert out.rank_sum_a == ranks[:13].sum()
    assert out.u_a == np.sum(a[:, None] > b[None, :]) + 0.5 * np.sum(a[:, None] == b)
    n = 30
    _, t = np.unique(np.concatenate([a, b]), return_counts=True)
    var = 13 * 17 / 12 * ((n + 1) - np.sum(t**3 - t) / (n * (n - 1)))
    np.testing.assert_allclose(out.null_variance, var, rtol=1e-14)
    assert out.null_mean == 13 * 31 / 2
    np.testing.assert_allclose(out.shift, np.median(np.subtract.outer(b, a)), rtol=0)


def test_signs_and_swap_symmetry():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=25), rng.normal(size=30) + 1.0
    ab = _run(a, b, alternative="greater")
    assert ab.z > 0
    assert ab.shift > 0
    assert ab.pvalue < 0.01
    assert ab.ci_high == math.inf
    ba = _run(b, a, alternative="less")
    np.testing.assert_allclose(ba.pvalue, ab.pvalue, rtol=1e-12)
    assert ba.shift == -ab.shift
    assert ba.ci_high == -ab.ci_low
    two_ab, two_ba = _run(a, b), _run(b, a)
    assert (two_ba.ci_low, two_ba.ci_high) == (-two_ab.ci_high, -two_ab.ci_low)


def test_all_tied():
    out = _run(np.ones(4), np.ones(3))
    assert out.method == "exact-conditional"
    assert out.pvalue == 1.0
    assert out.z == 0.0
    assert out.shift == 0.0
    asym = _run(np.ones(4), np.ones(3), method="asymptotic")
    # every arrangement gives the observed statistic: p = 1 and z = 0 (scipy: p = 1 too)
    assert asym.pvalue == 1.0
    assert asym.z == 0.0
    assert asym.ci_low == asym.ci_high == 0.0
    for alternative in ("less", "greater"):
        one = _run(np.ones(40), np.ones(30), method="asymptotic", alternative=alternative)
        ref = stats.mannwhitneyu(
            np.ones(40), np.ones(30), method="asymptotic", alternative=alternative
        )
        assert one.pvalue == ref.pvalue == 1.0


def test_auto_rule():
    rng = np.random.default_rng(9)
    assert _run(rng.normal(size=85), rng.normal(size=85)).method == "exact"
    assert _run(rng.normal(size=10), rng.normal(size=800)).method == "exact"
    assert _run(rng.normal(size=100), rng.normal(size=100)).method == "asymptotic"
    tied = _run(rng.integers(0, 5, 40) * 1.0, rng.integers(0, 5, 40) * 1.0)
    assert tied.method == "exact-conditional"
    big = _run(rng.integers(0, 5, 150) * 1.0, rng.integers(0, 5, 150) * 1.0)
    assert big.method == "asymptotic"
    ops, _ = core.exact_cost(85, 85, None, False)
    assert ops <= core.AUTO_EXACT_BUDGET < core.exact_cost(100, 100, None, False)[0]


# ------------------------------------------------------- k-th pairwise difference
def _kinds(rng):
    yield rng.normal(size=1100), rng.normal(size=1000) + 0.3  # selection path (> 2**20)
    yield rng.integers(0, 7, 1300) * 1.0, rng.integers(0, 9, 900) * 1.0  # heavy ties
    yield 1e8 + rng.normal(size=1200) * 1e-4, 1e8 + rng.normal(size=1000) * 1e-4  # rounding
    yield np.full(1100, 2.5), np.full(1000, 2.5)  # one value
    yield rng.normal(size=3), rng.normal(size=5)  # small
    yield np.array([7.0]), np.array([-1.0])


def test_kth_difference_is_the_sorted_outer_difference():
    rng = np.random.default_rng(2)
    for a, b in _kinds(rng):
        a, b = np.sort(a), np.sort(b)
        d = np.sort(np.subtract.outer(b, a), axis=None)
        ks = {1, 2, d.size, max(d.size - 1, 1), (d.size + 1) // 2, d.size // 2 + 1}
        ks |= set(rng.integers(1, d.size + 1, size=6).tolist())
        for k in sorted(k for k in ks if k <= d.size):
            assert core.kth_difference(a, b, k) == d[k - 1], k
        assert core.hodges_lehmann(a, b) == np.median(d)


def test_kth_difference_rejects_bad_rank():
    with pytest.raises(ValueError, match=r"`k` must be between 1 and 6; got 7"):
        core.kth_difference(np.arange(2.0), np.arange(3.0), 7)


# ------------------------------------- compiled kernels against the array formulas
def _sorted_outer(a, b):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.sort(np.subtract.outer(b, a), axis=None)


def _samples(rng):
    """Pairs of sorted samples: sizes from 1 to a few hundred, ties, signed zeros, values
    whose differences round or overflow."""
    for n_a, n_b in [(1, 1), (1, 7), (9, 1), (2, 3), (17, 16), (120, 97), (301, 250)]:
        yield rng.normal(size=n_a), rng.normal(size=n_b) + 0.3
        yield rng.integers(0, 4, n_a) * 1.0, rng.integers(0, 5, n_b) * 1.0
    yield np.full(40, 2.5), np.full(33, 2.5)
    zeros = np.array([-0.0, 0.0, 1.0, -1.0])
    yield rng.choice(zeros, 50), rng.choice(zeros, 61)
    yield 1e8 + rng.normal(size=200) * 1e-4, 1e8 + rng.normal(size=150) * 1e-4
    big = np.array([-1.7e308, -1e300, -1.0, 0.0, 1e-300, 1e300, 1.7e308])
    yield rng.choice(big, 30), rng.choice(big, 41)  # differences overflow to +-inf
    yield rng.normal(size=400) * 1e-9, rng.standard_cauchy(size=350)


@pytest.fixture(params=["numpy", "compiled"])
def road(request, monkeypatch):
    """Both roads of the selection and the midranks: numpy (small samples) and the kernels."""
    monkeypatch.setattr(core, "SMALL", 1 << 40 if request.param == "numpy" else 0)
    return request.param


def test_order_differences_are_the_sorted_outer_difference_at_every_rank(road):
    rng = np.random.default_rng(12)
    for a, b in _samples(rng):
        a, b = np.sort(a), np.sort(b)
        d = _sorted_outer(a, b)
        ks = np.arange(1, d.size + 1) if d.size <= 5000 else rng.integers(1, d.size + 1, 400)
        got = core.order_differences(a, b, rng.permutation(ks))
        np.testing.assert_array_equal(np.sort(got), np.sort(d[ks - 1]))
        one_call = core.order_differences(a, b, ks)
        assert (one_call == d[ks - 1]).all()
        assert not np.signbit(one_call[one_call == 0]).any()  # zero is 0.0 on both roads


@pytest.mark.parametrize(("limit", "size"), [(1, 2), (3, 16), (50, 64), (1000, 128)])
def test_selection_rounds_give_the_same_numbers(limit, size):
    # tiny direct-selection limits and samples: many rounds, pivots on ties and on the
    # extremes; the answer never depends on them
    rng = np.random.default_rng(limit)
    for a, b in _samples(rng):
        a, b = np.sort(a), np.sort(b)
        d = _sorted_outer(a, b)
        ks = np.unique(np.concatenate([[1, 2, d.size], rng.integers(1, d.size + 1, 12)]))
        ks = ks[ks <= d.size]
        out = np.empty(ks.size)
        c = np.ascontiguousarray(-a[::-1])
        with np.errstate(over="ignore", invalid="ignore"):
            kernel.select_differences(b, c, ks, out, limit, size)
        assert (out == d[ks - 1]).all()


def test_hodges_lehmann_and_whole_test_ends_are_outer_difference_order_statistics(road):
    rng = np.random.default_rng(13)
    for a, b in _samples(rng):
        if not np.isfinite(_sorted_outer(a, b)).all():
            continue
        d = _sorted_outer(a, b)
        assert core.hodges_lehmann(np.sort(a), np.sort(b)) == np.median(d)
        for method in ("asymptotic", "auto"):
            out = _run(a, b, method=method)
            assert out.shift == np.median(d)
            for end in (out.ci_low, out.ci_high):
                assert math.isnan(end) or end in d


def test_rank_statistics_equal_the_array_formulas(road):
    rng = np.random.default_rng(14)
    for a, b in _samples(rng):
        expected = ref.rank_statistics(a, b)
        for presorted in (False, True):
            x, y = (np.sort(a), np.sort(b)) if presorted else (a, b)
            want = ref.rank_statistics(x, y) if presorted else expected
            got = vars(core.rank_statistics(x, y, presorted=presorted))
            assert got.keys() == want.keys()
            np.testing.assert_array_equal(got["doubled"], want["doubled"])
            for key in want.keys() - {"doubled"}:
                assert got[key] == want[key], key
    # large tie groups: t^3 exceeds 2^53 and the float sum rounds, in the same order
    a = np.repeat([0.0, 1.0, 2.0], 300_000)
    b = np.repeat([1.0, 3.0], 250_000)
    got, want = core.rank_statistics(a, b), ref.rank_statistics(a, b)
    assert (got.ties, got.ties_within) == (want["ties"], want["ties_within"])


def _tied_doubled(rng, n_a, n_b, levels):
    pooled = np.concatenate([rng.integers(0, levels, n_a), rng.integers(0, levels, n_b)])
    return ref.doubled_midranks(pooled * 1.0)


def test_tied_null_equals_the_array_recursion():
    rng = np.random.default_rng(15)
    for n_a, n_b, levels in [(1, 1, 2), (3, 8, 2), (20, 13, 3), (37, 41, 6), (60, 45, 50)]:
        doubled = _tied_doubled(rng, n_a, n_b, levels)
        for k in (1, n_a, n_b, n_a + n_b):
            v_ref, p_ref = ref.null_pmf_ties(doubled, k)
            v, p = core.null_pmf_ties(doubled, k)
            np.testing.assert_array_equal(v, v_ref)
            np.testing.assert_array_equal(p, p_ref)  # the same floats, not close ones


@pytest.mark.parametrize("cells", [1, 40, 700, 3000, 20000, 1 << 30])
def test_wavefront_steps_do_not_change_a_float(cells):
    # from one step at a time (1 cell of cache) to all steps in one wavefront; the tied
    # null in (steps, tile width, tiles): (1, 1, 1827), (1, 20, 92), (2, 148, 13),
    # (4, 345, 6), (10, 1053, 2), (16, all, 1)
    rng = np.random.default_rng(16)
    doubled = _tied_doubled(rng, 25, 31, 5)
    r = np.sort(doubled)
    s = r - r[0]
    s = s // np.gcd.reduce(s)
    top = int(s[-25:].sum())
    expected = ref.null_pmf_ties(doubled, 25)[1]
    got = kernel.subset_sum_band(s, 25, top, cells)
    lo = np.nonzero(got > 0)[0][0]
    np.testing.assert_array_equal(got[lo : lo + expected.size], expected)
    for big, m in [(1, 1), (9, 4), (30, 22)]:
        want = ref.null_pmf_no_ties(big, m)
        np.testing.assert_array_equal(kernel.no_ties_pmf(big, m, cells), want)


@settings(max_examples=40, deadline=None)
@given(
    n_a=st.integers(1, 30),
    n_b=st.integers(1, 30),
    levels=st.integers(2, 12),
    cells=st.integers(1, 5000),
    seed=st.integers(0, 2**32 - 1),
)
def test_tiles_of_any_size_do_not_change_a_float(n_a, n_b, levels, cells, seed):
    doubled = _tied_doubled(np.random.default_rng(seed), n_a, n_b, levels)
    r = np.sort(doubled)
    s = r - r[0]
    s = s // (np.gcd.reduce(s) if s.any() else 1)
    k = min(n_a, n_b)
    top = int(s[s.size - k :].sum())
    expected = ref.null_pmf_ties(doubled, k)[1]
    got = kernel.subset_sum_band(s, k, top, cells)
    lo = np.nonzero(got > 0)[0][0]
    np.testing.assert_array_equal(got[lo : lo + expected.size], expected)
    assert got[:lo].sum() == got[lo + expected.size :].sum() == 0


def test_no_ties_null_equals_the_array_recursion():
    for n_a, n_b in [(1, 1), (1, 9), (8, 3), (31, 40), (70, 66)]:
        np.testing.assert_array_equal(
            core.null_pmf_no_ties(n_a, n_b), ref.null_pmf_no_ties(n_a, n_b)
        )


BOUNDSCHECK = """
import numpy as np
from pairedstats.core import ranksum as core
core.SMALL = 0  # the kernels, not numpy
from tests.core import ranksum_reference as ref
gen = np.random.default_rng(0)
for n_a, n_b in [(1, 1), (5, 3), (40, 70)]:
    for a, b in [(gen.normal(size=n_a), gen.normal(size=n_b)),
                 (gen.integers(0, 3, n_a) * 1.0, gen.integers(0, 3, n_b) * 1.0)]:
        a, b = np.sort(a), np.sort(b)
        d = np.sort(np.subtract.outer(b, a), axis=None)
        assert (core.order_differences(a, b, np.arange(1, d.size + 1)) == d).all()
        st, want = core.rank_statistics(a, b), ref.rank_statistics(a, b)
        assert (st.doubled == want["doubled"]).all() and st.ties == want["ties"]
        for k in {1, n_a, n_a + n_b}:
            assert (core.null_pmf_ties(st.doubled, k)[1]
                    == ref.null_pmf_ties(st.doubled, k)[1]).all()
        assert (core.null_pmf_no_ties(n_a, n_b) == ref.null_pmf_no_ties(n_a, n_b)).all()
print("ok")
"""


@pytest.mark.slow
def test_kernels_with_bounds_checking():
    # a fresh process with NUMBA_BOUNDSCHECK=1 and its own cache: an index out of bounds
    # anywhere in the rank-sum kernels raises IndexError instead of reading memory
    run_with_boundscheck(BOUNDSCHECK)


def test_nan_is_refused_by_the_merge():
    with pytest.raises(ValueError, match="must not hold NaN"):
        core.rank_statistics(np.array([1.0, np.nan]), np.array([2.0]))
